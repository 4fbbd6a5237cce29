package confidence

import (
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/cues"
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
		// A bound, the current period left out, "no" that is no
		// determiner: no exclusion asked.
		"What is the average age of visitors whose level is not higher than 4?":      false,
		"Which cars do not have more than 3 cylinders?":                              false,
		"How many orders in each of the last 6 months, excluding the current month?": false,
		"Show the daily totals of the previous week, not including this week":        false,
		"Return the no. of students per month":                                       false,
		"Were the dogs abandoned? 1 stands for yes, and 0 stands for no.":            false,
		"Which customers have no orders, not counting this year's?":                  true,
		"Which singers are not older or younger than anyone?":                        false,
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
		"SELECT name FROM cars WHERE is_in_inventory = FALSE":                                                true,
		"SELECT name FROM cars WHERE is_in_inventory IS NOT TRUE":                                            true,
		"SELECT count(*) FROM flights WHERE connections = 0":                                                 true,
		"SELECT count(*) FROM flights WHERE connections = 1":                                                 false,
		"SELECT count(*) FROM singer":                                                                        false,
		"SELECT name FROM singer WHERE note = 'not French'":                                                  false,
		`SELECT "not" FROM singer WHERE age IS NOT NULL`:                                                     false,
		"SELECT name FROM singer WHERE $$<>$$ = name":                                                        false,
		"SELECT id FROM people UNION SELECT people_id FROM poker_player":                                     false,
		"not sql at all": false,
	} {
		if got := sqlNegates(parseTree(sql)); got != want {
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
		// "review count" names business.review_count; a count of
		// reviews is asked when no column is so named.
		{"What are the top 3 businesses in terms of review count?", []string{"public.business.name", "public.business.review_count"}, false},
		{"What are the top 3 businesses in terms of reviews count?", []string{"public.business.name", "public.business.review_count"}, false},
		{"What are the top 3 businesses in terms of review count?", []string{"public.business.name", "public.review.business_id"}, true},
		{"What are the top 3 businesses in terms of review count?", []string{"public.business.name", "public.business.visit_count"}, true},
	} {
		if got := countAsked(cues.Read(gloss.Analyze(c.q)), c.columns); got != c.want {
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

// TestUnaskedConstants: the constants a query compares with that the
// question does not name, in every spelling and depth; the question's own
// values (written out, linked, a date's year, a number), LIMIT counts, 0
// and 1, and constants outside conditions are named or no constants.
func TestUnaskedConstants(t *testing.T) {
	q := "Which singers from France born after 1990 sang more than 2 songs in 2024?"
	for _, c := range []struct {
		sql    string
		stored []string
		want   string
	}{
		{"SELECT name FROM singer WHERE citizenship = 'France' AND birth_year > 1990", nil, ""},
		{"SELECT name FROM singer WHERE citizenship = 'french'", []string{"French"}, ""},
		{"SELECT name FROM singer WHERE continent = 'Asia'", nil, "Asia"},
		{"SELECT name FROM singer s JOIN song g ON g.singer_id = s.id AND g.genre = 'Rock' GROUP BY name HAVING count(*) > 2", nil, "Rock"},
		{"SELECT name FROM singer WHERE id IN (SELECT singer_id FROM song WHERE released >= DATE '2024-01-01' ORDER BY 1 LIMIT 7)", nil, ""},
		{"WITH x AS (SELECT * FROM singer WHERE name LIKE '%Kyle%') SELECT * FROM x", nil, "%Kyle%"},
		{"SELECT * FROM singer, LATERAL (SELECT * FROM song WHERE song.sales > 3000) s", nil, "3000"},
		{"SELECT name, 'Asia' AS region FROM singer WHERE 1 = 1 LIMIT 10 OFFSET 5", nil, ""},
		{"SELECT name FROM singer WHERE country = $$Peru$$", nil, "Peru"},
		{"SELECT name FROM singer WHERE country = U&'P\\0065ru'", nil, "Peru"},
		{"not sql", nil, ""},
	} {
		got := strings.Join(unaskedConstants(parseTree(c.sql), cues.Read(gloss.Analyze(q), gloss.Analyze("")), gloss.Analyze(q), gloss.Analyze(""), c.stored, countryCompared(parseTree(c.sql))), ",")
		if got != c.want {
			t.Errorf("unaskedConstants(%q) = %q, want %q", c.sql, got, c.want)
		}
	}
}

// TestUnaskedConstantsSpelledOut: a number written as a word, a value
// named but for its ending, and a yes/no flag on a column the question
// names are named; the same constants for a question that does not say
// them are not.
func TestUnaskedConstantsSpelledOut(t *testing.T) {
	for _, c := range []struct {
		q, sql, want string
	}{
		{"Show names of teachers that teach at least two courses.", "SELECT name FROM teacher t JOIN course_arrange c ON c.teacher_id = t.id GROUP BY name HAVING count(*) >= 2", ""},
		{"Show names of teachers that teach many courses.", "SELECT name FROM teacher t JOIN course_arrange c ON c.teacher_id = t.id GROUP BY name HAVING count(*) >= 2", "2"},
		{"Show all template type codes with less than three templates.", "SELECT code FROM templates GROUP BY code HAVING 3 > count(*)", ""},
		{"Find the largest asian country.", "SELECT name FROM country WHERE continent = 'Asia' ORDER BY area DESC LIMIT 1", ""},
		{"Find the largest country.", "SELECT name FROM country WHERE continent = 'Asia' ORDER BY area DESC LIMIT 1", "Asia"},
		{"How many official languages does Afghanistan have?", "SELECT count(*) FROM countrylanguage WHERE countrycode = 'AFG' AND IsOfficial = 'T'", ""},
		{"How many languages does Afghanistan have?", "SELECT count(*) FROM countrylanguage WHERE countrycode = 'AFG' AND IsOfficial = 'T'", "T"},
		// A code is the short form of a name the question writes out.
		{"How many languages does Peru have?", "SELECT count(*) FROM countrylanguage WHERE countrycode = 'AFG'", "AFG"},
		{"How many reviews for businesses in California?", "SELECT count(*) FROM review WHERE state = 'CA'", ""},
		{"How many reviews for businesses in Texas?", "SELECT count(*) FROM review WHERE state = 'CA'", "CA"},
		{"Which warehouses are in the United States?", "SELECT wh_cd FROM warehouses WHERE country_code = 'US'", ""},
		// A country's ISO code that does not follow its name.
		{"Which tax codes apply to Germany?", "SELECT tax_code FROM tax_codes WHERE country_code = 'DE'", ""},
		{"Which tax codes apply to France?", "SELECT tax_code FROM tax_codes WHERE country_code = 'DE'", "DE"},
		{"How many cities are in Spain?", "SELECT count(*) FROM city WHERE countrycode = 'ESP'", ""},
		{"How many cities are in Denmark?", "SELECT count(*) FROM city WHERE countrycode = 'ESP'", "ESP"},
		{"How many car makers are in the United States?", "SELECT count(*) FROM car_makers WHERE country = 'usa'", ""},
		{"How many car makers are in the US?", "SELECT count(*) FROM car_makers WHERE country = 'usa'", ""},
		{"How many car makers sell to us?", "SELECT count(*) FROM car_makers WHERE country = 'usa'", "usa"},
		{"Which flights operate on Mondays?", "SELECT flight_number FROM flight WHERE flight_days ILIKE '%mon%'", ""},
		{"Which sales were over $30,000?", "SELECT id FROM sales WHERE price > 30000", ""},
		{"Which states have fewer than a hundred thousand people?", "SELECT state_name FROM state WHERE population < 100000", ""},
		{"Which licenses use less than 70 percent of their seats?", "SELECT name FROM licenses WHERE seats_used < 0.7 * seats", ""},
		{"Which licenses use less than 70 percent of their seats?", "SELECT name FROM licenses WHERE seats_used < 0.8 * seats", "0.8"},
		// A simple CASE is a conversion table: its values and results
		// are no filters; a searched CASE's conditions are.
		{"How many months in 2021 had reviews?", "SELECT count(*) FROM review WHERE year = 2021 AND CASE month WHEN 'January' THEN 1 WHEN 'February' THEN 2 ELSE 0 END > 0", ""},
		{"How many reviews in 2021?", "SELECT count(*) FROM review WHERE year = 2021 AND CASE WHEN month = 'March' THEN 1 ELSE 0 END = 1", "March"},
		{"Which channels have high definition TV?", `SELECT name FROM tv_channel WHERE 'yes' = "Hight_definition_TV"`, ""},
		{"Which channels are cheap?", `SELECT name FROM tv_channel WHERE "Hight_definition_TV" = 'yes'`, "yes"},
		{"Which official languages?", `SELECT language FROM countrylanguage WHERE IsOfficial = U&'\0054'`, ""},
		{"Which students are female?", "SELECT name FROM student WHERE sex = 'F'", "F"},
		{"What is the total in the past 7 days?", "SELECT sum(x) FROM t WHERE d >= current_date - interval '6 days'", ""},
		{"What is the total?", "SELECT sum(x) FROM t WHERE d >= current_date - interval '6 days'", "6 days"},
		{"What is the total in 2023?", "SELECT sum(x) FROM t WHERE date_part('year', d) = 2023 AND to_char(d, 'YYYY') <> ''", ""},
		{"What is the total in 2023?", "SELECT sum(x) FROM t WHERE EXTRACT(year FROM d) = 2023", ""},
		{"Which rivers traverse at least 3 cities?", "SELECT river FROM r WHERE traverse LIKE '%,%,%'", ""},
		{"What is the total in 2023?", "SELECT sum(x) FROM t WHERE kind = 'year'", "year"},
	} {
		got := strings.Join(unaskedConstants(parseTree(c.sql), cues.Read(gloss.Analyze(c.q), gloss.Analyze("")), gloss.Analyze(c.q), gloss.Analyze(""), nil, countryCompared(parseTree(c.sql))), ",")
		if got != c.want {
			t.Errorf("unaskedConstants(%q) = %q, want %q", c.sql, got, c.want)
		}
	}
}

// TestPeriodNamed: a date bounds the period the question names: its
// year, the year after it (the exclusive end), or a period relative to
// today; another year is not named.
func TestPeriodNamed(t *testing.T) {
	for _, c := range []struct {
		q, sql string
		want   int
	}{
		{"Revenue in 2024", "SELECT 1 FROM o WHERE d >= '2024-01-01' AND d < '2025-01-01'", 0},
		{"Revenue this year", "SELECT 1 FROM o WHERE d >= DATE '2026-01-01'", 0},
		{"Orders in the last 3 months", "SELECT 1 FROM o WHERE d >= '2026-08-27'", 0},
		{"Revenue in 2024", "SELECT 1 FROM o WHERE d >= '2022-01-01'", 1},
		{"How many orders are there?", "SELECT 1 FROM o WHERE d >= '2025-01-01'", 1},
	} {
		if got := len(unaskedConstants(parseTree(c.sql), cues.Read(gloss.Analyze(c.q), gloss.Analyze("")), gloss.Analyze(c.q), gloss.Analyze(""), nil, countryCompared(parseTree(c.sql)))); got != c.want {
			t.Errorf("%q, %q: %d unasked, want %d", c.q, c.sql, got, c.want)
		}
	}
}

// TestEndingVariant: one word but for its ending meets; different words
// sharing a short start do not.
func TestEndingVariant(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"asia", "asian", true}, {"master", "masters", true}, {"injury", "injured", true},
		{"enrolled", "enrolment", true}, {"employee", "employment", true},
		{"star", "state", false}, {"song", "songwriter", false}, {"order", "ordinal", false},
		{"age", "ages", false}, {"city", "citizenship", false}, {"cart", "cartoon", false},
	} {
		if got := endingVariant(c.a, c.b); got != c.want {
			t.Errorf("endingVariant(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
