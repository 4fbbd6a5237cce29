package nl2sql

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/describe"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// Result is the answer to a question and the trace of how it was found.
type Result struct {
	Question string `json:"question"`
	SQL      string `json:"sql"`
	// Description says in plain English what SQL returns (describe.SQL:
	// from its parse tree, never from a model), so the answer can be
	// checked without reading SQL.
	Description string   `json:"description,omitempty"`
	Columns     []Column `json:"columns"`
	Rows        [][]any  `json:"rows"`
	Truncated   bool     `json:"truncated"`
	// TruncatedBy says which cap cut the result: "row_cap" (RowCap rows
	// were read and there were more) or "byte_cap" (the values reached the
	// executor's byte cap first; fewer than RowCap rows were read).
	TruncatedBy execute.Cap `json:"truncated_by,omitempty"`
	// RowCap is the row cap the query ran with: at most RowCap rows are
	// returned, and Truncated says the result had more. SQL never carries
	// it: it is the query as written plus its fixes.
	RowCap int `json:"row_cap"`
	// Notes say what the engine changed about the request or the result in
	// words: a MaxRows over the engine's cap, the cap that cut the rows.
	Notes []string `json:"notes,omitempty"`
	// Confidence is the probability that the answer is right: the
	// engine's confidence.Calibrator (WithCalibrator) applied to Signals. On
	// spider-pools, cross-validated by database, answers given 0.9 or more
	// are right 94.6% of the time (docs/benchmarks.md).
	Confidence float64 `json:"confidence"`
	// Assessment is what the engine makes of the answer by its
	// confidence: verdict, reasons, alternatives (fields flattened into
	// the JSON).
	Assessment
	// Origin is OriginVerified when a verified question of the semantic
	// model (WithSemantic) or a learnt template answered, without the
	// model: Verified says which, with the values bound; empty otherwise.
	Origin     Origin      `json:"origin,omitempty"`
	Verified   *Verified   `json:"verified,omitempty"`
	Attempts   int         `json:"attempts"` // model calls: samples (backward recall's too) plus repair turns
	Tables     []string    `json:"tables"`   // relations the final SQL reads
	Context    []string    `json:"context"`  // tables shown to the model
	Candidates []Candidate `json:"candidates"`
	Timings    Timings     `json:"timings"`
	Error      *ErrorInfo  `json:"error,omitempty"`
}

// Column is a result column.
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"` // pg_type.typname
}

// Candidate is one query considered for the answer.
type Candidate struct {
	SQL     string   `json:"sql"`
	Origin  Origin   `json:"origin"`
	Votes   int      `json:"votes"`
	Status  Status   `json:"status"`
	Score   float64  `json:"score"`
	Code    string   `json:"code,omitempty"` // SQLSTATE or validator code of its failure
	Error   string   `json:"error,omitempty"`
	Repairs []string `json:"repairs,omitempty"` // rules applied, in order
	Chosen  bool     `json:"chosen,omitempty"`
}

// Origin says where a candidate came from.
type Origin string

// Candidate origins.
const (
	OriginSample       Origin = "sample"        // sampled from the model
	OriginBackward     Origin = "backward"      // sampled again after backward recall
	OriginRepairPrompt Origin = "repair_prompt" // written by the model in a repair turn
	OriginInput        Origin = "input"         // given by the caller (Repair, Pick)
	OriginVerified     Origin = "verified"      // a verified question's SQL, without the model
)

// Status is what checking a candidate found.
type Status string

// Candidate statuses.
const (
	StatusOK       Status = "ok"       // validated and planned by the server
	StatusRejected Status = "rejected" // refused by the validator
	StatusFailed   Status = "failed"   // the server's EXPLAIN failed (SQLSTATE in Code)
)

// ErrorInfo is the JSON shape of a failure.
type ErrorInfo struct {
	Code    string `json:"code"`
	Class   Class  `json:"class"`
	Message string `json:"message"`
}

// describe fills Description from d, SQL's description when the caller
// has it (nil: SQL is described here); a query it cannot read is left
// undescribed (the description is a help, not a gate).
func (r *Result) describe(d *describe.Description) {
	if d == nil {
		d, _ = describe.SQL(r.SQL)
	}
	if d != nil {
		r.Description = d.Text
	}
}

// setRows fills the result's columns and rows from what the executor read,
// with notes on the caps: the request's row cap, and the rows it asked for.
// d is SQL's description when the caller has it (nil: described here).
func (r *Result) setRows(er *execute.Result, d *describe.Description, maxRows, askedRows int) {
	r.describe(d)
	r.RowCap = maxRows
	for _, col := range er.Columns {
		r.Columns = append(r.Columns, Column{Name: col.Name, Type: col.Type})
	}
	r.Rows, r.Truncated, r.TruncatedBy = er.Rows, er.Truncated, er.TruncatedBy
	if askedRows > maxRows {
		r.Notes = append(r.Notes, fmt.Sprintf("%d rows were asked for; the engine's row cap is %d, so at most %d are returned", askedRows, maxRows, maxRows))
	}
	if er.Truncated {
		r.Notes = append(r.Notes, "truncated: "+er.TruncateReason)
	}
}

