package validate

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// System columns. Every table has columns the query does not list:
// xmin and xmax (the ids of the transactions that wrote and deleted the
// row version: age(xmin) or xmin::text::bigint counts the transactions
// the whole cluster ran, what the denied txid_current() tells), cmin and
// cmax (command ids inside them) and tableoid (the relation's OID, a
// catalog key). They are refused unless WithSystemColumns(true); ctid (the
// row's position, the usual way to tell duplicate rows apart) stays
// allowed. The names are resolved, not matched: a column of a CTE,
// subquery, VALUES list or function named xmin is no system column, and
// only a table (or view) reference has them.
var systemColumns = setOf("xmin", "xmax", "cmin", "cmax", "tableoid")

// systemColumn reports whether a relation's column named col is a system
// column the configuration refuses.
func (c *checker) systemColumn(col string) bool {
	return systemColumns[col] && !c.cfg.allowSystemColumns
}

// refuseSystemColumn records the refusal of a system column reference.
func (c *checker) refuseSystemColumn(ref, col string, loc int) {
	what := ref + " is the system column " + col
	if ref == col {
		what = col + " is a table's system column"
	}
	c.add(CodeSystemColumn, SeverityError, loc, "%s, which reveals the server's transaction or catalog state and is not allowed; select the table's own columns", what)
}

// unqualifiedSystemColumn checks a one-name column reference that names a
// system column. PostgreSQL resolves it level by level, innermost first:
// at the first level with a FROM item that has the column it stops, and a
// table reference has every system column. A level whose items may have it
// (columns unknown) but hold no table is passed over: the name may be one
// of their columns there, or resolves further out, where it is judged.
func (r *resolver) unqualifiedSystemColumn(col string, sc *nsScope, loc int) {
	for l := sc; l != nil; l = l.parent {
		table := false
		for _, it := range l.items {
			if it.known && it.has(col) {
				return // a column of that name (ambiguous with a table's: the server refuses)
			}
			table = table || it.relation
		}
		if table {
			r.c.refuseSystemColumn(col, col, loc)
			return
		}
	}
}

// planSystemColumn checks a column reference the server printed in a
// plan: qualified with the alias of a scanned relation (EXPLAIN makes the
// aliases of a plan unique), or unqualified in a plan that scans a
// relation (the Output of a plan over one relation is not qualified; over
// several, every reference is).
func (c *checker) planSystemColumn(cr *pg.ColumnRef) {
	f := fieldNames(cr)
	if len(f) != len(cr.Fields) || len(f) == 0 || !c.systemColumn(f[len(f)-1]) {
		return
	}
	switch {
	case len(f) == 1 && len(c.planRelations) > 0, len(f) == 2 && c.planRelations[f[0]]:
		c.refuseSystemColumn(strings.Join(f, "."), f[len(f)-1], c.loc)
	}
}
