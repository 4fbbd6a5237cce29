package confidence

import (
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/score"
)

// TestQuestionNegates: negation words and contractions exclude
// something; the same words inside a quoted value, and "other" without
// "than", do not.
func TestQuestionNegates(t *testing.T) {
	for q, want := range map[string]bool{
		"List the names of people that are not poker players.":    true,
		"Which students don't own a pet?":                         true,
		"Which students don’t own a pet?":                         true,
		"Which singers aren't French?":                            true,
		"Find the students without a cat.":                        true,
		"Every language except English":                           true,
		"Countries where a language other than English is spoken": true,
		"How many non-French singers are there?":                  true,
		"Customers with no orders":                                true,
		"How many singers are there?":                             false,
		"Show the other columns of the table":                     false,
		"Find products named 'not for sale'":                      false,
		"Which dons teach in Oxford?":                             false,
	} {
		if got := questionNegates(gloss.Analyze(q)); got != want {
			t.Errorf("questionNegates(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestSQLNegates: a query excludes rows by what it means, in every
// spelling (case, qualified operators, nesting in CTEs, sublinks, LATERAL,
// VALUES); a constant or a name that reads "not" does not.
func TestSQLNegates(t *testing.T) {
	for sql, want := range map[string]bool{
		"SELECT name FROM people WHERE id NOT IN (SELECT people_id FROM poker_player)":                       true,
		"select name from people p where not exists (select 1 from poker_player q where q.people_id = p.id)": true,
		"SELECT name FROM singer WHERE citizenship <> 'France'":                                              true,
		"SELECT name FROM singer WHERE citizenship != 'France'":                                              true,
		"SELECT name FROM singer WHERE citizenship OPERATOR(pg_catalog.<>) 'France'":                         true,
		"SELECT name FROM singer WHERE name NOT LIKE 'A%'":                                                   true,
		"SELECT name FROM singer WHERE name NOT ILIKE 'a%'":                                                  true,
		"SELECT name FROM singer WHERE name !~ '^A'":                                                         true,
		"SELECT name FROM singer WHERE age NOT BETWEEN 20 AND 30":                                            true,
		"SELECT name FROM singer WHERE country IS DISTINCT FROM 'France'":                                    true,
		"SELECT id FROM people EXCEPT SELECT people_id FROM poker_player":                                    true,
		"SELECT p.name FROM people p LEFT JOIN poker_player q ON q.people_id = p.id WHERE q.id IS NULL":      true,
		"WITH x AS (SELECT id FROM t WHERE NOT flag) SELECT * FROM x":                                        true,
		"SELECT * FROM t, LATERAL (SELECT * FROM u WHERE u.a <> t.a) l":                                      true,
		"SELECT * FROM t WHERE a <> ALL (SELECT b FROM u)":                                                   true,
		"SELECT * FROM (VALUES (1), (2)) v(x) WHERE x <> 1":                                                  true,
		"SELECT count(*) FROM singer":                                                                        false,
		"SELECT name FROM singer WHERE note = 'not French'":                                                  false,
		`SELECT "not" FROM singer WHERE age IS NOT NULL`:                                                     false,
		"SELECT name FROM singer WHERE $$<>$$ = name":                                                        false,
		"SELECT id FROM people UNION SELECT people_id FROM poker_player":                                     false,
		"not sql at all": false,
	} {
		if got := sqlNegates(sql); got != want {
			t.Errorf("sqlNegates(%q) = %v, want %v", sql, got, want)
		}
	}
}

// TestCountAskedIdentifiers: "how many X" asks for no count when a column
// holds the number of X (cylinders), but a column that identifies or
// names an X (conductor_id) holds no such number.
func TestCountAskedIdentifiers(t *testing.T) {
	for _, c := range []struct {
		q       string
		columns []string
		want    bool
	}{
		{"How many conductors are there?", []string{"public.conductor.conductor_id", "public.conductor.name"}, true},
		{"How many students are there?", []string{"public.student.stuid"}, true},
		{"How many cylinders does the car with the most horsepower have?", []string{"public.cars_data.cylinders", "public.cars_data.horsepower"}, false},
		{"How many products does the shop with the most products have?", []string{"public.shop.number_products"}, false},
		{"What is the phone number of the student?", []string{"public.student.phone"}, false},
	} {
		if got := countAsked(c.q, c.columns); got != c.want {
			t.Errorf("countAsked(%q, %v) = %v, want %v", c.q, c.columns, got, c.want)
		}
	}
}

// TestDisputes: the candidates' agreement sets the disputes: the same rows
// in another column order, and the same distinct rows counted otherwise;
// a question saying "not" answered by a query that excludes nothing.
func TestDisputes(t *testing.T) {
	in := &score.Input{Question: "Which singers are not French?", Candidates: []score.Candidate{
		{SQL: "SELECT name FROM singer", Votes: 1, Agreement: 1, OrderedAgreement: 0.5, ResultGroup: 0, ResultRows: 3, CountsDisputed: true},
		{SQL: "SELECT name FROM singer WHERE citizenship <> 'France'", Votes: 1, Agreement: 1, OrderedAgreement: 1, ResultGroup: 0, ResultRows: 3},
	}}
	a, b := Of(in, []float64{1, 1}, 0), Of(in, []float64{1, 1}, 1)
	if !a.ColumnsDisputed || !a.CountsDisputed || !a.NegationMissed {
		t.Errorf("first: columns %v, counts %v, negation %v; want all true", a.ColumnsDisputed, a.CountsDisputed, a.NegationMissed)
	}
	if b.ColumnsDisputed || b.CountsDisputed || b.NegationMissed {
		t.Errorf("second: columns %v, counts %v, negation %v; want all false", b.ColumnsDisputed, b.CountsDisputed, b.NegationMissed)
	}
	reasons := strings.Join(a.Reasons(), "; ")
	for _, want := range []string{"excludes nothing", "how often each one comes back"} {
		if !strings.Contains(reasons, want) {
			t.Errorf("reasons %q lack %q", reasons, want)
		}
	}
}
