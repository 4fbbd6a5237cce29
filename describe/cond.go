package describe

import (
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"
)

var compare = map[string]string{
	"=": "is", "<>": "is not", "!=": "is not", "<": "is less than", "<=": "is at most",
	">": "is greater than", ">=": "is at least",
}

var compareDate = map[string]string{
	"=": "is", "<>": "is not", "!=": "is not", "<": "is before", "<=": "is on or before",
	">": "is after", ">=": "is on or after",
}

// conjuncts flattens AND.
func conjuncts(n *pg.Node) []*pg.Node {
	if n == nil {
		return nil
	}
	if b := n.GetBoolExpr(); b != nil && b.GetBoolop() == pg.BoolExprType_AND_EXPR {
		var out []*pg.Node
		for _, a := range b.GetArgs() {
			out = append(out, conjuncts(a)...)
		}
		return out
	}
	return []*pg.Node{n}
}

// bound is one side of a date range: column >= DATE '...'.
type bound struct {
	col  string // the column, as written
	op   string
	date time.Time
}

func dateBound(n *pg.Node) (bound, bool) {
	e := n.GetAExpr()
	if e == nil || e.GetKind() != pg.A_Expr_Kind_AEXPR_OP {
		return bound{}, false
	}
	op := opName(e)
	if op != "<" && op != "<=" && op != ">" && op != ">=" {
		return bound{}, false
	}
	c := e.GetLexpr().GetColumnRef()
	if c == nil {
		return bound{}, false
	}
	t, ok := dateConst(e.GetRexpr())
	if !ok {
		return bound{}, false
	}
	var names []string
	for _, f := range c.GetFields() {
		names = append(names, f.GetString_().GetSval())
	}
	return bound{col: strings.Join(names, "."), op: op, date: t}, true
}

// conds describes a WHERE or HAVING clause, one item per AND-ed
// condition, with a lower and upper date bound on the same column said
// as one range ("order date is in 2024").
func (w *writer) conds(n *pg.Node, sc *scope) []string {
	parts := conjuncts(n)
	used := make([]bool, len(parts))
	var out []string
	for i, p := range parts {
		if used[i] {
			continue
		}
		lo, ok := dateBound(p)
		if ok && (lo.op == ">=" || lo.op == ">") {
			for j := i + 1; j < len(parts); j++ {
				hi, ok := dateBound(parts[j])
				if used[j] || !ok || hi.col != lo.col || (hi.op != "<" && hi.op != "<=") {
					continue
				}
				used[j] = true
				col := w.expr(p.GetAExpr().GetLexpr(), sc)
				out = append(out, col+" "+dateRange(lo, hi))
				used[i] = true
				break
			}
		}
		if !used[i] {
			out = append(out, w.cond(p, sc))
		}
	}
	return out
}

func dateRange(lo, hi bound) string {
	day := func(t time.Time) string { return t.Format("2006-01-02") }
	if lo.op == ">=" && hi.op == "<" && lo.date.Day() == 1 {
		switch {
		case lo.date.Month() == 1 && hi.date.Equal(lo.date.AddDate(1, 0, 0)):
			return "is in " + lo.date.Format("2006")
		case hi.date.Equal(lo.date.AddDate(0, 1, 0)):
			return "is in " + lo.date.Format("January 2006")
		case lo.date.Month()%3 == 1 && hi.date.Equal(lo.date.AddDate(0, 3, 0)):
			return "is in Q" + string(rune('1'+(lo.date.Month()-1)/3)) + " " + lo.date.Format("2006")
		}
	}
	switch {
	case lo.op == ">=" && hi.op == "<=":
		return "is between " + day(lo.date) + " and " + day(hi.date)
	case lo.op == ">=" && hi.op == "<":
		return "is from " + day(lo.date) + " up to before " + day(hi.date)
	case lo.op == ">" && hi.op == "<=":
		return "is after " + day(lo.date) + " up to " + day(hi.date)
	}
	return "is after " + day(lo.date) + " and before " + day(hi.date)
}

