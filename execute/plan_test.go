package execute

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// planCheckOnly is a TEST-ONLY query option that skips the static validator
// but keeps the plan check, to prove the second layer works on its own.
func planCheckOnly() QueryOption {
	return queryOptionFunc(func(c *queryConfig) { c.planOnly = true })
}

// TestPlanCheck runs a functional-notation call, which the static validator
// (skipped here) would have to recognise as a function call: the server's
// plan shows what it resolved (pg_sleep, since the planner inlines the SQL
// function pg_sleep_for), and the plan check refuses it before the query
// runs. Needs validate's CheckPlan (validate/plan.go).
func TestPlanCheck(t *testing.T) {
	_, pool := fixture(t, 1)
	ex := New(pool)
	pid := backendPID(t, pool)
	e := queryErr(t, ex, "SELECT ('1 second'::interval).pg_sleep_for", planCheckOnly())
	var ve *validate.Error
	if !errors.Is(e, ErrRejected) || e.Op != "plan" || !errors.As(e, &ve) || !ve.Has(validate.CodePlan) {
		t.Errorf("got %v (class %s, op %s), want a plan rejection carrying V015", e, e.class, e.Op)
	}
	if got := backendPID(t, pool); got != pid {
		t.Errorf("connection replaced after a plan rejection (pid %d -> %d)", pid, got)
	}
	res := mustQuery(t, ex, "SELECT id FROM items WHERE id < 3 ORDER BY id", planCheckOnly())
	if res.RowCount != 2 {
		t.Errorf("plain query through the plan check: %v", res.Rows)
	}
}

// TestPlanTooLarge makes the planner fold a 9 MB constant into the plan:
// the plan is refused unread (V015, it could not be checked) and the query
// never runs.
func TestPlanTooLarge(t *testing.T) {
	_, pool := fixture(t, 1)
	ex := New(pool)
	e := queryErr(t, ex, "SELECT id FROM items WHERE name = repeat('x', 9000000)", planCheckOnly())
	var ve *validate.Error
	if !errors.Is(e, ErrRejected) || e.Op != "plan" || !errors.As(e, &ve) || !ve.Has(validate.CodePlan) ||
		!strings.Contains(e.Message, "could not be checked") {
		t.Errorf("got %v (class %s, op %s), want a V015 plan rejection", e, e.class, e.Op)
	}
	mustQuery(t, ex, "SELECT 1")
}

// TestExplainErrors: the query's errors come from its EXPLAIN now, which
// runs first; they read as the query's own, positions on the query's text.
func TestExplainErrors(t *testing.T) {
	_, pool := fixture(t, 0)
	ex := New(pool)
	e := queryErr(t, ex, "SELECT id, nope FROM items")
	if e.SQLState != "42703" || e.Op != "query" || !errors.Is(e, ErrRepairable) || e.Position != strings.Index(e.SQL, "nope")+1 {
		t.Errorf("got %v (op %s, position %d in %q), want 42703 at %d", e, e.Op, e.Position, e.SQL, strings.Index(e.SQL, "nope")+1)
	}
	// Planning folds constants: 1 / 0 fails in the EXPLAIN.
	e = queryErr(t, ex, "SELECT id / 0 FROM items WHERE 1 / 0 = 1")
	if e.SQLState != "22012" || e.Op != "query" || !errors.Is(e, ErrRepairable) {
		t.Errorf("got %v (op %s), want a repairable 22012", e, e.Op)
	}
}
