package validate_test

import (
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestGroupedKeyCount: count(DISTINCT k) where the level groups by the
// same column k is reported (L013) in every spelling of the column and of
// the grouping; a count of another column, of an expression of k, of k
// grouped only through grouping sets, or in a subquery is not.
func TestGroupedKeyCount(t *testing.T) {
	v := validate.New(validate.WithTables(
		validate.Table{Schema: "public", Name: "car_makers", Columns: []string{"id", "maker", "country"}},
		validate.Table{Schema: "public", Name: "countries", Columns: []string{"countryid", "countryname", "continent"}},
		validate.Table{Schema: "public", Name: "Makers", Columns: []string{"Country", "maker"}},
		validate.Table{Schema: "s2", Name: "car_makers", Columns: []string{"id", "maker", "country"}},
	))
	cases := []struct {
		name string
		sql  string
		want int // L013 warnings
	}{
		{"unqualified", "SELECT count(DISTINCT country) FROM car_makers GROUP BY country HAVING count(*) > 2", 1},
		{"qualified by alias", "SELECT count(DISTINCT m.country) FROM car_makers m GROUP BY m.country", 1},
		{"qualified one side only", "SELECT count(DISTINCT car_makers.country) FROM car_makers GROUP BY country", 1},
		{"schema-qualified table", "SELECT count(DISTINCT public.car_makers.country) FROM public.car_makers GROUP BY car_makers.country", 1},
		{"quoted", `SELECT count(DISTINCT "country") FROM car_makers GROUP BY "country"`, 1},
		{"upper case", "SELECT COUNT(DISTINCT COUNTRY) FROM CAR_MAKERS GROUP BY COUNTRY", 1},
		{"unicode escape", `SELECT count(DISTINCT U&"\0063ountry") FROM car_makers GROUP BY country`, 1},
		{"quoted upper-case column", `SELECT count(DISTINCT "Country") FROM "Makers" GROUP BY "Country"`, 1},
		{"pg_catalog count", "SELECT pg_catalog.count(DISTINCT country) FROM car_makers GROUP BY country", 1},
		{"grouped by position", "SELECT country, count(DISTINCT country) FROM car_makers GROUP BY 1", 1},
		{"grouped by output name", "SELECT country AS c, count(DISTINCT country) FROM car_makers GROUP BY c", 1},
		{"in HAVING", "SELECT country FROM car_makers GROUP BY country HAVING count(DISTINCT country) > 1", 1},
		{"in ORDER BY, joined", "SELECT count(DISTINCT t2.countryname) FROM car_makers t1 JOIN countries t2 ON t1.country = t2.countryid::text GROUP BY t1.country ORDER BY count(DISTINCT t1.country) DESC LIMIT 1", 1},
		{"with a filter", "SELECT count(DISTINCT country) FILTER (WHERE maker <> 'fiat') FROM car_makers GROUP BY country", 1},
		{"grouped with another key", "SELECT maker, count(DISTINCT country) FROM car_makers GROUP BY maker, country", 1},
		{"in a CTE", "WITH c AS (SELECT count(DISTINCT country) AS n FROM car_makers GROUP BY country) SELECT sum(n) FROM c", 1},
		{"in a FROM subquery", "SELECT max(n) FROM (SELECT count(DISTINCT country) AS n FROM car_makers GROUP BY country) s", 1},
		{"in a sublink", "SELECT countryname FROM countries WHERE 1 < (SELECT count(DISTINCT country) FROM car_makers GROUP BY country LIMIT 1)", 1},
		{"in a LATERAL subquery", "SELECT c.countryname, l.n FROM countries c CROSS JOIN LATERAL (SELECT count(DISTINCT m.country) AS n FROM car_makers m WHERE m.country = c.countryid::text GROUP BY m.country) l", 1},
		{"in a set operation's side", "SELECT count(DISTINCT country) FROM car_makers GROUP BY country UNION ALL SELECT 0", 1},

		{"another column", "SELECT country, count(DISTINCT maker) FROM car_makers GROUP BY country", 0},
		// A cast may make equal values of different ones, or different
		// text of equal ones (numeric 1.0 and 1.00).
		{"counted cast", "SELECT count(DISTINCT country::text) FROM car_makers GROUP BY country", 0},
		{"grouped by a cast", "SELECT country::varchar(1) AS c, count(DISTINCT country) FROM car_makers GROUP BY country::varchar(1)", 0},
		{"grouped by a cast's position", "SELECT country::varchar(1), count(DISTINCT country) FROM car_makers GROUP BY 1", 0},
		{"grouped by a cast's output name", "SELECT country::varchar(1) AS c, count(DISTINCT country) FROM car_makers GROUP BY c", 0},
		{"same table name, other schema", "SELECT count(DISTINCT s2.car_makers.country) FROM public.car_makers JOIN s2.car_makers ON s2.car_makers.id >= public.car_makers.id GROUP BY public.car_makers.country", 0},
		{"same table name, this schema", "SELECT count(DISTINCT public.car_makers.country) FROM public.car_makers JOIN s2.car_makers ON s2.car_makers.id >= public.car_makers.id GROUP BY public.car_makers.country", 1},
		{"GROUP BY 1.0 is no position", "SELECT country, count(DISTINCT country) FROM car_makers GROUP BY 1.0", 0},
		{"no DISTINCT", "SELECT country, count(country) FROM car_makers GROUP BY country", 0},
		{"not grouped", "SELECT count(DISTINCT country) FROM car_makers", 0},
		{"grouped by an expression of it", "SELECT count(DISTINCT country) FROM car_makers GROUP BY lower(country)", 0},
		{"grouping sets", "SELECT count(DISTINCT country) FROM car_makers GROUP BY GROUPING SETS ((country), ())", 0},
		{"rollup", "SELECT maker, count(DISTINCT country) FROM car_makers GROUP BY ROLLUP (maker, country)", 0},
		{"same name, other table", "SELECT count(DISTINCT c.countryname) FROM car_makers m JOIN countries c ON m.country = c.countryid::text GROUP BY m.country", 0},
		{"joined column equal to the key", "SELECT count(DISTINCT c.countryid) FROM car_makers m JOIN countries c ON m.country = c.countryid::text GROUP BY m.country", 0},
		{"subquery counts its own rows", "SELECT country, (SELECT count(DISTINCT x.country) FROM car_makers x) FROM car_makers GROUP BY country", 0},
		{"outer count over grouped subquery", "SELECT count(DISTINCT country) FROM (SELECT country FROM car_makers GROUP BY country) s", 0},
		{"window", "SELECT country, count(*) OVER (PARTITION BY country) FROM car_makers GROUP BY country", 0},
	}
	for _, tc := range cases {
		if got := issuesOf(t, v, tc.name, tc.sql, validate.CodeGroupedKeyCount, "1 in every group"); len(got) != tc.want {
			t.Errorf("%s: %d L013 warnings, want %d (%v)", tc.name, len(got), tc.want, got)
		}
	}
}

// TestAggregateSetOp: INTERSECT or EXCEPT between two single rows of
// aggregates is reported (L014) in every spelling; UNION of such rows, and
// set operations of rows, of groups or of mixed outputs are not.
func TestAggregateSetOp(t *testing.T) {
	v := validate.New(validate.WithTables(
		validate.Table{Schema: "public", Name: "countrylanguage", Columns: []string{"countrycode", "language", "isofficial"}},
	))
	const dutch = "SELECT count(*) FROM countrylanguage WHERE language = 'Dutch'"
	const english = "SELECT count(*) FROM countrylanguage WHERE language = 'English'"
	cases := []struct {
		name string
		sql  string
		want int // L014 warnings
	}{
		{"INTERSECT of counts", dutch + " INTERSECT " + english, 1},
		{"EXCEPT of counts", dutch + " EXCEPT " + english, 1},
		{"INTERSECT ALL", dutch + " INTERSECT ALL " + english, 1},
		{"upper case, qualified", "SELECT PG_CATALOG.COUNT(*) FROM COUNTRYLANGUAGE WHERE LANGUAGE = 'Dutch' INTERSECT SELECT COUNT(*) FROM COUNTRYLANGUAGE", 1},
		{"quoted", `SELECT "count"(*) FROM countrylanguage INTERSECT SELECT count("countrycode") FROM countrylanguage`, 1},
		{"counts of distinct values", "SELECT count(DISTINCT countrycode) FROM countrylanguage WHERE language = 'Dutch' INTERSECT SELECT count(DISTINCT countrycode) FROM countrylanguage WHERE language = 'English'", 1},
		{"cast", "SELECT count(*)::int FROM countrylanguage INTERSECT SELECT sum(1)::int FROM countrylanguage", 1},
		{"two figures each", "SELECT count(*), count(DISTINCT language) FROM countrylanguage INTERSECT SELECT count(*), avg(length(language)) FROM countrylanguage WHERE isofficial = 'T'", 1},
		{"with HAVING, no GROUP BY", dutch + " HAVING count(*) > 0 INTERSECT " + english, 1},
		{"parenthesised sides", "(" + dutch + ") INTERSECT (" + english + ")", 1},
		{"under WITH", "WITH d AS (SELECT 'Dutch' AS l) " + dutch + " INTERSECT " + english, 1},

		{"UNION of counts", dutch + " UNION " + english, 0},
		{"INTERSECT of rows", "SELECT countrycode FROM countrylanguage WHERE language = 'Dutch' INTERSECT SELECT countrycode FROM countrylanguage WHERE language = 'English'", 0},
		{"grouped counts", "SELECT count(*) FROM countrylanguage GROUP BY language INTERSECT " + english, 0},
		{"a column beside the count", "SELECT language, count(*) FROM countrylanguage GROUP BY language INTERSECT SELECT 'English', count(*) FROM countrylanguage", 0},
		{"a constant side", dutch + " INTERSECT SELECT 3", 0},
		{"a window", "SELECT count(*) OVER () FROM countrylanguage INTERSECT " + english, 0},
		{"nested set operation", "(" + dutch + " UNION " + english + ") INTERSECT " + english, 0},
		{"in a CTE", "WITH b AS (" + dutch + " INTERSECT " + english + ") SELECT * FROM b", 0},
		{"in a sublink: as many as", "SELECT DISTINCT c.countrycode FROM countrylanguage c WHERE EXISTS (SELECT count(*) FROM countrylanguage x WHERE x.countrycode = c.countrycode AND x.isofficial = 'T' INTERSECT SELECT count(*) FROM countrylanguage y WHERE y.countrycode = c.countrycode AND y.isofficial = 'F')", 0},
		{"in a FROM subquery", "SELECT * FROM (" + dutch + " INTERSECT " + english + ") s", 0},
		{"extremes compared", "SELECT max(language) FROM countrylanguage INTERSECT SELECT max(language) FROM countrylanguage WHERE isofficial = 'T'", 0},
		{"sets compared as arrays", "SELECT array_agg(language ORDER BY language) FROM countrylanguage WHERE countrycode = 'NLD' EXCEPT SELECT array_agg(language ORDER BY language) FROM countrylanguage WHERE countrycode = 'BEL'", 0},
	}
	for _, tc := range cases {
		if got := issuesOf(t, v, tc.name, tc.sql, validate.CodeAggregateSetOp, "not the rows they count"); len(got) != tc.want {
			t.Errorf("%s: %d L014 warnings, want %d (%v)", tc.name, len(got), tc.want, got)
		}
	}
}

// TestGroupOfOneRow: a count in a level that groups its only table by its
// primary key is reported (L015) in every spelling of the key and the
// grouping; a count over a join, a group by a non-key or by a unique set
// (several rows may hold null), a table without known keys, or a window
// count is not.
func TestGroupOfOneRow(t *testing.T) {
	v := validate.New(validate.WithTables(
		validate.Table{Schema: "public", Name: "tv_channel", Columns: []string{"id", "country", "language"}, PrimaryKey: []string{"id"}},
		validate.Table{Schema: "public", Name: "cartoon", Columns: []string{"id", "channel", "title"}, PrimaryKey: []string{"id"}, Unique: [][]string{{"channel", "title"}},
			ForeignKeys: []validate.ForeignKey{{Columns: []string{"channel"}, RefTable: "tv_channel", RefColumns: []string{"id"}}}},
		validate.Table{Schema: "public", Name: "loose", Columns: []string{"id", "country"}},
		validate.Table{Schema: "public", Name: "airing", Columns: []string{"channel", "show_id", "minutes"}, PrimaryKey: []string{"channel", "show_id"}},
		validate.Table{Schema: "public", Name: "Channels", Columns: []string{"ID", "country"}, PrimaryKey: []string{"ID"}},
	))
	cases := []struct {
		name string
		sql  string
		want int // L015 warnings
	}{
		{"HAVING count(*)", "SELECT id FROM tv_channel GROUP BY id HAVING COUNT(*) > 2", 1},
		{"count returned", "SELECT id, count(*) FROM tv_channel GROUP BY id", 1},
		{"count of a column", "SELECT id, count(language) FROM tv_channel GROUP BY id", 1},
		{"count DISTINCT of another column", "SELECT count(DISTINCT language) FROM tv_channel GROUP BY id", 1},
		{"key with more columns", "SELECT id, country, count(*) FROM tv_channel GROUP BY id, country", 1},
		{"in ORDER BY", "SELECT id FROM tv_channel GROUP BY id ORDER BY count(*) DESC LIMIT 1", 1},
		{"qualified, aliased", "SELECT t.id FROM public.tv_channel AS t GROUP BY t.id HAVING count(*) >= 2", 1},
		{"upper case", "SELECT ID FROM TV_CHANNEL GROUP BY ID HAVING COUNT(*) > 2", 1},
		{"quoted key", `SELECT "ID" FROM "Channels" GROUP BY "ID" HAVING count(*) > 1`, 1},
		{"unicode escape", `SELECT U&"\0069d" FROM tv_channel GROUP BY 1 HAVING count(*) > 1`, 1},
		{"by output name", "SELECT id AS channel_id, count(*) FROM tv_channel GROUP BY channel_id", 1},
		{"pg_catalog count", "SELECT id FROM tv_channel GROUP BY id HAVING pg_catalog.count(*) > 1", 1},
		{"a composite primary key", "SELECT show_id, channel, count(*) FROM airing GROUP BY channel, show_id", 1},
		{"in a CTE", "WITH c AS (SELECT id, count(*) AS n FROM tv_channel GROUP BY id) SELECT max(n) FROM c", 1},
		{"in a sublink", "SELECT title FROM cartoon WHERE channel IN (SELECT id FROM tv_channel GROUP BY id HAVING count(*) > 2)", 1},
		{"in a LATERAL subquery", "SELECT c.title, l.n FROM cartoon c CROSS JOIN LATERAL (SELECT t.id, count(*) AS n FROM tv_channel t WHERE t.id = c.channel GROUP BY t.id) l", 1},
		{"renamed by an alias list", "SELECT k FROM tv_channel AS t (k, c, l) GROUP BY k HAVING count(*) > 2", 1},

		{"grouped by a non-key", "SELECT country FROM tv_channel GROUP BY country HAVING count(*) > 2", 0},
		{"the intended query", "SELECT id FROM tv_channel WHERE country IN (SELECT country FROM tv_channel GROUP BY country HAVING count(*) > 2)", 0},
		{"part of a composite key", "SELECT channel, count(*) FROM airing GROUP BY channel", 0},
		{"a unique set, which may hold several nulls", "SELECT channel, title, count(*) FROM cartoon GROUP BY channel, title", 0},
		{"over a join", "SELECT t.id, count(*) FROM tv_channel t JOIN cartoon c ON c.channel = t.id GROUP BY t.id", 0},
		{"no count", "SELECT id, max(language) FROM tv_channel GROUP BY id", 0},
		{"no keys known", "SELECT id FROM loose GROUP BY id HAVING count(*) > 2", 0},
		{"a window count", "SELECT id, count(*) OVER () FROM tv_channel GROUP BY id", 0},
		{"grouping sets", "SELECT id, count(*) FROM tv_channel GROUP BY GROUPING SETS ((id), ())", 0},
		{"a subquery's count", "SELECT id, (SELECT count(*) FROM cartoon c WHERE c.channel = t.id) FROM tv_channel t GROUP BY id", 0},
		{"grouped by a cast of the key", "SELECT id::text AS k, count(*) FROM tv_channel GROUP BY id::text", 0},
		{"an outer query's count", "SELECT c.channel, (SELECT t.id FROM tv_channel t GROUP BY t.id HAVING count(c.id) > 1 LIMIT 1) FROM cartoon c GROUP BY c.channel", 0},
		{"a function beside it", "SELECT t.id, count(*) FROM tv_channel t, generate_series(1, 3) g GROUP BY t.id", 0},
		{"JSON_TABLE beside it", "SELECT t.id, count(*) FROM tv_channel t, JSON_TABLE(t.language::jsonb, '$[*]' COLUMNS (v text PATH '$')) j GROUP BY t.id", 0},
		{"a grouped subquery", "SELECT id, count(*) FROM (SELECT id FROM tv_channel) s GROUP BY id", 0},
	}
	for _, tc := range cases {
		if got := issuesOf(t, v, tc.name, tc.sql, validate.CodeGroupOfOneRow, "every group is one row"); len(got) != tc.want {
			t.Errorf("%s: %d L015 warnings, want %d (%v)", tc.name, len(got), tc.want, got)
		}
	}
}

// TestOutputPositionLiterals: a GROUP BY constant is an output position
// only when it is an integer literal in range, as PostgreSQL reads it; a
// literal too large for an int (which once wrapped into a negative index
// and panicked), a float or a string is none, with or without lint.
func TestOutputPositionLiterals(t *testing.T) {
	tables := validate.WithTables(validate.Table{Schema: "public", Name: "t", Columns: []string{"id", "a"}, PrimaryKey: []string{"id"}})
	for _, v := range []*validate.Validator{validate.New(), validate.New(tables), validate.New(tables, validate.WithLint(false))} {
		for _, sql := range []string{
			"SELECT 1 GROUP BY 1e30",
			"SELECT id FROM t GROUP BY 9223372036854775808",
			"SELECT id, count(*) FROM t GROUP BY 1e19 HAVING count(*) > 1",
			"SELECT count(DISTINCT id) FROM t GROUP BY 'Infinity'",
			"SELECT count(DISTINCT id) FROM t GROUP BY '1e300'",
			"SELECT id FROM t GROUP BY 2147483648 ORDER BY 1e30",
			"SELECT a, sum(id) FROM t GROUP BY -1",
		} {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s: panic %v", sql, r)
					}
				}()
				res, err := v.Validate(sql)
				if err != nil {
					return // refused is fine; a panic is not
				}
				for _, is := range res.Issues {
					if is.Code == validate.CodeGroupedKeyCount || is.Code == validate.CodeGroupOfOneRow {
						t.Errorf("%s: %s read a constant as a position", sql, is)
					}
				}
			}()
		}
	}
}
