package validate

import (
	"slices"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// The fan-trap lint (L010). A join from a table's key to the rows that
// reference it (orders o JOIN order_lines l ON l.order_id = o.id) repeats
// each orders row once per line, so SUM(o.total) over it adds each order
// total once per line. The lint reads the join conditions of one query
// level, finds the joins that equate a whole key (primary key, unique set,
// or the columns a declared foreign key references) of one relation, the
// one side, with columns of another, the many side, that are not unique
// there, even counting the columns WHERE fixes to constants and the GROUP
// BY columns (grouping by the many side's key gives one row of it per
// group), and warns about the SUM, AVG and COUNT(expr) calls (not DISTINCT)
// whose columns all belong to the one side or to relations joined through
// it. Column references are resolved to FROM items like the other lints do
// (aliases, quoting, qualification, alias column lists); relations of
// unknown keys (CTEs, subqueries, functions, tables given without keys)
// are never a side, which keeps the lint quiet where it cannot tell.

// multiplying are the aggregates whose result a repeated row changes.
var multiplying = setOf("sum", "avg", "count")

// colRef is a column reference resolved to a FROM item of a level.
type colRef struct {
	rel     *relation
	col     string   // the table's column name (after an alias column list)
	written []string // the name as written, for messages
}

// colEq is an equality between columns of two FROM items.
type colEq struct{ x, y colRef }

// fan is a join that repeats the rows of one relation per row of another.
type fan struct {
	one, many *relation
	pairs     []colEq // the equalities of the join, x on one and y on many
	mult      map[*relation]bool
}

// fanTrap warns about aggregates multiplied by a one-to-many join (L010).
func (a *analyzer) fanTrap(s *pg.SelectStmt, lv *level) {
	tables, keyed := 0, 0 // a many side needs keys, a one side may not
	for _, r := range lv.rels {
		if r.table != nil {
			tables++
			if described(r.table) {
				keyed++
			}
		}
	}
	if tables < 2 || keyed == 0 {
		return
	}
	aggs := multiplyingAggregates(s)
	if len(aggs) == 0 {
		return
	}
	var eqs []colEq
	var fixed map[*relation][]string // columns equated with constants
	quals := conjuncts(s.WhereClause)
	for _, item := range s.FromClause {
		quals = joinQuals(item, quals)
	}
	for _, q := range quals {
		e := q.GetAExpr()
		if e == nil || e.Kind != pg.A_Expr_Kind_AEXPR_OP || len(e.Name) != 1 || e.Name[0].GetString_().GetSval() != "=" {
			continue
		}
		l, lok := lv.column(e.Lexpr)
		r, rok := lv.column(e.Rexpr)
		switch {
		case lok && rok && l.rel != r.rel:
			eqs = append(eqs, colEq{l, r})
		case lok && constant(e.Rexpr):
			fixed = addColumn(fixed, l)
		case rok && constant(e.Lexpr):
			fixed = addColumn(fixed, r)
		}
	}
	for _, u := range lv.usings {
		for _, l := range u.left {
			for _, r := range u.right {
				for _, c := range u.cols {
					eqs = appendUsing(eqs, l, r, c)
				}
				if u.natural {
					for _, c := range l.cols {
						eqs = appendUsing(eqs, l, r, c)
					}
				}
			}
		}
	}
	if len(eqs) == 0 {
		return
	}
	grouped := lv.groupedColumns(s)
	var fans []*fan
	for _, one := range lv.rels {
		for _, many := range lv.rels {
			if one == many || one.table == nil || many.table == nil {
				continue
			}
			if f := fanOut(one, many, eqs, fixed, grouped); f != nil {
				if f.mult = multiplied(one, many, eqs); f.mult != nil {
					fans = append(fans, f)
				}
			}
		}
	}
	if len(fans) == 0 {
		return
	}
	for _, agg := range aggs {
		var rels []*relation
		known := true
		for _, arg := range agg.Args {
			visit(arg, func(m proto.Message) bool {
				switch x := m.(type) {
				case *pg.SelectStmt:
					known = false // reads another level: not judged
					return false
				case *pg.ColumnRef:
					r, ok := lv.resolve(x)
					switch {
					case !ok:
						known = false
					case r != nil && !slices.Contains(rels, r):
						rels = append(rels, r)
					}
				}
				return true
			})
		}
		if !known || len(rels) == 0 {
			continue
		}
		for _, f := range fans {
			if !allIn(rels, f.mult) {
				continue
			}
			name := strings.ToUpper(funcName(agg))
			hint := ""
			if name == "COUNT" {
				hint = "; to count rows of " + relNames(rels) + ", use COUNT(DISTINCT ...) of a key"
			}
			var cond, by []string
			for _, p := range f.pairs {
				cond = append(cond, identPath(p.y.written...)+" = "+identPath(p.x.written...))
				if c := identPath(p.y.col); !slices.Contains(by, c) { // the table's name: the subquery reads the table
					by = append(by, c)
				}
			}
			a.warn(CodeFanTrap, int(agg.Location),
				"%s(%s) reads %s, whose rows repeat once per matching row of %s (joined to %s on %s), so the aggregate counts each of them several times (fan trap); aggregate %s in a subquery grouped by %s and join that, or leave %s out if the question does not need it%s",
				name, argLabel(agg), relNames(rels), relLabel(f.many), relLabel(f.one), strings.Join(cond, " AND "),
				relLabel(f.many), strings.Join(by, ", "), relLabel(f.many), hint)
			break
		}
	}
}

// joinQuals appends the conjuncts of the ON conditions of a FROM item's
// joins (not those inside subqueries, which are levels of their own).
func joinQuals(n *pg.Node, out []*pg.Node) []*pg.Node {
	if j := n.GetJoinExpr(); j != nil {
		out = joinQuals(j.Larg, out)
		out = joinQuals(j.Rarg, out)
		out = append(out, conjuncts(j.Quals)...)
	}
	return out
}

// multiplyingAggregates returns the SUM, AVG and COUNT(expr) calls of a
// level (target list, HAVING, ORDER BY), without DISTINCT, outside
// subqueries.
func multiplyingAggregates(s *pg.SelectStmt) []*pg.FuncCall {
	var out []*pg.FuncCall
	visitOutputs(s, func(_ *pg.Node, m proto.Message) bool {
		x, ok := m.(*pg.FuncCall)
		if !ok || x.Over != nil || !multiplying[funcName(x)] || len(x.Args) == 0 || x.AggStar || x.AggDistinct {
			return true // a window call's arguments may hold aggregates
		}
		if len(x.Funcname) == 2 && x.Funcname[0].GetString_().GetSval() != "pg_catalog" || len(x.Funcname) > 2 {
			return true
		}
		out = append(out, x)
		return false
	})
	return out
}

// bareColumn resolves an expression that is a column reference, not cast,
// to a FROM item of the level: a cast may make equal values of different
// ones (ts::date) or different text of equal ones (1.0 and 1.00).
func (lv *level) bareColumn(n *pg.Node) (colRef, bool) {
	if n.GetTypeCast() != nil {
		return colRef{}, false
	}
	return lv.column(n)
}

// column resolves an expression that is a column reference (possibly cast)
// to a FROM item of the level.
func (lv *level) column(n *pg.Node) (colRef, bool) {
	for n.GetTypeCast() != nil {
		n = n.GetTypeCast().Arg
	}
	cr := n.GetColumnRef()
	if cr == nil {
		return colRef{}, false
	}
	r, _ := lv.resolve(cr)
	f := fieldNames(cr)
	if r == nil || len(f) == 0 || f[len(f)-1] == "*" {
		return colRef{}, false
	}
	col, ok := r.tableColumn(f[len(f)-1])
	if !ok {
		return colRef{}, false
	}
	return colRef{rel: r, col: col, written: f}, true
}

func addColumn(m map[*relation][]string, c colRef) map[*relation][]string {
	if m == nil {
		m = map[*relation][]string{}
	}
	m[c.rel] = append(m[c.rel], c.col)
	return m
}

// tableColumn maps a visible column name to the table's column name.
func (r *relation) tableColumn(col string) (string, bool) {
	if r.rename == nil {
		return col, true
	}
	c, ok := r.rename[col]
	return c, ok
}

func appendUsing(eqs []colEq, l, r *relation, col string) []colEq {
	if !l.has(col) || !r.has(col) {
		return eqs
	}
	lc, lok := l.tableColumn(col)
	rc, rok := r.tableColumn(col)
	if !lok || !rok {
		return eqs
	}
	return append(eqs, colEq{colRef{l, lc, []string{l.alias, col}}, colRef{r, rc, []string{r.alias, col}}})
}

// constant reports whether an expression is a constant (possibly cast).
func constant(n *pg.Node) bool {
	for n.GetTypeCast() != nil {
		n = n.GetTypeCast().Arg
	}
	return n.GetAConst() != nil && !n.GetAConst().Isnull
}

// groupedColumns returns the columns of each FROM item the GROUP BY lists
// plainly (grouping sets, ROLLUP and CUBE group some rows without them):
// column references, output positions and output names.
func (lv *level) groupedColumns(s *pg.SelectStmt) map[*relation][]string {
	return lv.groupedBy(s, lv.column)
}

// groupedBy is groupedColumns with column telling which GROUP BY items
// (and outputs they name) are columns.
func (lv *level) groupedBy(s *pg.SelectStmt, column func(*pg.Node) (colRef, bool)) map[*relation][]string {
	var out map[*relation][]string
	add := func(n *pg.Node) bool {
		if c, ok := column(n); ok {
			out = addColumn(out, c)
			return true
		}
		return false
	}
	for _, g := range s.GroupClause {
		if add(g) {
			continue
		}
		var target *pg.Node
		if k, ok := pgparse.OutputPosition(g, len(s.TargetList)); ok {
			target = s.TargetList[k-1].GetResTarget().GetVal()
		} else if cr := g.GetColumnRef(); cr != nil && len(cr.Fields) == 1 {
			for _, t := range s.TargetList {
				if rt := t.GetResTarget(); rt != nil && rt.Name != "" && rt.Name == lastField(cr) {
					target = rt.Val
				}
			}
		}
		if target != nil {
			add(target)
		}
	}
	return out
}

// fanOut returns the join of one to many if it equates a whole key of one
// with columns of many that are not unique in many (with its columns fixed
// by constants and grouped), nil otherwise.
func fanOut(one, many *relation, eqs []colEq, fixed, grouped map[*relation][]string) *fan {
	var pairs []colEq // x on one, y on many
	for _, e := range eqs {
		switch {
		case e.x.rel == one && e.y.rel == many:
			pairs = append(pairs, e)
		case e.y.rel == one && e.x.rel == many:
			pairs = append(pairs, colEq{e.y, e.x})
		}
	}
	if len(pairs) == 0 || !described(many.table) {
		return nil
	}
	for _, key := range keysOf(one.table, many.table) {
		var used []colEq
		whole := true
		for _, k := range key {
			found := false
			for _, p := range pairs {
				if p.x.col == k {
					found = true
					used = append(used, p)
				}
			}
			whole = whole && found
		}
		if !whole {
			continue
		}
		cols := append(slices.Clone(fixed[many]), grouped[many]...) // many's columns with one value per row of one
		for _, p := range used {
			cols = append(cols, p.y.col)
		}
		if uniqueIn(many.table, cols) {
			return nil // one row of many per row of one: no fan-out
		}
		return &fan{one: one, many: many, pairs: used}
	}
	return nil
}

// keysOf returns the unique column sets of t known from its own keys and
// from the foreign keys of ref that reference it.
func keysOf(t, ref *Table) [][]string {
	var out [][]string
	if len(t.PrimaryKey) > 0 {
		out = append(out, t.PrimaryKey)
	}
	for _, u := range t.Unique {
		if len(u) > 0 {
			out = append(out, u)
		}
	}
	for _, fk := range ref.ForeignKeys {
		s := fk.RefSchema
		if s == "" {
			s = ref.Schema
		}
		if s == t.Schema && fk.RefTable == t.Name && len(fk.RefColumns) > 0 && len(fk.RefColumns) == len(fk.Columns) {
			out = append(out, fk.RefColumns)
		}
	}
	return out
}

// described reports whether a table comes with key data: only then is a
// set of its columns known not to be unique.
func described(t *Table) bool {
	return len(t.PrimaryKey) > 0 || len(t.Unique) > 0 || len(t.ForeignKeys) > 0
}

// uniqueIn reports whether cols include the primary key or a unique set.
func uniqueIn(t *Table, cols []string) bool {
	covers := func(key []string) bool {
		if len(key) == 0 {
			return false
		}
		for _, k := range key {
			if !slices.Contains(cols, k) {
				return false
			}
		}
		return true
	}
	if covers(t.PrimaryKey) {
		return true
	}
	return slices.ContainsFunc(t.Unique, covers)
}

// multiplied returns the relations whose rows a fan-out from one to many
// repeats: one and everything joined to it other than through many. When
// many is joined to them some other way too, the join graph has a cycle
// the lint does not try to reason about: nil.
func multiplied(one, many *relation, eqs []colEq) map[*relation]bool {
	seen := map[*relation]bool{one: true}
	queue := []*relation{one}
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		for _, e := range eqs {
			var next *relation
			switch r {
			case e.x.rel:
				next = e.y.rel
			case e.y.rel:
				next = e.x.rel
			default:
				continue
			}
			if (r == one && next == many) || seen[next] {
				continue
			}
			if next == many {
				return nil
			}
			seen[next] = true
			queue = append(queue, next)
		}
	}
	return seen
}

