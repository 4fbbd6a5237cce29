package confidence_test

// Red team of 75ffc8e's two changes: measure adjectives (long ->
// length, old -> age, tall -> height, far -> distance, cheap -> price
// ...), first curated thesaurus links and now measuresAsked, and
// countryCodes, a country's ISO code read as the name the question writes
// ('DE' for "Germany"), now only where the query compares it with a
// country column (countryCompared). Each case is
// judged from its meaning: want holds the doubts a wrong answer must get,
// not the false doubts a right answer must not. A case the current code
// gets wrong is listed in rt21Limitations with why; the test checks that
// it still fails as documented (and says so when a mend makes it pass),
// so the file passes.

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/score"
)

type rt21Case struct {
	id, change, verdict string // change: "codes" or "measures"; verdict: "wrong" (must doubt) or "right" (must not say the false thing)
	q, ev, sql          string
	tables, cols        []string
	linked              []string
	values, vcols       []string
	// schema, when set, is a catalog (table -> columns; "#" a number,
	// "@" a date) the linker (package link) links the question to; its
	// columns scoring 0.8 or more are the Input's linked columns, as
	// the engine's (score.go's linkedColumnScore) are.
	schema    map[string][]string
	want, not []string
}

// rtUnasked matches "the query returns <col>, which the question does not
// ask for" for the last (or only) column the reason lists.
func rtUnasked(col string) string { return col + ", which the question does not ask for" }

// rtAsksAbout matches the QuestionCovered reason naming a question word
// the query does not use ("the question asks about tall and tallest, which
// it does not use").
func rtAsksAbout(w string) string { return "ASKS:" + w }

func rt21Has(reasons []string, w string) bool {
	if strings.HasPrefix(w, "ASKS:") {
		for _, r := range reasons {
			i, j := strings.Index(r, "the question asks about "), strings.Index(r, ", which it does not use")
			if i >= 0 && j > i && slices.ContainsFunc(strings.FieldsFunc(r[i+len("the question asks about "):j], func(c rune) bool { return c == ',' || c == ' ' }),
				func(x string) bool { return x == w[5:] }) {
				return true
			}
		}
		return false
	}
	return rt20Has(reasons, w)
}

// rt21Catalog builds a catalog in schema public without a database.
func rt21Catalog(tables map[string][]string) *schema.Catalog {
	names := make([]string, 0, len(tables))
	for n := range tables {
		names = append(names, n)
	}
	slices.Sort(names)
	var ts []*schema.Table
	for _, n := range names {
		t := &schema.Table{Schema: "public", Name: n, Kind: schema.KindTable}
		for _, c := range tables[n] {
			typ := "text"
			switch {
			case strings.HasPrefix(c, "#"):
				c, typ = c[1:], "numeric"
			case strings.HasPrefix(c, "@"):
				c, typ = c[1:], "date"
			case strings.HasSuffix(c, "_id"):
				typ = "integer"
			}
			t.Columns = append(t.Columns, schema.Column{Name: c, Type: typ})
		}
		ts = append(ts, t)
	}
	return schema.NewCatalog([]schema.Schema{{Name: "public"}}, ts, nil)
}

// rt21Limitations are the cases the current code gets wrong, and why.
// The red team first found 21 wrong answers 75ffc8e let through and 8
// right ones it newly doubted; all are mended (measuresAsked,
// countryCompared) and pass below. What is left are old gaps.
var rt21Limitations = map[string]string{
	// ---- codes: right answers still doubted ----
	"K08": "'DE' and 'ES' in a VALUES list joined on the country column: countryCompared reads a code compared with a country column in a condition, not one that reaches it through a join",
	"K09": "\"the United States of America\": the question's names are capitalised runs split at \"of\" (\"United States\", \"America\"), and \"America\" is no country's name in countryCodes (\"Bank of America\" is no country either)",
	"K11": "LIKE 'DEU%': a pattern is no code (a pattern 'LK%' is names starting LK, '%de%' letters in a name); only = and IN read a country's code",
	"K40": "'DE' for \"German suppliers\": a demonym is no name countryCodes lists (the stored value Germany is spent, but unaskedConstants reads only the question's names, not the values it links)",
	"K43": "'ES' (Spain) for El Salvador: the initials rule still reads it though countryCodes knows El Salvador is SV (an old gap the map could close)",
	"K45": "'DE' for Denmark: the one-word rule (d, then e in \"enmark\") reads it though 'DE' is Germany's (an old gap)",
	// ---- measures: wrong answers the linker does not doubt (as before 75ffc8e) ----
	"M14": "\"cheap\" answered with cost: the measures are the confidence's (measuresAsked), not the thesaurus's, so the linker links no price and nothing says the price is unread (as before 75ffc8e)",
	"M15": "the oldest student ordered by id: the linker links no age for \"oldest\" (as before 75ffc8e)",
	"M16": "the longest river ordered by traverse: the linker links no length for \"longest\" (as before 75ffc8e)",
	// ---- measures: right answers still doubted ----
	"M42": "measuresAsked adds to what the question asks, not to what the query covers: the query's height never covers the question's \"tall\" (\"the question asks about tall and tallest\" stays)",
	"M43": "\"expensive\" leads to price alone: a product's cost is still \"not asked for\"",
}