// cond describes a condition as a clause ("status is 'Active'").
func (w *writer) cond(n *pg.Node, sc *scope) string {
	switch {
	case n == nil:
		return "always"
	case n.GetBoolExpr() != nil:
		b := n.GetBoolExpr()
		var args []string
		switch b.GetBoolop() {
		case pg.BoolExprType_AND_EXPR:
			return list(w.conds(n, sc), "and")
		case pg.BoolExprType_OR_EXPR:
			for _, a := range b.GetArgs() {
				args = append(args, w.cond(a, sc))
			}
			return "either " + list(args, "or")
		default:
			if len(b.GetArgs()) == 1 {
				return w.not(b.GetArgs()[0], sc)
			}
		}
	case n.GetAExpr() != nil:
		return w.compare(n.GetAExpr(), sc)
	case n.GetNullTest() != nil:
		t := n.GetNullTest()
		return w.expr(t.GetArg(), sc) + pick(t.GetNulltesttype() == pg.NullTestType_IS_NULL, " is not set", " is set")
	case n.GetBooleanTest() != nil:
		t := n.GetBooleanTest()
		words := map[pg.BoolTestType]string{
			pg.BoolTestType_IS_TRUE: "is true", pg.BoolTestType_IS_NOT_TRUE: "is not true",
			pg.BoolTestType_IS_FALSE: "is false", pg.BoolTestType_IS_NOT_FALSE: "is not false",
			pg.BoolTestType_IS_UNKNOWN: "is not set", pg.BoolTestType_IS_NOT_UNKNOWN: "is set",
		}
		return flag(w.expr(t.GetArg(), sc)) + " " + words[t.GetBooltesttype()]
	case n.GetSubLink() != nil:
		return w.subLink(n.GetSubLink(), sc, false)
	case n.GetColumnRef() != nil:
		return flag(w.expr(n, sc)) + " is true"
	case n.GetAConst() != nil:
		return pick(constant(n.GetAConst()) == "false", "never", "always")
	}
	return w.expr(n, sc) + " is true"
}

// flag is a boolean column in words without its "is": is_active is "active".
func flag(s string) string {
	if rest, ok := strings.CutPrefix(s, "is "); ok {
		return rest
	}
	return s
}

// not describes NOT of a condition.
func (w *writer) not(n *pg.Node, sc *scope) string {
	switch {
	case n.GetColumnRef() != nil:
		return flag(w.expr(n, sc)) + " is false"
	case n.GetSubLink() != nil:
		return w.subLink(n.GetSubLink(), sc, true)
	case n.GetNullTest() != nil:
		t := n.GetNullTest()
		return w.expr(t.GetArg(), sc) + pick(t.GetNulltesttype() == pg.NullTestType_IS_NULL, " is set", " is not set")
	}
	return "not (" + w.cond(n, sc) + ")"
}

