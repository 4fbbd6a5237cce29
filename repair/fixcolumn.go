package repair

import (
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/schema"
)

func (d *doc) matcher() matcher { return d.r.match }

// tableWords returns the singular words of a table name, its context when
// matching column names ("customer" for customers.name).
func tableWords(t *schema.Table) []string {
	ws := append([]string(nil), splitWords(t.Name)...)
	for i, w := range ws {
		ws[i] = singular(w)
	}
	return ws
}

// setColumn rewrites the column reference at off in a fresh tree.
func setColumn(off int32, parts ...string) func(*doc) error {
	return func(d *doc) error {
		h := d.find(off, isColumnRef)
		if h == nil {
			return errStale
		}
		h.node.GetColumnRef().Fields = names(parts...)
		return nil
	}
}

// neighbor is a table one foreign key away from a relation in scope, with
// the join condition between them.
type neighbor struct {
	from             *rel // in scope
	table            *schema.Table
	fromCols, toCols []string // from.alias.fromCols[i] = table.toCols[i]
	parent           bool     // table is referenced by from (many-to-one)
	notNull          bool
}

// neighbors returns the tables one declared foreign key away from r (the
// ones WithTables allows), the referenced ones first, in catalog order.
func (d *doc) neighbors(r *rel) []neighbor {
	var out []neighbor
	for _, fk := range r.table.ForeignKeys {
		if t := d.r.cat.Lookup(fk.RefSchema, fk.RefTable); t != nil && d.r.allowed(t) {
			nn := true
			for _, c := range fk.Columns {
				if col := r.table.Column(c); col == nil || !col.NotNull {
					nn = false
				}
			}
			out = append(out, neighbor{from: r, table: t, fromCols: fk.Columns, toCols: fk.RefColumns, parent: true, notNull: nn})
		}
	}
	for _, ref := range d.r.cat.ReferencedBy(r.table.QualifiedName()) {
		if d.r.allowed(ref.From) {
			out = append(out, neighbor{from: r, table: ref.From, fromCols: ref.FK.RefColumns, toCols: ref.FK.Columns})
		}
	}
	return out
}

// inScope returns the relation of sc's innermost level reading table t.
func (sc *scope) inScope(t *schema.Table) *rel {
	for _, r := range sc.rels {
		if r.table == t {
			return r
		}
	}
	return nil
}

// anyLevel reports whether some level of sc reads table t.
func (sc *scope) anyLevel(t *schema.Table) bool {
	for s := sc; s != nil; s = s.outer {
		if s.inScope(t) != nil {
			return true
		}
	}
	return false
}

// newAlias picks an alias for a joined table that clashes with nothing.
func (d *doc) newAlias(base string) string {
	used := d.usedAliases()
	if !used[base] {
		return base
	}
	for i := 2; ; i++ {
		if a := fmt.Sprintf("%s_%d", base, i); !used[a] {
			return a
		}
	}
}

// writtenName returns a table's name as a statement writes it: bare when
// the search path finds it, qualified otherwise.
func (r *Repairer) writtenName(t *schema.Table) string {
	if r.cat.Resolve(t.Name, r.cfg.searchPath) == t {
		return t.Name
	}
	return t.Schema + "." + t.Name
}

// addJoin joins nb.table (as alias) to the FROM item holding nb.from, in a
// fresh tree.
func addJoin(nb neighbor, alias string) func(*doc) error {
	loc := nb.from.rv.Location
	return func(d *doc) error {
		h, sel, err := d.inSelect(loc, isRangeVar)
		if err != nil {
			return err
		}
		if nb.from.top >= len(sel.FromClause) {
			return errStale
		}
		rv := pg_query.MakeSimpleRangeVar(nb.table.Name, -1)
		if d.r.cat.Resolve(nb.table.Name, d.r.cfg.searchPath) != nb.table {
			rv.Schemaname = nb.table.Schema
		}
		if alias != nb.table.Name {
			rv.Alias = &pg_query.Alias{Aliasname: alias}
		}
		var quals *pg_query.Node
		for i := range nb.fromCols {
			eq := binop("=", colRef(nb.from.alias, nb.fromCols[i]), colRef(alias, nb.toCols[i]))
			if quals == nil {
				quals = eq
			} else {
				quals = pg_query.MakeBoolExprNode(pg_query.BoolExprType_AND_EXPR, []*pg_query.Node{quals, eq}, -1)
			}
		}
		jt := pg_query.JoinType_JOIN_LEFT
		if nb.parent && nb.notNull {
			jt = pg_query.JoinType_JOIN_INNER
		}
		before := d.scopeAt(h.path)
		sel.FromClause[nb.from.top] = pg_query.MakeJoinExprNode(jt, sel.FromClause[nb.from.top],
			&pg_query.Node{Node: &pg_query.Node_RangeVar{RangeVar: rv}}, quals)
		qualifyShared(sel, before, nb.table)
		return nil
	}
}

