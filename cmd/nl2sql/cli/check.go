package cli

import (
	"context"
	"errors"
	"io"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// checkJSON is the JSON of check (nl2sql.CheckResult has no JSON names,
// and carries the planner's error apart from the issues).
type checkJSON struct {
	OK     bool         `json:"ok"`
	SQL    string       `json:"sql"` // rewritten; "" when rejected
	Issues []checkIssue `json:"issues"`
}

// checkIssue is one issue of the check JSON.
type checkIssue struct {
	Code     string `json:"code"`
	Severity string `json:"severity"` // "error", "warning", "info"
	Message  string `json:"message"`
	Position int    `json:"position"` // byte offset in the input SQL (rewritten SQL for EXPLAIN errors); -1 for the whole statement
}

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s := newSub("check", "usage: nl2sql check [flags] SQL|-\n\nValidates SQL (one read-only SELECT, allowed tables and functions, lint); with a database (--dsn or $NL2SQL_DSN / $DATABASE_URL) the tables are the catalog's and the query is EXPLAINed too.\nPrints {\"ok\":bool,\"sql\":\"<rewritten>\",\"issues\":[{\"code\",\"severity\",\"message\",\"position\"}]}.", stdout, stderr)
	s.identityFlags()
	s.batchFlag(`batch mode: read {"id","sql","scope"} lines from FILE (- for stdin)`)
	in, err := s.parseInput(args, sqlInput)
	if err != nil {
		return err
	}
	// With a database, the Engine's own policy decides (the one Run, Ask
	// and the MCP server apply); without one, the scope's schemas and the
	// built-in rules.
	var eng *nl2sql.Engine
	_, derr := s.db.Resolve()
	if derr != nil && (s.who.Role != "" || len(s.who.Settings) > 0) {
		return usageErr("--role and --set need a database: pass --dsn (or set NL2SQL_DSN / DATABASE_URL)")
	}
	if derr == nil {
		if eng, err = s.open(ctx, nil, nl2sql.WithValueIndex(false)); err != nil {
			return err
		}
		defer s.close()
	}
	validators := map[string]*validate.Validator{}
	return serve(ctx, s, in, func(ctx context.Context, in batchInput) (*checkJSON, error) {
		if eng != nil {
			return checkWithEngine(ctx, eng, in.SQL, s.askOpts("", in.Scope)), nil
		}
		v := validators[in.Scope]
		if v == nil {
			path := searchPath(in.Scope)
			opts := []validate.Option{validate.WithSearchPath(path...)}
			if in.Scope != "" {
				opts = append(opts, validate.WithSchemas(path...))
			}
			v = validate.New(opts...)
			validators[in.Scope] = v
		}
		return checkOffline(v, in.SQL), nil
	}, func(out *checkJSON, _ error) error {
		return s.printJSON(out, !out.OK)
	})
}

func issueJSON(is validate.Issue) checkIssue {
	return checkIssue{Code: is.Code, Severity: is.Severity.String(), Message: is.Message, Position: is.Location}
}

// checkOffline validates without a database.
func checkOffline(v *validate.Validator, sql string) *checkJSON {
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
		return &checkJSON{Issues: issues}
	}
	for _, is := range res.Issues {
		issues = append(issues, issueJSON(is))
	}
	return &checkJSON{OK: true, SQL: res.SQL, Issues: issues}
}

// checkWithEngine validates and EXPLAINs with the Engine's policy, as the
// request of opts (its scope and identity).
func checkWithEngine(ctx context.Context, eng *nl2sql.Engine, sql string, opts []nl2sql.AskOption) *checkJSON {
	issues := []checkIssue{}
	r, err := eng.Check(ctx, sql, opts...)
	if r == nil {
		return &checkJSON{Issues: []checkIssue{{Code: "EXPLAIN", Severity: "error", Message: err.Error(), Position: -1}}}
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
	return &checkJSON{OK: r.OK && err == nil, SQL: r.SQL, Issues: issues}
}
