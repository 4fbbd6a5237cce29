package validate

import (
	"slices"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// The grouped-key count lint (L013). `SELECT count(DISTINCT country) FROM
// car_makers GROUP BY country HAVING count(*) > 2` counts the different
// countries inside groups that each hold one country: the count is 1 in
// every group (0 where the country is null), so the query returns a column
// of ones, one per group, where "how many countries have more than 2 car
// makers" wanted one number. Sorting on it (ORDER BY count(DISTINCT
// language) DESC with GROUP BY language) sorts on a constant.
//
// The column is resolved, not read by its spelling: both sides name the
// same column of the same FROM item (qualified or not, quoted, by output
// position or output name in GROUP BY). Silent when the key is grouped only
// through grouping sets, ROLLUP or CUBE (their total rows hold several
// values), when either side is an expression of the column, a cast
// included (GROUP BY ts::date groups several times; count(DISTINCT
// price::text) tells 1.0 from 1.00), or another relation's column equal to
// it, and inside subqueries, which count over their own rows.

// groupedKeyCount warns about count(DISTINCT k) in the outputs, HAVING or
// ORDER BY of a level that groups by k; grouped are the columns the level
// groups by, bare (level.groupedBy with level.bareColumn).
func (a *analyzer) groupedKeyCount(s *pg.SelectStmt, lv *level, grouped map[*relation][]string) {
	if len(grouped) == 0 {
		return
	}
	visitOutputs(s, func(_ *pg.Node, m proto.Message) bool {
		fc, ok := m.(*pg.FuncCall)
		if !ok || !fc.AggDistinct || fc.Over != nil || len(fc.Args) != 1 {
			return true
		}
		if pgparse.BuiltinName(fc) != "count" {
			return true
		}
		c, ok := lv.bareColumn(fc.Args[0])
		if !ok || !slices.Contains(grouped[c.rel], c.col) {
			return true
		}
		k := identPath(c.written...)
		a.warn(CodeGroupedKeyCount, int(fc.Location),
			"count(DISTINCT %s) counts the different values of %s inside groups that each hold one of them, so it is 1 in every group (0 where %s is null); to count the groups, count in an outer query or without GROUP BY %s; to count something per group, count another column",
			k, k, k, k)
		return true
	})
}

// The one-row-group lint (L015). `SELECT id FROM tv_channel GROUP BY id
// HAVING count(*) > 2` groups a table by its primary key: every group is
// one row, so count(*) is 1 in every group, the HAVING is never true, and
// a count returned is a column of ones. It is how "channels of countries
// that have more than two channels" comes back empty: the grouping was
// meant to be by country.
//
// It needs the table's primary key (Table.PrimaryKey; a unique constraint
// is not enough: several rows may hold null in it, and they form one
// group) and speaks only when the level reads that one table and nothing
// else (a join repeats rows inside a key's group, and counting them is
// right), the GROUP BY lists every column of the key (by name, position
// or output name, in any spelling), and a count (not a window) stands in
// the outputs, HAVING or ORDER BY.

// groupsOfOneRow warns about a count in a level that groups its only
// table by its primary key; grouped as for groupedKeyCount.
func (a *analyzer) groupsOfOneRow(s *pg.SelectStmt, lv *level, grouped map[*relation][]string) {
	if len(s.FromClause) != 1 || s.FromClause[0].GetRangeVar() == nil || len(lv.rels) != 1 || lv.rels[0].table == nil {
		return // a join, a function, JSON_TABLE: a group may hold several rows
	}
	r := lv.rels[0]
	// The primary key only: a unique constraint lets several rows hold
	// null, and they form one group.
	pk := r.table.PrimaryKey
	if len(pk) == 0 || slices.ContainsFunc(pk, func(k string) bool { return !slices.Contains(grouped[r], k) }) {
		return
	}
	warned := false
	visitOutputs(s, func(_ *pg.Node, m proto.Message) bool {
		fc, ok := m.(*pg.FuncCall)
		if warned || !ok || fc.Over != nil {
			return !warned
		}
		if pgparse.BuiltinName(fc) != "count" {
			return true
		}
		// count(c.id) of an outer query's row, in a subquery, counts the
		// outer group's rows.
		outer := false
		for _, arg := range fc.Args {
			eachColumnRef(arg, func(cr *pg.ColumnRef) {
				if rel, _ := lv.resolve(cr); rel != r {
					outer = true
				}
			})
		}
		if outer {
			return true
		}
		warned = true
		a.warn(CodeGroupOfOneRow, int(fc.Location),
			"GROUP BY lists the primary key of %s, the only table read, so every group is one row and a count is 1 in every group (0 where it counts a null): a condition on it is always or never true; to count rows per value, group by that value instead of the key, or join the table whose rows you meant to count",
			r.name)
		return false
	})
}