// qualifyShared qualifies the bare column references of sel (not of its
// subqueries) that a newly joined table also has, with the relation they
// named before the JOIN: the JOIN must not make them ambiguous.
func qualifyShared(sel *pg_query.SelectStmt, before *scope, joined *schema.Table) {
	if before == nil {
		return
	}
	level := before.levelAliases()
	qualifyBare(sel, before.output, func(col string) string {
		if joined.Column(col) == nil {
			return ""
		}
		if owners, _ := before.owners(col); len(owners) == 1 && hasString(level, owners[0].alias) {
			return owners[0].alias
		}
		return ""
	})
}

// qualifyBare qualifies the bare column references of sel (not of its
// subqueries) with the alias qualifier returns for their name ("": left
// alone). In ORDER BY a bare name is an output column's first, as
// PostgreSQL reads it, and such a name is left alone (GROUP BY reads input
// columns first).
func qualifyBare(sel *pg_query.SelectStmt, output []string, qualifier func(col string) string) {
	fix := func(n *pg_query.Node, outputOK bool) {
		walkNodes(n.ProtoReflect(), func(x *pg_query.Node, _ []step) bool {
			if x.GetSelectStmt() != nil || x.GetRangeSubselect() != nil {
				return false
			}
			c := x.GetColumnRef()
			if c == nil || len(c.Fields) != 1 {
				return true
			}
			col := c.Fields[0].GetString_().GetSval()
			if col == "" || (outputOK && hasString(output, col)) {
				return true
			}
			if q := qualifier(col); q != "" {
				c.Fields = names(q, col)
			}
			return true
		})
	}
	for _, n := range sel.TargetList {
		fix(n, false)
	}
	for _, n := range sel.FromClause {
		fix(n, false)
	}
	if sel.WhereClause != nil {
		fix(sel.WhereClause, false)
	}
	for _, n := range sel.GroupClause {
		fix(n, false)
	}
	if sel.HavingClause != nil {
		fix(sel.HavingClause, false)
	}
	for _, n := range sel.SortClause {
		fix(n, true)
	}
}

func chain(fns ...func(*doc) error) func(*doc) error {
	return func(d *doc) error {
		for _, f := range fns {
			if err := f(d); err != nil {
				return err
			}
		}
		return nil
	}
}

