package rewrite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// TieProbe is a query that tells whether the rows a top-level ORDER BY
// ... LIMIT n keeps are cut inside a tie: "which grade has the most
// students" keeps one grade, and when two grades have as many students,
// which of them comes back is a coin the query does not say how to toss.
// The answer is then one of several the question allows, and an answer
// key (or a user) may hold another.
//
// SQL is the query as written with its sort keys appended as output
// columns, skipped to its n-th row and limited to two: the last row kept
// and the first row cut. The rows tie when the probe returns two rows
// whose last Keys columns are equal (NULLs equal, as ORDER BY sorts them
// together); see Tied.
type TieProbe struct {
	SQL  string
	Keys int
}

// tieKeyPrefix names the sort keys the probe appends; a query that already
// returns a column of that name gets no probe.
const tieKeyPrefix = "nl2sql_tie_key_"

// maxTieLimit bounds the n of LIMIT n a probe is built for: past it the
// question is a listing, not a "top N", and OFFSET n would read as many
// rows again.
const maxTieLimit = 1000

// NewTieProbe builds the probe of sql: a single top-level SELECT (no set
// operation) with ORDER BY and a LIMIT (or FETCH FIRST) of a plain number
// up to 1000, an optional plain OFFSET, no WITH TIES and no DISTINCT ON.
// Each sort key is the expression it sorts by: an output column named by
// its alias or ordinal stands for that column's expression, as PostgreSQL
// reads ORDER BY. It returns false when anything is unclear; the probe
// must be validated and planned like any query before it is run.
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
		return TieProbe{}, false // DISTINCT ON keeps one row per key: its own cut
	}
	n, ok := intConst(s.LimitCount)
	if !ok || n < 1 || n > maxTieLimit {
		return TieProbe{}, false
	}
	var offset int64
	if s.LimitOffset != nil {
		if offset, ok = intConst(s.LimitOffset); !ok || offset < 0 {
			return TieProbe{}, false
		}
	}
	for _, t := range s.TargetList {
		rt := t.GetResTarget()
		if rt == nil {
			return TieProbe{}, false
		}
		if strings.HasPrefix(strings.ToLower(rt.Name), tieKeyPrefix) {
			return TieProbe{}, false
		}
	}
	var keys []*pg_query.Node
	for _, n := range s.SortClause {
		sb := n.GetSortBy()
		if sb == nil || sb.Node == nil {
			return TieProbe{}, false
		}
		k, ok := sortKey(sb.Node, s.TargetList)
		if !ok {
			return TieProbe{}, false
		}
		keys = append(keys, k)
	}
	for i, k := range keys {
		s.TargetList = append(s.TargetList, pg_query.MakeResTargetNodeWithNameAndVal(fmt.Sprintf("%s%d", tieKeyPrefix, i+1), k, -1))
	}
	s.LimitCount = pg_query.MakeAConstIntNode(2, -1)
	s.LimitOffset = pg_query.MakeAConstIntNode(offset+n-1, -1)
	out, err := pg_query.Deparse(tree)
	if err != nil {
		return TieProbe{}, false
	}
	return TieProbe{SQL: out, Keys: len(keys)}, true
}

// sortKey returns the expression an ORDER BY item sorts by. A bare name
// that is an output column's alias, and an integer ordinal, stand for that
// output column's expression (ORDER BY reads them as output columns
// first); anything else is an expression over the input, which the target
// list may name as well. A star, or an ordinal out of range, is unclear.
func sortKey(n *pg_query.Node, targets []*pg_query.Node) (*pg_query.Node, bool) {
	if c := n.GetAConst(); c != nil {
		if c.Isnull || c.GetIval() == nil {
			return nil, false // ORDER BY 'x' or 1.5: PostgreSQL refuses or sorts by a constant
		}
		i := int(c.GetIval().Ival)
		if i < 1 || i > len(targets) {
			return nil, false
		}
		return outputExpr(targets[i-1])
	}
	if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 {
		if s := cr.Fields[0].GetString_(); s != nil {
			var match *pg_query.Node
			for _, t := range targets {
				rt := t.GetResTarget()
				if rt.Name == s.Sval || (rt.Name == "" && outputName(rt) == s.Sval) {
					if match != nil {
						return nil, false // ambiguous: PostgreSQL refuses it
					}
					match = t
				}
			}
			if match != nil {
				return outputExpr(match)
			}
		}
	}
	return proto.Clone(n).(*pg_query.Node), true
}

// outputExpr is a copy of an output column's expression; a star has none.
func outputExpr(t *pg_query.Node) (*pg_query.Node, bool) {
	rt := t.GetResTarget()
	if rt == nil || rt.Val == nil {
		return nil, false
	}
	if cr := rt.Val.GetColumnRef(); cr != nil {
		for _, f := range cr.Fields {
			if f.GetAStar() != nil {
				return nil, false
			}
		}
	}
	return proto.Clone(rt.Val).(*pg_query.Node), true
}

// outputName is the name PostgreSQL gives an output column without an
// alias when it is a plain column reference (its last field); other
// expressions get names ORDER BY cannot be written to mean.
func outputName(rt *pg_query.ResTarget) string {
	cr := rt.Val.GetColumnRef()
	if cr == nil || len(cr.Fields) == 0 {
		return ""
	}
	return cr.Fields[len(cr.Fields)-1].GetString_().GetSval()
}

// intConst returns the value of an integer constant (LIMIT 1, OFFSET 5).
func intConst(n *pg_query.Node) (int64, bool) {
	c := n.GetAConst()
	if c == nil || c.Isnull || c.GetIval() == nil {
		return 0, false
	}
	return int64(c.GetIval().Ival), true
}

// Tied reports whether rows, the probe's result (as execute.Result holds
// them), show the last row kept tied with the first row cut.
func (p TieProbe) Tied(rows [][]any) bool {
	if len(rows) != 2 || p.Keys < 1 {
		return false
	}
	a, b := rows[0], rows[1]
	if len(a) != len(b) || len(a) < p.Keys {
		return false
	}
	for i := len(a) - p.Keys; i < len(a); i++ {
		x, err1 := json.Marshal(a[i])
		y, err2 := json.Marshal(b[i])
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			return false
		}
	}
	return true
}
