package describe

import (
	"fmt"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// writer turns one parse tree into words.
type writer struct {
	glosser gloss.Glosser
	aggs    int // aggregates rendered so far (outside window functions)
}

// rel is one table (or step, or subquery) in a FROM clause.
type rel struct {
	alias  string // the name columns are qualified with
	table  string // the table name, empty for a subquery
	words  string // the table in words, plural as tables are named
	entity string // one row of it in words, to qualify columns
	role   string // for a table read twice: what this copy stands for
}

// scope is the FROM clause and output columns of one SELECT, with the
// enclosing scope for correlated subqueries.
type scope struct {
	parent  *scope
	rels    []*rel
	ctes    map[string]bool
	targets []*pg.ResTarget
	cols    []string // targets in words
	subject string   // what one row of the first table is, plural
	multi   bool     // more than one table: qualify generic columns
}

func (s *scope) isCTE(name string) bool {
	for ; s != nil; s = s.parent {
		if s.ctes[name] {
			return true
		}
	}
	return false
}

// lookup finds the rel a qualifier names, and whether it is an outer one.
func (s *scope) lookup(alias string) (*rel, bool) {
	for sc, outer := s, false; sc != nil; sc, outer = sc.parent, true {
		for _, r := range sc.rels {
			if r.alias == alias {
				return r, outer
			}
		}
	}
	return nil, false
}

// query describes any query: WITH steps, set operations, VALUES or a
// plain SELECT.
func (w *writer) query(sel *pg.SelectStmt, parent *scope) *Description {
	var parts []Part
	var ctes map[string]bool
	if wc := sel.GetWithClause(); wc != nil {
		ctes = map[string]bool{}
		for _, n := range wc.GetCtes() {
			cte := n.GetCommonTableExpr()
			if cte == nil {
				continue
			}
			ctes[cte.GetCtename()] = true
			inner := &scope{parent: parent, ctes: ctes}
			var pd *Description
			if q := cte.GetCtequery().GetSelectStmt(); q != nil {
				pd = w.query(q, inner)
			} else {
				pd = &Description{Text: "changes data"}
			}
			parts = append(parts, Part{Name: w.words(cte.GetCtename()), Description: pd})
		}
	}
	sc := &scope{parent: parent, ctes: ctes}
	var d *Description
	switch {
	case sel.GetOp() != pg.SetOperation_SETOP_NONE && sel.GetOp() != pg.SetOperation_SET_OPERATION_UNDEFINED:
		d = w.setOp(sel, sc)
	case len(sel.GetValuesLists()) > 0:
		d = &Description{Text: fmt.Sprintf("lists %d given %s", len(sel.GetValuesLists()), pick(len(sel.GetValuesLists()) == 1, "row", "rows"))}
	default:
		d = w.simple(sel, sc)
	}
	d.Parts = append(parts, d.Parts...)
	var b strings.Builder
	b.WriteString(d.Text)
	b.WriteString(".")
	for _, p := range parts {
		fmt.Fprintf(&b, " %q %s.", p.Name, strings.TrimSuffix(firstSentence(p.Description.Text), "."))
	}
	d.Text = b.String()
	return d
}

// firstSentence keeps what a step does, not the steps it uses in turn.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// setOp describes UNION, INTERSECT and EXCEPT, flattening chains of the
// same operation.
func (w *writer) setOp(sel *pg.SelectStmt, sc *scope) *Description {
	op, all := sel.GetOp(), sel.GetAll()
	var branches []*pg.SelectStmt
	var flat func(s *pg.SelectStmt)
	flat = func(s *pg.SelectStmt) {
		if s != nil && s.GetOp() == op && s.GetAll() == all &&
			(s == sel || s.GetWithClause() == nil && len(s.GetSortClause()) == 0 && s.GetLimitCount() == nil && s.GetLimitOffset() == nil) {
			flat(s.GetLarg())
			flat(s.GetRarg())
			return
		}
		if s != nil {
			branches = append(branches, s)
		}
	}
	flat(sel)
	d := &Description{}
	var texts []string
	for i, b := range branches {
		bd := w.query(b, sc)
		name := ordinal(i)
		d.Parts = append(d.Parts, Part{Name: name, Description: bd})
		texts = append(texts, name+", "+strings.TrimSuffix(bd.Text, "."))
	}
	if len(branches) > 0 {
		d.Columns = d.Parts[0].Description.Columns
	}
	var lead string
	switch op {
	case pg.SetOperation_SETOP_UNION:
		d.SetOp = "union"
		lead = fmt.Sprintf("combines the rows of %d queries%s", len(branches), pick(all, "", ", without duplicates"))
		if all {
			d.SetOp = "union all"
		}
	case pg.SetOperation_SETOP_INTERSECT:
		d.SetOp = "intersect"
		lead = fmt.Sprintf("keeps the rows that all %d queries return", len(branches))
	default:
		d.SetOp = "except"
		lead = "keeps the rows of the first query that the others do not return"
	}
	// ORDER BY and LIMIT of a set operation name its output columns,
	// those of the first branch.
	if len(branches) > 0 {
		first := branches[0]
		for first.GetLarg() != nil {
			first = first.GetLarg()
		}
		for _, t := range first.GetTargetList() {
			if rt := t.GetResTarget(); rt != nil {
				sc.targets = append(sc.targets, rt)
			}
		}
		sc.cols = d.Columns
	}
	tail := w.tail(sel, sc, d)
	d.Text = lead + tail + " (" + strings.Join(texts, "; ") + ")"
	return d
}

func ordinal(i int) string {
	names := []string{"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}
	if i < len(names) {
		return names[i]
	}
	return "part " + strconv.Itoa(i+1)
}

// simple describes one SELECT without set operation.
func (w *writer) simple(sel *pg.SelectStmt, sc *scope) *Description {
	d := &Description{}
	w.from(sel.GetFromClause(), sc, d)
	aggs0 := w.aggs
	var measures []string
	for _, t := range sel.GetTargetList() {
		rt := t.GetResTarget()
		if rt == nil {
			continue
		}
		before := w.aggs
		text := w.expr(rt.GetVal(), sc)
		sc.targets = append(sc.targets, rt)
		sc.cols = append(sc.cols, text)
		if w.aggs > before {
			measures = append(measures, text)
		}
	}
	d.Columns = sc.cols
	d.Measures = measures
	hasAgg := w.aggs > aggs0

	// DISTINCT: one nil item for plain DISTINCT, the expressions for
	// DISTINCT ON.
	if dc := sel.GetDistinctClause(); len(dc) > 0 {
		d.Distinct = true
		for _, n := range dc {
			if n != nil && n.GetNode() != nil {
				d.DistinctOn = append(d.DistinctOn, w.ref(n, sc))
			}
		}
	}
	for _, n := range sel.GetGroupClause() {
		d.GroupBy = append(d.GroupBy, w.ref(n, sc))
	}
	d.Filters = w.conds(sel.GetWhereClause(), sc)
	d.Having = w.conds(sel.GetHavingClause(), sc)

	var b strings.Builder
	items := d.Columns
	if len(d.GroupBy) > 0 && len(measures) > 0 {
		keys := make([]string, len(d.GroupBy))
		for i, k := range d.GroupBy {
			keys[i] = strings.TrimPrefix(k, "the ")
		}
		if len(keys) == 1 && strings.HasPrefix(keys[0], "one of ") {
			keys[0] = strings.TrimPrefix(keys[0], "one ")
		}
		fmt.Fprintf(&b, "for each %s, ", list(keys, "and"))
		items = measures
	}
	subject := ""
	if len(sc.rels) > 0 {
		subject = " of " + sc.rels[0].words
	}
	joins := ""
	if len(d.Joins) > 0 {
		joins = ", joined with " + list(d.Joins, "and")
	}
	switch {
	case len(items) == 1 && isCountStar(sel.GetTargetList(), len(d.GroupBy) > 0) && len(sc.rels) > 0:
		b.WriteString("counts " + sc.rels[0].words + joins)
	case len(d.GroupBy) > 0 && len(measures) == 0:
		b.WriteString("lists the distinct " + list(items, "and") + subject + joins)
	case !hasAgg:
		if d.Distinct && len(d.DistinctOn) == 0 {
			b.WriteString("lists the distinct " + list(items, "and") + subject + joins)
		} else {
			b.WriteString("lists " + list(items, "and") + subject + joins)
		}
	default:
		b.WriteString("computes " + list(items, "and"))
		if len(sc.rels) > 0 {
			b.WriteString(", from " + sc.rels[0].words)
			if len(d.Joins) > 0 {
				b.WriteString(" joined with " + list(d.Joins, "and"))
			}
			joins = ","
		}
	}
	if len(d.Filters) > 0 {
		b.WriteString(pick(joins != "", ", where ", " where ") + list(d.Filters, "and"))
	}
	if len(d.Having) > 0 {
		b.WriteString(", keeping only groups where " + list(d.Having, "and"))
	}
	if len(d.DistinctOn) > 0 {
		b.WriteString(", one row per " + list(d.DistinctOn, "and"))
		if len(sel.GetSortClause()) > len(d.DistinctOn) {
			b.WriteString(" (the first in the order)")
		}
	}
	b.WriteString(w.tail(sel, sc, d))
	d.Text = b.String()
	return d
}

// isCountStar reports whether the only measure is a plain count(*).
func isCountStar(targets []*pg.Node, grouped bool) bool {
	n := 0
	var fc *pg.FuncCall
	for _, t := range targets {
		v := t.GetResTarget().GetVal()
		if f := v.GetFuncCall(); f != nil && f.GetOver() == nil && funcName(f) == "count" {
			fc = f
			n++
		} else if !grouped {
			return false
		}
	}
	return n == 1 && fc.GetAggStar() && fc.GetAggFilter() == nil
}

// tail is the ORDER BY, LIMIT and OFFSET of a query.
func (w *writer) tail(sel *pg.SelectStmt, sc *scope, d *Description) string {
	var b strings.Builder
	for _, n := range sel.GetSortClause() {
		sb := n.GetSortBy()
		if sb == nil {
			continue
		}
		key := w.ref(sb.GetNode(), sc)
		switch sb.GetSortbyDir() {
		case pg.SortByDir_SORTBY_DESC:
			key += pick(dateish(key), " (latest first)", " (highest first)")
		case pg.SortByDir_SORTBY_USING:
			key += " (by a custom order)"
		}
		d.Order = append(d.Order, key)
	}
	if len(d.Order) > 0 {
		b.WriteString(", sorted by " + strings.Join(d.Order, ", then "))
	}
	if n := sel.GetLimitCount(); n != nil && !isNullConst(n) {
		ties := sel.GetLimitOption() == pg.LimitOption_LIMIT_OPTION_WITH_TIES
		if v, ok := intConst(n); ok {
			d.Limit = &v
			switch {
			case len(d.Order) > 0 && v == 1 && !ties:
				b.WriteString(", only the first row")
			case len(d.Order) > 0:
				fmt.Fprintf(&b, ", top %d", v)
			default:
				fmt.Fprintf(&b, ", at most %d %s", v, pick(v == 1, "row", "rows"))
			}
		} else {
			b.WriteString(", at most " + w.expr(n, sc) + " rows")
		}
		if ties {
			b.WriteString(" (with ties)")
		}
	}
	if n := sel.GetLimitOffset(); n != nil {
		if v, ok := intConst(n); ok {
			d.Offset = &v
			fmt.Fprintf(&b, ", skipping the first %d", v)
		} else {
			b.WriteString(", skipping the first " + w.expr(n, sc))
		}
	}
	return b.String()
}

func isNullConst(n *pg.Node) bool {
	c := n.GetAConst()
	return c != nil && c.GetIsnull()
}

func intConst(n *pg.Node) (int64, bool) {
	if c := n.GetAConst(); c != nil && c.GetIval() != nil {
		return int64(c.GetIval().GetIval()), true
	}
	return 0, false
}

// ref describes a GROUP BY, ORDER BY or DISTINCT ON item, which may name
// an output column by its alias or position.
func (w *writer) ref(n *pg.Node, sc *scope) string {
	if v, ok := intConst(n); ok && v >= 1 && int(v) <= len(sc.cols) {
		return sc.cols[v-1]
	}
	if cr := n.GetColumnRef(); cr != nil && len(cr.GetFields()) == 1 {
		name := cr.GetFields()[0].GetString_().GetSval()
		// An input column wins over an output alias in GROUP BY; an
		// output alias that is not also an input column is what
		// ORDER BY and GROUP BY mean here in practice.
		for i, t := range sc.targets {
			if t.GetName() == name && i < len(sc.cols) {
				if c := t.GetVal().GetColumnRef(); c != nil && lastField(c) == name {
					break
				}
				return sc.cols[i]
			}
		}
	}
	return w.expr(n, sc)
}

func lastField(c *pg.ColumnRef) string {
	f := c.GetFields()
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1].GetString_().GetSval()
}

// from reads the FROM clause into sc.rels and the joins into d.
func (w *writer) from(items []*pg.Node, sc *scope, d *Description) {
	type joinOn struct {
		r    *rel
		qual *pg.Node
	}
	var ons []joinOn
	joins0 := len(d.Joins)
	var add func(n *pg.Node, kind string, qual *pg.Node)
	add = func(n *pg.Node, kind string, qual *pg.Node) {
		switch {
		case n.GetRangeVar() != nil:
			rv := n.GetRangeVar()
			r := &rel{alias: rv.GetRelname(), table: rv.GetRelname(), words: w.words(rv.GetRelname())}
			if a := rv.GetAlias().GetAliasname(); a != "" {
				r.alias = a
			}
			if sc.isCTE(rv.GetRelname()) && rv.GetSchemaname() == "" {
				r.words = strconv.Quote(r.words)
				r.entity = strings.Trim(r.words, `"`)
			} else {
				r.entity = singular(r.words)
			}
			w.addRel(sc, d, r, kind)
			ons = append(ons, joinOn{r, qual})
		case n.GetJoinExpr() != nil:
			j := n.GetJoinExpr()
			add(j.GetLarg(), kind, qual)
			k := "inner"
			switch j.GetJointype() {
			case pg.JoinType_JOIN_LEFT:
				k = "left"
			case pg.JoinType_JOIN_RIGHT:
				k = "right"
			case pg.JoinType_JOIN_FULL:
				k = "full"
			default:
				if j.GetQuals() == nil && len(j.GetUsingClause()) == 0 && !j.GetIsNatural() {
					k = "cross"
				}
			}
			add(j.GetRarg(), k, j.GetQuals())
		case n.GetRangeSubselect() != nil:
			rs := n.GetRangeSubselect()
			a := rs.GetAlias().GetAliasname()
			r := &rel{alias: a, words: "a subquery", entity: w.words(a)}
			if q := rs.GetSubquery().GetSelectStmt(); q != nil {
				var outer *scope
				if rs.GetLateral() {
					outer = sc
				} else {
					outer = &scope{ctes: sc.ctes, parent: parentOf(sc)}
				}
				pd := w.query(q, outer)
				name := "subquery"
				if a != "" {
					name = w.words(a)
					r.words = strconv.Quote(name)
				}
				d.Parts = append(d.Parts, Part{Name: name, Description: pd})
			}
			w.addRel(sc, d, r, kind)
		case n.GetRangeFunction() != nil:
			rf := n.GetRangeFunction()
			r := &rel{alias: rf.GetAlias().GetAliasname(), words: "the rows of a function"}
			for _, f := range rf.GetFunctions() {
				for _, x := range f.GetList().GetItems() {
					if fc := x.GetFuncCall(); fc != nil {
						r.words = "the rows of " + w.words(funcName(fc))
						if r.alias == "" {
							r.alias = funcName(fc)
						}
					}
				}
			}
			r.entity = "row"
			w.addRel(sc, d, r, kind)
		default:
			w.addRel(sc, d, &rel{words: "a table expression", entity: "row"}, kind)
		}
	}
	for i, n := range items {
		k := "inner"
		if i > 0 {
			k = "cross"
		}
		add(n, k, nil)
	}
	sc.multi = len(sc.rels) > 1
	// A table read twice: name each later copy by the column it is
	// joined on ("employees m ON m.emp_id = e.manager_id" is the manager).
	seen := map[string]bool{}
	for _, on := range ons {
		if on.r.table == "" {
			continue
		}
		if !seen[on.r.table] {
			seen[on.r.table] = true
			continue
		}
		on.r.role = w.role(on.r, on.qual, sc)
		if on.r.role != "" {
			// Say which copy: the join text of a table read twice.
			for i, r := range sc.rels[1:] {
				if r == on.r && joins0+i < len(d.Joins) {
					d.Joins[joins0+i] = strings.Replace(d.Joins[joins0+i], r.words, r.words+" (as "+r.role+")", 1)
				}
			}
		}
	}
}

func parentOf(sc *scope) *scope {
	if sc == nil {
		return nil
	}
	return sc.parent
}

func (w *writer) addRel(sc *scope, d *Description, r *rel, kind string) {
	sc.rels = append(sc.rels, r)
	d.Tables = append(d.Tables, strings.Trim(r.words, `"`))
	if len(sc.rels) == 1 {
		sc.subject = r.words
		return
	}
	switch kind {
	case "left":
		d.Joins = append(d.Joins, r.words+" where present")
	case "right":
		d.Joins = append(d.Joins, "all "+r.words)
	case "full":
		d.Joins = append(d.Joins, r.words+" (keeping unmatched rows of both)")
	default:
		d.Joins = append(d.Joins, r.words)
	}
}

// role names a second copy of a table after the column of another table
// it is joined to, without its trailing "id".
func (w *writer) role(r *rel, qual *pg.Node, sc *scope) string {
	var found string
	var visit func(n *pg.Node)
	visit = func(n *pg.Node) {
		if n == nil || found != "" {
			return
		}
		if b := n.GetBoolExpr(); b != nil {
			for _, a := range b.GetArgs() {
				visit(a)
			}
			return
		}
		e := n.GetAExpr()
		if e == nil || opName(e) != "=" {
			return
		}
		l, rr := e.GetLexpr().GetColumnRef(), e.GetRexpr().GetColumnRef()
		if l == nil || rr == nil {
			return
		}
		if qualifier(rr) == r.alias {
			l, rr = rr, l
		}
		if qualifier(l) != r.alias || qualifier(rr) == r.alias {
			return
		}
		ws := strings.Fields(w.words(lastField(rr)))
		for len(ws) > 1 && (ws[len(ws)-1] == "id" || ws[len(ws)-1] == "number" || ws[len(ws)-1] == "code") {
			ws = ws[:len(ws)-1]
		}
		if role := strings.Join(ws, " "); role != r.entity && role != "" {
			found = role
		}
	}
	visit(qual)
	if found == "" && r.alias != r.table {
		found = w.words(r.alias)
	}
	return found
}

func qualifier(c *pg.ColumnRef) string {
	f := c.GetFields()
	if len(f) < 2 {
		return ""
	}
	return f[len(f)-2].GetString_().GetSval()
}

func funcName(f *pg.FuncCall) string {
	names := f.GetFuncname()
	if len(names) == 0 {
		return ""
	}
	return strings.ToLower(names[len(names)-1].GetString_().GetSval())
}

func opName(e *pg.A_Expr) string {
	names := e.GetName()
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1].GetString_().GetSval()
}
