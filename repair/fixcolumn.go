package repair

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// Score thresholds for name matching: a column of a table already in the
// query may be a looser match than one that needs a new JOIN.
const (
	minScopeScore    = 0.7
	minNeighborScore = 0.8
)

// candidate is an edit with a score used for ranking.
type candidate struct {
	edit
	score float64
}

func ranked(cs []candidate) []edit {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
	out := make([]edit, len(cs))
	for i, c := range cs {
		out[i] = c.edit
	}
	return out
}

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

func (d *doc) neighbors(r *rel) []neighbor {
	var out []neighbor
	for _, fk := range r.table.ForeignKeys {
		if t := d.r.cat.Lookup(fk.RefSchema, fk.RefTable); t != nil {
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
		out = append(out, neighbor{from: r, table: ref.From, fromCols: ref.FK.RefColumns, toCols: ref.FK.Columns})
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

// addJoin joins nb.table (as alias) to the FROM item holding nb.from, in a
// fresh tree.
func addJoin(nb neighbor, alias string) func(*doc) error {
	loc := nb.from.rv.Location
	return func(d *doc) error {
		h := d.find(loc, isRangeVar)
		if h == nil {
			return errStale
		}
		sel, _, _ := h.enclosingSelect()
		if sel == nil || nb.from.top >= len(sel.FromClause) {
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
		sel.FromClause[nb.from.top] = pg_query.MakeJoinExprNode(jt, sel.FromClause[nb.from.top],
			&pg_query.Node{Node: &pg_query.Node_RangeVar{RangeVar: rv}}, quals)
		return nil
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

var hintColumn = regexp.MustCompile(`the column "([^"]+)"`)

// undefinedColumn answers 42703: a misspelt column, a column of a table
// one JOIN away, a double-quoted string value, or a phantom column that can
// be dropped without changing the rows.
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
	wanted := parts[len(parts)-1]
	var cs []candidate
	if len(parts) == 1 && d.sql[off] == '"' && d.comparedValue(h.node, h.path) {
		cs = append(cs, candidate{score: 2, edit: edit{rule: RuleStringValue, note: `"` + wanted + `" is a value: '` + wanted + `'`,
			fn: func(d *doc) error {
				h := d.find(off, isColumnRef)
				if h == nil {
					return errStale
				}
				replace(h.node, strConst(wanted))
				return nil
			}}})
	}
	hinted := map[string]bool{}
	for _, m := range hintColumn.FindAllStringSubmatch(f.Hint, -1) {
		hinted[m[1]] = true
	}
	m := d.matcher()
	var rels []*rel
	if len(parts) >= 2 {
		if r, _ := sc.lookup(parts[len(parts)-2]); r != nil {
			rels = []*rel{r}
		}
	} else {
		for s := sc; s != nil; s = s.outer {
			rels = append(rels, s.rels...)
		}
	}
	qualify := len(parts) >= 2 || len(sc.rels) > 1
	for _, r := range rels {
		cols := r.cols
		var ctx []string
		if r.table != nil {
			cols = nil
			for _, c := range r.table.Columns {
				cols = append(cols, c.Name)
			}
			ctx = tableWords(r.table)
		}
		for _, c := range cols {
			s := m.score(wanted, c, ctx)
			if s < minScopeScore || r.alias == "" && qualify {
				continue
			}
			// The server's hint is plain edit distance: a tie-breaker only.
			if hinted[r.alias+"."+c] || hinted[c] {
				s += 0.05
			}
			// A table already in the query wins over a new JOIN only when
			// its column is a good match on its own.
			if s >= 0.85 {
				s += 0.1
			}
			target := []string{c}
			if qualify || !containsRel(sc.rels, r) {
				target = []string{r.alias, c}
			}
			cs = append(cs, candidate{score: s, edit: edit{rule: RuleFuzzyColumn,
				note: fmt.Sprintf("%s → %s", strings.Join(parts, "."), strings.Join(target, ".")), fn: setColumn(off, target...)}})
		}
	}
	// Tables one foreign key away from the relation(s) in scope.
	for _, r := range rels {
		if r.table == nil || (len(parts) == 1 && !containsRel(sc.rels, r)) {
			continue
		}
		for _, nb := range d.neighbors(r) {
			for _, c := range nb.table.Columns {
				s := m.score(wanted, c.Name, tableWords(nb.table))
				if s < minNeighborScore {
					continue
				}
				if !nb.parent {
					s -= 0.05 // a child table multiplies rows
				}
				if other := sc.inScope(nb.table); other != nil {
					cs = append(cs, candidate{score: s + 0.05, edit: edit{rule: RuleRequalify,
						note: fmt.Sprintf("%s → %s.%s", strings.Join(parts, "."), other.alias, c.Name), fn: setColumn(off, other.alias, c.Name)}})
					continue
				}
				alias := d.newAlias(nb.table.Name)
				cs = append(cs, candidate{score: s, edit: edit{rule: RuleJoinNeighbor,
					note: fmt.Sprintf("%s → %s.%s, joining %s on %s", strings.Join(parts, "."), alias, c.Name, nb.table.QualifiedName(), joinText(nb, alias)),
					fn:   chain(setColumn(off, alias, c.Name), addJoin(nb, alias))}})
			}
		}
	}
	if len(cs) == 0 {
		if e, ok := d.dropPhantom(h, off); ok {
			return []edit{e}
		}
	}
	return ranked(cs)
}

func containsRel(rs []*rel, r *rel) bool {
	for _, x := range rs {
		if x == r {
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
	found := false
	for _, t := range sel.TargetList {
		walk(t.ProtoReflect(), nil, func(m protoreflect.Message, _ []step) bool {
			switch v := m.Interface().(type) {
			case *pg_query.SelectStmt:
				return false
			case *pg_query.FuncCall:
				if isAggregate(funcName(v)) || v.AggStar {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// undefinedTable answers 42P01: a misspelt table name, or a qualifier with
// no FROM entry ("missing FROM-clause entry for table c") that names a
// table one foreign key away, which is then joined.
func (d *doc) undefinedTable(f Failure) []edit {
	off := d.offset(f.Position)
	if strings.HasPrefix(f.Message, "missing FROM-clause entry") || strings.HasPrefix(f.Message, "invalid reference to FROM-clause entry") {
		return d.missingFrom(off)
	}
	h := d.find(off, isRangeVar)
	if h == nil {
		return nil
	}
	rv := h.node.GetRangeVar()
	m := d.matcher()
	var cs []candidate
	for _, t := range d.r.cat.Tables {
		s := m.score(rv.Relname, t.Name, nil)
		if rv.Schemaname != "" && rv.Schemaname != t.Schema {
			s -= 0.1
		}
		if s < minScopeScore {
			continue
		}
		if d.r.cat.Resolve(t.Name, d.r.cfg.searchPath) == t {
			s += 0.05
		}
		t := t
		old := rv.Relname
		cs = append(cs, candidate{score: s, edit: edit{rule: RuleFuzzyTable, note: old + " → " + t.QualifiedName(),
			fn: func(d *doc) error {
				h := d.find(off, isRangeVar)
				if h == nil {
					return errStale
				}
				rv := h.node.GetRangeVar()
				rv.Relname, rv.Schemaname = t.Name, ""
				if d.r.cat.Resolve(t.Name, d.r.cfg.searchPath) != t {
					rv.Schemaname = t.Schema
				}
				if rv.Alias == nil && old != t.Name && d.qualifierUsed(old) {
					rv.Alias = &pg_query.Alias{Aliasname: old}
				}
				return nil
			}}})
	}
	return ranked(cs)
}

// qualifierUsed reports a column reference qualified with q.
func (d *doc) qualifierUsed(q string) bool {
	return len(d.findAll(d.tree.ProtoReflect(), func(n *pg_query.Node) bool {
		c := n.GetColumnRef()
		if c == nil || len(c.Fields) < 2 {
			return false
		}
		p := colParts(c)
		return p[len(p)-2] == q
	})) > 0
}

func (d *doc) missingFrom(off int32) []edit {
	h := d.find(off, isColumnRef)
	if h == nil {
		return nil
	}
	parts := colParts(h.node.GetColumnRef())
	if len(parts) < 2 {
		return nil
	}
	q, col := parts[len(parts)-2], parts[len(parts)-1]
	sc := d.scopeAt(h.path)
	if sc == nil {
		return nil
	}
	m := d.matcher()
	// How well the qualifier names a table: its name, a prefix or its initials.
	qscore := func(t *schema.Table) float64 {
		s := m.score(q, t.Name, nil)
		if abbrev(q, t.Name) || q == initials(t.Name) {
			s = max(s, 0.85)
		}
		for _, w := range splitWords(t.Name) {
			if len(q) == 1 && w[0] == q[0] {
				s = max(s, 0.7)
			}
		}
		return s
	}
	hasCol := func(t *schema.Table) bool { return col == "" || t.Column(col) != nil }
	var cs []candidate
	for _, r := range sc.tables() {
		if s := qscore(r.table); s >= 0.6 && hasCol(r.table) {
			alias := r.alias
			cs = append(cs, candidate{score: s + 0.1, edit: edit{rule: RuleFromAlias, note: q + ".* → " + alias + ".*",
				fn: requalify(off, q, alias)}})
		}
	}
	for _, r := range sc.tables() {
		for _, nb := range d.neighbors(r) {
			if !hasCol(nb.table) || sc.inScope(nb.table) != nil {
				continue
			}
			s := qscore(nb.table)
			if !nb.parent {
				s -= 0.05
			}
			if s < 0.5 {
				continue
			}
			cs = append(cs, candidate{score: s, edit: edit{rule: RuleMissingFrom,
				note: fmt.Sprintf("joined %s AS %s on %s", nb.table.QualifiedName(), q, joinText(nb, q)),
				fn:   addJoin(nb, q)}})
		}
	}
	return ranked(cs)
}

// initials returns the first letters of a name's words ("order_lines" → "ol").
func initials(name string) string {
	var b strings.Builder
	for _, w := range splitWords(name) {
		b.WriteByte(w[0])
	}
	return b.String()
}

// requalify renames qualifier q to alias in every column reference of the
// select holding the reference at off, in a fresh tree.
func requalify(off int32, q, alias string) func(*doc) error {
	return func(d *doc) error {
		h := d.find(off, isColumnRef)
		if h == nil {
			return errStale
		}
		sel, _, _ := h.enclosingSelect()
		for _, x := range d.findAll(sel.ProtoReflect(), isColumnRef) {
			c := x.node.GetColumnRef()
			if p := colParts(c); len(p) == 2 && p[0] == q {
				c.Fields[0] = pg_query.MakeStrNode(alias)
			}
		}
		return nil
	}
}

// ambiguousColumn answers 42702 by qualifying the column with each
// relation in scope that has it, the first FROM item first.
func (d *doc) ambiguousColumn(f Failure) []edit {
	off := d.offset(f.Position)
	h := d.find(off, isColumnRef)
	if h == nil {
		return nil
	}
	parts := colParts(h.node.GetColumnRef())
	if len(parts) != 1 || parts[0] == "" {
		return nil
	}
	sc := d.scopeAt(h.path)
	if sc == nil {
		return nil
	}
	owners, _ := sc.owners(parts[0])
	// The referenced side of a foreign key on this very column first (it
	// is never NULL-extended by the child), then FROM order.
	sort.SliceStable(owners, func(i, j int) bool {
		return references(owners[j], owners[i], parts[0]) && !references(owners[i], owners[j], parts[0])
	})
	var out []edit
	for _, r := range owners {
		if r.alias == "" {
			continue
		}
		out = append(out, edit{rule: RuleAmbiguous, note: parts[0] + " → " + r.alias + "." + parts[0], fn: setColumn(off, r.alias, parts[0])})
	}
	return out
}

// references reports whether child's column col is a foreign key to
// parent's column of the same name.
func references(child, parent *rel, col string) bool {
	if child.table == nil || parent.table == nil {
		return false
	}
	for _, fk := range child.table.ForeignKeys {
		if fk.RefSchema == parent.table.Schema && fk.RefTable == parent.table.Name {
			for i, c := range fk.Columns {
				if c == col && fk.RefColumns[i] == col {
					return true
				}
			}
		}
	}
	return false
}