// undefinedColumn answers 42703. A name is replaced by a column only when
// exactly one target is plausible, looked for in tiers; the first tier
// holding a plausible target decides, and a later tier is only looked at
// when the earlier ones hold nothing even loosely similar:
//
//  1. the relations the name can refer to (the qualifier's, or all those
//     in scope for a bare name): a misspelling, an abbreviation or gloss,
//     the table's own name added or dropped (customer_id for customers.id);
//  2. for a qualified name, the other relations in scope (a wrong
//     qualifier: o.city for c.city);
//  3. the tables one declared foreign key away, with the JOIN added. Only a
//     referenced (parent) table is joined, which adds no rows and, with a
//     LEFT JOIN on a nullable key, drops none; and only for a name that
//     says whose column it is: a generic one (name, status, code) matches
//     every neighbour's own and is not joined for.
//
// A double-quoted value compared with a column becomes a string; a bare
// word compared with a text column may be a value (status = shipped) and
// is left alone; a phantom ORDER BY or output column, one no table of the
// catalog has and nothing in reach resembles, is dropped (a column of an
// unrelated table is not a phantom: the query misses a longer join).
// Everything else is reported by an *AmbiguousError.
func (d *doc) undefinedColumn(f Failure) []edit {
	off := d.offset(f.Position)
	h := d.find(off, isColumnRef)
	if h == nil {
		return nil
	}
	parts := colParts(h.node.GetColumnRef())
	for _, p := range parts {
		if p == "" {
			return nil
		}
	}
	sc := d.scopeAt(h.path)
	if sc == nil {
		return nil
	}
	wanted, name := parts[len(parts)-1], strings.Join(parts, ".")
	m := d.matcher()
	qualify := len(parts) >= 2 || len(sc.rels) > 1

	// columns rates the columns of r as targets, written qualified or not.
	columns := func(r *rel, level int, qualified bool, rule string) (plausible, loose []target) {
		if r.opaque || (qualified && r.alias == "") {
			return nil, nil
		}
		cols, ctx := r.cols, []string(nil)
		if r.table != nil {
			cols, ctx = r.table.ColumnNames(), tableWords(r.table)
		}
		for _, c := range cols {
			written := []string{c}
			if qualified {
				written = []string{r.alias, c}
			}
			label := strings.Join(written, ".")
			t := target{rank: m.rank(wanted, c, ctx), level: level, label: label, col: c, rel: r,
				edit: edit{rule: rule, note: name + " → " + label, fn: setColumn(off, written...)}}
			switch {
			case t.rank < rankNone:
				plausible = append(plausible, t)
			case m.loose(wanted, c):
				t.score = m.score(wanted, c, ctx)
				t.rival = m.within(wanted, c) && !foreignKey(r.table, c)
				loose = append(loose, t)
			}
		}
		return plausible, loose
	}

	// Tiers 1 and 2.
	var tier1, tier2, loose1, loose2 []target
	var from []*rel // whose neighbours tier 3 looks at
	opaque := false
	if len(parts) >= 2 {
		named, _ := sc.lookup(parts[len(parts)-2])
		if named == nil || named.opaque {
			return nil
		}
		tier1, loose1 = columns(named, 0, true, RuleFuzzyColumn)
		level := 0
		for s := sc; s != nil; s = s.outer {
			for _, r := range s.rels {
				if r != named {
					p, l := columns(r, level, true, RuleRequalify)
					tier2, loose2 = append(tier2, p...), append(loose2, l...)
				}
			}
			level++
		}
		tier2 = upTo(tier2, rankNamed)
		if named.table != nil {
			from = []*rel{named}
		}
	} else {
		level := 0
		for s := sc; s != nil; s = s.outer {
			for _, r := range s.rels {
				opaque = opaque || r.opaque
				p, l := columns(r, level, qualify || s != sc, RuleFuzzyColumn)
				tier1, loose1 = append(tier1, p...), append(loose1, l...)
			}
			level++
		}
		from = sc.tables()
	}

	bare := len(parts) == 1
	quoted := bare && off >= 0 && int(off) < len(d.sql) && d.sql[off] == '"'
	if bare && d.comparedValue(h.node, h.path) {
		if quoted {
			// MySQL's "string": a value, unless a column has that very name.
			value := d.valueTarget(off, wanted)
			if exact := upTo(tier1, rankExact); len(exact) > 0 {
				d.decline(RuleStringValue, name, true, append([]target{value}, exact...))
				return nil
			}
			return []edit{value.edit}
		}
		if d.againstText(h, sc) {
			// status = shipped: a value written unquoted, or a column?
			// Either reading may change the rows.
			raw := d.rawIdent(off)
			value := d.valueTarget(off, raw)
			d.decline(RuleFuzzyColumn, name, len(tier1) > 0, append(append([]target{value}, tier1...), byScore(loose1)...))
			return nil
		}
	}

	if len(tier1) > 0 {
		if opaque {
			// A relation whose columns are unknown may hold the name meant.
			d.decline(RuleFuzzyColumn, name, true, tier1)
			return nil
		}
		return d.choose(RuleFuzzyColumn, name, withRivals(tier1, loose1))
	}
	if len(tier2) > 0 && len(loose1) == 0 {
		return d.choose(RuleRequalify, name, withRivals(tier2, loose2))
	}

	// Tier 3: tables one foreign key away, not in the query yet. The
	// referenced ones first: joining a referencing table repeats rows, so
	// its columns are only ever reported.
	var parents, children, loose3 []target
	for _, r := range from {
		for _, nb := range d.neighbors(r) {
			if sc.anyLevel(nb.table) {
				continue
			}
			ctx := tableWords(nb.table)
			alias := d.newAlias(nb.table.Name)
			for _, c := range nb.table.Columns {
				label := alias + "." + c.Name
				t := target{rank: m.rank(wanted, c.Name, ctx), label: label, col: c.Name, table: nb.table, child: !nb.parent,
					edit: edit{rule: RuleJoinNeighbor,
						note: fmt.Sprintf("%s → %s, joining %s on %s", name, label, nb.table.QualifiedName(), joinText(nb, alias)),
						fn:   chain(setColumn(off, alias, c.Name), addJoin(nb, alias))}}
				switch {
				case t.rank <= rankNamed && nb.parent:
					parents = append(parents, t)
				case t.rank <= rankNamed:
					children = append(children, t)
				case m.loose(wanted, c.Name):
					t.score = m.score(wanted, c.Name, ctx)
					loose3 = append(loose3, t)
				}
			}
		}
	}
	if len(parents) > 0 {
		best, tied := pick(parents)
		switch {
		case len(loose1)+len(loose2) > 0 || opaque:
			// Something in the query resembles the name: it may be meant.
		case m.generic(wanted):
			// Every neighbour has a name or a status: whose is a guess.
		case best == nil:
			d.decline(RuleJoinNeighbor, name, true, tied)
			return nil
		default:
			return []edit{best.edit}
		}
	}
	// Reported: in-query candidates first, then the neighbours' plausible
	// columns, then (only when the query has nothing) their loose ones.
	inQuery := append(append(append([]target(nil), tier2...), byScore(loose1)...), byScore(loose2)...)
	if len(inQuery) > 0 {
		loose3 = nil
	}
	if len(parents)+len(children) > 0 {
		d.decline(RuleJoinNeighbor, name, false, append(append(append(inQuery, parents...), children...), byScore(loose3)...))
		return nil
	}
	if len(inQuery)+len(loose3) > 0 {
		d.decline(RuleFuzzyColumn, name, false, append(inQuery, byScore(loose3)...))
		return nil
	}
	if !d.r.anyColumn(wanted) {
		if e, ok := d.dropPhantom(h, off); ok {
			return []edit{e}
		}
	}
	return nil
}

