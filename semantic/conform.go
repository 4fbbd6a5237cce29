package semantic

import (
	"slices"
	"strings"
	"sync"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// DeviationKind says how a query departs from a measure's definition.
type DeviationKind string

// Deviation kinds.
const (
	// DeviationFilter: the query aggregates the measure's expression with
	// its aggregation over its table, but nowhere applies its filter.
	DeviationFilter DeviationKind = "filter"
	// DeviationAggregate: the query aggregates, but nothing it aggregates
	// is the measure's expression with its aggregation over its table.
	DeviationAggregate DeviationKind = "aggregate"
)

// Deviation is a measure a query computes otherwise than its definition.
type Deviation struct {
	Measure string        `json:"measure"`
	Kind    DeviationKind `json:"kind"`
	// Definition is the measure as SQL: its aggregate and its table.
	Definition string `json:"definition"`
	// Filter is the measure's filter condition ("" when it has none).
	Filter string `json:"filter,omitempty"`
}

// String says the deviation in words: "the query computes revenue without
// its filter status <> 'Cancelled'".
func (d Deviation) String() string {
	if d.Kind == DeviationFilter {
		return "the query computes " + d.Measure + " without its filter " + d.Filter
	}
	return "the query does not compute " + d.Measure + " as defined: " + d.Definition
}

// Deviations reports, for each measure named (in that order; names that
// are no measure are skipped), whether sql computes it otherwise than its
// definition. The parse tree decides, not the spelling: the query follows
// the definition when some aggregate of it, in any SELECT (a CTE, a
// subquery, a branch of a UNION), applies the measure's aggregation to
// its expression (or an expression of it: sum(total_amount / rate) is the
// measure in another currency) over the measure's table, and every
// conjunct of the measure's filter is a condition of that aggregate: in
// its FILTER
// clause, in a CASE WHEN inside it, in the WHERE or a JOIN's ON of its
// SELECT, or in the WHERE of a CTE or subquery that only narrows the
// table down. Table aliases, qualification (schema, table), quoting,
// keyword case, casts of string constants to text, != for <>, the two
// sides of = and <>, NOT of a comparison, the order of IN lists and of
// AND terms do not matter; count(*) is also count(1) or count of the
// primary key. A query that aggregates nothing is not judged (it lists
// rows, it computes no measure). A query that does not parse has no
// deviation: the validator speaks for it. The model must be checked
// (Check) against cat; unqualified tables resolve along searchPath.
func (m *Model) Deviations(sql string, measures []string, cat *schema.Catalog, searchPath []string) []Deviation {
	if cat == nil {
		return nil
	}
	tree, err := pgparse.Parse(sql)
	if err != nil {
		return nil
	}
	var out []Deviation
	for _, name := range measures {
		ms := m.measure(name)
		if ms == nil || ms.entity.table == nil {
			continue
		}
		c := &conformer{ms: ms, t: ms.entity.table, cat: cat, path: searchPath}
		if !c.prepare() {
			continue
		}
		for _, st := range tree.Stmts {
			c.walk(st.Stmt, nil)
		}
		switch {
		case c.follows || c.aggregates == 0:
		case c.unfiltered:
			out = append(out, Deviation{Measure: name, Kind: DeviationFilter, Definition: ms.aggregate() + " FROM " + ms.entity.from(), Filter: ms.condition()})
		default:
			out = append(out, Deviation{Measure: name, Kind: DeviationAggregate, Definition: ms.aggregate() + " FROM " + ms.entity.from(), Filter: ms.condition()})
		}
	}
	return out
}

// conformer looks for one measure in a query.
type conformer struct {
	ms   *Measure
	t    *schema.Table
	cat  *schema.Catalog
	path []string

	expr   string   // the measure's expression, normalized ("" counts rows)
	filter []string // its filter's conjuncts, normalized

	aggregates int  // aggregate calls seen
	unfiltered bool // one aggregates the expression without the filter
	follows    bool // one follows the definition
}

// ctes is a scope of common table expressions: one a link, innermost
// first, each with the scope its body sees.
type ctes struct {
	parent *ctes
	name   string
	query  *pg.SelectStmt // nil: a recursive CTE seen from its own body
	sees   *ctes
}

func (s *ctes) lookup(name string) (*ctes, bool) {
	for ; s != nil; s = s.parent {
		if s.name == name {
			return s, true
		}
	}
	return nil, false
}

// source is what a SELECT reads the measure's table through: the aliases
// naming it and the conditions narrowing it (normalized).
type source struct {
	aliases map[string]bool
	conds   []string
}

// prepare normalizes the measure's expression and filter against its
// table; false when they do not parse (Check would have refused them).
func (c *conformer) prepare() bool {
	self := &source{aliases: map[string]bool{c.t.Name: true}}
	x := c.ms.Expr
	if x == "" && c.ms.Agg != AggCount {
		x = c.ms.Name
	}
	if x != "" {
		n := parseExpr(x)
		if n == nil {
			return false
		}
		c.expr = c.normalize(n, self)
	}
	if c.expr == unparsable {
		return false
	}
	if cond := strings.TrimSpace(c.ms.condition()); cond != "" {
		n := parseExpr(cond)
		if n == nil {
			return false
		}
		c.filter = c.conjuncts(n, self)
		if slices.Contains(c.filter, unparsable) {
			return false
		}
	}
	return true
}

// parseExpr parses one expression (nil when it is not one).
func parseExpr(x string) *pg.Node {
	tree, err := pgparse.Parse("SELECT " + x)
	if err != nil || len(tree.Stmts) != 1 {
		return nil
	}
	s := tree.Stmts[0].Stmt.GetSelectStmt()
	if s == nil || len(s.TargetList) != 1 {
		return nil
	}
	return s.TargetList[0].GetResTarget().GetVal()
}

// walk visits every SELECT under n, each with the CTEs it sees.
func (c *conformer) walk(n *pg.Node, scope *ctes) {
	if n == nil {
		return
	}
	if s := n.GetSelectStmt(); s != nil {
		c.selectStmt(s, scope)
		return
	}
	c.children(n.ProtoReflect(), scope)
}

// children walks the SELECTs under m, not m itself.
func (c *conformer) children(m protoreflect.Message, scope *ctes) {
	pgparse.Walk(m, func(x protoreflect.Message) bool {
		if x == m {
			return true
		}
		if s, ok := x.Interface().(*pg.SelectStmt); ok {
			c.selectStmt(s, scope)
			return false
		}
		return true
	})
}

func (c *conformer) selectStmt(s *pg.SelectStmt, parent *ctes) {
	scope := parent
	if wc := s.WithClause; wc != nil {
		for _, n := range wc.Ctes {
			cte := n.GetCommonTableExpr()
			if cte == nil {
				continue
			}
			// A CTE's body sees the CTEs before it; under WITH RECURSIVE
			// itself too, as no plain narrowing (a body reading itself is
			// a recursion).
			sees := scope
			if wc.Recursive {
				sees = &ctes{parent: scope, name: cte.Ctename}
			}
			c.walk(cte.Ctequery, sees)
			scope = &ctes{parent: scope, name: cte.Ctename, query: cte.Ctequery.GetSelectStmt(), sees: sees}
		}
	}
	if s.Op != pg.SetOperation_SETOP_NONE && s.Op != pg.SetOperation_SET_OPERATION_UNDEFINED {
		c.selectStmt(s.Larg, scope)
		c.selectStmt(s.Rarg, scope)
		return
	}
	src := &source{aliases: map[string]bool{}}
	var quals []*pg.Node
	for _, f := range s.FromClause {
		c.from(f, scope, src, &quals, 0)
	}
	// Nested SELECTs (sublinks, subqueries in FROM) are judged on their own.
	for _, list := range [][]*pg.Node{s.FromClause, s.TargetList, s.GroupClause, s.SortClause, s.ValuesLists, {s.WhereClause, s.HavingClause}} {
		for _, n := range list {
			if n != nil {
				c.children(n.ProtoReflect(), scope)
			}
		}
	}
	if len(src.aliases) == 0 {
		c.countAggregates(s)
		return
	}
	conds := slices.Clone(src.conds)
	for _, q := range append(quals, s.WhereClause) {
		if q != nil {
			conds = append(conds, c.conjuncts(q, src)...)
		}
	}
	for _, list := range [][]*pg.Node{s.TargetList, s.SortClause, {s.HavingClause}} {
		for _, n := range list {
			if n != nil {
				c.aggregatesIn(n, src, conds)
			}
		}
	}
}

// countAggregates counts the aggregates of a SELECT that does not read the
// measure's table (it aggregates, so the query computes something).
func (c *conformer) countAggregates(s *pg.SelectStmt) {
	for _, list := range [][]*pg.Node{s.TargetList, s.SortClause, {s.HavingClause}} {
		for _, n := range list {
			if n != nil {
				eachAggregate(n, func(*pg.FuncCall) { c.aggregates++ })
			}
		}
	}
}

// eachAggregate calls fn for every aggregate call under n (windowed ones
// too, not inside a nested SELECT).
func eachAggregate(n *pg.Node, fn func(*pg.FuncCall)) {
	pgparse.Walk(n.ProtoReflect(), func(m protoreflect.Message) bool {
		switch x := m.Interface().(type) {
		case *pg.SelectStmt:
			return false
		case *pg.FuncCall:
			if aggregateNames[funcName(x)] {
				fn(x)
			}
		}
		return true
	})
}

var aggregateNames = map[string]bool{"sum": true, "count": true, "avg": true, "min": true, "max": true, "percentile_cont": true}

func funcName(f *pg.FuncCall) string {
	if len(f.Funcname) == 0 {
		return ""
	}
	if len(f.Funcname) == 2 && f.Funcname[0].GetString_().GetSval() != "pg_catalog" {
		return ""
	}
	return f.Funcname[len(f.Funcname)-1].GetString_().GetSval()
}

// from registers a FROM item: the aliases naming the measure's table
// (directly or through a CTE or subquery that only narrows it) and the
// JOIN conditions.
func (c *conformer) from(n *pg.Node, scope *ctes, src *source, quals *[]*pg.Node, depth int) {
	switch v := n.Node.(type) {
	case *pg.Node_RangeVar:
		rv := v.RangeVar
		alias := rv.Relname
		if rv.Alias != nil {
			alias = rv.Alias.Aliasname
		}
		if conds, ok := c.relation(rv, scope, depth); ok {
			src.aliases[alias] = true
			src.conds = append(src.conds, conds...)
		}
	case *pg.Node_JoinExpr:
		j := v.JoinExpr
		c.from(j.Larg, scope, src, quals, depth)
		c.from(j.Rarg, scope, src, quals, depth)
		if j.Quals != nil {
			*quals = append(*quals, j.Quals)
		}
	case *pg.Node_RangeSubselect:
		rs := v.RangeSubselect
		if rs.Alias == nil {
			return
		}
		if conds, ok := c.narrowing(rs.Subquery.GetSelectStmt(), scope, depth+1); ok {
			src.aliases[rs.Alias.Aliasname] = true
			src.conds = append(src.conds, conds...)
		}
	}
}

// maxNarrowing bounds CTEs and subqueries narrowing narrowings.
const maxNarrowing = 8

// relation reports whether a table reference reads the measure's table,
// with the conditions of the CTE it names, if any.
func (c *conformer) relation(rv *pg.RangeVar, scope *ctes, depth int) ([]string, bool) {
	if rv.Schemaname == "" {
		if cte, ok := scope.lookup(rv.Relname); ok {
			return c.narrowing(cte.query, cte.sees, depth+1)
		}
		return nil, c.cat.Resolve(rv.Relname, c.path) == c.t
	}
	return nil, rv.Catalogname == "" && c.cat.Lookup(rv.Schemaname, rv.Relname) == c.t
}

// narrowing reports whether a SELECT only narrows the measure's table
// down (one FROM item reading it, its columns under their own names, no
// grouping, DISTINCT or LIMIT), with its WHERE's conditions.
func (c *conformer) narrowing(s *pg.SelectStmt, scope *ctes, depth int) ([]string, bool) {
	if s == nil || depth > maxNarrowing || s.Op != pg.SetOperation_SETOP_NONE || len(s.FromClause) != 1 ||
		len(s.GroupClause) > 0 || s.HavingClause != nil || len(s.DistinctClause) > 0 || s.LimitCount != nil ||
		s.LimitOffset != nil || len(s.ValuesLists) > 0 || s.WithClause != nil {
		return nil, false
	}
	src := &source{aliases: map[string]bool{}}
	var quals []*pg.Node
	c.from(s.FromClause[0], scope, src, &quals, depth)
	if len(src.aliases) == 0 || len(quals) > 0 {
		return nil, false
	}
	for _, n := range s.TargetList {
		rt := n.GetResTarget()
		if rt == nil {
			return nil, false
		}
		col := rt.Val.GetColumnRef()
		if col == nil || len(col.Fields) == 0 {
			return nil, false
		}
		last := col.Fields[len(col.Fields)-1]
		if last.GetAStar() != nil {
			continue
		}
		if name := last.GetString_().GetSval(); rt.Name != "" && rt.Name != name {
			return nil, false // renamed: the outer query's names mean something else
		}
	}
	conds := src.conds
	if s.WhereClause != nil {
		conds = append(conds, c.conjuncts(s.WhereClause, src)...)
	}
	return conds, true
}

// aggregatesIn judges the aggregates under n of a SELECT reading the
// measure's table, whose conditions are conds.
func (c *conformer) aggregatesIn(n *pg.Node, src *source, conds []string) {
	eachAggregate(n, func(f *pg.FuncCall) {
		c.aggregates++
		if f.Over != nil {
			return // a running or windowed total is not the measure
		}
		arg, extra, ok := c.argument(f, src)
		if !ok || arg != c.expr {
			return
		}
		have := slices.Clone(conds)
		have = append(have, extra...)
		if f.AggFilter != nil {
			have = append(have, c.conjuncts(f.AggFilter, src)...)
		}
		for _, want := range c.filter {
			if !slices.Contains(have, want) {
				c.unfiltered = true
				return
			}
		}
		c.follows = true
	})
}

// argument returns what f aggregates as the measure's aggregation would
// (normalized; "" for counted rows) and the conditions of a CASE WHEN
// around it; false when f is another aggregation.
func (c *conformer) argument(f *pg.FuncCall, src *source) (string, []string, bool) {
	name := funcName(f)
	var arg *pg.Node
	switch c.ms.Agg {
	case AggMedian:
		if name != "percentile_cont" || !f.AggWithinGroup || len(f.Args) != 1 || len(f.AggOrder) != 1 ||
			c.normalize(f.Args[0], src) != "0.5" {
			return "", nil, false
		}
		arg = f.AggOrder[0].GetSortBy().GetNode()
	case AggCountDistinct:
		if name != "count" || !f.AggDistinct || len(f.Args) != 1 {
			return "", nil, false
		}
		arg = f.Args[0]
	default:
		if name != string(c.ms.Agg) || f.AggDistinct || f.AggWithinGroup {
			return "", nil, false
		}
		if f.AggStar && c.ms.Agg == AggCount {
			return "", nil, true
		}
		if len(f.Args) != 1 {
			return "", nil, false
		}
		arg = f.Args[0]
	}
	if arg == nil {
		return "", nil, false
	}
	var extra []string
	if ce := arg.GetCaseExpr(); ce != nil && ce.Arg == nil && len(ce.Args) == 1 {
		// sum(CASE WHEN cond THEN x [ELSE 0] END) is sum(x) FILTER (WHERE cond).
		w := ce.Args[0].GetCaseWhen()
		if def := ce.Defresult; w != nil && (def == nil || c.ms.Agg == AggSum && c.normalize(def, src) == "0" || isNull(def)) {
			extra = c.conjuncts(w.Expr, src)
			arg = w.Result
		}
	}
	if c.ms.Agg == AggCount && c.expr == "" && c.countsRows(arg, src) {
		return "", extra, true
	}
	x := c.normalize(arg, src)
	if x != c.expr && c.expr != "" && c.ms.Agg != AggCount && c.ms.Agg != AggCountDistinct && c.contains(arg, src) {
		// sum(total_amount / rate) is the measure in another unit.
		x = c.expr
	}
	return x, extra, true
}

// contains reports whether the measure's expression is part of n: a
// value-preserving aggregation of a larger expression over it (a
// currency conversion, a rounding) computes the measure in another unit.
func (c *conformer) contains(n *pg.Node, src *source) bool {
	found := false
	pgparse.WalkNodes(n.ProtoReflect(), func(x *pg.Node) bool {
		if found || x.GetSelectStmt() != nil {
			return false
		}
		found = c.normalize(x, src) == c.expr
		return !found
	})
	return found
}

func isNull(n *pg.Node) bool {
	a := n.GetAConst()
	return a != nil && a.Isnull
}

// countsRows reports whether count(arg) counts every row: a constant, or a
// column of the table that is NOT NULL or in its primary key.
func (c *conformer) countsRows(arg *pg.Node, src *source) bool {
	if a := arg.GetAConst(); a != nil {
		return !a.Isnull
	}
	x := c.normalize(arg, src)
	for _, col := range c.t.Columns {
		if (col.NotNull || slices.Contains(c.t.PrimaryKey, col.Name)) && (x == col.Name || x == schema.QuoteIdent(col.Name)) {
			return true
		}
	}
	return false
}

// conjuncts splits a condition on AND and normalizes each term.
func (c *conformer) conjuncts(n *pg.Node, src *source) []string {
	if b := n.GetBoolExpr(); b != nil && b.Boolop == pg.BoolExprType_AND_EXPR {
		var out []string
		for _, a := range b.Args {
			out = append(out, c.conjuncts(a, src)...)
		}
		return out
	}
	return []string{c.normalize(n, src)}
}

// normalize deparses an expression after removing what does not change
// its meaning: qualifiers naming the measure's table, casts of string
// constants to text, the order of the sides of = and <> and of IN lists,
// NOT of a comparison, one-item IN lists.
func (c *conformer) normalize(n *pg.Node, src *source) string {
	n = proto.Clone(n).(*pg.Node)
	var exprs []*pg.Node
	pgparse.WalkNodes(n.ProtoReflect(), func(x *pg.Node) bool {
		switch v := x.Node.(type) {
		case *pg.Node_ColumnRef:
			c.unqualify(v.ColumnRef, src)
		case *pg.Node_TypeCast:
			if a := v.TypeCast.Arg.GetAConst(); a != nil && a.GetSval() != nil && textType(v.TypeCast.TypeName) {
				x.Node = v.TypeCast.Arg.Node
			}
		case *pg.Node_BoolExpr, *pg.Node_AExpr:
			exprs = append(exprs, x)
		}
		return true
	})
	// Innermost first: a comparison's sides are ordered by their own
	// normal form.
	for i := len(exprs) - 1; i >= 0; i-- {
		canonical(exprs[i])
	}
	return deparse(n)
}

// unqualify drops the qualifier of a column of the measure's table.
func (c *conformer) unqualify(col *pg.ColumnRef, src *source) {
	f := col.Fields
	switch {
	case len(f) == 2 && src.aliases[f[0].GetString_().GetSval()]:
		col.Fields = f[1:]
	case len(f) == 3 && f[0].GetString_().GetSval() == c.t.Schema && src.aliases[f[1].GetString_().GetSval()]:
		col.Fields = f[2:]
	}
}

func textType(t *pg.TypeName) bool {
	if t == nil || len(t.Names) == 0 || len(t.ArrayBounds) > 0 {
		return false
	}
	switch t.Names[len(t.Names)-1].GetString_().GetSval() {
	case "text", "varchar", "bpchar":
		return true
	}
	return false
}

// canonical rewrites one comparison or NOT in place.
func canonical(x *pg.Node) {
	if b := x.GetBoolExpr(); b != nil && b.Boolop == pg.BoolExprType_NOT_EXPR && len(b.Args) == 1 {
		if a := b.Args[0].GetAExpr(); a != nil && a.Kind == pg.A_Expr_Kind_AEXPR_OP {
			neg := map[string]string{"=": "<>", "<>": "="}[opName(a)]
			if neg != "" {
				a.Name = []*pg.Node{pg.MakeStrNode(neg)}
				x.Node = b.Args[0].Node
			}
		}
		return
	}
	a := x.GetAExpr()
	if a == nil {
		return
	}
	switch a.Kind {
	case pg.A_Expr_Kind_AEXPR_IN:
		items := a.Rexpr.GetList().GetItems()
		if len(items) == 1 {
			op := map[string]string{"=": "=", "<>": "<>"}[opName(a)]
			if op != "" {
				a.Kind, a.Rexpr, a.Name = pg.A_Expr_Kind_AEXPR_OP, items[0], []*pg.Node{pg.MakeStrNode(op)}
				canonical(x)
			}
			return
		}
		slices.SortFunc(items, func(p, q *pg.Node) int { return strings.Compare(deparse(p), deparse(q)) })
	case pg.A_Expr_Kind_AEXPR_OP:
		if op := opName(a); (op == "=" || op == "<>") && a.Lexpr != nil && a.Rexpr != nil && deparse(a.Lexpr) > deparse(a.Rexpr) {
			a.Lexpr, a.Rexpr = a.Rexpr, a.Lexpr
		}
	}
}

func opName(a *pg.A_Expr) string {
	if len(a.Name) != 1 {
		return "" // OPERATOR(pg_catalog.=): leave it as written
	}
	return a.Name[0].GetString_().GetSval()
}

// treeVersion is the parse tree version Deparse wants.
var treeVersion = sync.OnceValue(func() int32 {
	t, err := pg.Parse("SELECT 1")
	if err != nil {
		return 0
	}
	return t.Version
})

// unparsable stands for an expression deparse cannot render: equal to no
// expression of a definition (prepare refuses those).
const unparsable = "\x00"

// deparse renders an expression as SQL (unparsable when it cannot).
func deparse(n *pg.Node) string {
	sel := &pg.SelectStmt{TargetList: []*pg.Node{{Node: &pg.Node_ResTarget{ResTarget: &pg.ResTarget{Val: n}}}}}
	out, err := pg.Deparse(&pg.ParseResult{Version: treeVersion(), Stmts: []*pg.RawStmt{{Stmt: &pg.Node{Node: &pg.Node_SelectStmt{SelectStmt: sel}}}}})
	if err != nil {
		return unparsable
	}
	return strings.TrimPrefix(out, "SELECT ")
}
