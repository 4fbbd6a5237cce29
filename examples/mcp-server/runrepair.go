package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/repair"
)

// keepsMeaning are the deterministic repairs run_sql applies by itself to
// the caller's SQL: a misspelt column or table replaced by the one name it
// can stand for, a column qualified where the query makes its candidates
// equal, MySQL's backticks as quotes. Each leaves the query asking what
// its author wrote. Repairs that add a join, drop a term, read a word as
// a value or cast are left to the caller (the error names the failure).
var keepsMeaning = map[string]bool{
	repair.RuleFuzzyColumn: true,
	repair.RuleFuzzyTable:  true,
	repair.RuleAmbiguous:   true,
	repair.RuleBacktick:    true,
}

// repairedRun runs the deterministic repair of sql that failed with
// runErr, when the failure is a wrong name (42703, 42P01, 42702, V012)
// and every rule the repair used keeps the meaning. It returns the
// repaired run and a note saying what changed, or nil.
func (h *handlers) repairedRun(ctx context.Context, sql string, runErr error, opts []nl2sql.AskOption) (*nl2sql.Result, string) {
	var ne *nl2sql.Error
	if !errors.As(runErr, &ne) || ne.Class == nl2sql.ClassUnsafe {
		return nil, ""
	}
	switch ne.Code {
	case "42703", "42P01", "42702", "V012":
	default:
		return nil, ""
	}
	rep, err := h.eng.Repair(ctx, sql, opts...)
	if err != nil || !rep.Changed || !rep.Executes || len(rep.Rules) == 0 {
		return nil, ""
	}
	for _, rule := range rep.Rules {
		if !keepsMeaning[rule] {
			return nil, ""
		}
	}
	res, err := h.eng.Run(ctx, rep.SQLOut, opts...)
	if err != nil {
		return nil, ""
	}
	return res, fmt.Sprintf("the query as written failed (%s); it ran after a deterministic repair that keeps its meaning (%s)",
		ne.Code, strings.Join(rep.Rules, ", "))
}
