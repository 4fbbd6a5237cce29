package confidence_test

import (
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/score"
)

// owedCase is one question and query whose reasons must (want) or must
// not (not) hold a doubt.
type owedCase struct {
	name, q, evidence, sql string
	tables, columns        []string // the candidate's
	linked, phrases        []string // Input.Columns and ColumnPhrases
	values, valueColumns   []string // Input.Values and ValueColumns
	want, not              []string
}

func (c owedCase) check(t *testing.T) {
	t.Helper()
	in := &score.Input{Question: c.q, Evidence: c.evidence, Columns: c.linked, ColumnPhrases: c.phrases, Values: c.values, ValueColumns: c.valueColumns,
		Candidates: []score.Candidate{{SQL: c.sql, Votes: 1, Tables: c.tables, Columns: c.columns, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
	s := confidence.Of(in, []float64{1}, 0)
	r := strings.Join(s.Reasons(), " | ")
	for _, w := range c.want {
		if !strings.Contains(r, w) {
			t.Errorf("%s: missing doubt %q\n  reasons %q", c.name, w, r)
		}
	}
	for _, n := range c.not {
		if strings.Contains(r, n) {
			t.Errorf("%s: false doubt %q\n  reasons %q", c.name, n, r)
		}
	}
}

// TestColumnsNotOwed: a linked column the query leaves unused is not
// owed when its phrase is the evidence's, not the question's, or when the
// query spends the phrase on a value it compares where the value is
// stored, or uses through the evidence's definition. Whatever else the
// query does with the phrase leaves the column owed.
func TestColumnsNotOwed(t *testing.T) {
	const missed = "which the question names"
	airlines := []string{"public.airlines"}
	jetblue := owedCase{q: "Which country is JetBlue Airways from?", tables: airlines,
		linked:  []string{"public.airlines.abbreviation", "public.airlines.airline", "public.airlines.country"},
		phrases: []string{"JetBlue", "JetBlue Airways", "country"},
		values:  []string{"JetBlue", "JetBlue Airways"}, valueColumns: []string{"public.airlines.abbreviation", "public.airlines.airline"}}
	cases := []owedCase{}
	add := func(base owedCase, name, sql string, columns, want, not []string) {
		c := base
		c.name, c.sql, c.columns, c.want, c.not = name, sql, columns, want, not
		cases = append(cases, c)
	}
	add(jetblue, "value compared where stored", "SELECT country FROM airlines WHERE airline = 'JetBlue Airways'",
		[]string{"public.airlines.country", "public.airlines.airline"}, nil, []string{missed})
	add(jetblue, "value compared with a column that does not store it", "SELECT country FROM airlines WHERE callsign = 'JetBlue Airways'",
		[]string{"public.airlines.country", "public.airlines.callsign"}, []string{"but not its abbreviation, " + missed}, nil)
	add(jetblue, "value left out", "SELECT country FROM airlines",
		[]string{"public.airlines.country"}, []string{"but not its abbreviation, " + missed}, nil)
	// The question's words as it writes them: "Jetblue" is one word,
	// 'JetBlue Airways' splits into jet, blue, airways.
	lower := jetblue
	lower.q, lower.phrases = "What country is Jetblue Airways affiliated with?", []string{"Jetblue", "Jetblue Airways", "country"}
	add(lower, "value written otherwise", "SELECT country FROM airlines WHERE airline = 'JetBlue Airways'",
		[]string{"public.airlines.country", "public.airlines.airline"}, nil, []string{missed})
	// Selecting the storing column is no comparison with it.
	add(jetblue, "stored column selected, another compared", "SELECT airline, country FROM airlines WHERE callsign = 'JetBlue Airways'",
		[]string{"public.airlines.country", "public.airlines.airline", "public.airlines.callsign"}, []string{"but not its abbreviation, " + missed}, nil)
	// The phrases unknown (a Scorer's own Input): every unused link is owed.
	nophrases := jetblue
	nophrases.phrases = nil
	add(nophrases, "phrases unknown", "SELECT country FROM airlines WHERE airline = 'JetBlue Airways'",
		[]string{"public.airlines.country", "public.airlines.airline"}, []string{"but not its abbreviation, " + missed}, nil)
	// A word of a longer value: "territory" reaches country.region.
	territory := owedCase{q: "What is the total population of nations which are US territory?", tables: []string{"public.country"},
		linked: []string{"public.country.region", "public.country.governmentform"}, phrases: []string{"territory", "US territory"},
		values: []string{"US Territory"}, valueColumns: []string{"public.country.governmentform"}}
	add(territory, "a word of the value used", "SELECT sum(population) FROM country WHERE governmentform = 'US Territory'",
		[]string{"public.country.population", "public.country.governmentform"}, nil, []string{missed})
	add(territory, "a word of the value unused", "SELECT sum(population) FROM country WHERE region = 'Oceania'",
		[]string{"public.country.population", "public.country.region"}, []string{"but not its governmentform, " + missed}, nil)
	// The evidence defines the value by a code the query compares with.
	rotterdam := owedCase{q: "Which products in the Rotterdam hub are below their reorder point?", evidence: "the Rotterdam hub is warehouse WH-RTM",
		tables: []string{"public.inventory", "public.warehouses"},
		linked: []string{"public.warehouses.city", "public.warehouses.wh_name"}, phrases: []string{"Rotterdam", "Rotterdam hub"},
		values: []string{"Rotterdam", "Rotterdam Hub"}, valueColumns: []string{"public.warehouses.city", "public.warehouses.wh_name"}}
	cols := []string{"public.inventory.sku", "public.inventory.qty", "public.inventory.reorder_pt", "public.inventory.wh_id", "public.warehouses.wh_id", "public.warehouses.wh_cd"}
	add(rotterdam, "the evidence's code used", "SELECT i.sku FROM inventory i JOIN warehouses w ON w.wh_id = i.wh_id WHERE w.wh_cd = 'WH-RTM' AND i.qty < i.reorder_pt",
		cols, nil, []string{missed, `names "Rotterdam"`})
	add(rotterdam, "another code", "SELECT i.sku FROM inventory i JOIN warehouses w ON w.wh_id = i.wh_id WHERE w.wh_cd = 'WH-OSL' AND i.qty < i.reorder_pt",
		cols, []string{"but not its city and wh_name, " + missed, `names "Rotterdam"`}, nil)
	add(rotterdam, "the code dropped", "SELECT i.sku FROM inventory i JOIN warehouses w ON w.wh_id = i.wh_id WHERE i.qty < i.reorder_pt",
		cols, []string{"but not its city and wh_name, " + missed, `names "Rotterdam"`}, nil)
	other := rotterdam
	other.evidence = "the Rotterdam hub is our largest warehouse; the Oslo depot is warehouse WH-OSL"
	add(other, "a code another clause defines", "SELECT i.sku FROM inventory i JOIN warehouses w ON w.wh_id = i.wh_id WHERE w.wh_cd = 'WH-OSL' AND i.qty < i.reorder_pt",
		cols, []string{"but not its city and wh_name, " + missed, `names "Rotterdam"`}, nil)
	// The open deals: the evidence defines them by the stages they are not in.
	cases = append(cases, owedCase{name: "a value defined by the values it excludes", q: "What is the total value of open deals per pipeline stage?",
		evidence: "open deals are opportunities not in stage Closed Won or Closed Lost", tables: []string{"public.opportunities"},
		sql:     "SELECT stage, sum(amount) FROM opportunities WHERE stage NOT IN ('Closed Won', 'Closed Lost') GROUP BY stage",
		columns: []string{"public.opportunities.stage", "public.opportunities.amount"}, values: []string{"Open"},
		not: []string{`names "Open"`}})
	// A phrase of the evidence alone asks for nothing: defog's
	// instructions name the columns of other questions too.
	reviews := owedCase{q: "How many reviews were posted in 2021?", evidence: "Use review.rating for ratings; the text is in review.text",
		tables: []string{"public.review"}, linked: []string{"public.review.rating", "public.review.year"}, phrases: []string{"review.rating", "2021"}}
	add(reviews, "a column the evidence names", "SELECT count(*) FROM review WHERE year = 2021",
		[]string{"public.review.year"}, nil, []string{missed})
	asked := reviews
	asked.q = "How many reviews with a rating were posted in 2021?"
	asked.phrases = []string{"rating", "2021"}
	add(asked, "a column the question names", "SELECT count(*) FROM review WHERE year = 2021",
		[]string{"public.review.year"}, []string{"but not its rating, " + missed}, nil)
	for _, c := range cases {
		c.check(t)
	}
}

// TestValuesSpelledOtherwise: numbers a query writes otherwise than the
// question: the past 7 days bounded from today included, a month or a
// weekday as its number, a type's modifiers.
func TestValuesSpelledOtherwise(t *testing.T) {
	sales := []string{"public.sales"}
	mention := func(v string) string { return `the query filters on "` + v + `"` }
	named := func(v string) string { return `the question names "` + v + `"` }
	for _, c := range []owedCase{
		{name: "the past 7 days, today included", q: "What is the total of sales in the past 7 days, inclusive of today?",
			sql: "SELECT sum(amount) FROM sales WHERE sold_on >= CURRENT_DATE - INTERVAL '6 days'", not: []string{named("7")}},
		{name: "the past 7 days", q: "What is the total of sales in the past 7 days?",
			sql: "SELECT sum(amount) FROM sales WHERE sold_on >= CURRENT_DATE - INTERVAL '7 days'", not: []string{named("7")}},
		{name: "the past 7 days, 5 back", q: "What is the total of sales in the past 7 days?",
			sql: "SELECT sum(amount) FROM sales WHERE sold_on >= CURRENT_DATE - INTERVAL '5 days'", want: []string{named("7")}},
		{name: "7 sales, not a period", q: "Which customers made more than 7 sales?",
			sql: "SELECT customer_id FROM sales GROUP BY customer_id HAVING count(*) > 6", want: []string{named("7")}},
		{name: "months by their numbers", q: "How many sales were there between June 2021 and December 2021?",
			sql: "SELECT count(*) FROM sales WHERE extract(year FROM sold_on) = 2021 AND extract(month FROM sold_on) BETWEEN 6 AND 12", not: []string{"filters on"}},
		{name: "a month the question does not name", q: "How many sales were there in 2021?",
			sql: "SELECT count(*) FROM sales WHERE extract(year FROM sold_on) = 2021 AND extract(month FROM sold_on) = 6", want: []string{mention("6")}},
		{name: "weekends", q: "How many sales were made on weekends?",
			sql: "SELECT count(*) FROM sales WHERE extract(dow FROM sold_on) IN (0, 6)", not: []string{"filters on"}},
		{name: "Tuesdays", q: "How many sales were made on Tuesdays?",
			sql: "SELECT count(*) FROM sales WHERE extract(isodow FROM sold_on) = 2", not: []string{"filters on"}},
		{name: "weekdays for a Saturday", q: "How many sales were made on Saturdays?",
			sql: "SELECT count(*) FROM sales WHERE extract(dow FROM sold_on) = 3", want: []string{mention("3")}},
		{name: "may is no month", q: "Which sales may have been refunded?",
			sql: "SELECT id FROM sales WHERE status = 5", want: []string{mention("5")}},
		{name: "a type's modifiers", q: "What is the average sale amount?",
			sql: "SELECT avg(amount) FROM sales WHERE amount::numeric(10, 2) > 0", not: []string{"filters on"}},
		{name: "an interval's field", q: "How many sales were made in the past 70 days?",
			sql: "SELECT count(*) FROM sales WHERE sold_on >= CURRENT_DATE - INTERVAL '70' DAY", not: []string{"filters on", named("70")}},
		{name: "a number in a cast", q: "How many sales were made in the past 70 days?",
			sql: "SELECT count(*) FROM sales WHERE sold_on >= CURRENT_DATE - INTERVAL '70' DAY AND amount > CAST(8 AS numeric(10, 2))", want: []string{mention("8")}},
	} {
		c.tables = sales
		c.check(t)
	}
}

// TestCountOfAStep: a count that a WITH query or a subquery in FROM
// computes and the query returns as it is answers "how many"; a step's
// count the query only filters on does not.
func TestCountOfAStep(t *testing.T) {
	const howMany = "the question asks how many"
	q := "How many new patients were there each year? Return the year and the number of new patients."
	tables := []string{"public.patients"}
	for _, c := range []owedCase{
		{name: "a WITH query's count returned", sql: "WITH per_year AS (SELECT extract(year FROM first_seen) AS year, count(*) AS new_patients FROM patients GROUP BY 1) SELECT year, new_patients FROM per_year ORDER BY year",
			not: []string{howMany}},
		{name: "a subquery's count returned, qualified", sql: "SELECT s.year, s.n FROM (SELECT extract(year FROM first_seen) AS year, COUNT(patient_id) AS n FROM patients GROUP BY 1) s",
			not: []string{howMany}},
		{name: "a step's count filtered on only", sql: "WITH per_year AS (SELECT extract(year FROM first_seen) AS year, count(*) AS new_patients FROM patients GROUP BY 1) SELECT year FROM per_year WHERE new_patients > 3",
			want: []string{howMany}},
		{name: "a step's maximum returned", sql: "WITH per_year AS (SELECT extract(year FROM first_seen) AS year, max(age) AS new_patients FROM patients GROUP BY 1) SELECT year, new_patients FROM per_year",
			want: []string{howMany}},
	} {
		c.q, c.tables = q, tables
		c.check(t)
	}
}
