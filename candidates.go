package nl2sql

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/rewrite"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// candidate is the Engine's working state for one query.
type candidate struct {
	Candidate
	validated *validate.Result
	cost      float64
	rows      float64
	err       error
	sqlstate  string
	message   string
	position  int // 1-based character position in validated SQL, 0 if none
	failedSQL string
	// untied is the validated SQL before breakTies appended its keys:
	// the query whose cut the tie probe asks about.
	untied string
	// alternatives are what a failing name could stand for when more than
	// one fix was plausible (repair declined to guess).
	alternatives []string
}

func anyOK(cs []*candidate) bool {
	for _, c := range cs {
		if c.Status == StatusOK {
			return true
		}
	}
	return false
}

// repairable picks the failed candidate most worth a repair prompt: one the
// server rejected (it parsed and was safe), most votes first.
func repairable(cs []*candidate) *candidate {
	var best *candidate
	for _, c := range cs {
		if c.Status == StatusFailed && c.failedSQL != "" && (best == nil || c.Votes > best.Votes) {
			best = c
		}
	}
	return best
}

// maxFixRounds bounds deterministic repairs of one candidate (each round
// fixes one error and may reveal the next).
const maxFixRounds = 3

// check normalizes dialect, validates and EXPLAINs candidates (in
// parallel), applying deterministic fixes keyed on SQLSTATE between rounds.
func (e *Engine) check(ctx context.Context, sc *scope, cands []*candidate) {
	rp := sc.repairer()
	// fix asks repair about a failure of sql and takes its first fix that
	// holds (see firstVerified); when repair declined to guess, c keeps the
	// alternatives. It reports whether c holds a new statement to check.
	fix := func(c *candidate, sql string, f repair.Failure) bool {
		fixes, err := rp.Fix(sql, f)
		var ae *repair.AmbiguousError
		if errors.As(err, &ae) {
			c.alternatives = ae.Alternatives
		}
		fx, ok := e.firstVerified(ctx, sc, fixes)
		if ok {
			c.SQL = fx.SQL
			c.Repairs = append(c.Repairs, fx.Rule)
		}
		return ok
	}
	for _, c := range cands {
		if norm, changes, err := rp.Normalize(c.SQL); err == nil && len(changes) > 0 {
			c.SQL = norm
			for _, ch := range changes {
				c.Repairs = append(c.Repairs, ch.Rule)
			}
		}
		if sql, notes := sc.st.valueSets.StoredValues(c.SQL, sc.resolve); len(notes) > 0 {
			c.SQL = sql
			c.Repairs = append(c.Repairs, RuleStoredValue)
		}
	}
	pending := cands
	for round := 0; round <= maxFixRounds && len(pending) > 0; round++ {
		sqls := make([]string, len(pending))
		for i, c := range pending {
			sqls[i] = c.SQL
		}
		// Explain validates each candidate and plans the ones that pass.
		results := sc.explain(ctx, sqls)
		live := pending
		pending = nil
		for i, r := range results {
			c := live[i]
			if r.Validation == nil {
				if ve, budget := budgetRefusal(r.Err); budget && sc.estimatesHidden(ctx, r.Relations) {
					// No estimate of a table under row-level security
					// (estimates.go).
					r.Err = &validate.Error{SQL: ve.SQL, Issues: hideBudgetFigures(ve.Issues)}
				}
				c.Status, c.err = StatusRejected, r.Err
				var ve *validate.Error
				if errors.As(r.Err, &ve) && len(ve.Violations()) > 0 {
					c.Code, c.Error = ve.Violations()[0].Code, ve.Violations()[0].Message
				} else {
					c.Error = r.Err.Error()
				}
				if state, is, ok := missingColumn(ve); ok {
					// A misspelt qualified column: refused before the server
					// saw it (it could be a function call), and repaired like
					// the server's own 42703/42P01.
					r.SQL, r.SQLState, r.Message, r.Location = sqls[i], state, is.Message, is.Location
				} else if f, ok := rewrite.UnknownRelation(ve, sqls[i], sc.path, sc.st.cat); ok && round < maxFixRounds {
					// A table name that names nothing: corrected to the one
					// table of the scope it is close to, then validated
					// again; V012 stays when nothing fits.
					if fix(c, sqls[i], f) {
						pending = append(pending, c)
					}
					continue
				} else {
					continue
				}
			} else {
				c.validated = r.Validation
			}
			if r.Err == nil {
				c.Status, c.cost, c.rows, c.Code, c.Error = StatusOK, r.TotalCost, r.PlanRows, "", ""
				continue
			}
			c.Status, c.err, c.sqlstate, c.message, c.Code, c.Error = StatusFailed, r.Err, r.SQLState, r.Message, r.SQLState, r.Message
			c.failedSQL, c.position = r.SQL, repair.Position(r.SQL, r.Location)
			if r.SQLState == "" || round == maxFixRounds {
				continue
			}
			if fix(c, r.SQL, repair.Failure{SQLState: r.SQLState, Message: r.Message, Position: c.position}) {
				pending = append(pending, c)
			}
		}
	}
	e.breakTies(ctx, sc, cands)
}