// upTo returns the targets of rank at most r.
func upTo(ts []target, r rank) []target {
	var out []target
	for _, t := range ts {
		if t.rank <= r {
			out = append(out, t)
		}
	}
	return out
}

// withRivals adds to targets whose best is only rankImplied (the table's
// own name dropped: date for invoices.invoice_date) the other columns of
// that relation holding all the wanted words that are no foreign key
// (invoices.due_date), at the same rank: they are as likely, and tie. A
// foreign key column (region_code, manager_id) names another entity and is
// no rival to the table's own.
func withRivals(ts, loose []target) []target {
	best, _ := pick(append([]target(nil), ts...))
	if best == nil || best.rank != rankImplied {
		return ts
	}
	for _, l := range loose {
		if l.rival && l.rel == best.rel {
			l.rank = rankImplied
			ts = append(ts, l)
		}
	}
	return ts
}

// foreignKey reports whether col is a column of a foreign key of t.
func foreignKey(t *schema.Table, col string) bool {
	if t == nil {
		return false
	}
	for _, fk := range t.ForeignKeys {
		if hasString(fk.Columns, col) {
			return true
		}
	}
	return false
}

// choose returns the edit of the one strongest target, or records the tie.
func (d *doc) choose(rule, name string, ts []target) []edit {
	best, tied := pick(ts)
	if best == nil {
		d.decline(rule, name, true, tied)
		return nil
	}
	return []edit{best.edit}
}

// valueTarget turns the column reference at off into the string s.
func (d *doc) valueTarget(off int32, s string) target {
	lit := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	return target{rank: rankExact, label: lit, col: s, edit: edit{rule: RuleStringValue, note: `"` + s + `" is a value: ` + lit,
		fn: func(d *doc) error {
			h := d.find(off, isColumnRef)
			if h == nil {
				return errStale
			}
			replace(h.node, strConst(s))
			return nil
		}}}
}

// rawIdent returns the identifier written at off, in its original case
// (the parser folds an unquoted one to lower case).
func (d *doc) rawIdent(off int32) string {
	end := int(off)
	for end < len(d.sql) {
		c := d.sql[end]
		if c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			end++
			continue
		}
		break
	}
	return d.sql[off:end]
}

// againstText reports whether the comparison holding a bare name (on its
// right side, see comparedValue) compares it with text: a column of a
// text, character or enum type, or lower/upper/trim of one.
func (d *doc) againstText(h *hit, sc *scope) bool {
	for i := len(h.path) - 1; i >= 0; i-- {
		switch v := h.path[i].msg.Interface().(type) {
		case *pg_query.List, *pg_query.Node:
			continue
		case *pg_query.A_Expr:
			return d.textExpr(v.Lexpr, sc)
		default:
			return false
		}
	}
	return false
}

