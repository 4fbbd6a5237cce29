package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/nl2sqlgo/nl2sql"
)

// repairJSON is the public shape of a repair line:
// {"id","sql_in","sql_out","changed","executes","rules","error":{"sqlstate","message"},
// "candidates"} (candidates: what a failing name may stand for, when repair
// declined to guess).
func repairJSON(r *nl2sql.RepairResult) map[string]any {
	m := map[string]any{"sql_in": r.SQLIn, "sql_out": r.SQLOut, "changed": r.Changed, "executes": r.Executes, "rules": r.Rules}
	if !r.Executes {
		m["error"] = map[string]any{"sqlstate": r.SQLState, "message": r.Message}
	}
	if len(r.Candidates) > 0 {
		m["candidates"] = r.Candidates
	}
	return m
}

func runRepair(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("repair", stderr)
	var c commonFlags
	c.register(fs)
	jsonl := fs.String("jsonl", "", "batch mode: read {\"id\",\"sql\",\"scope\"} lines from FILE (- for stdin)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: nl2sql repair [flags] SQL|-\n\nDeterministic repair only (no model): dialect normalization and SQLSTATE-keyed fixes, then a one-row run.\nPrints {\"sql_in\",\"sql_out\",\"changed\",\"executes\",\"rules\",\"error\":{\"sqlstate\",\"message\"}}.")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	sql, err := sqlArg(pos, *jsonl, "repair")
	if err != nil {
		return err
	}
	eng, pool, err := openEngine(ctx, &c, nil, stderr)
	if err != nil {
		return err
	}
	defer pool.Close()
	one := func(ctx context.Context, sql, scope string) (map[string]any, error) {
		r, err := eng.Repair(ctx, sql, askOpts("", scope)...)
		if err != nil {
			return nil, err
		}
		return repairJSON(r), nil
	}
	if *jsonl != "" {
		// A query that still fails carries executes=false and its error; the
		// batch then exits 1, like a single failing query.
		return runBatch(ctx, *jsonl, os.Stdin, stdout, func(ctx context.Context, in batchInput) (map[string]any, error) {
			return one(ctx, in.SQL, in.Scope)
		})
	}
	m, err := one(ctx, sql, c.scope)
	if err != nil {
		return failed(err)
	}
	if err := writeJSON(stdout, m); err != nil {
		return err
	}
	if !m["executes"].(bool) {
		return &exitError{code: 1}
	}
	return nil
}

func runPick(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("pick", stderr)
	var c commonFlags
	c.register(fs)
	jsonl := fs.String("jsonl", "", "read {\"id\",\"question\",\"evidence\",\"scope\",\"candidates\":[\"SQL\",...]} lines from FILE (- for stdin)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: nl2sql pick --jsonl FILE [flags]\n\nScores SQL candidates written by any system for a question (no model) and picks one.\nWrites {\"id\",\"chosen\":index,\"sql\":\"<final>\",\"scores\":[...]} per line.")
		fs.PrintDefaults()
	}
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *jsonl == "" {
		return usageErr("pick needs --jsonl FILE (- for stdin)")
	}
	eng, pool, err := openEngine(ctx, &c, nil, stderr)
	if err != nil {
		return err
	}
	defer pool.Close()
	return runBatch(ctx, *jsonl, os.Stdin, stdout, func(ctx context.Context, in batchInput) (map[string]any, error) {
		if len(in.Candidates) == 0 {
			return nil, usageErr("no candidates")
		}
		r, err := eng.Pick(ctx, in.Question, in.Candidates, askOpts(in.Evidence, in.Scope)...)
		if r == nil {
			return nil, err
		}
		return map[string]any{"chosen": r.Chosen, "sql": r.SQL, "scores": r.Scores}, err
	})
}
