package validate

import (
	"slices"
	"sort"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// aggregates are the aggregate functions lint knows (a FuncCall with OVER is
// a window call instead).
var aggregates = setOf("count", "sum", "avg", "min", "max", "array_agg", "string_agg", "bool_and", "bool_or",
	"every", "bit_and", "bit_or", "bit_xor", "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg",
	"stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "corr", "covar_pop", "covar_samp",
	"regr_avgx", "regr_avgy", "regr_count", "regr_intercept", "regr_r2", "regr_slope", "regr_sxx", "regr_sxy",
	"regr_syy", "percentile_cont", "percentile_disc", "mode", "range_agg", "range_intersect_agg", "any_value",
	"json_agg_strict", "jsonb_agg_strict", "json_object_agg_strict", "jsonb_object_agg_strict")

// relation is one FROM item as seen by lint.
type relation struct {
	alias     string      // the name columns are qualified with
	schema    string      // the schema of the table it reads, when known ("" for CTEs, subqueries, functions)
	name      string      // what to call it in messages
	weight    int         // unconnected groups it stands for (a subquery may be a product itself)
	cols      []string    // known column names; nil when unknown
	singleRow bool        // yields at most one row (aggregate subquery)
	joins     []*relation // earlier items a LATERAL item is joined to by its own conditions or arguments
	// table is the allowed table the item reads (nil for CTEs, subqueries,
	// functions and tables not given), rename maps its visible column
	// names to the table's when an alias renames them.
	table  *Table
	rename map[string]string
}

func (r *relation) has(col string) bool {
	for _, c := range r.cols {
		if c == col {
			return true
		}
	}
	return false
}

// level is the FROM scope of one SELECT.
type level struct {
	rels    []*relation
	using   map[string]bool // columns merged by USING / NATURAL
	aliases map[string]bool // output column names (usable in ORDER BY/GROUP BY)
	parent  *level
	ctes    map[string]int // CTE name -> cross-join weight of its body
	// equi connects the relations only equality conditions join: a
	// non-equi join (a.id <= b.id) yields up to the product of its sides.
	equi *unionFind
	// For the fan-trap lint: the USING or NATURAL joins (collected when
	// linting).
	usings []usingJoin
}

// usingJoin is a join on same-named columns (USING, NATURAL).
type usingJoin struct {
	left, right []*relation
	cols        []string // the USING columns
	natural     bool     // NATURAL: every column both sides have
}

type analyzer struct {
	c    *checker
	lint bool
	// nonEqui holds the SELECTs whose relations only non-equi joins
	// connect (a.id <= b.id): ARRAY(subquery) over one collects a product.
	nonEqui map[*pg.SelectStmt]bool
}

// analyze runs the checks that need the query's structure: the cross-join
// guard always, the lint checks when lint is set.
func analyze(c *checker, s *pg.SelectStmt, lint bool) {
	a := &analyzer{c: c, lint: lint, nonEqui: map[*pg.SelectStmt]bool{}}
	a.selectStmt(s, nil, nil, true)
	if lint {
		a.unusedRanking(s)
	}
}

func (a *analyzer) warn(code string, loc int, format string, args ...any) {
	if a.lint {
		a.c.add(code, SeverityWarning, loc, format, args...)
	}
}

// selectStmt analyzes one SELECT and returns its cross-join weight: how
// many unconnected groups of relations its result multiplies.
func (a *analyzer) selectStmt(s *pg.SelectStmt, parent *level, ctes map[string]int, top bool) int {
	if s == nil {
		return 1
	}
	if w := s.WithClause; w != nil {
		inner := map[string]int{}
		for k, v := range ctes {
			inner[k] = v
		}
		for _, n := range w.Ctes {
			if cte := n.GetCommonTableExpr(); cte != nil {
				if w.Recursive {
					inner[cte.Ctename] = 1
				}
			}
		}
		for _, n := range w.Ctes {
			if cte := n.GetCommonTableExpr(); cte != nil {
				inner[cte.Ctename] = a.selectStmt(cte.Ctequery.GetSelectStmt(), parent, inner, false)
			}
		}
		ctes = inner
	}
	if s.Op != pg.SetOperation_SETOP_NONE {
		if a.lint && top {
			a.aggregateSetOp(s)
		}
		return max(a.selectStmt(s.Larg, parent, ctes, false), a.selectStmt(s.Rarg, parent, ctes, false))
	}
	lv := &level{parent: parent, using: map[string]bool{}, aliases: map[string]bool{}, ctes: ctes, equi: newUnionFind()}
	uf := newUnionFind()
	for _, item := range s.FromClause {
		a.fromItem(item, lv, uf)
	}
	for _, v := range s.ValuesLists {
		a.expr(v, lv)
	}
	for _, t := range s.TargetList {
		if rt := t.GetResTarget(); rt != nil {
			if rt.Name != "" {
				lv.aliases[rt.Name] = true
			}
		}
	}
	// WHERE conjuncts that mention several relations connect them.
	for _, conj := range conjuncts(s.WhereClause) {
		a.connect(conj, lv, uf)
	}
	weight := a.crossJoin(s, lv, uf)
	switch {
	case weight > 1:
		a.accumulatingOverProduct(s, "a cartesian product collects every combination of rows in memory; join the relations with ON conditions")
	case groupCount(lv, lv.equi) > 1:
		a.nonEqui[s] = true
		a.accumulatingOverProduct(s, "a join without an equality condition (a.id <= b.id, BETWEEN, <>) collects up to every combination of rows in memory; join the relations on equal keys or aggregate each side first")
	}

	for _, t := range s.TargetList {
		a.expr(t, lv)
	}
	a.expr(s.WhereClause, lv)
	for _, g := range s.GroupClause {
		a.expr(g, lv)
	}
	a.expr(s.HavingClause, lv)
	for _, o := range s.SortClause {
		a.expr(o, lv)
	}
	for _, w := range s.WindowClause {
		a.expr(w, lv)
	}
	a.expr(s.LimitCount, lv)
	a.expr(s.LimitOffset, lv)
	for _, d := range s.DistinctClause {
		a.expr(d, lv)
	}
	if !a.lint {
		return weight
	}
	a.selectStar(s, lv)
	a.grouping(s)
	a.fanTrap(s, lv)
	a.contradiction(s, lv)
	if len(s.GroupClause) > 0 {
		grouped := lv.groupedBy(s, lv.bareColumn)
		a.groupedKeyCount(s, lv, grouped)
		a.groupsOfOneRow(s, lv, grouped)
	}
	if s.HavingClause != nil && len(s.GroupClause) == 0 {
		a.warn(CodeHavingNoGroup, nodeLocation(s.HavingClause), "HAVING without GROUP BY treats the whole result as one group; add GROUP BY or move the condition to WHERE")
	}
	if top && s.LimitCount != nil && !isNullConst(s.LimitCount) && len(s.SortClause) == 0 && !singleRow(s) {
		a.warn(CodeLimitNoOrder, nodeLocation(s.LimitCount), "LIMIT without ORDER BY returns arbitrary rows; add ORDER BY to choose which rows (e.g. for a top-N question)")
	}
	return weight
}

// fromItem registers the relations of a FROM item in lv.
func (a *analyzer) fromItem(n *pg.Node, lv *level, uf *unionFind) []*relation {
	switch {
	case n == nil:
		return nil
	case n.GetRangeVar() != nil:
		rv := n.GetRangeVar()
		r := &relation{alias: rv.Relname, name: qualified(rv.Schemaname, rv.Relname), weight: 1, schema: rv.Schemaname}
		if rv.Alias != nil {
			r.alias = rv.Alias.Aliasname
		}
		if w, ok := lv.ctes[rv.Relname]; ok && rv.Schemaname == "" {
			r.weight = w
		} else if t := a.c.lookupTable(rv.Schemaname, rv.Relname); t != nil {
			if len(t.Columns) > 0 {
				r.cols = t.Columns
			}
			r.table = t
			r.schema = t.Schema
		}
		r.cols = aliasCols(rv.Alias, r.cols)
		if r.table != nil && len(rv.Alias.GetColnames()) > 0 {
			if len(r.table.Columns) == 0 {
				r.table = nil // renamed columns of unknown names
			} else {
				r.rename = make(map[string]string, len(r.cols))
				for i, c := range r.cols {
					if i < len(r.table.Columns) {
						r.rename[c] = r.table.Columns[i]
					}
				}
			}
		}
		return a.addRel(r, lv, uf)
	case n.GetRangeSubselect() != nil:
		rs := n.GetRangeSubselect()
		sub := rs.Subquery.GetSelectStmt()
		scope := lv.parent
		if rs.Lateral {
			scope = lv
		}
		w := a.selectStmt(sub, scope, lv.ctes, false)
		r := &relation{alias: "subquery", name: "subquery", singleRow: singleRow(sub), weight: w}
		if rs.Lateral {
			r.joins = lateralJoins(rs.Subquery, lv)
		}
		if rs.Alias != nil {
			r.alias, r.name = rs.Alias.Aliasname, rs.Alias.Aliasname
		}
		r.cols = aliasCols(rs.Alias, outputCols(sub))
		return a.addRel(r, lv, uf)
	case n.GetRangeFunction() != nil:
		rf := n.GetRangeFunction()
		for _, f := range rf.Functions {
			a.expr(f, lv)
		}
		// A function in FROM may read the items before it: it is joined to
		// those its arguments read (unnest(u.tags)), and otherwise a
		// product of its own (generate_series(1, 1000)).
		r := &relation{alias: "function", name: "function", weight: 1, joins: referencedRels(rf.Functions, lv)}
		if rf.Alias != nil {
			r.alias, r.name = rf.Alias.Aliasname, rf.Alias.Aliasname
		} else if len(rf.Functions) == 1 {
			if l := rf.Functions[0].GetList(); l != nil && len(l.Items) > 0 {
				if fc := l.Items[0].GetFuncCall(); fc != nil && len(fc.Funcname) > 0 {
					r.alias = fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval()
					r.name = r.alias
				}
			}
		}
		return a.addRel(r, lv, uf)
	case n.GetJoinExpr() != nil:
		j := n.GetJoinExpr()
		left := a.fromItem(j.Larg, lv, uf)
		right := a.fromItem(j.Rarg, lv, uf)
		all := append(append([]*relation(nil), left...), right...)
		for _, u := range j.UsingClause {
			lv.using[u.GetString_().GetSval()] = true
		}
		if j.IsNatural {
			for _, l := range left {
				for _, col := range l.cols {
					for _, r := range right {
						if r.has(col) {
							lv.using[col] = true
						}
					}
				}
			}
		}
		if len(all) > 1 && (len(j.UsingClause) > 0 || j.IsNatural) {
			for _, r := range all[1:] {
				uf.union(all[0], r)
				lv.equi.union(all[0], r)
			}
		}
		if a.lint && (len(j.UsingClause) > 0 || j.IsNatural) {
			u := usingJoin{left: left, right: right}
			for _, n := range j.UsingClause {
				u.cols = append(u.cols, n.GetString_().GetSval())
			}
			u.natural = j.IsNatural
			lv.usings = append(lv.usings, u)
		}
		// ON conditions connect the relations they mention, like WHERE
		// conditions: ON true does not.
		for _, conj := range conjuncts(j.Quals) {
			a.connect(conj, lv, uf)
		}
		a.expr(j.Quals, lv)
		return all
	case n.GetRangeTableSample() != nil:
		return a.fromItem(n.GetRangeTableSample().Relation, lv, uf)
	}
	a.expr(n, lv)
	return nil
}

func (a *analyzer) addRel(r *relation, lv *level, uf *unionFind) []*relation {
	uf.add(r)
	lv.equi.add(r)
	for _, p := range r.joins {
		uf.union(p, r)
		lv.equi.union(p, r)
	}
	lv.rels = append(lv.rels, r)
	return []*relation{r}
}

func aliasCols(al *pg.Alias, cols []string) []string {
	if al == nil || len(al.Colnames) == 0 {
		return cols
	}
	out := append([]string(nil), cols...)
	for i, c := range al.Colnames {
		name := c.GetString_().GetSval()
		if i < len(out) {
			out[i] = name
		} else {
			out = append(out, name)
		}
	}
	return out
}

// outputCols returns the column names of a subquery, nil if any is unknown.
func outputCols(s *pg.SelectStmt) []string {
	for s != nil && s.Op != pg.SetOperation_SETOP_NONE {
		s = s.Larg
	}
	if s == nil || len(s.ValuesLists) > 0 {
		return nil
	}
	var cols []string
	for _, t := range s.TargetList {
		rt := t.GetResTarget()
		switch {
		case rt == nil:
			return nil
		case rt.Name != "":
			cols = append(cols, rt.Name)
		case rt.Val.GetColumnRef() != nil:
			name := lastField(rt.Val.GetColumnRef())
			if name == "*" {
				return nil
			}
			cols = append(cols, name)
		case rt.Val.GetFuncCall() != nil:
			f := rt.Val.GetFuncCall()
			cols = append(cols, f.Funcname[len(f.Funcname)-1].GetString_().GetSval())
		default:
			return nil
		}
	}
	return cols
}

// lookupTable finds an allowed table with known columns, silently.
func (c *checker) lookupTable(schema, name string) *Table {
	if c.cfg.tables == nil {
		return nil
	}
	if schema != "" {
		return c.cfg.tables[schema][name]
	}
	for _, s := range c.cfg.searchPath {
		if t := c.cfg.tables[s][name]; t != nil {
			return t
		}
	}
	return nil
}

// crossJoin counts the groups of FROM items with no join condition between
// them, a subquery or CTE counting for the groups it multiplies itself, and
// returns the count. Items yielding a single row do not multiply the result.
func (a *analyzer) crossJoin(s *pg.SelectStmt, lv *level, uf *unionFind) int {
	groups := map[*relation]int{} // root -> heaviest member
	var names []string
	for _, r := range lv.rels {
		if r.singleRow {
			continue
		}
		root := uf.find(r)
		if _, ok := groups[root]; !ok {
			names = append(names, r.name)
		}
		groups[root] = max(groups[root], r.weight)
	}
	n := 0
	for _, w := range groups {
		n += w
	}
	loc := nodeLocation(firstNode(s.FromClause))
	switch {
	case n > a.c.cfg.maxCrossJoin:
		a.c.add(CodeCrossJoin, SeverityError, loc,
			"the FROM clause combines %d groups of relations (%s) with no join condition between them, a cartesian product that can be huge; add JOIN ... ON conditions", n, strings.Join(names, ", "))
	case len(groups) > 1:
		a.warn(CodeCartesian, loc,
			"no join condition connects %s: the result is a cartesian product; add JOIN ... ON or WHERE conditions relating them", strings.Join(names, " and "))
	}
	return max(n, 1)
}

// accumulatingOverProduct refuses aggregates that keep every input value
// (array_agg, string_agg, json_agg, ...) over a cartesian product: their
// state is not bounded by work_mem and grows with the product.
func (a *analyzer) accumulatingOverProduct(s *pg.SelectStmt, over string) {
	visitOutputs(s, func(n *pg.Node, m proto.Message) bool {
		switch x := m.(type) {
		case *pg.FuncCall:
			// Also as a window: every row of the product carries the
			// whole aggregate. (DISTINCT and ordered aggregates only
			// sort, spilling to temporary files that temp_file_limit
			// bounds.)
			if accumulating[funcName(x)] {
				a.c.add(CodeCrossJoin, SeverityError, int(x.Location), "%s over %s", funcName(x), over)
				return false
			}
		case *pg.JsonArrayAgg, *pg.JsonObjectAgg:
			a.c.add(CodeCrossJoin, SeverityError, nodeLocation(n), "JSON aggregation over %s", over)
			return false
		}
		return true
	})
}

// visitOutputs visits what a level computes per output row (target list,
// HAVING, ORDER BY), where its aggregates are, without entering
// subqueries (they aggregate over their own FROM); n is the clause
// expression being walked.
func visitOutputs(s *pg.SelectStmt, fn func(n *pg.Node, m proto.Message) bool) {
	nodes := append(append([]*pg.Node(nil), s.TargetList...), s.HavingClause)
	nodes = append(nodes, s.SortClause...)
	for _, n := range nodes {
		if n == nil {
			continue
		}
		visit(n, func(m proto.Message) bool {
			if _, sub := m.(*pg.SelectStmt); sub {
				return false
			}
			return fn(n, m)
		})
	}
}

// connect unions the relations one WHERE or ON conjunct joins. Only a
// join condition joins: a comparison other than <>, a LIKE, an IN, or an
// OR whose every arm is one. ON true, a.id <> b.id, ... OR true and
// EXISTS (...) leave a product.
func (a *analyzer) connect(conj *pg.Node, lv *level, uf *unionFind) {
	if !joinCondition(conj) {
		return
	}
	var refs []*relation
	unknown := 0
	eachColumnRef(conj, func(cr *pg.ColumnRef) {
		r, ok := lv.resolve(cr)
		switch {
		case r != nil:
			refs = append(refs, r)
		case !ok:
			unknown++
		}
	})
	distinct := map[*relation]bool{}
	for _, r := range refs {
		distinct[r] = true
	}
	if len(distinct)+unknown < 2 {
		return
	}
	equi := equiJoin(conj, lv)
	join := func(x, y *relation) {
		uf.union(x, y)
		if equi {
			lv.equi.union(x, y)
		}
	}
	if unknown > 0 {
		// The condition may relate any of them: assume it joins them all.
		for _, r := range lv.rels[1:] {
			join(lv.rels[0], r)
		}
		return
	}
	for _, r := range refs[1:] {
		join(refs[0], r)
	}
}

// equiJoin reports whether a join condition matches rows on equal values
// of columns of two relations (a.k = b.k, IN, IS NOT DISTINCT FROM, through
// casts; an AND with one, an OR of them), so that its rows are bounded by
// the data's duplicates rather than the product. a.id = b.id * 0, a.id =
// a.id + b.id and a.id - b.id = 0 are not.
func equiJoin(n *pg.Node, lv *level) bool {
	switch {
	case n.GetAExpr() != nil:
		e := n.GetAExpr()
		op, ok := opName(e)
		switch {
		case e.Kind == pg.A_Expr_Kind_AEXPR_OP && ok && op == "=",
			e.Kind == pg.A_Expr_Kind_AEXPR_NOT_DISTINCT:
			return columnsOfTwo(e.Lexpr, e.Rexpr, lv)
		case e.Kind == pg.A_Expr_Kind_AEXPR_IN && ok && op == "=":
			for _, item := range e.Rexpr.GetList().GetItems() {
				if !columnsOfTwo(e.Lexpr, item, lv) {
					return false
				}
			}
			return len(e.Rexpr.GetList().GetItems()) > 0
		}
	case n.GetBoolExpr() != nil:
		b := n.GetBoolExpr()
		match := func(arm *pg.Node) bool { return equiJoin(arm, lv) }
		switch b.Boolop {
		case pg.BoolExprType_AND_EXPR:
			return slices.ContainsFunc(b.Args, match)
		case pg.BoolExprType_OR_EXPR:
			for _, arm := range b.Args {
				if !slices.ContainsFunc(conjuncts(arm), match) {
					return false
				}
			}
			return len(b.Args) > 0
		}
	}
	return false
}

// columnsOfTwo reports whether l and r are columns (through casts) of two
// different relations, or of relations the level cannot resolve.
func columnsOfTwo(l, r *pg.Node, lv *level) bool {
	col := func(n *pg.Node) (*relation, bool) {
		for n.GetTypeCast() != nil {
			n = n.GetTypeCast().Arg
		}
		cr := n.GetColumnRef()
		if cr == nil {
			return nil, false
		}
		rel, ok := lv.resolve(cr)
		return rel, rel != nil || !ok
	}
	a, okA := col(l)
	b, okB := col(r)
	return okA && okB && (a != b || a == nil)
}

// groupCount counts the groups of relations of a level (single-row items
// aside) that uf leaves unconnected.
func groupCount(lv *level, uf *unionFind) int {
	roots := map[*relation]bool{}
	for _, r := range lv.rels {
		if !r.singleRow {
			roots[uf.find(r)] = true
		}
	}
	return len(roots)
}

// joinCondition reports whether a condition can join the relations it
// reads (see connect).
func joinCondition(n *pg.Node) bool {
	switch {
	case n == nil:
		return false
	case n.GetAExpr() != nil:
		e := n.GetAExpr()
		switch e.Kind {
		case pg.A_Expr_Kind_AEXPR_DISTINCT, pg.A_Expr_Kind_AEXPR_NULLIF:
			return false
		case pg.A_Expr_Kind_AEXPR_OP, pg.A_Expr_Kind_AEXPR_OP_ANY, pg.A_Expr_Kind_AEXPR_OP_ALL:
			switch opSymbol(e.Name) {
			case "<>", "!=":
				return false
			}
		}
		return true
	case n.GetBoolExpr() != nil:
		b := n.GetBoolExpr()
		switch b.Boolop {
		case pg.BoolExprType_OR_EXPR:
			for _, arm := range b.Args {
				if !slices.ContainsFunc(conjuncts(arm), joinCondition) {
					return false
				}
			}
			return len(b.Args) > 0
		case pg.BoolExprType_AND_EXPR:
			return slices.ContainsFunc(b.Args, joinCondition)
		}
		return false
	case n.GetFuncCall() != nil, n.GetTypeCast() != nil:
		return true // a boolean function of both sides (similarity(a.x, b.y) > ...)
	}
	return false
}

// lateralJoins returns the items of lv a LATERAL subquery is joined to: those
// its own join conditions compare with its rows.
func lateralJoins(sub *pg.Node, lv *level) []*relation {
	var out []*relation
	visit(sub, func(m proto.Message) bool {
		n, ok := m.(*pg.Node)
		if !ok || n.GetAExpr() == nil || !joinCondition(n) {
			return true
		}
		eachColumnRef(n, func(cr *pg.ColumnRef) {
			if len(cr.Fields) < 2 {
				return
			}
			if r, _ := lv.resolve(cr); r != nil && !slices.Contains(out, r) {
				out = append(out, r)
			}
		})
		return true
	})
	return out
}

// referencedRels returns the items of lv the expressions read.
func referencedRels(ns []*pg.Node, lv *level) []*relation {
	var out []*relation
	for _, n := range ns {
		eachColumnRef(n, func(cr *pg.ColumnRef) {
			if r, _ := lv.resolve(cr); r != nil && !slices.Contains(out, r) {
				out = append(out, r)
			}
		})
	}
	return out
}

// resolve maps a column reference to a relation of this level. ok is false
// when the reference could belong to this level but which relation is
// unknown; (nil, true) means it belongs to an outer level or nowhere.
func (lv *level) resolve(cr *pg.ColumnRef) (*relation, bool) {
	f := fieldNames(cr)
	if len(f) >= 3 {
		// schema.table.column names an unaliased table of that schema:
		// s1.t and s2.t may both stand in one FROM.
		schema, q := f[len(f)-3], f[len(f)-2]
		for _, r := range lv.rels {
			if r.alias == q && r.schema == schema && schema != "" {
				return r, true
			}
		}
		return nil, true
	}
	if len(f) == 2 {
		q := f[0]
		for _, r := range lv.rels {
			if r.alias == q {
				return r, true
			}
		}
		return nil, true
	}
	if len(f) != 1 || f[0] == "*" {
		return nil, true
	}
	var found []*relation
	for _, r := range lv.rels {
		if r.cols == nil {
			return nil, false
		}
		if r.has(f[0]) {
			found = append(found, r)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return nil, len(found) == 0
}

// expr lints an expression and analyzes the subqueries inside it.
func (a *analyzer) expr(n *pg.Node, lv *level) {
	if n == nil {
		return
	}
	visit(n, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg.SubLink:
			sub := x.Subselect.GetSelectStmt()
			if x.SubLinkType != pg.SubLinkType_ARRAY_SUBLINK || sub == nil {
				return true
			}
			// ARRAY(subquery) keeps every row in memory, like array_agg.
			if w := a.selectStmt(sub, lv, lv.ctes, false); w > 1 || a.nonEqui[sub] {
				a.c.add(CodeCrossJoin, SeverityError, int(x.Location), "ARRAY(subquery) over a cartesian product or a join without an equality condition collects every combination of rows in memory; join the relations on equal keys")
			}
			a.expr(x.Testexpr, lv)
			return false
		case *pg.SelectStmt:
			a.selectStmt(x, lv, lv.ctes, false)
			return false
		case *pg.ColumnRef:
			a.columnRef(x, lv)
		case *pg.A_Expr:
			a.aExpr(x)
		}
		return true
	})
}

func (a *analyzer) aExpr(e *pg.A_Expr) {
	op := opSymbol(e.Name)
	switch e.Kind {
	case pg.A_Expr_Kind_AEXPR_OP:
		if (op == "=" || op == "<>" || op == "!=") && (isNullConst(e.Lexpr) || isNullConst(e.Rexpr)) {
			// Always NULL, so never true: a bug, not a style issue.
			a.c.add(CodeNullCompare, SeverityError, int(e.Location),
				"comparison with NULL using %s is never true; use IS NULL or IS NOT NULL", op)
		}
	case pg.A_Expr_Kind_AEXPR_LIKE:
		// ILIKE without wildcards is a legitimate case-insensitive equality.
		if s := e.Rexpr.GetAConst().GetSval(); s != nil && !strings.ContainsAny(s.Sval, "%_") {
			a.warn(CodeLikeNoWild, int(e.Location),
				"LIKE pattern '%s' has no wildcard, so it only matches exactly; use = or add %% (e.g. '%%%s%%')", s.Sval, s.Sval)
		}
	}
}

func (a *analyzer) columnRef(cr *pg.ColumnRef, lv *level) {
	if !a.lint {
		return
	}
	f := fieldNames(cr)
	loc := int(cr.Location)
	switch {
	case len(f) == 0 || f[len(f)-1] == "*":
	case len(f) >= 2:
		q, col := f[len(f)-2], f[len(f)-1]
		for l := lv; l != nil; l = l.parent {
			for _, r := range l.rels {
				if r.alias != q {
					continue
				}
				if r.cols != nil && !r.has(col) {
					a.warn(CodeUnknownColumn, loc, "column %s does not exist in %s; its columns are: %s", col, r.name, strings.Join(r.cols, ", "))
				}
				return
			}
		}
	default:
		col := f[0]
		for l := lv; l != nil; l = l.parent {
			var in []string
			known := true
			for _, r := range l.rels {
				if r.cols == nil {
					known = false
				} else if r.has(col) {
					in = append(in, r.alias)
				}
			}
			if len(in) > 1 && !l.using[col] {
				a.warn(CodeAmbiguous, loc, "column %s is ambiguous: it exists in %s; qualify it (e.g. %s.%s)", col, strings.Join(in, " and "), in[0], col)
				return
			}
			if len(in) == 1 || !known || l.aliases[col] {
				return
			}
			for _, r := range l.rels {
				if r.alias == col {
					return // a whole-row reference
				}
			}
		}
		if lv.parent == nil && len(lv.rels) > 0 {
			var all []string
			for _, r := range lv.rels {
				all = append(all, r.cols...)
			}
			sort.Strings(all)
			a.warn(CodeUnknownColumn, loc, "column %s does not exist in the FROM relations; available columns: %s", col, strings.Join(all, ", "))
		}
	}
}

func (a *analyzer) selectStar(s *pg.SelectStmt, lv *level) {
	for _, t := range s.TargetList {
		cr := t.GetResTarget().GetVal().GetColumnRef()
		if cr == nil {
			continue
		}
		f := fieldNames(cr)
		if len(f) == 0 || f[len(f)-1] != "*" {
			continue
		}
		for _, r := range lv.rels {
			if len(f) >= 2 && r.alias != f[len(f)-2] {
				continue
			}
			if len(r.cols) > a.c.cfg.wideTable {
				a.warn(CodeSelectStar, int(cr.Location), "SELECT * on %s returns all %d columns; list only the columns the question needs", r.name, len(r.cols))
			}
		}
	}
}

// grouping flags columns that are neither aggregated nor grouped.
func (a *analyzer) grouping(s *pg.SelectStmt) {
	hasAgg := false
	for _, t := range s.TargetList {
		if containsAggregate(t) {
			hasAgg = true
		}
	}
	if len(s.GroupClause) == 0 && !hasAgg {
		return
	}
	// Group keys: the expressions, and target expressions named by
	// position or alias.
	keys := map[string]bool{}
	qualOf := map[string][]string{} // column -> qualifiers grouped
	// ref: n is a GROUP BY item, which may name a target by position or
	// alias; the target it names is an expression, not a reference again
	// (SELECT 1 GROUP BY 1 would expand forever).
	var addKey func(n *pg.Node, ref bool)
	addKey = func(n *pg.Node, ref bool) {
		switch {
		case n.GetGroupingSet() != nil:
			for _, c := range n.GetGroupingSet().Content {
				addKey(c, ref)
			}
			return
		case n.GetRowExpr() != nil:
			for _, c := range n.GetRowExpr().Args {
				addKey(c, ref)
			}
			return
		}
		if k, ok := pgparse.OutputPosition(n, len(s.TargetList)); ref && ok {
			addKey(s.TargetList[k-1].GetResTarget().GetVal(), false)
			return
		}
		if cr := n.GetColumnRef(); cr != nil {
			f := fieldNames(cr)
			if len(f) == 1 && ref {
				for _, t := range s.TargetList {
					if rt := t.GetResTarget(); rt != nil && rt.Name == f[0] {
						addKey(rt.Val, false)
					}
				}
			}
			col := f[len(f)-1]
			q := ""
			if len(f) >= 2 {
				q = f[len(f)-2]
			}
			qualOf[col] = append(qualOf[col], q)
		}
		keys[exprKey(n)] = true
	}
	for _, g := range s.GroupClause {
		addKey(g, true)
	}
	idGrouped := func(q string) bool {
		for col, qs := range qualOf {
			if col == "id" || strings.HasSuffix(col, "id") {
				for _, gq := range qs {
					if gq == q || gq == "" {
						return true
					}
				}
			}
		}
		return false
	}
	for _, t := range s.TargetList {
		rt := t.GetResTarget()
		if rt == nil || keys[exprKey(rt.Val)] {
			continue
		}
		ungrouped(rt.Val, keys, func(cr *pg.ColumnRef) {
			f := fieldNames(cr)
			col := f[len(f)-1]
			if col == "*" || keys[exprKey(&pg.Node{Node: &pg.Node_ColumnRef{ColumnRef: cr}})] {
				return
			}
			q := ""
			if len(f) >= 2 {
				q = f[len(f)-2]
			}
			for _, gq := range qualOf[col] {
				if gq == q || gq == "" || q == "" {
					return
				}
			}
			if idGrouped(q) {
				return // probably functionally dependent on a grouped key
			}
			a.warn(CodeUngrouped, int(cr.Location), "column %s must appear in GROUP BY or be used in an aggregate function", strings.Join(f, "."))
		})
	}
}

// ungrouped calls fn for the column references outside aggregates, window
// calls, subqueries and grouped expressions.
func ungrouped(n *pg.Node, keys map[string]bool, fn func(*pg.ColumnRef)) {
	if n == nil {
		return
	}
	visit(n, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg.Node:
			if x.GetColumnRef() == nil && keys[exprKey(x)] {
				return false
			}
		case *pg.SelectStmt:
			return false
		case *pg.FuncCall:
			if x.Over != nil || isAggregate(x) {
				return false
			}
		case *pg.ColumnRef:
			fn(x)
		}
		return true
	})
}

