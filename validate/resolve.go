package validate

import (
	"slices"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// Name resolution. PostgreSQL reads a field selection that names no column
// as a call of a one-argument function ("functional notation"): t.f and
// (x).f mean f(t) and f(x), and the parse tree then holds a ColumnRef or an
// A_Indirection, not a FuncCall. So every qualified column reference and
// every field selection is resolved against what it can name: the columns
// of the FROM items in scope (tables with known columns, CTEs, subqueries,
// VALUES lists, functions in FROM) and the fields of known row types. A
// name that is no column is refused (V014; V010 when it names an always
// denied function), and so is one that cannot be resolved although the
// columns are known. Where the columns are not known (a table given
// without Columns, a zero-config validator), only the deny-list applies
// here and the server's plan check (CheckPlan) decides.

// nsItem is one FROM item as qualifiers see it.
type nsItem struct {
	refname string   // what qualifiers name: the alias, else the relation or function name
	schema  string   // for an unaliased relation: its schema (schema.table.column)
	relname string   // for an unaliased relation
	cols    []string // output column names, nil when unknown
	known   bool     // cols is the complete list
	// relation is set for a table or view reference (not a CTE): it has
	// the system columns too.
	relation bool
}

func (it *nsItem) has(col string) bool {
	for _, c := range it.cols {
		if c == col {
			return true
		}
	}
	return false
}

// nsScope is the FROM scope of one query level.
type nsScope struct {
	items  []*nsItem
	parent *nsScope
}

// cteInfo is a CTE's output, as FROM items referring to it see it.
type cteInfo struct {
	cols  []string
	known bool
}

type cteEnv map[string]*cteInfo

type resolver struct {
	c *checker
	// outputs are the one-name ORDER BY keys that name an output column
	// of their level: PostgreSQL reads those before the FROM items, so
	// ORDER BY xmin over SELECT a AS xmin is no system column.
	outputs map[*pg.ColumnRef]bool
}

// resolveNames checks the column references and field selections of a
// query (see above).
func (c *checker) resolveNames(s *pg.SelectStmt) {
	r := &resolver{c: c}
	r.selectStmt(s, nil, cteEnv{})
}

// selectStmt resolves one query level and returns its output columns
// (known false when they cannot be named, e.g. * over a table of unknown
// columns).
func (r *resolver) selectStmt(s *pg.SelectStmt, parent *nsScope, ctes cteEnv) (cols []string, known bool) {
	if s == nil {
		return nil, false
	}
	if w := s.WithClause; w != nil {
		ctes = r.withClause(w, parent, ctes)
	}
	if s.Op != pg.SetOperation_SETOP_NONE {
		cols, known = r.selectStmt(s.Larg, parent, ctes)
		r.selectStmt(s.Rarg, parent, ctes)
		// ORDER BY and LIMIT of a set operation see only its output columns.
		sc := &nsScope{parent: parent}
		r.sortOutputs(s.SortClause, func() []string { return cols })
		r.exprs(sc, ctes, s.SortClause...)
		r.exprs(sc, ctes, s.LimitCount, s.LimitOffset)
		return cols, known
	}
	if len(s.ValuesLists) > 0 {
		sc := &nsScope{parent: parent}
		r.exprs(sc, ctes, s.ValuesLists...)
		r.exprs(sc, ctes, s.SortClause...)
		r.exprs(sc, ctes, s.LimitCount, s.LimitOffset)
		n := 0
		if l := s.ValuesLists[0].GetList(); l != nil {
			n = len(l.Items)
		}
		for i := 1; i <= n; i++ {
			cols = append(cols, "column"+strconv.Itoa(i))
		}
		return cols, true
	}
	sc := &nsScope{parent: parent}
	for _, item := range s.FromClause {
		sc.items = append(sc.items, r.fromItem(item, sc, ctes)...)
	}
	r.exprs(sc, ctes, s.TargetList...)
	r.exprs(sc, ctes, s.WhereClause, s.HavingClause, s.LimitCount, s.LimitOffset)
	r.exprs(sc, ctes, s.GroupClause...)
	r.sortOutputs(s.SortClause, func() []string { names, _ := outputNames(s); return names })
	r.exprs(sc, ctes, s.SortClause...)
	r.exprs(sc, ctes, s.WindowClause...)
	r.exprs(sc, ctes, s.DistinctClause...)
	return r.targetCols(s.TargetList, sc)
}

// sortOutputs marks the ORDER BY keys that are one name of an output column
// (names lists them); only system column names matter.
func (r *resolver) sortOutputs(sort []*pg.Node, names func() []string) {
	for _, n := range sort {
		cr := n.GetSortBy().GetNode().GetColumnRef()
		if cr == nil || len(cr.Fields) != 1 || !systemColumns[cr.Fields[0].GetString_().GetSval()] {
			continue
		}
		if slices.Contains(names(), cr.Fields[0].GetString_().Sval) {
			if r.outputs == nil {
				r.outputs = map[*pg.ColumnRef]bool{}
			}
			r.outputs[cr] = true
		}
	}
}

// withClause resolves the CTE bodies and returns the environment the
// statement sees.
func (r *resolver) withClause(w *pg.WithClause, parent *nsScope, outer cteEnv) cteEnv {
	env := make(cteEnv, len(outer)+len(w.Ctes))
	for k, v := range outer {
		env[k] = v
	}
	if w.Recursive {
		// Every CTE of WITH RECURSIVE sees all its siblings; a recursive
		// reference sees the columns of the non-recursive arm.
		for _, n := range w.Ctes {
			if cte := n.GetCommonTableExpr(); cte != nil {
				info := &cteInfo{}
				body := cte.Ctequery.GetSelectStmt()
				if body != nil && body.Op != pg.SetOperation_SETOP_NONE && body.Larg != nil {
					info.cols, info.known = outputNames(body.Larg)
				} else if body != nil {
					info.cols, info.known = outputNames(body)
				}
				info.cols, info.known = cteColumns(cte, info.cols, info.known)
				env[cte.Ctename] = info
			}
		}
	}
	for _, n := range w.Ctes {
		cte := n.GetCommonTableExpr()
		if cte == nil {
			continue
		}
		body := cte.Ctequery.GetSelectStmt()
		if body == nil {
			// Not a SELECT: the walk rejects it.
			env[cte.Ctename] = &cteInfo{}
			continue
		}
		cols, known := r.selectStmt(body, parent, env)
		cols, known = cteColumns(cte, cols, known)
		env[cte.Ctename] = &cteInfo{cols: cols, known: known}
	}
	return env
}

// cteColumns applies a CTE's column list and the columns SEARCH and CYCLE
// add.
func cteColumns(cte *pg.CommonTableExpr, cols []string, known bool) ([]string, bool) {
	// A column list over a body of unknown columns leaves them unknown:
	// the body may have more than the list names.
	cols = renameCols(cols, cte.Aliascolnames)
	if sc := cte.SearchClause; sc != nil && sc.SearchSeqColumn != "" {
		cols = append(cols, sc.SearchSeqColumn)
	}
	if cc := cte.CycleClause; cc != nil {
		cols = append(cols, cc.CycleMarkColumn, cc.CyclePathColumn)
	}
	return cols, known
}

// renameCols applies an alias column list: the first names are replaced.
func renameCols(cols []string, alias []*pg.Node) []string {
	if len(alias) == 0 {
		return cols
	}
	out := append([]string(nil), cols...)
	for i, n := range alias {
		name := n.GetString_().GetSval()
		if i < len(out) {
			out[i] = name
		} else {
			out = append(out, name)
		}
	}
	return out
}

// fromItem resolves one FROM item and returns the items it makes visible.
// sc holds the items before it, which only LATERAL items may see.
func (r *resolver) fromItem(n *pg.Node, sc *nsScope, ctes cteEnv) []*nsItem {
	switch {
	case n == nil:
		return nil
	case n.GetRangeVar() != nil:
		return []*nsItem{r.rangeVar(n.GetRangeVar(), ctes)}
	case n.GetRangeSubselect() != nil:
		rs := n.GetRangeSubselect()
		scope := sc.parent
		if rs.Lateral {
			scope = sc
		}
		cols, known := r.selectStmt(rs.Subquery.GetSelectStmt(), scope, ctes)
		it := &nsItem{cols: cols, known: known}
		if rs.Alias != nil {
			it.refname = rs.Alias.Aliasname
			it.cols = renameCols(it.cols, rs.Alias.Colnames)
		}
		return []*nsItem{it}
	case n.GetRangeFunction() != nil:
		return []*nsItem{r.rangeFunction(n.GetRangeFunction(), sc, ctes)}
	case n.GetRangeTableSample() != nil:
		ts := n.GetRangeTableSample()
		r.exprs(sc, ctes, ts.Args...)
		r.exprs(sc, ctes, ts.Repeatable)
		return r.fromItem(ts.Relation, sc, ctes)
	case n.GetJsonTable() != nil:
		jt := n.GetJsonTable()
		r.messages(sc, ctes, jt.ContextItem)
		r.exprs(sc, ctes, jt.Passing...)
		// The columns' DEFAULT ... ON EMPTY / ON ERROR expressions.
		r.exprs(sc, ctes, jt.Columns...)
		r.messages(sc, ctes, jt.OnError)
		it := &nsItem{known: true}
		if jt.Alias != nil {
			it.refname = jt.Alias.Aliasname
		}
		jsonTableCols(jt.Columns, &it.cols)
		it.cols = renameCols(it.cols, jt.Alias.GetColnames())
		return []*nsItem{it}
	case n.GetJoinExpr() != nil:
		return r.join(n.GetJoinExpr(), sc, ctes)
	}
	// Unknown FROM item: the node walk rejects it; resolve what is inside.
	r.exprs(sc, ctes, n)
	return nil
}

func jsonTableCols(cols []*pg.Node, out *[]string) {
	for _, n := range cols {
		jc := n.GetJsonTableColumn()
		if jc == nil {
			continue
		}
		if jc.Coltype == pg.JsonTableColumnType_JTC_NESTED {
			jsonTableCols(jc.Columns, out)
			continue
		}
		*out = append(*out, jc.Name)
	}
}

// rangeVar makes the item of a table, view or CTE reference.
func (r *resolver) rangeVar(rv *pg.RangeVar, ctes cteEnv) *nsItem {
	it := &nsItem{refname: rv.Relname}
	if cte, ok := ctes[rv.Relname]; ok && rv.Schemaname == "" {
		it.cols, it.known = cte.cols, cte.known
	} else {
		it.relname = rv.Relname
		it.schema = rv.Schemaname
		it.relation = true
		if t := r.c.lookupTable(rv.Schemaname, rv.Relname); t != nil && len(t.Columns) > 0 {
			it.cols, it.known = t.Columns, true
			if it.schema == "" {
				it.schema = t.Schema
			}
		}
		if it.schema == "" {
			// Where an unqualified name of unknown columns lives: the first
			// ordinary schema of the search path, as the relation check
			// assumes.
			for _, s := range r.c.cfg.searchPath {
				if !systemSchema(s) {
					it.schema = s
					break
				}
			}
		}
	}
	if rv.Alias != nil {
		it.refname = rv.Alias.Aliasname
		it.schema, it.relname = "", "" // an alias hides the relation's name
		it.cols = renameCols(it.cols, rv.Alias.Colnames)
		if !it.known && len(rv.Alias.Colnames) > 0 {
			it.cols = nil // a partial list of unknown columns tells nothing
		}
	}
	return it
}

// rangeFunction makes the item of a function in FROM, with the column
// names PostgreSQL gives it: the alias's column list, the coldef list, the
// function's OUT parameters, or one column named after the alias or the
// function; WITH ORDINALITY adds "ordinality".
func (r *resolver) rangeFunction(rf *pg.RangeFunction, sc *nsScope, ctes cteEnv) *nsItem {
	scope := sc // functions in FROM may refer to the items before them
	it := &nsItem{known: true}
	var fnames []string
	for _, f := range rf.Functions {
		l := f.GetList()
		if l == nil || len(l.Items) == 0 {
			continue
		}
		r.exprs(scope, ctes, l.Items[0])
		fc := l.Items[0].GetFuncCall()
		var coldef []*pg.Node
		if len(l.Items) > 1 && l.Items[1].GetList() != nil {
			coldef = l.Items[1].GetList().Items
		}
		switch {
		case len(coldef) > 0:
			for _, d := range coldef {
				it.cols = append(it.cols, d.GetColumnDef().GetColname())
			}
		case fc != nil:
			name := funcName(fc)
			fnames = append(fnames, name)
			if out, ok := setReturningColumns(name, len(fc.Args)); ok {
				it.cols = append(it.cols, out...)
			} else if defaultFunctions[name] {
				it.cols = append(it.cols, name)
			} else {
				it.known = false
			}
		default:
			it.known = false
		}
	}
	for _, d := range rf.Coldeflist {
		it.cols = append(it.cols, d.GetColumnDef().GetColname())
	}
	single := len(rf.Functions) == 1 && len(fnames) == 1 && len(it.cols) == 1 && it.cols[0] == fnames[0]
	if rf.Alias != nil {
		it.refname = rf.Alias.Aliasname
		if single && len(rf.Coldeflist) == 0 {
			if _, hasOut := setReturningColumns(fnames[0], -1); !hasOut {
				it.cols = []string{rf.Alias.Aliasname}
			}
		}
		it.cols = renameCols(it.cols, rf.Alias.Colnames)
	} else if len(fnames) == 1 && len(rf.Functions) == 1 {
		it.refname = fnames[0]
	}
	if rf.Ordinality {
		it.cols = append(it.cols, "ordinality")
	}
	if !it.known {
		it.cols = nil
	}
	return it
}

// setReturningColumns gives the OUT parameter names of the allowed functions
// that have them (nargs -1: any overload). unnest with several arrays yields
// one "unnest" column per array.
func setReturningColumns(name string, nargs int) ([]string, bool) {
	switch name {
	case "json_each", "jsonb_each", "json_each_text", "jsonb_each_text":
		return []string{"key", "value"}, true
	case "json_array_elements", "jsonb_array_elements", "json_array_elements_text", "jsonb_array_elements_text":
		return []string{"value"}, true
	case "unnest":
		if nargs > 1 {
			out := make([]string, nargs)
			for i := range out {
				out[i] = "unnest"
			}
			return out, true
		}
	}
	return nil, false
}

// join resolves a JOIN and returns the items it makes visible: both sides,
// or only its alias when it has one (an alias hides the names inside).
func (r *resolver) join(j *pg.JoinExpr, sc *nsScope, ctes cteEnv) []*nsItem {
	left := r.fromItem(j.Larg, sc, ctes)
	// The right side of a LATERAL join sees the left side.
	inner := &nsScope{items: append(append([]*nsItem(nil), sc.items...), left...), parent: sc.parent}
	right := r.fromItem(j.Rarg, inner, ctes)
	both := append(append([]*nsItem(nil), left...), right...)
	qual := &nsScope{items: append(append([]*nsItem(nil), sc.items...), both...), parent: sc.parent}
	r.exprs(qual, ctes, j.Quals)
	var using []string
	for _, u := range j.UsingClause {
		using = append(using, u.GetString_().GetSval())
	}
	if j.IsNatural {
		using = naturalColumns(left, right)
	}
	out := both
	if j.JoinUsingAlias != nil {
		out = append(out, &nsItem{refname: j.JoinUsingAlias.Aliasname, cols: using, known: true})
	}
	if j.Alias != nil {
		cols, known := joinColumns(left, right, using)
		it := &nsItem{refname: j.Alias.Aliasname, cols: renameCols(cols, j.Alias.Colnames), known: known}
		if !known {
			it.cols = nil
		}
		return []*nsItem{it}
	}
	return out
}

// naturalColumns are the columns both sides of a NATURAL join have, in the
// left side's order (nil when a side's columns are unknown).
func naturalColumns(left, right []*nsItem) []string {
	lc, lk := itemsColumns(left)
	rc, rk := itemsColumns(right)
	if !lk || !rk {
		return nil
	}
	var out []string
	for _, c := range lc {
		for _, d := range rc {
			if c == d {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// joinColumns are a join's output columns: the USING columns first, then
// the left side's others, then the right side's.
func joinColumns(left, right []*nsItem, using []string) ([]string, bool) {
	lc, lk := itemsColumns(left)
	rc, rk := itemsColumns(right)
	if !lk || !rk {
		return nil, false
	}
	merged := setOf(using...)
	out := append([]string(nil), using...)
	for _, c := range lc {
		if !merged[c] {
			out = append(out, c)
		}
	}
	for _, c := range rc {
		if !merged[c] {
			out = append(out, c)
		}
	}
	return out, true
}

func itemsColumns(items []*nsItem) ([]string, bool) {
	var out []string
	for _, it := range items {
		if !it.known {
			return nil, false
		}
		out = append(out, it.cols...)
	}
	return out, true
}

// targetCols returns the output column names of a target list.
func (r *resolver) targetCols(targets []*pg.Node, sc *nsScope) ([]string, bool) {
	var cols []string
	for _, t := range targets {
		rt := t.GetResTarget()
		if rt == nil {
			return nil, false
		}
		if rt.Name != "" {
			cols = append(cols, rt.Name)
			continue
		}
		if cr := rt.Val.GetColumnRef(); cr != nil && len(cr.Fields) > 0 && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			var items []*nsItem
			if len(cr.Fields) == 1 {
				items = sc.items
			} else if it, _ := sc.lookup(fieldNames(cr)[:len(cr.Fields)-1]); it != nil {
				items = []*nsItem{it}
			}
			more, known := itemsColumns(items)
			if !known || len(items) == 0 {
				return nil, false
			}
			cols = append(cols, more...)
			continue
		}
		cols = append(cols, figureColname(rt.Val))
	}
	return cols, true
}

// outputNames gives the output columns of a query without resolving it
// (for a recursive CTE's self-reference): named targets only.
func outputNames(s *pg.SelectStmt) ([]string, bool) {
	for s != nil && s.Op != pg.SetOperation_SETOP_NONE {
		s = s.Larg
	}
	if s == nil {
		return nil, false
	}
	if len(s.ValuesLists) > 0 {
		n := len(s.ValuesLists[0].GetList().GetItems())
		var cols []string
		for i := 1; i <= n; i++ {
			cols = append(cols, "column"+strconv.Itoa(i))
		}
		return cols, true
	}
	var cols []string
	for _, t := range s.TargetList {
		rt := t.GetResTarget()
		if rt == nil {
			return nil, false
		}
		if rt.Name == "" {
			if cr := rt.Val.GetColumnRef(); cr != nil && lastField(cr) == "*" {
				return nil, false
			}
			cols = append(cols, figureColname(rt.Val))
			continue
		}
		cols = append(cols, rt.Name)
	}
	return cols, true
}

// lookup finds the item a qualifier names (alias, relation, or
// schema.relation), innermost level first; levels counts how far out.
func (sc *nsScope) lookup(qual []string) (*nsItem, bool) {
	for l := sc; l != nil; l = l.parent {
		for i := len(l.items) - 1; i >= 0; i-- {
			it := l.items[i]
			switch len(qual) {
			case 1:
				if it.refname == qual[0] {
					return it, true
				}
			case 2:
				if it.relname == qual[1] && it.schema == qual[0] {
					return it, true
				}
			}
		}
	}
	return nil, false
}

// exprs resolves the references in expressions of a level; subqueries are
// resolved as levels of their own.
func (r *resolver) exprs(sc *nsScope, ctes cteEnv, ns ...*pg.Node) {
	for _, n := range ns {
		if n != nil {
			r.messages(sc, ctes, n)
		}
	}
}

func (r *resolver) messages(sc *nsScope, ctes cteEnv, ms ...proto.Message) {
	for _, n := range ms {
		if n == nil || n.ProtoReflect() == nil || !n.ProtoReflect().IsValid() {
			continue
		}
		visit(n, func(m proto.Message) bool {
			switch x := m.(type) {
			case *pg.SelectStmt:
				r.selectStmt(x, sc, ctes)
				return false
			case *pg.ColumnRef:
				r.columnRef(x, sc)
			case *pg.A_Indirection:
				r.indirection(x, sc)
			}
			return true
		})
	}
}

// columnRef checks a qualified column reference: t.c, s.t.c. A single name
// is a column or a whole-row reference, never a call.
func (r *resolver) columnRef(cr *pg.ColumnRef, sc *nsScope) {
	f := fieldNames(cr)
	if len(f) == 0 || len(f) != len(cr.Fields) {
		return
	}
	col := f[len(f)-1]
	loc := int(cr.Location)
	if len(f) == 1 {
		if r.c.systemColumn(col) && !r.outputs[cr] {
			r.unqualifiedSystemColumn(col, sc, loc)
		}
		return
	}
	if col == "*" {
		return
	}
	if len(f) > 3 {
		r.c.add(CodeFuncNotation, SeverityError, loc, "reference %s has too many parts; write table.column or schema.table.column", strings.Join(f, "."))
		return
	}
	it, _ := sc.lookup(f[:len(f)-1])
	r.field(it, f[:len(f)-1], col, loc)
}

// field checks that col is a column of the item a qualifier named. The
// messages for a missing column read like PostgreSQL's own (42703, 42P01),
// which the Engine's repairs key on. An item of unknown columns passes
// unless col names a denied function callable with one argument: the
// server's plan is checked before anything runs.
func (r *resolver) field(it *nsItem, qual []string, col string, loc int) {
	q := strings.Join(qual, ".")
	switch {
	case it != nil && it.known && it.has(col):
	case it != nil && it.relation && r.c.systemColumn(col):
		r.c.refuseSystemColumn(q+"."+col, col, loc)
	case it != nil && it.relation && (systemColumns[col] || col == "ctid"):
		// An allowed system column.
	case r.c.catalogLookup(col):
		r.c.add(CodeSystemCatalog, SeverityError, loc, "%s.%s would cast %s to %s, which looks up the system catalogs and is not allowed", q, col, q, col)
	case r.c.lookupResult("", col):
		r.c.add(CodeSystemCatalog, SeverityError, loc, "%s.%s would call %s(%s), which returns a catalog-lookup type; write %s(%s)::text", q, col, col, q, col, q)
	case notationDenied[strings.ToLower(col)]:
		r.c.add(CodeFuncDenied, SeverityError, loc, "%s.%s would call function %s(%s), which is not allowed; remove it", q, col, col, q)
	case it == nil:
		r.c.add(CodeFuncNotation, SeverityError, loc, "missing FROM-clause entry for table \"%s\": %s.%s names no column of a FROM item (PostgreSQL may read it as a function call); qualify columns with a FROM item's name or alias", q, q, col)
	case it.known:
		r.c.add(CodeFuncNotation, SeverityError, loc, "column %s.%s does not exist (a name that is no column makes PostgreSQL call a function %s(%s)); the columns of %s are: %s", q, col, col, q, q, strings.Join(it.cols, ", "))
	}
}

// indirection checks the field selections of (expr).f: on a whole row,
// each must be a column; on any other value, a field selection is a
// function call, unless the value is a row of known fields.
func (r *resolver) indirection(ind *pg.A_Indirection, sc *nsScope) {
	it, row := r.rowOf(ind.Arg, sc)
	for i, n := range ind.Indirection {
		s := n.GetString_()
		if s == nil {
			it, row = nil, false // a subscript or .*: an element, not a row
			continue
		}
		loc := nodeLocation(ind.Arg)
		q := "(" + exprLabel(ind.Arg) + ")"
		switch {
		case !row && r.c.catalogLookup(s.Sval):
			r.c.add(CodeSystemCatalog, SeverityError, loc, "%s.%s is a cast to %s, which looks up the system catalogs and is not allowed", q, s.Sval, s.Sval)
		case !row && r.c.lookupResult("", s.Sval):
			r.c.add(CodeSystemCatalog, SeverityError, loc, "%s.%s would call %s%s, which returns a catalog-lookup type; write %s%s::text", q, s.Sval, s.Sval, q, s.Sval, q)
		case !row && notationDenied[strings.ToLower(s.Sval)]:
			r.c.add(CodeFuncDenied, SeverityError, loc, "%s.%s is not a field: PostgreSQL would call function %s, which is not allowed; remove it", q, s.Sval, s.Sval)
		case !row:
			r.c.add(CodeFuncNotation, SeverityError, loc, "field selection %s.%s on a value that is not a row of known columns is a function call in disguise; write the function call or the column directly", q, s.Sval)
		default:
			r.field(it, []string{q}, s.Sval, loc)
		}
		if i < len(ind.Indirection)-1 {
			// The field's own type is unknown: a further .g is not a row.
			it, row = nil, false
		}
	}
}

// rowOf tells whether an expression is a row whose fields can be named:
// a whole-row reference to a FROM item (t, t.*), a ROW(...) constructor, a
// function returning a known row (json_each), or a cast to an allowed
// relation's row type. it describes the fields (known false when the
// columns are unknown).
func (r *resolver) rowOf(n *pg.Node, sc *nsScope) (*nsItem, bool) {
	switch {
	case n.GetColumnRef() != nil:
		f := fieldNames(n.GetColumnRef())
		if len(f) == 0 {
			return nil, false
		}
		if f[len(f)-1] == "*" {
			it, ok := sc.lookup(f[:len(f)-1])
			return it, ok
		}
		if len(f) == 1 {
			// A column of that name wins over a whole-row reference.
			for l := sc; l != nil; l = l.parent {
				for _, it := range l.items {
					if !it.known || it.has(f[0]) {
						return nil, false
					}
				}
			}
			it, ok := sc.lookup(f)
			return it, ok
		}
		return nil, false
	case n.GetRowExpr() != nil:
		it := &nsItem{known: true}
		for i := range n.GetRowExpr().Args {
			it.cols = append(it.cols, "f"+strconv.Itoa(i+1))
		}
		return it, true
	case n.GetFuncCall() != nil:
		fc := n.GetFuncCall()
		if cols, ok := setReturningColumns(funcName(fc), len(fc.Args)); ok && len(cols) > 1 {
			return &nsItem{cols: cols, known: true}, true
		}
	case n.GetTypeCast() != nil:
		tn := n.GetTypeCast().TypeName
		if tn == nil || len(tn.ArrayBounds) > 0 {
			return nil, false
		}
		var parts []string
		for _, x := range tn.Names {
			parts = append(parts, x.GetString_().GetSval())
		}
		if len(parts) > 2 {
			return nil, false
		}
		schema, name := "", parts[len(parts)-1]
		if len(parts) == 2 {
			schema = parts[0]
		}
		if t := r.c.lookupTable(schema, name); t != nil && len(t.Columns) > 0 {
			return &nsItem{cols: t.Columns, known: true}, true
		}
	}
	return nil, false
}

// exprLabel names an expression in messages, briefly.
func exprLabel(n *pg.Node) string {
	if cr := n.GetColumnRef(); cr != nil {
		return strings.Join(fieldNames(cr), ".")
	}
	return "expression"
}

func funcName(fc *pg.FuncCall) string {
	if len(fc.Funcname) == 0 {
		return ""
	}
	return fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval()
}

// figureColname is the column name PostgreSQL gives an unnamed target
// (FigureColname in parse_target.c).
func figureColname(n *pg.Node) string {
	if name, _ := figureColnameStrength(n); name != "" {
		return name
	}
	return "?column?"
}

func figureColnameStrength(n *pg.Node) (string, int) {
	switch {
	case n == nil:
	case n.GetColumnRef() != nil:
		f := fieldNames(n.GetColumnRef())
		if len(f) > 0 && f[len(f)-1] != "*" {
			return f[len(f)-1], 2
		}
	case n.GetAIndirection() != nil:
		ind := n.GetAIndirection()
		for i := len(ind.Indirection) - 1; i >= 0; i-- {
			if s := ind.Indirection[i].GetString_(); s != nil {
				return s.Sval, 2
			}
		}
		return figureColnameStrength(ind.Arg)
	case n.GetFuncCall() != nil:
		return funcName(n.GetFuncCall()), 2
	case n.GetAExpr() != nil:
		if n.GetAExpr().Kind == pg.A_Expr_Kind_AEXPR_NULLIF {
			return "nullif", 2
		}
	case n.GetTypeCast() != nil:
		if name, s := figureColnameStrength(n.GetTypeCast().Arg); s > 0 {
			return name, s
		}
		if tn := n.GetTypeCast().TypeName; tn != nil && len(tn.Names) > 0 {
			return tn.Names[len(tn.Names)-1].GetString_().GetSval(), 1
		}
	case n.GetCollateClause() != nil:
		return figureColnameStrength(n.GetCollateClause().Arg)
	case n.GetGroupingFunc() != nil:
		return "grouping", 2
	case n.GetSubLink() != nil:
		sl := n.GetSubLink()
		switch sl.SubLinkType {
		case pg.SubLinkType_EXISTS_SUBLINK:
			return "exists", 2
		case pg.SubLinkType_ARRAY_SUBLINK:
			return "array", 2
		case pg.SubLinkType_EXPR_SUBLINK, pg.SubLinkType_MULTIEXPR_SUBLINK:
			if s := sl.Subselect.GetSelectStmt(); s != nil && len(s.TargetList) > 0 {
				if rt := s.TargetList[0].GetResTarget(); rt != nil {
					if rt.Name != "" {
						return rt.Name, 2
					}
					return figureColnameStrength(rt.Val)
				}
			}
		}
	case n.GetCaseExpr() != nil:
		return "case", 1
	case n.GetAArrayExpr() != nil:
		return "array", 2
	case n.GetRowExpr() != nil:
		return "row", 2
	case n.GetCoalesceExpr() != nil:
		return "coalesce", 2
	case n.GetMinMaxExpr() != nil:
		if n.GetMinMaxExpr().Op == pg.MinMaxOp_IS_GREATEST {
			return "greatest", 2
		}
		return "least", 2
	case n.GetSqlvalueFunction() != nil:
		return sqlValueColname[n.GetSqlvalueFunction().Op], 2
	case n.GetJsonObjectConstructor() != nil:
		return "json_object", 2
	case n.GetJsonArrayConstructor() != nil, n.GetJsonArrayQueryConstructor() != nil:
		return "json_array", 2
	case n.GetJsonObjectAgg() != nil:
		return "json_objectagg", 2
	case n.GetJsonArrayAgg() != nil:
		return "json_arrayagg", 2
	case n.GetJsonParseExpr() != nil:
		return "json", 2
	case n.GetJsonScalarExpr() != nil:
		return "json_scalar", 2
	case n.GetJsonSerializeExpr() != nil:
		return "json_serialize", 2
	case n.GetJsonFuncExpr() != nil:
		switch n.GetJsonFuncExpr().Op {
		case pg.JsonExprOp_JSON_EXISTS_OP:
			return "json_exists", 2
		case pg.JsonExprOp_JSON_QUERY_OP:
			return "json_query", 2
		case pg.JsonExprOp_JSON_VALUE_OP:
			return "json_value", 2
		}
	}
	return "", 0
}

var sqlValueColname = map[pg.SQLValueFunctionOp]string{
	pg.SQLValueFunctionOp_SVFOP_CURRENT_DATE: "current_date", pg.SQLValueFunctionOp_SVFOP_CURRENT_TIME: "current_time",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N: "current_time", pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP: "current_timestamp",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N: "current_timestamp", pg.SQLValueFunctionOp_SVFOP_LOCALTIME: "localtime",
	pg.SQLValueFunctionOp_SVFOP_LOCALTIME_N: "localtime", pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP: "localtimestamp",
	pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N: "localtimestamp", pg.SQLValueFunctionOp_SVFOP_CURRENT_ROLE: "current_role",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_USER: "current_user", pg.SQLValueFunctionOp_SVFOP_USER: "user",
	pg.SQLValueFunctionOp_SVFOP_SESSION_USER: "session_user", pg.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG: "current_catalog",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA: "current_schema",
}