// compare describes a comparison, IN, LIKE or BETWEEN.
func (w *writer) compare(e *pg.A_Expr, sc *scope) string {
	op := opName(e)
	l := e.GetLexpr()
	left := w.expr(l, sc)
	switch e.GetKind() {
	case pg.A_Expr_Kind_AEXPR_OP:
		if l == nil {
			break
		}
		if op == "=" {
			if s, ok := w.correlated(l, e.GetRexpr(), sc); ok {
				return s
			}
		}
		if _, isDate := dateConst(e.GetRexpr()); isDate {
			if v, ok := compareDate[op]; ok {
				return left + " " + v + " " + w.expr(e.GetRexpr(), sc)
			}
		}
		if v, ok := compare[op]; ok {
			return left + " " + v + " " + w.expr(e.GetRexpr(), sc)
		}
		switch op {
		case "~", "~*":
			return left + " matches the pattern " + w.expr(e.GetRexpr(), sc)
		case "!~", "!~*":
			return left + " does not match the pattern " + w.expr(e.GetRexpr(), sc)
		}
		return w.aExpr(e, sc) + " holds"
	case pg.A_Expr_Kind_AEXPR_IN:
		var vals []string
		for _, v := range e.GetRexpr().GetList().GetItems() {
			vals = append(vals, w.expr(v, sc))
		}
		if op == "=" {
			if len(vals) == 1 {
				return left + " is " + vals[0]
			}
			return left + " is " + list(vals, "or")
		}
		switch len(vals) {
		case 1:
			return left + " is not " + vals[0]
		case 2:
			return left + " is neither " + vals[0] + " nor " + vals[1]
		}
		return left + " is none of " + list(vals, "and")
	case pg.A_Expr_Kind_AEXPR_LIKE, pg.A_Expr_Kind_AEXPR_ILIKE:
		s := w.like(left, op, e.GetRexpr(), sc)
		if e.GetKind() == pg.A_Expr_Kind_AEXPR_ILIKE {
			s += " (ignoring case)"
		}
		return s
	case pg.A_Expr_Kind_AEXPR_SIMILAR:
		return left + pick(op == "~", " matches the pattern ", " does not match the pattern ") + w.expr(e.GetRexpr(), sc)
	case pg.A_Expr_Kind_AEXPR_BETWEEN, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN, pg.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		items := e.GetRexpr().GetList().GetItems()
		if len(items) == 2 {
			not := e.GetKind() == pg.A_Expr_Kind_AEXPR_NOT_BETWEEN || e.GetKind() == pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM
			return left + pick(not, " is not between ", " is between ") + w.expr(items[0], sc) + " and " + w.expr(items[1], sc)
		}
	case pg.A_Expr_Kind_AEXPR_DISTINCT:
		return left + " differs from " + w.expr(e.GetRexpr(), sc)
	case pg.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		return left + " is the same as " + w.expr(e.GetRexpr(), sc)
	case pg.A_Expr_Kind_AEXPR_OP_ANY, pg.A_Expr_Kind_AEXPR_OP_ALL:
		v := compare[op]
		if v == "" {
			v = "compares with"
		}
		return left + " " + v + pick(e.GetKind() == pg.A_Expr_Kind_AEXPR_OP_ANY, " one of ", " all of ") + w.expr(e.GetRexpr(), sc)
	}
	return w.expr(&pg.Node{Node: &pg.Node_AExpr{AExpr: e}}, sc) + " holds"
}

// like describes a LIKE pattern by what it means when it can.
func (w *writer) like(left, op string, pat *pg.Node, sc *scope) string {
	not := strings.HasPrefix(op, "!")
	c := pat.GetAConst()
	if c == nil || c.GetSval() == nil {
		return left + pick(not, " does not match ", " matches ") + w.expr(pat, sc)
	}
	p := c.GetSval().GetSval()
	inner := strings.Trim(p, "%")
	plain := !strings.ContainsAny(inner, "%_\\")
	var verb string
	switch {
	case plain && len(p) >= 2 && strings.HasPrefix(p, "%") && strings.HasSuffix(p, "%") && inner != "":
		verb = pick(not, "does not contain", "contains")
	case plain && strings.HasSuffix(p, "%") && !strings.HasPrefix(p, "%") && inner != "":
		verb = pick(not, "does not start with", "starts with")
	case plain && strings.HasPrefix(p, "%") && !strings.HasSuffix(p, "%") && inner != "":
		verb = pick(not, "does not end with", "ends with")
	case !strings.ContainsAny(p, "%_\\"):
		return left + pick(not, " is not ", " is ") + "'" + p + "'"
	default:
		return left + pick(not, " does not match the pattern ", " matches the pattern ") + "'" + p + "'"
	}
	return left + " " + verb + " '" + inner + "'"
}

// correlated describes inner.col = outer.col in a subquery as "the same
// col".
func (w *writer) correlated(l, r *pg.Node, sc *scope) (string, bool) {
	lc, rc := l.GetColumnRef(), r.GetColumnRef()
	if lc == nil || rc == nil || sc.parent == nil {
		return "", false
	}
	_, lo := sc.lookup(qualifier(lc))
	_, ro := sc.lookup(qualifier(rc))
	if qualifier(lc) == "" || qualifier(rc) == "" || lo == ro {
		return "", false
	}
	if lo {
		lc, rc = rc, lc
	}
	in, out := w.words(lastField(lc)), w.words(lastField(rc))
	if in == out {
		return "the same " + in, true
	}
	return w.colRef(lc, sc) + " is the outer " + out, true
}

