package nl2sql

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// TestRecallTables decides on hand-made failures, as if the validator had
// let them through: only tables of the request's scope, missing from the
// context, that the failure is about are recalled; another division's
// table never is, however the failure names it.
func TestRecallTables(t *testing.T) {
	pool := pgtest.Pool(t, erptest.Divisions(t, 2))
	ctx := context.Background()
	eng, err := New(pool, WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	rq, err := eng.newRequest(ctx, []AskOption{Scope("div_02")}, nil)
	if err == nil {
		rq.view, err = rq.scope.view(ctx) // as context sets it
	}
	if err != nil {
		t.Fatal(err)
	}
	c := eng.buildContext(ctx, rq, rq.read("How many employees are there?"),
		[]retrieve.TableHit{{Name: "div_02.employees"}, {Name: "div_02.expense_lines"}})
	failed := func(state, sql, at, message string) *candidate {
		pos := 0
		if at != "" {
			pos = strings.Index(sql, at) + 1
		}
		return &candidate{Candidate: Candidate{Status: "failed"}, sqlstate: state, failedSQL: sql, position: pos, message: message}
	}
	for _, tc := range []struct {
		cand *candidate
		want []string
	}{
		// A guessed column of a table of the scope the context lacks.
		{failed("42703", "SELECT v.mileage FROM vehicles v", "v.mileage", ""), []string{"div_02.vehicles"}},
		// Bare: the tables the query reads that the context lacks.
		{failed("42703", "SELECT mileage FROM employees e JOIN vehicles v ON true", "mileage", ""), []string{"div_02.vehicles"}},
		// Qualified with the table name; a shared table (public).
		{failed("42703", "SELECT currencies.symbol_text FROM currencies", "currencies.symbol_text", ""), []string{"public.currencies"}},
		// The column of a context table: nothing to recall.
		{failed("42703", "SELECT e.mileage FROM employees e JOIN vehicles v ON true", "e.mileage", ""), nil},
		// Another division's table, qualified: never.
		{failed("42703", "SELECT v.mileage FROM div_01.vehicles v", "v.mileage", ""), nil},
		{failed("42703", "SELECT div_01.vehicles.mileage FROM div_01.vehicles", "div_01.vehicles.mileage", ""), nil},
		// No position: the failure cannot be placed.
		{failed("42703", "SELECT v.mileage FROM vehicles v", "", ""), nil},
		// A table used without a FROM item.
		{failed("42P01", "SELECT vehicles.make FROM employees", "vehicles.make", `missing FROM-clause entry for table "vehicles"`), []string{"div_02.vehicles"}},
		{failed("42P01", "SELECT e.make FROM employees", "e.make", `missing FROM-clause entry for table "e"`), nil},
		// A context table without its FROM item is a join path miss.
		{failed("42P01", "SELECT employees.emp_id FROM vehicles", "employees.emp_id", `missing FROM-clause entry for table "employees"`), nil},
		// Another failure on a table the context lacks.
		{failed("42883", "SELECT avg(v.make) FROM vehicles v", "avg", "function avg(text) does not exist"), nil},
		// Rejected by the validator (another division's table): not a
		// failure of the context.
		{&candidate{Candidate: Candidate{Status: "rejected", Code: "V012"}}, nil},
	} {
		if got := rq.scope.recallTables(c, []*candidate{tc.cand}); !slices.Equal(got, tc.want) {
			t.Errorf("%s %q: recalled %v, want %v", tc.cand.sqlstate, tc.cand.failedSQL, got, tc.want)
		}
	}

	// Unscoped, a qualified name of any schema is a table the request may
	// read (the policy allows every table); the same failure in div_02's
	// scope recalls nothing.
	open, err := eng.newRequest(ctx, nil, nil)
	if err == nil {
		open.view, err = open.scope.view(ctx)
	}
	if err != nil {
		t.Fatal(err)
	}
	oc := eng.buildContext(ctx, open, open.read("How many employees are there?"), nil)
	cand := failed("42703", "SELECT v.mileage FROM div_01.vehicles v", "v.mileage", "")
	if got := open.scope.recallTables(oc, []*candidate{cand}); !slices.Equal(got, []string{"div_01.vehicles"}) {
		t.Errorf("unscoped: recalled %v", got)
	}

	// The rebuilt context keeps the retrieval's tables first, adds the
	// recalled ones after them with reason "backward", and shows them.
	nc := eng.widen(ctx, rq, c, []string{"div_02.vehicles"})
	if len(nc.Tables) != 3 || nc.Tables[0].Name != "div_02.employees" || nc.Tables[2].Name != "div_02.vehicles" ||
		!slices.Equal(nc.Tables[2].Reasons, []string{"backward"}) || !strings.Contains(nc.Prompt.User, "# Table: vehicles") ||
		strings.Contains(c.Prompt.User, "# Table: vehicles") || len(c.Tables) != 2 {
		t.Errorf("rebuilt context %+v\n%s", nc.Tables, nc.Prompt.User)
	}
}
