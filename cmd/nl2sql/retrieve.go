package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// retrieveTable is one table of the retrieve JSON.
type retrieveTable struct {
	Name    string   `json:"name"`
	Score   float64  `json:"score"`
	Reasons []string `json:"reasons"`
}

type retrieveJoin struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// contextJSON is the public JSON shape of a schema context:
// {"tables":[{"name","score","reasons"}],"columns":["schema.table.column"],
// "joins":[{"from","to"}],"prompt_chars":N,"match":"none|weak|strong",
// "known":0..1}.
func contextJSON(cx *nl2sql.SchemaContext) map[string]any {
	tables := make([]retrieveTable, 0, len(cx.Tables))
	for _, t := range cx.Tables {
		tables = append(tables, retrieveTable{Name: t.Name, Score: t.Score, Reasons: t.Reasons})
	}
	cols := []string{}
	seen := map[string]bool{}
	for _, c := range cx.Links.Columns {
		k := c.Table + "." + c.Column
		if !seen[k] {
			seen[k] = true
			cols = append(cols, k)
		}
	}
	joins := make([]retrieveJoin, 0, len(cx.Joins))
	for _, j := range cx.Joins {
		joins = append(joins, retrieveJoin{From: j.From, To: j.To})
	}
	return map[string]any{"tables": tables, "columns": cols, "joins": joins,
		"prompt_chars": len(cx.Prompt.System) + len(cx.Prompt.User),
		"match":        cx.Match, "known": math.Round(cx.Known*100) / 100}
}

func runRetrieve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("retrieve", stderr)
	var c commonFlags
	c.register(fs)
	evidence := fs.String("evidence", "", "hint text for the question")
	jsonl := fs.String("jsonl", "", "batch mode: read {\"id\",\"question\",\"evidence\",\"scope\"} lines from FILE (- for stdin)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: nl2sql retrieve [flags] QUESTION\n\nPrints the schema context of a question: tables with scores and reasons, linked columns, joins.")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	question, err := questionArg(pos, *jsonl, "retrieve")
	if err != nil {
		return err
	}
	eng, pool, err := openEngine(ctx, &c, nil, stderr)
	if err != nil {
		return err
	}
	defer pool.Close()
	one := func(ctx context.Context, q, ev, scope string) (map[string]any, error) {
		cx, err := eng.SchemaContext(ctx, q, askOpts(ev, scope)...)
		if err != nil {
			return nil, err
		}
		return contextJSON(cx), nil
	}
	if *jsonl != "" {
		return runBatch(ctx, *jsonl, os.Stdin, stdout, func(ctx context.Context, in batchInput) (map[string]any, error) {
			return one(ctx, in.Question, in.Evidence, in.Scope)
		})
	}
	out, err := one(ctx, question, *evidence, c.scope)
	if err != nil {
		return failed(err)
	}
	// Nothing of the schema matches: say so, and exit 1 (a negative answer).
	var none error
	if out["match"] == retrieve.MatchNone {
		none = &exitError{code: 1, err: errors.New("no table of the schema matches the question")}
	}
	if c.json {
		if err := writeJSON(stdout, out); err != nil {
			return err
		}
		return none
	}
	if none != nil {
		return none
	}
	for _, t := range out["tables"].([]retrieveTable) {
		fmt.Fprintf(stdout, "%-40s %.4f  %s\n", t.Name, t.Score, strings.Join(t.Reasons, ","))
	}
	if cols := out["columns"].([]string); len(cols) > 0 {
		fmt.Fprintln(stdout, "\ncolumns: "+strings.Join(cols, ", "))
	}
	for _, j := range out["joins"].([]retrieveJoin) {
		fmt.Fprintf(stdout, "join: %s = %s\n", j.From, j.To)
	}
	return nil
}
