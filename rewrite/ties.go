package rewrite

import (
	"sort"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// RuleTieOrder is the rewrite that breaks ties under ORDER BY ... LIMIT in
// a grouped query by its grouping keys: `GROUP BY a ORDER BY count(*) DESC
// LIMIT 1` becomes `... ORDER BY count(*) DESC, a LIMIT 1`. Without it,
// which of several tied groups comes back is the planner's choice: a hash
// aggregate hands groups over in hash order, and the answer changes when
// the plan does (after an ANALYZE, on another server version). With it, the
// first group in key order wins, on every run. Every row set it can return
// was a possible answer of the query as written, so it keeps the meaning.
const RuleTieOrder = "order.tie_break"

// BreakTies appends, to the ORDER BY of every grouped SELECT (at any depth)
// that limits its rows, the grouping keys it does not already sort by. The
// rest of the text is the caller's: the keys are inserted just before
// LIMIT, OFFSET or FETCH. It returns sql and false when nothing applies or
// anything is unclear (WITH TIES, DISTINCT, grouping sets, a LIMIT that is
// not a plain number, a key whose name the ORDER BY would read as an output
// column of another value).
func BreakTies(sql string) (string, bool) {
	tree, err := pgparse.Parse(sql)
	if err != nil || len(tree.Stmts) != 1 {
		return sql, false
	}
	var sels []*pg_query.SelectStmt
	walkMessages(tree.ProtoReflect(), func(m protoreflect.Message) {
		if s, ok := m.Interface().(*pg_query.SelectStmt); ok {
			sels = append(sels, s)
		}
	})
	type insert struct {
		at   int
		text string
	}
	var edits []insert
	var toks []*pg_query.ScanToken
	for _, s := range sels {
		keys := tieKeys(s, tree.Version)
		if len(keys) == 0 {
			continue
		}
		if toks == nil {
			scan, err := pg_query.Scan(sql)
			if err != nil {
				return sql, false
			}
			toks = scan.Tokens
		}
		at, ok := limitStart(s, toks)
		if !ok {
			continue
		}
		edits = append(edits, insert{at: at, text: ", " + strings.Join(keys, ", ")})
	}
	if len(edits) == 0 {
		return sql, false
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].at > edits[j].at })
	out := sql
	for _, e := range edits {
		out = out[:e.at] + e.text + out[e.at:]
	}
	if t, err := pgparse.Parse(out); err != nil || len(t.Stmts) != 1 {
		return sql, false
	}
	return out, true
}

// tieKeys returns the grouping keys of s, as SQL text, that its ORDER BY
// lacks; none when s is not a grouped, limited SELECT the rewrite is sure
// about.
func tieKeys(s *pg_query.SelectStmt, version int32) []string {
	if s.Op != pg_query.SetOperation_SETOP_NONE || len(s.GroupClause) == 0 || len(s.SortClause) == 0 ||
		s.LimitCount == nil || s.LimitOption != pg_query.LimitOption_LIMIT_OPTION_COUNT ||
		len(s.DistinctClause) > 0 || s.GroupDistinct {
		return nil
	}
	if _, ok := intConst(s.LimitCount); !ok {
		return nil
	}
	if _, ok := intConst(s.LimitOffset); s.LimitOffset != nil && !ok {
		return nil
	}
	sorted := map[string]bool{}
	for _, n := range s.SortClause {
		sb := n.GetSortBy()
		if sb == nil {
			return nil
		}
		text, ok := exprText(sb.Node, version)
		if !ok {
			return nil
		}
		sorted[text] = true
	}
	var keys []string
	for _, g := range s.GroupClause {
		if g.GetGroupingSet() != nil {
			return nil
		}
		if !sameInOrderBy(g, s.TargetList) {
			return nil
		}
		text, ok := exprText(g, version)
		if !ok {
			return nil
		}
		if !sorted[text] {
			sorted[text] = true
			keys = append(keys, text)
		}
	}
	return keys
}

// sameInOrderBy reports whether the grouping key g means the same in ORDER
// BY. GROUP BY reads a bare name as an input column first and ORDER BY as
// an output column first: `SELECT b AS a ... GROUP BY a` groups by the
// column a but would sort by b. A bare name that also names an output
// column of another value is refused.
func sameInOrderBy(g *pg_query.Node, targets []*pg_query.Node) bool {
	cr := g.GetColumnRef()
	if cr == nil || len(cr.Fields) != 1 {
		return true // qualified names, expressions and ordinals read alike
	}
	name := cr.Fields[0].GetString_().GetSval()
	for _, t := range targets {
		rt := t.GetResTarget()
		if rt == nil || rt.Name != name {
			continue
		}
		v := rt.Val.GetColumnRef()
		if v == nil || len(v.Fields) == 0 || v.Fields[len(v.Fields)-1].GetString_().GetSval() != name {
			return false
		}
	}
	return true
}

// exprText deparses one expression (pg_query deparses statements only, so
// it is wrapped in a SELECT and unwrapped); version is the parse tree's.
func exprText(n *pg_query.Node, version int32) (string, bool) {
	stmt := &pg_query.SelectStmt{TargetList: []*pg_query.Node{pg_query.MakeResTargetNodeWithVal(n, -1)}}
	out, err := pg_query.Deparse(&pg_query.ParseResult{Version: version, Stmts: []*pg_query.RawStmt{{Stmt: &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: stmt}}}}})
	if err != nil || !strings.HasPrefix(out, "SELECT ") {
		return "", false
	}
	return strings.TrimPrefix(out, "SELECT "), true
}

// limitStart returns the byte offset just after the last token of s's
// ORDER BY: where the LIMIT, OFFSET or FETCH clause (whichever comes first)
// begins, minus the space before it.
func limitStart(s *pg_query.SelectStmt, toks []*pg_query.ScanToken) (int, bool) {
	loc := s.LimitCount.GetAConst().Location
	if s.LimitOffset != nil {
		loc = min(loc, s.LimitOffset.GetAConst().Location)
	}
	k := -1
	for i, t := range toks {
		if t.Start == loc {
			k = i
			break
		}
	}
	if k < 2 {
		return 0, false
	}
	j := k - 1
	switch toks[j].Token {
	case pg_query.Token_LIMIT, pg_query.Token_OFFSET:
	case pg_query.Token_FIRST_P, pg_query.Token_NEXT:
		j--
		if toks[j].Token != pg_query.Token_FETCH {
			return 0, false
		}
	default:
		return 0, false
	}
	// The last token of the ORDER BY: skip comments between it and the
	// keyword.
	for j--; j >= 0; j-- {
		if tk := toks[j].Token; tk != pg_query.Token_SQL_COMMENT && tk != pg_query.Token_C_COMMENT {
			return int(toks[j].End), true
		}
	}
	return 0, false
}
