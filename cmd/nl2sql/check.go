package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// checkIssue is one issue of the check JSON.
type checkIssue struct {
	Code     string `json:"code"`
	Severity string `json:"severity"` // "error", "warning", "info"
	Message  string `json:"message"`
	Position int    `json:"position"` // byte offset in the input SQL (rewritten SQL for EXPLAIN errors); -1 for the whole statement
}

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("check", stderr)
	var c commonFlags
	c.register(fs)
	jsonl := fs.String("jsonl", "", "batch mode: read {\"id\",\"sql\",\"scope\"} lines from FILE (- for stdin)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: nl2sql check [flags] SQL|-\n\nValidates SQL (one read-only SELECT, allowed tables and functions, lint); with a database (--dsn or $NL2SQL_DSN / $DATABASE_URL) the tables are the catalog's and the query is EXPLAINed too.\nPrints {\"ok\":bool,\"sql\":\"<rewritten>\",\"issues\":[{\"code\",\"severity\",\"message\",\"position\"}]}.")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	sql, err := sqlArg(pos, *jsonl, "check")
	if err != nil {
		return err
	}
	var pool *pgxpool.Pool
	var tables []validate.Table
	if _, derr := c.resolveDSN(); derr == nil {
		if pool, err = c.connect(ctx); err != nil {
			return err
		}
		defer pool.Close()
		cat, err := schema.Introspect(ctx, pool)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		for _, t := range cat.Tables {
			tables = append(tables, validate.Table{Schema: t.Schema, Name: t.Name, Columns: t.ColumnNames()})
		}
	}
	validators := map[string]*validate.Validator{}
	one := func(ctx context.Context, sql, scope string) map[string]any {
		v := validators[scope]
		if v == nil {
			opts := []validate.Option{validate.WithSearchPath(searchPath(scope)...)}
			if tables != nil {
				opts = append(opts, validate.WithTables(tables...))
			}
			v = validate.New(opts...)
			validators[scope] = v
		}
		return checkOne(ctx, v, pool, sql)
	}
	if *jsonl != "" {
		return runBatch(ctx, *jsonl, os.Stdin, stdout, func(ctx context.Context, in batchInput) (map[string]any, error) {
			return one(ctx, in.SQL, in.Scope), nil
		})
	}
	out := one(ctx, sql, c.scope)
	if err := writeJSON(stdout, out); err != nil {
		return err
	}
	if !out["ok"].(bool) {
		return &exitError{code: 1}
	}
	return nil
}

// searchPath is the search path a scope implies.
func searchPath(scope string) []string {
	if scope == "" || scope == "public" {
		return []string{"public"}
	}
	return []string{scope, "public"}
}

func checkOne(ctx context.Context, v *validate.Validator, pool *pgxpool.Pool, sql string) map[string]any {
	issues := []checkIssue{}
	add := func(is validate.Issue) {
		issues = append(issues, checkIssue{Code: is.Code, Severity: is.Severity.String(), Message: is.Message, Position: is.Location})
	}
	res, err := v.Validate(sql)
	if err != nil {
		var ve *validate.Error
		if errors.As(err, &ve) {
			for _, is := range ve.Issues {
				add(is)
			}
		} else {
			issues = append(issues, checkIssue{Code: "V001", Severity: "error", Message: err.Error(), Position: -1})
		}
		return map[string]any{"ok": false, "sql": "", "issues": issues}
	}
	for _, is := range res.Issues {
		add(is)
	}
	ok := true
	if pool != nil {
		ex := v.Explain(ctx, pool, []string{sql})[0]
		if ex.Err != nil {
			ok = false
			code := ex.SQLState
			if code == "" {
				code = "EXPLAIN"
			}
			issues = append(issues, checkIssue{Code: code, Severity: "error", Message: ex.Message, Position: ex.Location})
		}
	}
	return map[string]any{"ok": ok, "sql": res.SQL, "issues": issues}
}