func isAggregate(f *pg.FuncCall) bool {
	if f.Over != nil || len(f.Funcname) == 0 {
		return false
	}
	return f.AggWithinGroup || f.AggStar || aggregates[f.Funcname[len(f.Funcname)-1].GetString_().GetSval()]
}

func containsAggregate(n *pg.Node) bool {
	found := false
	if n == nil {
		return false
	}
	visit(n, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg.SelectStmt:
			return false
		case *pg.FuncCall:
			if isAggregate(x) {
				found = true
				return false
			}
		}
		return !found
	})
	return found
}

// singleRow reports whether a SELECT returns at most one row: aggregates
// without GROUP BY, or LIMIT 1.
func singleRow(s *pg.SelectStmt) bool {
	if s == nil || s.Op != pg.SetOperation_SETOP_NONE {
		return false
	}
	if k, ok := numConst(s.LimitCount); ok && k <= 1 {
		return true
	}
	if len(s.GroupClause) > 0 || len(s.TargetList) == 0 || len(s.ValuesLists) > 1 {
		return false
	}
	if len(s.FromClause) == 0 {
		return true
	}
	for _, t := range s.TargetList {
		if !containsAggregate(t) {
			return false
		}
	}
	return true
}

// exprKey renders an expression shape without locations, for equality.
func exprKey(n *pg.Node) string {
	if n == nil {
		return ""
	}
	var b []byte
	visit(n, func(m proto.Message) bool {
		b = append(b, messageName(m)...)
		b = append(b, '(')
		b = appendScalars(b, m)
		return true
	})
	return string(b)
}