func (d *doc) textExpr(n *pg_query.Node, sc *scope) bool {
	if fc := n.GetFuncCall(); fc != nil && len(fc.Args) == 1 {
		switch funcName(fc) {
		case "lower", "upper", "trim", "btrim", "initcap":
			return true
		}
		return false
	}
	c := n.GetColumnRef()
	if c == nil {
		return false
	}
	r, col := sc.resolve(c)
	if r == nil || r.table == nil {
		return false
	}
	cl := r.table.Column(col)
	if cl == nil {
		return false
	}
	if len(cl.EnumLabels) > 0 {
		return true
	}
	for _, p := range []string{"text", "character", "varchar", "char", "citext", "name"} {
		if strings.HasPrefix(cl.Type, p) && !strings.HasSuffix(cl.Type, "[]") {
			return true
		}
	}
	return false
}

func joinText(nb neighbor, alias string) string {
	var conds []string
	for i := range nb.fromCols {
		conds = append(conds, fmt.Sprintf("%s.%s = %s.%s", nb.from.alias, nb.fromCols[i], alias, nb.toCols[i]))
	}
	return strings.Join(conds, " AND ")
}

// dropPhantom removes an unknown column that only decorates the result: an
// ORDER BY item, or a plain output column of a non-aggregate query. Never a
// filter, join or grouping.
func (d *doc) dropPhantom(h *hit, off int32) (edit, bool) {
	sel, idx, field := h.enclosingSelect()
	if sel == nil {
		return edit{}, false
	}
	parent := h.parent()
	name := strings.Join(colParts(h.node.GetColumnRef()), ".")
	switch field {
	case "sort_clause":
		if parent == nil || parent.GetSortBy() == nil {
			return edit{}, false
		}
		return edit{rule: RuleDropPhantom, note: "dropped unknown ORDER BY column " + name,
			fn: dropItem(off, func(s *pg_query.SelectStmt) *[]*pg_query.Node { return &s.SortClause })}, true
	case "target_list":
		if parent == nil || parent.GetResTarget() == nil || parent.GetResTarget().Val != h.node || len(sel.TargetList) < 2 ||
			len(sel.GroupClause) > 0 || sel.HavingClause != nil || len(sel.DistinctClause) > 0 || hasAggregate(sel) || idx < 0 {
			return edit{}, false
		}
		return edit{rule: RuleDropPhantom, note: "dropped unknown output column " + name,
			fn: dropItem(off, func(s *pg_query.SelectStmt) *[]*pg_query.Node { return &s.TargetList })}, true
	}
	return edit{}, false
}

// dropItem removes, in a fresh tree, the item of a select's list (picked by
// list) that holds the column reference at off.
func dropItem(off int32, list func(*pg_query.SelectStmt) *[]*pg_query.Node) func(*doc) error {
	return func(d *doc) error {
		h := d.find(off, isColumnRef)
		if h == nil {
			return errStale
		}
		sel, _, _ := h.enclosingSelect()
		items, p := list(sel), h.parent()
		for i, it := range *items {
			if it == p {
				*items = append((*items)[:i], (*items)[i+1:]...)
				return nil
			}
		}
		return errStale
	}
}

// hasAggregate reports an aggregate call in the target list of sel itself
// (not in subqueries).
func hasAggregate(sel *pg_query.SelectStmt) bool {
	return len(targetCalls(sel, func(fc *pg_query.FuncCall) bool { return isAggregate(funcName(fc)) || fc.AggStar })) > 0
}

// targetCalls returns the function calls in the target list of sel itself
// (not in subqueries) that keep accepts, in order.
func targetCalls(sel *pg_query.SelectStmt, keep func(*pg_query.FuncCall) bool) []*pg_query.FuncCall {
	var calls []*pg_query.FuncCall
	for _, t := range sel.TargetList {
		walk(t.ProtoReflect(), nil, func(m protoreflect.Message, _ []step) bool {
			switch v := m.Interface().(type) {
			case *pg_query.SelectStmt:
				return false
			case *pg_query.FuncCall:
				if keep(v) {
					calls = append(calls, v)
				}
			}
			return true
		})
	}
	return calls
}