// fail records err in the result's JSON shape and returns it as an *Error
// (an untyped error becomes an execution error) with its Code filled.
func (r *Result) fail(err error) error {
	var ne *Error
	if !errors.As(err, &ne) {
		ne = &Error{Class: ClassExecution, Message: "unexpected failure", Err: err}
		err = ne
	}
	ne.fillCode()
	r.Error = &ErrorInfo{Code: ne.Code, Class: ne.Class, Message: ne.Error()}
	return err
}

// Timings are per-stage wall times; JSON renders them in milliseconds.
type Timings map[string]time.Duration

// MarshalJSON renders durations as milliseconds.
func (t Timings) MarshalJSON() ([]byte, error) {
	m := make(map[string]float64, len(t))
	for k, d := range t {
		m[k] = float64(d.Microseconds()) / 1000
	}
	return json.Marshal(m)
}

// Verified says which verified question answered a question, and with
// which values: set when Result.Origin is OriginVerified.
type Verified struct {
	// Question and SQL are the template's, slots and all.
	Question string `json:"question"`
	SQL      string `json:"sql"`
	// Source is where the template is defined: "file:line" of the
	// semantic model, or the ID of the learnt example.
	Source   string    `json:"source,omitempty"`
	Bindings []Binding `json:"bindings,omitempty"`
}

// Binding is the value a slot of a verified question took: as text, in
// the form of semantic.Parameter.Examples; sent as a query parameter.
type Binding struct {
	Name   string             `json:"name"`
	Kind   semantic.ParamKind `json:"kind"`
	Column string             `json:"column,omitempty"`
	Value  string             `json:"value"`
}

// Verdict says what the engine makes of its answer, from its calibrated
// confidence (Result.Confidence): answer, answer with a caveat, or refuse.
// In JSON it is the "status" of a Result or a pick (Candidate.Status is
// another thing: what checking one candidate found).
type Verdict string

// Verdicts.
const (
	// VerdictAnswered: the confidence is at least the uncertain threshold
	// (WithUncertainBelow, default DefaultUncertainBelow).
	VerdictAnswered Verdict = "answered"
	// VerdictUncertain: the query ran, but its confidence is below the
	// uncertain threshold: show the answer with its Reasons and
	// Alternatives, as a guess.
	VerdictUncertain Verdict = "uncertain"
	// VerdictAbstained: the confidence is below the minimum
	// (WithMinConfidence); Ask did not run the query and returned
	// ErrLowConfidence with the Result's Reasons and Alternatives.
	VerdictAbstained Verdict = "abstained"
)

// Alternative is another answer the candidates gave, when they disagree:
// shown beside the chosen one so that a user can say which they meant.
type Alternative struct {
	SQL         string   `json:"sql"`
	Description string   `json:"description,omitempty"`
	Columns     []Column `json:"columns,omitempty"`
	// Rows are its first rows (at most alternativeRows), when it was run
	// to compare results.
	Rows [][]any `json:"rows,omitempty"`
	// Support is the share of the candidates' votes that gave this answer.
	Support float64 `json:"support"`
}

// Assessment is what the engine makes of its chosen answer beside its
// Confidence, in Result and PickResult.
type Assessment struct {
	// Verdict is what the engine makes of the answer by its Confidence:
	// answered, uncertain (below WithUncertainBelow: show it as a guess)
	// or abstained (below WithMinConfidence: Ask did not run the query).
	// JSON calls it "status"; empty when no query was chosen.
	Verdict Verdict `json:"status,omitempty"`
	// Reasons say in words why the answer may be wrong ("the question
	// asks for 5 rows; the query returns one count", "the query computes
	// revenue without its filter status <> 'Cancelled'"); empty when
	// nothing is in doubt.
	Reasons []string `json:"reasons,omitempty"`
	// Alternatives are the strongest other answers the candidates gave,
	// for an uncertain or abstained answer whose candidates disagree;
	// Clarify is the question that tells the chosen answer from the first
	// alternative ("By order date or by ship date?").
	Alternatives []Alternative `json:"alternatives,omitempty"`
	Clarify      string        `json:"clarify,omitempty"`
	// Signals are the evidence the confidence was computed from; nil when
	// no query was chosen.
	Signals *confidence.Signals `json:"signals,omitempty"`
}
