package rewrite

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// TieProbe is a query that tells whether the rows a top-level ORDER BY
// ... LIMIT n keeps are cut inside a tie: "which grade has the most
// students" keeps one grade, and when two grades have as many students,
// which of them comes back is a coin the query does not say how to toss.
// The answer is then one of several the question allows, and an answer
// key (or a user) may hold another.
//
// SQL is the query as written with its LIMIT n (or FETCH FIRST n ROWS
// ONLY) made FETCH FIRST n ROWS WITH TIES: PostgreSQL itself then adds
// the rows that sort equal to the last one kept, by the ORDER BY's own
// meaning (its aliases and ordinals, each key type's equality, collations,
// NULLS FIRST/LAST, USING operators), and evaluates nothing the query does
// not. The rows tie at the cut when the probe returns more than Limit
// rows; read at most Limit+1 (see Tied).
type TieProbe struct {
	SQL   string
	Limit int
}

// maxTieLimit bounds the n of LIMIT n a probe is built for: past it the
// question is a listing, not a "top N".
const maxTieLimit = 1000

// NewTieProbe builds the probe of sql: a single top-level SELECT or
// VALUES (no set operation) with ORDER BY and a LIMIT (or FETCH FIRST) of
// a plain number up to 1000, an optional plain OFFSET, and no DISTINCT
// ON (which keeps one row per key: a cut of its own). It returns false
// when anything is unclear; the probe must be validated and planned like
// any query before it is run.
func NewTieProbe(sql string) (TieProbe, bool) {
	tree, err := pgparse.Parse(sql)
	if err != nil || len(tree.Stmts) != 1 {
		return TieProbe{}, false
	}
	s := tree.Stmts[0].GetStmt().GetSelectStmt()
	if s == nil || s.Op != pg_query.SetOperation_SETOP_NONE || len(s.SortClause) == 0 ||
		s.LimitCount == nil || s.LimitOption != pg_query.LimitOption_LIMIT_OPTION_COUNT ||
		len(s.LockingClause) > 0 || s.IntoClause != nil {
		return TieProbe{}, false
	}
	if len(s.DistinctClause) > 1 || (len(s.DistinctClause) == 1 && s.DistinctClause[0].GetNode() != nil) {
		return TieProbe{}, false
	}
	n, ok := intConst(s.LimitCount)
	if !ok || n < 1 || n > maxTieLimit {
		return TieProbe{}, false
	}
	if s.LimitOffset != nil {
		if o, ok := intConst(s.LimitOffset); !ok || o < 0 {
			return TieProbe{}, false
		}
	}
	s.LimitOption = pg_query.LimitOption_LIMIT_OPTION_WITH_TIES
	out, err := pg_query.Deparse(tree)
	if err != nil {
		return TieProbe{}, false
	}
	return TieProbe{SQL: out, Limit: int(n)}, true
}

// intConst returns the value of an integer constant (LIMIT 1, OFFSET 5).
func intConst(n *pg_query.Node) (int64, bool) {
	c := n.GetAConst()
	if c == nil || c.Isnull || c.GetIval() == nil {
		return 0, false
	}
	return int64(c.GetIval().Ival), true
}

// Tied reports whether the probe returned rows enough to show the last
// row kept tied with the first row cut: more than Limit (reading Limit+1
// is enough).
func (p TieProbe) Tied(rows int) bool { return p.Limit > 0 && rows > p.Limit }
