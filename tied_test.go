package nl2sql_test

import (
	"context"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestConfidenceTiedAtCut: "which grade has the most students" answered
// with ORDER BY count(*) DESC LIMIT 1 while two grades have as many is one
// of two right answers: the signal says so, a reason says it in words and
// the confidence is lower than for the same query on data without the
// tie. The probe runs the query as written, not the Engine's tie-broken
// text (which would never tie), and a query that keeps every row is no
// tie.
func TestConfidenceTiedAtCut(t *testing.T) {
	pgtest.SkipShort(t)
	const schema = `CREATE TABLE students (student_id int PRIMARY KEY, name text NOT NULL, grade int NOT NULL);`
	tied := pgtest.NewDatabase(t)
	pgtest.Exec(t, tied, schema+`INSERT INTO students VALUES
		(1, 'Ann', 9), (2, 'Bob', 9), (3, 'Cy', 10), (4, 'Di', 10), (5, 'Ed', 11)`)
	clear := pgtest.NewDatabase(t)
	pgtest.Exec(t, clear, schema+`INSERT INTO students VALUES
		(1, 'Ann', 9), (2, 'Bob', 9), (3, 'Cy', 9), (4, 'Di', 10), (5, 'Ed', 11)`)

	const question = "Which grade has the most students?"
	const top = "SELECT grade FROM students GROUP BY grade ORDER BY count(*) DESC LIMIT 1"
	pick := func(dsn, sql string) *nl2sql.PickResult {
		t.Helper()
		eng, err := nl2sql.New(pgtest.Pool(t, dsn))
		if err != nil {
			t.Fatal(err)
		}
		if err := eng.Prepare(context.Background()); err != nil {
			t.Fatal(err)
		}
		res, err := eng.Pick(context.Background(), question, []string{sql})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := pick(tied, top), pick(clear, top)
	t.Logf("tied: %s, confidence %.3f, reasons %q; clear: confidence %.3f", a.SQL, a.Confidence, a.Reasons, b.Confidence)
	if !a.Signals.Tied || b.Signals.Tied {
		t.Errorf("Signals.Tied: %v on tied data, %v on clear data; want true, false", a.Signals.Tied, b.Signals.Tied)
	}
	if !hasReason(a.Reasons, "ties with the last one kept") || hasReason(b.Reasons, "ties with the last one kept") {
		t.Errorf("reasons: tied %q, clear %q", a.Reasons, b.Reasons)
	}
	if a.Confidence >= b.Confidence {
		t.Errorf("confidence %.3f with a tie at the cut, not below %.3f without", a.Confidence, b.Confidence)
	}
	// The Engine broke the tie in the SQL it runs (RuleTieOrder) and still
	// saw it; a LIMIT past the last row cuts nothing.
	if a.SQL == top {
		t.Errorf("SQL %q: want the tie broken by the grouping key", a.SQL)
	}
	if c := pick(tied, "SELECT grade FROM students GROUP BY grade ORDER BY count(*) DESC LIMIT 5"); c.Signals.Tied {
		t.Errorf("LIMIT 5 of 3 groups: Tied")
	}
}
