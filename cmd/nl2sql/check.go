package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql"
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
	// With a database, the Engine's own policy decides (the one Run, Ask
	// and the MCP server apply); without one, the scope's schemas and the
	// built-in rules.
	var eng *nl2sql.Engine
	if _, derr := c.resolveDSN(); derr == nil {
		var pool *pgxpool.Pool
		if eng, pool, err = openEngine(ctx, &c, nil, stderr, nl2sql.WithValueIndex(false)); err != nil {
			return err
		}
		defer pool.Close()
	}
	validators := map[string]*validate.Validator{}
	one := func(ctx context.Context, sql, scope string) map[string]any {
		if eng != nil {
			return checkWithEngine(ctx, eng, sql, scope)
		}
		v := validators[scope]
		if v == nil {
			path := searchPath(scope)
			opts := []validate.Option{validate.WithSearchPath(path...)}
			if scope != "" {
				opts = append(opts, validate.WithSchemas(path...))
			}
			v = validate.New(opts...)
			validators[scope] = v
		}
		return checkOffline(v, sql)
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

func issueJSON(is validate.Issue) checkIssue {
	return checkIssue{Code: is.Code, Severity: is.Severity.String(), Message: is.Message, Position: is.Location}
}

// checkOffline validates without a database.
func checkOffline(v *validate.Validator, sql string) map[string]any {
	issues := []checkIssue{}
	res, err := v.Validate(sql)
	if err != nil {
		var ve *validate.Error
		if errors.As(err, &ve) {
			for _, is := range ve.Issues {
				issues = append(issues, issueJSON(is))
			}
		} else {
			issues = append(issues, checkIssue{Code: "V001", Severity: "error", Message: err.Error(), Position: -1})
		}
		return map[string]any{"ok": false, "sql": "", "issues": issues}
	}
	for _, is := range res.Issues {
		issues = append(issues, issueJSON(is))
	}
	return map[string]any{"ok": true, "sql": res.SQL, "issues": issues}
}

// checkWithEngine validates and EXPLAINs with the Engine's policy.
func checkWithEngine(ctx context.Context, eng *nl2sql.Engine, sql, scope string) map[string]any {
	issues := []checkIssue{}
	r, err := eng.Check(ctx, sql, askOpts("", scope)...)
	if r == nil {
		return map[string]any{"ok": false, "sql": "", "issues": []checkIssue{{Code: "EXPLAIN", Severity: "error", Message: err.Error(), Position: -1}}}
	}
	for _, is := range r.Issues {
		issues = append(issues, issueJSON(is))
	}
	switch {
	case r.SQLState != "":
		issues = append(issues, checkIssue{Code: r.SQLState, Severity: "error", Message: r.Message, Position: r.Position})
	case err != nil:
		issues = append(issues, checkIssue{Code: "EXPLAIN", Severity: "error", Message: err.Error(), Position: -1})
	}
	return map[string]any{"ok": r.OK && err == nil, "sql": r.SQL, "issues": issues}
}
