package cli

import (
	"context"
	"io"

	"github.com/nl2sqlgo/nl2sql"
)

// repairJSON is the public shape of a repair line. nl2sql.RepairResult
// holds the same, but its failure sits in the object (sqlstate, message,
// omitted when empty) rather than in an "error" object, and it omits empty
// rules.
type repairJSON struct {
	SQLIn    string   `json:"sql_in"`
	SQLOut   string   `json:"sql_out"`
	Changed  bool     `json:"changed"`
	Executes bool     `json:"executes"`
	Rules    []string `json:"rules"`
	// Error is why the query does not execute; nil when it does.
	Error *repairError `json:"error,omitempty"`
	// Candidates are what a failing name may stand for, when repair
	// declined to guess.
	Candidates []string `json:"candidates,omitempty"`
}

// repairError is an error object (code, class, message) with the SQLSTATE
// (or validator code) of the failure; code is the same.
type repairError struct {
	errorJSON
	SQLState string `json:"sqlstate"`
}

func newRepairJSON(r *nl2sql.RepairResult) *repairJSON {
	out := &repairJSON{SQLIn: r.SQLIn, SQLOut: r.SQLOut, Changed: r.Changed, Executes: r.Executes, Rules: r.Rules, Candidates: r.Candidates}
	if !r.Executes {
		out.Error = &repairError{errorJSON{Code: r.SQLState, Class: nl2sql.ClassExecution, Message: r.Message}, r.SQLState}
	}
	return out
}

// failed makes a batch line of a query that still fails count as failed.
func (r *repairJSON) failed() bool { return r != nil && !r.Executes }

func runRepair(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s := newSub("repair", "usage: nl2sql repair [flags] SQL|-\n\nDeterministic repair only (no model): dialect normalization and SQLSTATE-keyed fixes, then a one-row run.\nPrints {\"sql_in\",\"sql_out\",\"changed\",\"executes\",\"rules\",\"error\":{\"sqlstate\",\"message\"}}.", stdout, stderr)
	s.batchFlag(`batch mode: read {"id","sql","scope"} lines from FILE (- for stdin)`)
	in, eng, err := s.start(ctx, args, sqlInput)
	if err != nil {
		return err
	}
	defer s.close()
	// A query that still fails carries executes=false and its error; a
	// batch then exits 1, like a single failing query.
	return serve(ctx, s, in, func(ctx context.Context, in batchInput) (*repairJSON, error) {
		r, err := eng.Repair(ctx, in.SQL, askOpts("", in.Scope)...)
		if err != nil {
			return nil, err
		}
		return newRepairJSON(r), nil
	}, func(out *repairJSON, err error) error {
		if err != nil {
			return failed(err)
		}
		return s.printJSON(out, !out.Executes)
	})
}

// pickJSON is the public shape of a pick line: nl2sql.PickResult without
// the candidates' trace.
type pickJSON struct {
	Chosen int        `json:"chosen"`
	SQL    string     `json:"sql"`
	Scores []*float64 `json:"scores"`
	// Confidence is the calibrated probability that the chosen SQL answers
	// the question; Status is answered, uncertain or abstained by it;
	// Reasons say why it may not (see nl2sql.PickResult).
	Confidence   float64              `json:"confidence"`
	Status       nl2sql.Verdict       `json:"status,omitempty"`
	Reasons      []string             `json:"reasons,omitempty"`
	Alternatives []nl2sql.Alternative `json:"alternatives,omitempty"`
	Clarify      string               `json:"clarify,omitempty"`
}

func runPick(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s := newSub("pick", "usage: nl2sql pick --jsonl FILE [flags]\n\nScores SQL candidates written by any system for a question (no model) and picks one.\nWrites {\"id\",\"chosen\":index,\"sql\":\"<final>\",\"scores\":[...],\"confidence\",\"status\",\"reasons\":[...]} per line.", stdout, stderr)
	s.calibratorFlag()
	s.batchFlag(`read {"id","question","evidence","scope","candidates":["SQL",...]} lines from FILE (- for stdin)`)
	if _, err := s.parse(args); err != nil {
		return err
	}
	if s.jsonl == "" {
		return usageErr("pick needs --jsonl FILE (- for stdin)")
	}
	eng, err := s.open(ctx, nil)
	if err != nil {
		return err
	}
	defer s.close()
	return s.batch(ctx, func(ctx context.Context, in batchInput) (any, error) {
		if len(in.Candidates) == 0 {
			return nil, usageErr("no candidates")
		}
		r, err := eng.Pick(ctx, in.Question, in.Candidates, askOpts(in.Evidence, in.Scope)...)
		if r == nil {
			return nil, err
		}
		return &pickJSON{Chosen: r.Chosen, SQL: r.SQL, Scores: r.Scores, Confidence: r.Confidence, Status: r.Verdict,
			Reasons: r.Reasons, Alternatives: r.Alternatives, Clarify: r.Clarify}, err
	})
}
