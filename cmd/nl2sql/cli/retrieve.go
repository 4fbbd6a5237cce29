package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// contextJSON is the public JSON shape of a schema context (retrieve, and
// ask --dry-run).
type contextJSON struct {
	Tables      []retrieveTable `json:"tables"`
	Columns     []string        `json:"columns"` // schema.table.column
	Joins       []retrieveJoin  `json:"joins"`
	PromptChars int             `json:"prompt_chars"`
	Match       retrieve.Match  `json:"match"` // none, weak or strong
	Known       float64         `json:"known"` // 0..1, two decimals

	cx *nl2sql.SchemaContext // for the text forms
}

// retrieveTable is one table of the context JSON: retrieve.TableHit
// without its "via".
type retrieveTable struct {
	Name    string   `json:"name"`
	Score   float64  `json:"score"`
	Reasons []string `json:"reasons"`
}

// retrieveJoin is one join of the context JSON (plan.JoinEdge has no JSON
// names).
type retrieveJoin struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func newContextJSON(cx *nl2sql.SchemaContext) *contextJSON {
	out := &contextJSON{Tables: make([]retrieveTable, 0, len(cx.Tables)), Columns: []string{},
		Joins: make([]retrieveJoin, 0, len(cx.Joins)), PromptChars: len(cx.Prompt.System) + len(cx.Prompt.User),
		Match: cx.Match, Known: math.Round(cx.Known*100) / 100, cx: cx}
	for _, t := range cx.Tables {
		out.Tables = append(out.Tables, retrieveTable{Name: t.Name, Score: t.Score, Reasons: t.Reasons})
	}
	seen := map[string]bool{}
	for _, c := range cx.Links.Columns {
		k := c.Table + "." + c.Column
		if !seen[k] {
			seen[k] = true
			out.Columns = append(out.Columns, k)
		}
	}
	for _, j := range cx.Joins {
		out.Joins = append(out.Joins, retrieveJoin{From: j.From, To: j.To})
	}
	return out
}

// schemaContext is the context JSON of one input of command s.
func schemaContext(ctx context.Context, eng *nl2sql.Engine, in batchInput, s *sub) (*contextJSON, error) {
	cx, err := eng.SchemaContext(ctx, in.Question, append(s.askOpts(in.Evidence, in.Scope), history(in.Previous)...)...)
	if err != nil {
		return nil, err
	}
	return newContextJSON(cx), nil
}

func tableNames(cx *nl2sql.SchemaContext) []string {
	out := make([]string, len(cx.Tables))
	for i, t := range cx.Tables {
		out[i] = t.Name
	}
	return out
}

func runRetrieve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s := newSub("retrieve", "usage: nl2sql retrieve [flags] QUESTION\n\nPrints the schema context of a question: tables with scores and reasons, linked columns, joins.", stdout, stderr)
	s.evidenceFlag("hint text for the question")
	s.workloadFlag()
	s.identityFlags()
	s.batchFlag(`batch mode: read {"id","question","evidence","scope"} lines from FILE (- for stdin)`)
	in, eng, err := s.start(ctx, args, questionInput)
	if err != nil {
		return err
	}
	defer s.close()
	return serve(ctx, s, in, func(ctx context.Context, in batchInput) (*contextJSON, error) {
		return schemaContext(ctx, eng, in, s)
	}, func(out *contextJSON, err error) error {
		if err != nil {
			return failed(err)
		}
		// Nothing of the schema matches: say so, and exit 1 (a negative answer).
		var none error
		if out.Match == retrieve.MatchNone {
			none = &exitError{code: 1, err: errors.New("no table of the schema matches the question")}
		}
		if s.json {
			if err := writeJSON(stdout, out); err != nil {
				return err
			}
			return none
		}
		if none != nil {
			return none
		}
		for _, t := range out.Tables {
			fmt.Fprintf(stdout, "%-40s %.4f  %s\n", t.Name, t.Score, strings.Join(t.Reasons, ","))
		}
		if len(out.Columns) > 0 {
			fmt.Fprintln(stdout, "\ncolumns: "+strings.Join(out.Columns, ", "))
		}
		for _, j := range out.Joins {
			fmt.Fprintf(stdout, "join: %s = %s\n", j.From, j.To)
		}
		return nil
	})
}