// visit calls fn for m and, while fn returns true, everything below it.
// A Node wrapper is offered (exprKey matching needs it), then its content.
func visit(m proto.Message, fn func(proto.Message) bool) {
	if n, ok := m.(*pg.Node); ok {
		if n == nil || !fn(n) {
			return
		}
		if inner, _ := nodeMessage(n); inner != nil {
			visit(inner, fn)
		}
		return
	}
	if !fn(m) {
		return
	}
	eachChild(m, func(_ string, c proto.Message) { visit(c, fn) })
}

func eachColumnRef(n *pg.Node, fn func(*pg.ColumnRef)) {
	if n == nil {
		return
	}
	visit(n, func(m proto.Message) bool {
		if cr, ok := m.(*pg.ColumnRef); ok {
			fn(cr)
		}
		return true
	})
}

func conjuncts(n *pg.Node) []*pg.Node {
	if n == nil {
		return nil
	}
	if b := n.GetBoolExpr(); b != nil && b.Boolop == pg.BoolExprType_AND_EXPR {
		var out []*pg.Node
		for _, a := range b.Args {
			out = append(out, conjuncts(a)...)
		}
		return out
	}
	return []*pg.Node{n}
}

func fieldNames(cr *pg.ColumnRef) []string {
	out := make([]string, 0, len(cr.Fields))
	for _, f := range cr.Fields {
		if s := f.GetString_(); s != nil {
			out = append(out, s.Sval)
		} else if f.GetAStar() != nil {
			out = append(out, "*")
		}
	}
	return out
}

