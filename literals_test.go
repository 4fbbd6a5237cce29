package nl2sql_test

import (
	"context"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// A compared string constant no row holds is written as the one stored
// value it matches ignoring case and surrounding spaces; nothing else is
// touched.
func TestStoredValueCase(t *testing.T) {
	ctx := context.Background()
	erp, err := nl2sql.New(pgtest.Pool(t, erptest.Single(t)))
	if err != nil {
		t.Fatal(err)
	}
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE TABLE paint (id int PRIMARY KEY, color text, shade text);
		INSERT INTO paint VALUES (1, 'Blue', 'dark'), (2, 'BLUE', 'light'), (3, 'red', 'Dark'), (4, 'Green ', 'pale')`)
	paint, err := nl2sql.New(pgtest.Pool(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		eng  *nl2sql.Engine
		sql  string
		want string // "" when it must stay as written
	}{
		{"case", erp, "SELECT count(*) FROM employees WHERE status = 'active'", "SELECT count(*) FROM employees WHERE status = 'Active'"},
		{"constant first", erp, "SELECT count(*) FROM employees WHERE 'active' = status", "SELECT count(*) FROM employees WHERE 'Active' = status"},
		{"qualified, IN list", erp, "SELECT count(*) FROM employees e WHERE e.status IN ('active', 'on leave')",
			"SELECT count(*) FROM employees e WHERE e.status IN ('Active', 'On Leave')"},
		{"enum label", erp, "SELECT count(*) FROM opportunities WHERE stage = 'closed won'", "SELECT count(*) FROM opportunities WHERE stage = 'Closed Won'"},
		{"stored already", erp, "SELECT count(*) FROM employees WHERE status = 'Active'", ""},
		{"LIKE", erp, "SELECT count(*) FROM employees WHERE status LIKE 'active%'", ""},
		{"escape string", erp, "SELECT count(*) FROM employees WHERE status = E'active'", ""},
		{"CTE of the same name", erp, "WITH employees AS (SELECT 'x' AS status) SELECT count(*) FROM employees WHERE status = 'active'", ""},
		{"two stored values match", paint, "SELECT id FROM paint WHERE color = 'blue'", ""},
		{"one stored value matches", paint, "SELECT id FROM paint WHERE color = 'RED'", "SELECT id FROM paint WHERE color = 'red'"},
		{"spaces", paint, "SELECT id FROM paint WHERE color = 'green'", "SELECT id FROM paint WHERE color = 'Green '"},
		{"matches another column only", paint, "SELECT id FROM paint WHERE color = 'dark'", ""},
		{"no match at all", paint, "SELECT id FROM paint WHERE color = 'purple'", ""},
		// A negation with a constant no row holds filters nothing; which
		// value was meant is not the rewrite's to guess.
		{"negation", paint, "SELECT id FROM paint WHERE color <> 'RED'", ""},
		{"NOT IN", paint, "SELECT id FROM paint WHERE color NOT IN ('RED')", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.eng.Repair(ctx, c.sql)
			if err != nil {
				t.Fatal(err)
			}
			applied := slices.Contains(r.Rules, nl2sql.RuleStoredValue)
			if c.want == "" {
				if applied || r.SQLOut != c.sql {
					t.Errorf("%s rewritten: %q %v", c.sql, r.SQLOut, r.Rules)
				}
				return
			}
			if !applied || r.SQLOut != c.want || !r.Executes {
				t.Errorf("%s: sql_out %q rules %v executes %v (%s); want %q", c.sql, r.SQLOut, r.Rules, r.Executes, r.Message, c.want)
			}
		})
	}
}

// TestUnknownValueInNegation: a candidate that compares a column with a
// constant no row holds is marked, for = and IN (an empty answer) as for
// <> and NOT IN (a filter that keeps every row).
func TestUnknownValueInNegation(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE TABLE singer (id int PRIMARY KEY, name text, citizenship text);
		INSERT INTO singer VALUES (1, 'Ana', 'France'), (2, 'Bo', 'Chile'), (3, 'Cy', 'France')`)
	rec := &inputRecorder{}
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithScorer(rec))
	if err != nil {
		t.Fatal(err)
	}
	sqls := []string{
		"SELECT name FROM singer WHERE citizenship <> 'French'",
		"SELECT name FROM singer WHERE citizenship NOT IN ('French', 'France')",
		"SELECT name FROM singer WHERE citizenship != 'France'",
		"SELECT name FROM singer WHERE citizenship = 'French'",
	}
	if _, err := eng.Pick(context.Background(), "Which singers are not French citizens?", sqls); err != nil {
		t.Fatal(err)
	}
	var unknown []int
	for _, c := range rec.in.Candidates {
		unknown = append(unknown, c.UnknownValues)
	}
	if want := []int{1, 1, 0, 1}; !slices.Equal(unknown, want) {
		t.Errorf("UnknownValues = %v, want %v", unknown, want)
	}
}