// subLink describes EXISTS, IN (subquery) and comparisons with a
// subquery.
func (w *writer) subLink(s *pg.SubLink, sc *scope, negated bool) string {
	switch s.GetSubLinkType() {
	case pg.SubLinkType_EXISTS_SUBLINK:
		return pick(negated, "there is no ", "there is ") + w.exists(s.GetSubselect(), sc, negated)
	case pg.SubLinkType_ANY_SUBLINK:
		left := w.expr(s.GetTestexpr(), sc)
		op := "="
		if names := s.GetOperName(); len(names) > 0 {
			op = names[len(names)-1].GetString_().GetSval()
		}
		sub := w.brief(s.GetSubselect(), sc)
		if op == "=" {
			return left + pick(negated, " is not among ", " is among ") + sub
		}
		return pick(negated, "not: ", "") + left + " " + compare[op] + " one of " + sub
	case pg.SubLinkType_ALL_SUBLINK:
		left := w.expr(s.GetTestexpr(), sc)
		op := "<>"
		if names := s.GetOperName(); len(names) > 0 {
			op = names[len(names)-1].GetString_().GetSval()
		}
		if op == "<>" {
			return left + pick(negated, " is among ", " is not among ") + w.brief(s.GetSubselect(), sc)
		}
		return pick(negated, "not: ", "") + left + " " + compare[op] + " all of " + w.brief(s.GetSubselect(), sc)
	}
	return pick(negated, "not: ", "") + w.expr(&pg.Node{Node: &pg.Node_SubLink{SubLink: s}}, sc) + " is true"
}

// brief describes a subquery as a noun phrase: "the average stock value
// of "value per warehouse"".
func (w *writer) brief(n *pg.Node, sc *scope) string {
	sel := n.GetSelectStmt()
	if sel == nil || sel.GetOp() != pg.SetOperation_SETOP_NONE && sel.GetOp() != pg.SetOperation_SET_OPERATION_UNDEFINED || sel.GetWithClause() != nil {
		return "the results of a subquery"
	}
	inner := &scope{parent: sc}
	d := &Description{}
	w.from(sel.GetFromClause(), inner, d)
	before := w.aggs
	var cols []string
	for _, t := range sel.GetTargetList() {
		cols = append(cols, w.expr(t.GetResTarget().GetVal(), inner))
	}
	w.aggs = before
	s := list(cols, "and")
	if len(cols) == 1 && isColumn(sel.GetTargetList()[0].GetResTarget().GetVal()) {
		s = "the " + plural(s)
	}
	if len(inner.rels) > 0 {
		s += " of " + inner.rels[0].words
	}
	if len(d.Joins) > 0 {
		s += " with " + list(d.Joins, "and")
	}
	if f := w.conds(sel.GetWhereClause(), inner); len(f) > 0 {
		s += " where " + list(f, "and")
	}
	return s
}

// exists describes the rows EXISTS looks for: "sales order with the same
// customer id and order date in 2025".
func (w *writer) exists(n *pg.Node, sc *scope, negated bool) string {
	sel := n.GetSelectStmt()
	if sel == nil || sel.GetOp() != pg.SetOperation_SETOP_NONE && sel.GetOp() != pg.SetOperation_SET_OPERATION_UNDEFINED {
		return "a row in a subquery"
	}
	inner := &scope{parent: sc}
	d := &Description{}
	w.from(sel.GetFromClause(), inner, d)
	s := "row"
	if len(inner.rels) > 0 {
		s = strings.Trim(inner.rels[0].entity, `"`)
	}
	if !negated {
		s = article(s) + " " + s
	}
	if len(d.Joins) > 0 {
		s += " (with " + list(d.Joins, "and") + ")"
	}
	var same, other []string
	for _, f := range w.conds(sel.GetWhereClause(), inner) {
		if strings.HasPrefix(f, "the same ") {
			same = append(same, strings.TrimPrefix(f, "the same "))
		} else {
			other = append(other, f)
		}
	}
	if len(same) > 0 {
		s += " with the same " + list(same, "and")
	}
	if len(other) > 0 {
		s += pick(len(same) > 0, " whose ", " where ") + list(other, "and")
	}
	if len(sel.GetGroupClause()) > 0 || sel.GetHavingClause() != nil {
		s += " (among groups)"
	}
	return s
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an"
	}
	return "a"
}