func lastField(cr *pg.ColumnRef) string {
	f := fieldNames(cr)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

func isNullConst(n *pg.Node) bool {
	return n != nil && n.GetAConst() != nil && n.GetAConst().Isnull
}

func firstNode(ns []*pg.Node) *pg.Node {
	if len(ns) == 0 {
		return nil
	}
	return ns[0]
}

// nodeLocation finds the first location field at or below n (-1 if none).
func nodeLocation(n *pg.Node) int {
	loc := -1
	if n == nil {
		return loc
	}
	visit(n, func(m proto.Message) bool {
		if loc >= 0 {
			return false
		}
		if l, ok := m.(located); ok && l.GetLocation() >= 0 {
			loc = int(l.GetLocation())
			return false
		}
		return true
	})
	return loc
}

type unionFind struct{ parent map[*relation]*relation }

func newUnionFind() *unionFind { return &unionFind{parent: map[*relation]*relation{}} }

func (u *unionFind) add(r *relation) { u.parent[r] = r }

func (u *unionFind) find(r *relation) *relation {
	for u.parent[r] != r {
		u.parent[r] = u.parent[u.parent[r]]
		r = u.parent[r]
	}
	return r
}

func (u *unionFind) union(a, b *relation) { u.parent[u.find(a)] = u.find(b) }