func allIn(rels []*relation, set map[*relation]bool) bool {
	for _, r := range rels {
		if !set[r] {
			return false
		}
	}
	return true
}

func relNames(rels []*relation) string {
	names := make([]string, len(rels))
	for i, r := range rels {
		names[i] = relLabel(r)
	}
	return strings.Join(names, " and ")
}

// relLabel names a FROM item in messages: a table as the query names it
// (qualified or not), quoted where needed.
func relLabel(r *relation) string {
	switch {
	case r.table == nil:
		return identPath(r.name)
	case r.name == r.table.Name:
		return identPath(r.table.Name)
	}
	return identPath(r.table.Schema, r.table.Name)
}

// argLabel renders an aggregate's arguments briefly for messages.
func argLabel(f *pg.FuncCall) string {
	parts := make([]string, len(f.Args))
	for i, a := range f.Args {
		parts[i] = "expression"
		if cr := a.GetColumnRef(); cr != nil {
			parts[i] = identPath(fieldNames(cr)...)
		}
	}
	return strings.Join(parts, ", ")
}

// identPath writes a dotted name as SQL, quoting the parts PostgreSQL
// would fold or reject (upper case, spaces; reserved words are left bare).
func identPath(parts ...string) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('.')
		}
		plain := p != "" && p != "*"
		for j, r := range p {
			if !(r >= 'a' && r <= 'z' || r == '_' || (j > 0 && (r >= '0' && r <= '9' || r == '$'))) {
				plain = false
				break
			}
		}
		if plain || p == "*" {
			b.WriteString(p)
		} else {
			b.WriteString(`"` + strings.ReplaceAll(p, `"`, `""`) + `"`)
		}
	}
	return b.String()
}