// breakTies gives the candidates that planned, and whose ORDER BY ...
// LIMIT can tie between groups, their grouping keys as last sort keys (see
// RuleTieOrder). The rewrite is validated and planned again; a candidate
// keeps its own text when that fails.
func (e *Engine) breakTies(ctx context.Context, sc *scope, cands []*candidate) {
	var live []*candidate
	var sqls []string
	for _, c := range cands {
		if c.Status != StatusOK {
			continue
		}
		if sql, ok := rewrite.BreakTies(c.validated.SQL); ok {
			live, sqls = append(live, c), append(sqls, sql)
		}
	}
	if len(live) == 0 {
		return
	}
	for i, r := range sc.explain(ctx, sqls) {
		if r.Validation == nil || r.Err != nil {
			continue
		}
		c := live[i]
		c.untied = c.validated.SQL
		c.SQL, c.validated, c.cost, c.rows = sqls[i], r.Validation, r.TotalCost, r.PlanRows
		c.Repairs = append(c.Repairs, RuleTieOrder)
	}
}

// missingColumn reports whether every violation of a rejection is a
// qualified reference to a column that does not exist (V014 with the
// server's wording), and returns the SQLSTATE the server would have given
// the first one.
func missingColumn(ve *validate.Error) (string, validate.Issue, bool) {
	if ve == nil {
		return "", validate.Issue{}, false
	}
	vs := ve.Violations()
	state := ""
	for i, is := range vs {
		s := ""
		switch {
		case is.Code != validate.CodeFuncNotation || is.Location < 0:
		case strings.HasPrefix(is.Message, "column "):
			s = "42703"
		case strings.HasPrefix(is.Message, "missing FROM-clause entry"):
			s = "42P01"
		}
		if s == "" {
			return "", validate.Issue{}, false
		}
		if i == 0 {
			state = s
		}
	}
	if len(vs) == 0 {
		return "", validate.Issue{}, false
	}
	return state, vs[0], true
}

// classify turns the failures of every candidate into the Ask error: the
// class of the most-voted candidate's failure decides.
func classify(cs []*candidate) *Error {
	var pick *candidate
	for _, c := range cs {
		if pick == nil || c.Votes > pick.Votes {
			pick = c
		}
	}
	for _, c := range cs {
		// A candidate the server could not check says nothing about the
		// model: the database is gone.
		if ce := connectionError("checking the candidates failed", c.err); ce != nil {
			return ce
		}
	}
	e := &Error{Class: ClassNoAnswer, Code: pick.Code, Message: "no candidate query validated and planned", Err: pick.err}
	allUnsafe := true
	for _, c := range cs {
		if !(c.Status == StatusRejected && validate.Unsafe(c.Code)) {
			allUnsafe = false
		}
	}
	switch {
	case allUnsafe:
		e.Class, e.Message = ClassUnsafe, "every candidate broke the safety policy"
	case pick.Code == "42P01" && strings.Contains(pick.Error, "missing FROM-clause entry"):
		// A table used without being joined in: the join path was missed.
		e.Class = ClassJoinPathMiss
	case pick.Code == "42P01" || pick.Code == "V012":
		e.Class = ClassRetrievalMiss
	case pick.Code == "42703":
		e.Class = ClassColumnMiss
	case pick.Status == StatusFailed:
		e.Class = ClassExecution
	}
	return e
}

// verifyTimeout bounds the query that checks a fix on the data.
const verifyTimeout = 2 * time.Second

// firstVerified returns the first fix that needs no check, or whose Verify
// query runs (read-only, under the request's policy) and finds no row: a
// fix whose check finds a counter-example, fails or times out would change
// the answer, and is not applied.
func (e *Engine) firstVerified(ctx context.Context, sc *scope, fixes []repair.Fix) (repair.Fix, bool) {
	for _, f := range fixes {
		if f.Verify == "" {
			return f, true
		}
		vctx, cancel := context.WithTimeout(ctx, verifyTimeout)
		r, err := sc.query(vctx, f.Verify, 1)
		cancel()
		if err == nil && len(r.Rows) == 0 {
			return f, true
		}
		e.cfg.logger.DebugContext(ctx, "nl2sql: fix not applied: its check failed", "rule", f.Rule, "err", err)
	}
	return repair.Fix{}, false
}