func TestRedTeam21(t *testing.T) {
	p, pub := rtList, rtPublic
	cases := []rt21Case{
		// ================= change 2: country codes =================
		// ---- right answers the codes now read (false doubts gone) ----
		{id: "K01", change: "codes", verdict: "right",
			q:      "Which suppliers are in Germany?",
			sql:    "SELECT name FROM suppliers WHERE country_code = 'DE'",
			tables: pub("suppliers"), cols: pub("suppliers.name", "suppliers.country_code"),
			values: p("Germany"), vcols: pub("countries.name"),
			not: p(rtFilter("DE"), rtNames("Germany"), rtAsksAbout("germany"))},
		{id: "K02", change: "codes", verdict: "right",
			q:      "Which suppliers are not in Germany?",
			sql:    "SELECT name FROM suppliers WHERE country_code <> 'DE'",
			tables: pub("suppliers"), cols: pub("suppliers.name", "suppliers.country_code"),
			not: p(rtFilter("DE"), rtNames("Germany"), "the question excludes something")},
		{id: "K03", change: "codes", verdict: "right",
			q:      "Which suppliers are outside Germany and the United Kingdom?",
			sql:    "SELECT name FROM suppliers WHERE country_code NOT IN ('DE', 'GB')",
			tables: pub("suppliers"), cols: pub("suppliers.name", "suppliers.country_code"),
			not: p(rtFilter("DE"), rtFilter("GB"), rtNames("Germany"), rtNames("United Kingdom"))},
		{id: "K04", change: "codes", verdict: "right",
			q:      "Which suppliers are in Germany?",
			sql:    "SELECT name FROM suppliers WHERE lower(country_code) = 'de'",
			tables: pub("suppliers"), cols: pub("suppliers.name", "suppliers.country_code"),
			values: p("Germany"), vcols: pub("countries.name"),
			not: p(rtFilter("de"), rtNames("Germany"))},
		{id: "K05", change: "codes", verdict: "right",
			q:      "Which suppliers are in Germany?",
			sql:    "SELECT name FROM suppliers WHERE country_code = E'DE'",
			tables: pub("suppliers"), cols: pub("suppliers.name", "suppliers.country_code"),
			values: p("Germany"), vcols: pub("countries.name"),
			not: p(rtFilter("DE"), rtNames("Germany"))},
		{id: "K06", change: "codes", verdict: "right",
			q:      "How many suppliers are in Germany?",
			sql:    "WITH de AS (SELECT * FROM public.suppliers s WHERE s.country_code = 'DE') SELECT count(*) FROM de",
			tables: pub("suppliers"), cols: pub("suppliers.country_code"),
			values: p("Germany"), vcols: pub("countries.name"),
			not: p(rtFilter("DE"), rtNames("Germany"))},
		{id: "K07", change: "codes", verdict: "right",
			q:      "How many suppliers are in Germany?",
			sql:    "SELECT count(*) FROM suppliers WHERE country_id IN (SELECT id FROM countries WHERE iso2 = 'DE')",
			tables: pub("suppliers", "countries"), cols: pub("suppliers.country_id", "countries.id", "countries.iso2"),
			values: p("Germany"), vcols: pub("countries.name"),
			not: p(rtFilter("DE"), rtNames("Germany"))},
		{id: "K08", change: "codes", verdict: "right",
			q:      "How many suppliers are in Germany or Spain?",
			sql:    "SELECT count(*) FROM suppliers s JOIN (VALUES ('DE'), ('ES')) v(c) ON s.country_code = v.c",
			tables: pub("suppliers"), cols: pub("suppliers.country_code"),
			not: p(rtNames("Germany"), rtNames("Spain"))},
		{id: "K09", change: "codes", verdict: "right",
			q:      "How many car makers are in the United States of America?",
			sql:    "SELECT count(*) FROM car_makers WHERE country = 'usa'",
			tables: pub("car_makers"), cols: pub("car_makers.country"),
			not: p(rtFilter("usa"), rtNames("United States"), rtNames("America"))},
		{id: "K10", change: "codes", verdict: "right",
			q:      "What are the names of Germany's suppliers?",
			sql:    "SELECT name FROM suppliers WHERE country_code = 'DE'::bpchar",
			tables: pub("suppliers"), cols: pub("suppliers.name", "suppliers.country_code"),
			not: p(rtFilter("DE"), rtNames("Germany"))},
		{id: "K11", change: "codes", verdict: "right",
			q:      "How many suppliers are in Germany?",
			sql:    "SELECT count(*) FROM suppliers WHERE country_code LIKE 'DEU%'",
			tables: pub("suppliers"), cols: pub("suppliers.country_code"),
			values: p("Germany"), vcols: pub("countries.name"),
			not: p(rtFilter("DEU%"), rtNames("Germany"))},

		// ---- wrong answers the codes still doubt ----
		{id: "K14", change: "codes", verdict: "wrong",
			q:      "How many customers are in Germany?",
			sql:    "SELECT count(*) FROM customers WHERE country_code = 'GB'",
			tables: pub("customers"), cols: pub("customers.country_code"),
			values: p("Germany"), vcols: pub("countries.name"),
			want: p(rtFilter("GB"), rtNames("Germany"))},
		{id: "K15", change: "codes", verdict: "wrong",
			q:      "How many athletes are from North Korea?",
			sql:    "SELECT count(*) FROM athletes WHERE noc = 'KOR'",
			tables: pub("athletes"), cols: pub("athletes.noc"),
			want: p(rtFilter("KOR"), rtNames("North Korea"))},
		{id: "K16", change: "codes", verdict: "wrong",
			q:      "How many stores are in Germany?",
			sql:    "SELECT count(*) FROM stores WHERE country_code IN ('DE', 'AT', 'CH')",
			tables: pub("stores"), cols: pub("stores.country_code"),
			want: p(rtFilter("AT"), rtFilter("CH")), not: p(rtFilter("DE"))},
		{id: "K17", change: "codes", verdict: "wrong",
			q:      "How many suppliers are in Spain?",
			sql:    "SELECT country_code, count(*) FROM suppliers GROUP BY country_code HAVING country_code = 'DE'",
			tables: pub("suppliers"), cols: pub("suppliers.country_code"),
			want: p(rtFilter("DE"), rtNames("Spain"))},
		{id: "K18", change: "codes", verdict: "wrong",
			q:      "Which suppliers are in Germany?",
			sql:    `SELECT name FROM suppliers WHERE country_code = "DE"`, // a column DE, no string
			tables: pub("suppliers"), cols: pub("suppliers.name", "suppliers.country_code"),
			values: p("Germany"), vcols: pub("countries.name"),
			want: p(rtNames("Germany"))},
		{id: "K19", change: "codes", verdict: "wrong",
			q:      "How many stores are not in Germany?",
			sql:    "SELECT count(*) FROM stores WHERE country_code = 'DE'",
			tables: pub("stores"), cols: pub("stores.country_code"),
			want: p("the question excludes something")},

		// ---- wrong answers the codes now let through (limitations, NEW) ----
		{id: "K20", change: "codes", verdict: "wrong",
			q:      "How many customers are in Germany?",
			sql:    "SELECT count(*) FROM customers WHERE state = 'DE'",
			tables: pub("customers"), cols: pub("customers.state"),
			values: p("Germany"), vcols: pub("customers.country"),
			want: p(rtFilter("DE"))},
		{id: "K21", change: "codes", verdict: "wrong",
			q:      "How many customers in Germany signed up in 2024?",
			sql:    "SELECT count(*) FROM customers WHERE language = 'de' AND extract(year FROM signup_date) = 2024",
			tables: pub("customers"), cols: pub("customers.language", "customers.signup_date"),
			values: p("Germany"), vcols: pub("customers.country"),
			want: p(rtFilter("de"))},
		{id: "K22", change: "codes", verdict: "wrong",
			q:      "How many customers are in Germany?",
			sql:    "SELECT count(*) FROM customers WHERE city ILIKE '%de%'",
			tables: pub("customers"), cols: pub("customers.city"),
			values: p("Germany"), vcols: pub("customers.country"),
			want: p(rtFilter("%de%"))},
		{id: "K23", change: "codes", verdict: "wrong",
			q:      "How many employees in Croatia work in HR?",
			sql:    "SELECT count(*) FROM employees WHERE department = 'HR'",
			tables: pub("employees"), cols: pub("employees.department"),
			values: p("Croatia"), vcols: pub("offices.country"),
			want: p(rtNames("Croatia"))},
		{id: "K24", change: "codes", verdict: "wrong",
			q:      "How many cars sold in Spain have ESP?",
			sql:    "SELECT count(*) FROM cars WHERE feature = 'ESP'",
			tables: pub("cars"), cols: pub("cars.feature"),
			values: p("Spain"), vcols: pub("sales.country"),
			want: p(rtNames("Spain"))},
		{id: "K25", change: "codes", verdict: "wrong",
			q:      "How many flights from the Dominican Republic are domestic?",
			sql:    "SELECT count(*) FROM flights WHERE flight_type = 'DOM'",
			tables: pub("flights"), cols: pub("flights.flight_type"),
			values: p("Dominican Republic"), vcols: pub("airports.country"),
			want: p(rtNames("Dominican Republic"))},
		{id: "K26", change: "codes", verdict: "wrong",
			q:      "What is the total area of the plots in the United Arab Emirates?",
			sql:    "SELECT sum(area) FROM plots WHERE unit = 'are'",
			tables: pub("plots"), cols: pub("plots.area", "plots.unit"),
			values: p("United Arab Emirates"), vcols: pub("plots.country"),
			want: p(rtFilter("are"), rtNames("United Arab Emirates"))},
		{id: "K27", change: "codes", verdict: "wrong",
			q:      "How many suppliers are in Germany?",
			sql:    "SELECT count(*), 'DE' AS country FROM suppliers",
			tables: pub("suppliers"),
			values: p("Germany"), vcols: pub("countries.name"),
			want: p(rtNames("Germany"))},
		{id: "K28", change: "codes", verdict: "wrong",
			q:      "How many branches does Bank of America have?",
			sql:    "SELECT count(*) FROM branches WHERE country = 'USA'",
			tables: pub("branches"), cols: pub("branches.country"),
			want: p(rtFilter("USA"))},
		{id: "K29", change: "codes", verdict: "wrong",
			q:      "How many parishes are in Vatican City?",
			sql:    "SELECT count(*) FROM parishes WHERE state = 'VA'",
			tables: pub("parishes"), cols: pub("parishes.state"),
			want: p(rtFilter("VA"))},
		{id: "K30", change: "codes", verdict: "wrong",
			q:      "How many tea estates are in Sri Lanka?",
			sql:    "SELECT count(*) FROM estates WHERE estate_name LIKE 'LK%'",
			tables: pub("estates"), cols: pub("estates.estate_name"),
			want: p(rtFilter("LK%"))},

		// ---- right answers still doubted (limitations) ----
		{id: "K33", change: "codes", verdict: "right",
			q:      "Which suppliers are in Germany?",
			sql:    "SELECT name FROM suppliers WHERE country_code = $$DE$$",
			tables: pub("suppliers"), cols: pub("suppliers.name", "suppliers.country_code"),
			values: p("Germany"), vcols: pub("countries.name"),
			not: p(rtFilter("DE"), rtNames("Germany"))},
		{id: "K35", change: "codes", verdict: "right",
			q:      "How many mines are in the Democratic Republic of the Congo?",
			sql:    "SELECT count(*) FROM mines WHERE country_code = 'COD'",
			tables: pub("mines"), cols: pub("mines.country_code"),
			values: p("Democratic Republic of the Congo"), vcols: pub("countries.name"),
			not: p(rtFilter("COD"))},
		{id: "K37", change: "codes", verdict: "right",
			q:      "How many stores are in the UK?",
			sql:    "SELECT count(*) FROM stores WHERE country_code = 'GB'",
			tables: pub("stores"), cols: pub("stores.country_code"),
			not: p(rtFilter("GB"), rtNames("UK"))},
		{id: "K40", change: "codes", verdict: "right",
			q:      "How many German suppliers are there?",
			sql:    "SELECT count(*) FROM suppliers WHERE country_code = 'DE'",
			tables: pub("suppliers"), cols: pub("suppliers.country_code"),
			values: p("Germany"), vcols: pub("countries.name"),
			not: p(rtFilter("DE"))},
		{id: "K41", change: "codes", verdict: "right",
			q:      "how many suppliers are in germany?",
			sql:    "SELECT count(*) FROM suppliers WHERE country_code = 'DE'",
			tables: pub("suppliers"), cols: pub("suppliers.country_code"),
			not: p(rtFilter("DE"))},

		// ---- wrong codes an old rule reads (limitations, not new) ----
		{id: "K43", change: "codes", verdict: "wrong",
			q:      "How many customers are in El Salvador?",
			sql:    "SELECT count(*) FROM customers WHERE country_code = 'ES'",
			tables: pub("customers"), cols: pub("customers.country_code"),
			want: p(rtFilter("ES"))},
		{id: "K45", change: "codes", verdict: "wrong",
			q:      "How many customers are in Denmark?",
			sql:    "SELECT count(*) FROM customers WHERE country_code = 'DE'",
			tables: pub("customers"), cols: pub("customers.country_code"),
			values: p("Denmark"), vcols: pub("countries.name"),
			want: p(rtFilter("DE"))},

		// ================= change 1: measure adjectives =================
		// ---- right answers the measures now read ----
		{id: "M01", change: "measures", verdict: "right",
			q:      "Who is the oldest student?",
			sql:    "SELECT fname, lname, age FROM student ORDER BY age DESC LIMIT 1",
			tables: pub("student"), cols: pub("student.fname", "student.lname", "student.age"),
			not: p(rtUnasked("age"))},
		{id: "M02", change: "measures", verdict: "right",
			q:      "How long is the Nile?",
			sql:    "SELECT length FROM river WHERE river_name = 'Nile'",
			tables: pub("river"), cols: pub("river.length", "river.river_name"),
			not: p(rtUnasked("length"))},
		{id: "M03", change: "measures", verdict: "right",
			q:      "How tall is the tallest building?",
			sql:    "SELECT max(height) FROM buildings",
			tables: pub("buildings"), cols: pub("buildings.height"),
			not: p(rtUnasked("height"))},
		{id: "M04", change: "measures", verdict: "right",
			q:      "Which aircraft can fly the farthest?",
			sql:    "SELECT name, distance FROM aircraft ORDER BY distance DESC LIMIT 1",
			tables: pub("aircraft"), cols: pub("aircraft.name", "aircraft.distance"),
			not: p(rtUnasked("distance"))},
		{id: "M05", change: "measures", verdict: "right",
			q:      "Which products are cheaper than $10?",
			sql:    "SELECT product_name, price FROM products WHERE price < 10",
			tables: pub("products"), cols: pub("products.product_name", "products.price"),
			not: p(rtUnasked("price"), rtFilter("10"))},
		{id: "M06", change: "measures", verdict: "right",
			q:      "Which is the heaviest package?",
			sql:    "SELECT package_id, weight_kg FROM packages ORDER BY weight_kg DESC LIMIT 1",
			tables: pub("packages"), cols: pub("packages.package_id", "packages.weight_kg"),
			not: p(rtUnasked("weight kg"))},
		{id: "M09", change: "measures", verdict: "right",
			q:      "Which singers are older than 40, and how long is their longest song?",
			sql:    "SELECT name, age, max(s.length) FROM singer JOIN song s USING (singer_id) WHERE age > 40 GROUP BY name, age",
			tables: pub("singer", "song"), cols: pub("singer.name", "singer.age", "song.length", "song.singer_id"),
			not: p("which the question does not ask for")},

		// ---- wrong answers the measures still doubt ----
		{id: "M10", change: "measures", verdict: "wrong",
			q:      "How long did each trip take?",
			sql:    "SELECT trip_id, distance FROM trips",
			tables: pub("trips"), cols: pub("trips.trip_id", "trips.distance"),
			want: p(rtUnasked("distance"))},
		{id: "M11", change: "measures", verdict: "wrong",
			q:      "Which mountain has the highest summit?",
			sql:    "SELECT name, height FROM mountain ORDER BY prominence DESC LIMIT 1",
			tables: pub("mountain"), cols: pub("mountain.name", "mountain.height", "mountain.prominence"),
			want: p(rtUnasked("height"))},
		{id: "M12", change: "measures", verdict: "wrong",
			q:      "Which files are the largest?",
			sql:    "SELECT name, size FROM files ORDER BY size DESC LIMIT 5",
			tables: pub("files"), cols: pub("files.name", "files.size"),
			want: p(rtUnasked("size"))},
		{id: "M13", change: "measures", verdict: "wrong",
			q:      "What are the latitude and longitude of each station?",
			sql:    "SELECT name, lat, length FROM stations",
			tables: pub("stations"), cols: pub("stations.name", "stations.lat", "stations.length"),
			want: p(rtUnasked("length"))},
		{id: "M14", change: "measures", verdict: "wrong",
			q:      "Which products are cheap?",
			sql:    "SELECT name FROM products WHERE cost < 10",
			tables: pub("products"), cols: pub("products.name", "products.cost"),
			schema: map[string][]string{"products": {"product_id", "name", "#price", "#cost"}},
			want:   p(rtNotIts("price"))},
		{id: "M15", change: "measures", verdict: "wrong",
			q:      "Who is the oldest student?",
			sql:    "SELECT fname, lname FROM student ORDER BY stuid LIMIT 1",
			tables: pub("student"), cols: pub("student.fname", "student.lname", "student.stuid"),
			schema: map[string][]string{"student": {"stuid", "fname", "lname", "#age", "sex"}},
			want:   p(rtNotIts("age"))},
		{id: "M16", change: "measures", verdict: "wrong",
			q:      "Which river is the longest?",
			sql:    "SELECT river_name FROM river ORDER BY traverse DESC LIMIT 1",
			tables: pub("river"), cols: pub("river.river_name", "river.traverse"),
			schema: map[string][]string{"river": {"river_name", "#length", "traverse"}},
			want:   p(rtNotIts("length"))},

		// ---- wrong answers the measures now let through (limitations, NEW) ----
		{id: "M17", change: "measures", verdict: "wrong",
			q:      "How long ago was each film released?",
			sql:    "SELECT title, length FROM film",
			tables: pub("film"), cols: pub("film.title", "film.length"),
			want: p(rtUnasked("length"))},
		{id: "M18", change: "measures", verdict: "wrong",
			q:      "How many runs has each member completed so far?",
			sql:    "SELECT member_id, count(*), sum(distance) FROM runs GROUP BY member_id",
			tables: pub("runs"), cols: pub("runs.member_id", "runs.distance"),
			want: p(rtUnasked("distance"))},
		{id: "M19", change: "measures", verdict: "wrong",
			q:      "Which products are no longer sold?",
			sql:    "SELECT product_name, length FROM products WHERE discontinued = 1",
			tables: pub("products"), cols: pub("products.product_name", "products.length", "products.discontinued"),
			want: p(rtUnasked("length"))},
		{id: "M20", change: "measures", verdict: "wrong",
			q:      "Which films have a long description?",
			sql:    "SELECT title, length FROM film WHERE length > 120",
			tables: pub("film"), cols: pub("film.title", "film.length"),
			want: p(rtUnasked("length"))},
		{id: "M21", change: "measures", verdict: "wrong",
			q:      "Which customers placed the oldest orders?",
			sql:    "SELECT name, age FROM customers ORDER BY age DESC LIMIT 5",
			tables: pub("customers"), cols: pub("customers.name", "customers.age"),
			want: p(rtUnasked("age"))},
		{id: "M24", change: "measures", verdict: "wrong",
			q:      "What was the old price of each product?",
			sql:    "SELECT product_name, age FROM products",
			tables: pub("products"), cols: pub("products.product_name", "products.age"),
			want: p(rtUnasked("age"))},
		{id: "M25", change: "measures", verdict: "wrong",
			q:      "Which items are fast-moving?",
			sql:    "SELECT item_name, speed FROM items ORDER BY speed DESC",
			tables: pub("items"), cols: pub("items.item_name", "items.speed"),
			want: p(rtUnasked("speed"))},
		{id: "M28", change: "measures", verdict: "wrong",
			q:      "Which supplier offers the widest range of products?",
			sql:    "SELECT s.name, max(p.width) FROM suppliers s JOIN products p ON p.supplier_id = s.id GROUP BY s.name ORDER BY 2 DESC LIMIT 1",
			tables: pub("suppliers", "products"), cols: pub("suppliers.name", "products.width", "products.supplier_id", "suppliers.id"),
			want: p(rtUnasked("width"))},
		{id: "M29", change: "measures", verdict: "wrong",
			q:      "Which members are heavy users of the gym?",
			sql:    "SELECT name, weight FROM members ORDER BY weight DESC LIMIT 10",
			tables: pub("members"), cols: pub("members.name", "members.weight"),
			want: p(rtUnasked("weight"))},
		{id: "M31", change: "measures", verdict: "wrong",
			q:      "Which albums did Neil Young release?",
			sql:    "SELECT a.title, ar.age FROM albums a JOIN artists ar ON ar.id = a.artist_id",
			tables: pub("albums", "artists"), cols: pub("albums.title", "artists.age", "artists.id", "albums.artist_id"),
			want: p(rtUnasked("age"))},

		// ---- right answers newly doubted through the linker (limitations, NEW) ----
		{id: "M32", change: "measures", verdict: "right",
			q:      "What is the cheapest subscription plan for each product?",
			sql:    "SELECT p.name, min(pl.monthly_fee) FROM products p JOIN plans pl ON pl.product_id = p.product_id GROUP BY p.name",
			tables: pub("products", "plans"), cols: pub("products.name", "plans.monthly_fee", "plans.product_id", "products.product_id"),
			schema: map[string][]string{"products": {"product_id", "name", "#price"}, "plans": {"plan_id", "product_id", "plan_name", "#monthly_fee"}},
			not:    p(rtNotIts("price"))},
		{id: "M33", change: "measures", verdict: "right",
			q:      "Which customers placed the oldest orders?",
			sql:    "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id ORDER BY o.order_date LIMIT 5",
			tables: pub("customers", "orders"), cols: pub("customers.name", "orders.customer_id", "customers.customer_id", "orders.order_date"),
			schema: map[string][]string{"customers": {"customer_id", "name", "#age"}, "orders": {"order_id", "customer_id", "@order_date"}},
			not:    p(rtNotIts("age"))},
		{id: "M34", change: "measures", verdict: "right",
			q:      "Which members are heavy users of the gym?",
			sql:    "SELECT m.name, count(*) FROM members m JOIN visits v ON v.member_id = m.member_id GROUP BY m.name ORDER BY 2 DESC LIMIT 10",
			tables: pub("members", "visits"), cols: pub("members.name", "visits.member_id", "members.member_id"),
			schema: map[string][]string{"members": {"member_id", "name", "#weight"}, "visits": {"visit_id", "member_id", "@visited_on"}},
			not:    p(rtNotIts("weight"))},
		{id: "M35", change: "measures", verdict: "right",
			q:      "Which products had deep discounts?",
			sql:    "SELECT name FROM products WHERE discount > 0.5",
			tables: pub("products"), cols: pub("products.name", "products.discount"),
			schema: map[string][]string{"products": {"product_id", "name", "#discount", "#width", "#height", "#depth"}},
			not:    p(rtNotIts("depth"))},
		{id: "M37", change: "measures", verdict: "right",
			q:      "How long ago did each customer last order?",
			sql:    "SELECT c.name, current_date - max(o.order_date) FROM customers c JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.name",
			tables: pub("customers", "orders"), cols: pub("customers.name", "orders.order_date", "orders.customer_id", "customers.customer_id"),
			schema: map[string][]string{"customers": {"customer_id", "name"}, "orders": {"order_id", "customer_id", "@order_date", "#length"}},
			not:    p(rtNotIts("length"))},
		{id: "M38", change: "measures", verdict: "right",
			q:      "How many runs has each member completed so far?",
			sql:    "SELECT m.name, count(*) FROM members m JOIN runs r ON r.member_id = m.member_id GROUP BY m.name",
			tables: pub("members", "runs"), cols: pub("members.name", "runs.member_id", "members.member_id"),
			schema: map[string][]string{"members": {"member_id", "name"}, "runs": {"run_id", "member_id", "#distance"}},
			not:    p(rtNotIts("distance"))},
		{id: "M39", change: "measures", verdict: "right",
			q:      "Which products are no longer sold?",
			sql:    "SELECT name FROM products WHERE discontinued",
			tables: pub("products"), cols: pub("products.name", "products.discontinued"),
			schema: map[string][]string{"products": {"product_id", "name", "discontinued", "#length"}},
			not:    p(rtNotIts("length"))},
		{id: "M41", change: "measures", verdict: "right",
			q:      "Which is the longest flight?",
			sql:    "SELECT flight_no FROM flights ORDER BY duration DESC LIMIT 1",
			tables: pub("flights"), cols: pub("flights.flight_no", "flights.duration"),
			schema: map[string][]string{"flights": {"flight_no", "#duration", "#length"}},
			not:    p(rtNotIts("length"))},

		// ---- right answers still doubted (limitations) ----
		{id: "M42", change: "measures", verdict: "right",
			q:      "How tall is the tallest building?",
			sql:    "SELECT max(height) FROM buildings",
			tables: pub("buildings"), cols: pub("buildings.height"),
			not: p(rtAsksAbout("tall"), rtAsksAbout("tallest"))},
		{id: "M43", change: "measures", verdict: "right",
			q:      "What is the most expensive product?",
			sql:    "SELECT product_name, cost FROM products ORDER BY cost DESC LIMIT 1",
			tables: pub("products"), cols: pub("products.product_name", "products.cost"),
			not: p(rtUnasked("cost"))},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.id] {
			t.Fatalf("case %s twice", c.id)
		}
		seen[c.id] = true
	}
	for id := range rt21Limitations {
		if !seen[id] {
			t.Errorf("limitation %s names no case", id)
		}
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			in := &score.Input{Question: c.q, Evidence: c.ev, Columns: c.linked, Values: c.values, ValueColumns: c.vcols,
				Candidates: []score.Candidate{{SQL: c.sql, Votes: 1, Tables: c.tables, Columns: c.cols, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
			if c.schema != nil {
				for _, cl := range link.New(rt21Catalog(c.schema)).Link(ctx, c.q, c.ev, nil).Columns {
					if cl.Score >= 0.8 {
						in.Columns = append(in.Columns, cl.Table+"."+cl.Column)
						in.ColumnPhrases = append(in.ColumnPhrases, cl.Phrase)
					}
				}
			}
			s := confidence.Of(in, []float64{1}, 0)
			rs := s.Reasons()
			r := strings.Join(rs, " | ")
			var failed []string
			for _, w := range c.want {
				if !rt21Has(rs, w) {
					failed = append(failed, "missing doubt "+w)
				}
			}
			for _, n := range c.not {
				if rt21Has(rs, n) {
					failed = append(failed, "false doubt "+n)
				}
			}
			why, limited := rt21Limitations[c.id]
			switch {
			case limited && len(failed) == 0:
				t.Errorf("%s (%s, %s) is listed as a limitation (%s) but now passes: move it out of rt21Limitations\n  q %q\n  sql %q\n  reasons %q", c.id, c.change, c.verdict, why, c.q, c.sql, r)
			case limited:
				t.Logf("[%s %s] a limitation as documented (%s): %s; reasons %q", c.change, c.verdict, why, strings.Join(failed, "; "), r)
			default:
				for _, f := range failed {
					t.Errorf("%s (%s, %s): %s\n  q %q\n  sql %q\n  reasons %q", c.id, c.change, c.verdict, f, c.q, c.sql, r)
				}
				t.Logf("[%s %s] reasons: %q", c.change, c.verdict, r)
			}
		})
	}
}
