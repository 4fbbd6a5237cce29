package repair

import (
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// Table returns the table of allowed that the unknown relation name most
// plausibly means, by the rules Fix applies to 42P01: a misspelling (a swap
// of two letters counts as one edit), the singular or plural, abbreviations
// and glosses of its words. With allowed nil the candidates are the
// catalog's tables (those of WithTables, if set). name is "table" or
// "schema.table", unquoted, as PostgreSQL and the validator print it.
//
// The tables of name's schema, or of the search path for an unqualified
// name, are looked at first; another schema's only when none of those is
// even loosely similar, so an allowed table named exactly like the
// unknown one in another schema (a tenant's copy) is found too. An
// unqualified name on a path with several schemas holding the same table
// means the first one, as PostgreSQL resolves it.
//
// It returns the table when exactly one is closest; ErrNoFix when none is
// close; an *AmbiguousError (errors.Is ErrNoFix) whose Alternatives are
// qualified table names when several are equally close, or only loosely
// similar ones exist. Callers deciding about a relation outside the
// allowed set (V012) can use it before giving up on a candidate.
func (r *Repairer) Table(name string, allowed []*schema.Table) (*schema.Table, error) {
	name = strings.ReplaceAll(name, `"`, "")
	schemaName, rel, ok := strings.Cut(name, ".")
	if !ok {
		schemaName, rel = "", name
	}
	if rel == "" {
		return nil, ErrNoFix
	}
	best, alts, tied := r.closestTables(schemaName, rel, allowed)
	if best != nil {
		return best, nil
	}
	if len(alts) == 0 {
		return nil, ErrNoFix
	}
	e := &AmbiguousError{Rule: RuleFuzzyTable, Name: name, Tied: tied}
	for i, t := range alts {
		if i == MaxAlternatives {
			break
		}
		e.Alternatives = append(e.Alternatives, t.QualifiedName())
	}
	return nil, e
}

// closestTables ranks the tables of pool (nil: every allowed one) against
// the unknown name (see Table). It returns the single closest table, or the
// alternatives: tied ones (tied true) or loose ones, closest first.
func (r *Repairer) closestTables(schemaName, name string, pool []*schema.Table) (*schema.Table, []*schema.Table, bool) {
	if pool == nil {
		for _, t := range r.cat.Tables {
			if r.allowed(t) {
				pool = append(pool, t)
			}
		}
	}
	near := func(t *schema.Table) bool {
		if schemaName != "" {
			return t.Schema == schemaName
		}
		for _, s := range r.cfg.searchPath {
			if s == t.Schema {
				return true
			}
		}
		return false
	}
	// [0]: name's schema or the search path; [1]: the other schemas.
	var plausible, loose [2][]target
	for _, t := range pool {
		if t == nil {
			continue
		}
		i := 1
		if near(t) {
			if schemaName == "" && r.shadowed(t, pool) {
				continue // written bare, the name is an earlier schema's table
			}
			i = 0
		}
		switch rk := r.match.rank(name, t.Name, nil); {
		case rk < rankNone:
			plausible[i] = append(plausible[i], target{rank: rk, col: t.Name, table: t})
		case r.match.loose(name, t.Name):
			loose[i] = append(loose[i], target{rank: rk, col: t.Name, table: t, score: r.match.score(name, t.Name, nil)})
		}
	}
	tables := func(ts []target) []*schema.Table {
		out := make([]*schema.Table, len(ts))
		for i, t := range ts {
			out[i] = t.table
		}
		return out
	}
	for i := range plausible {
		if len(plausible[i]) > 0 {
			best, tied := pick(plausible[i])
			if best != nil {
				return best.table, nil, false
			}
			return nil, tables(tied), true
		}
		if len(loose[i]) > 0 {
			break // a loosely similar table nearer: a farther one is no safer
		}
	}
	return nil, tables(append(byScore(loose[0]), byScore(loose[1])...)), false
}

// shadowed reports whether a table of pool with t's name sits in a schema
// before t's on the search path.
func (r *Repairer) shadowed(t *schema.Table, pool []*schema.Table) bool {
	for _, s := range r.cfg.searchPath {
		if s == t.Schema {
			return false
		}
		for _, o := range pool {
			if o != nil && o.Schema == s && o.Name == t.Name {
				return true
			}
		}
	}
	return false
}

// undefinedTable answers 42P01. "relation x does not exist": the one table
// x most plausibly means (see Table), else nothing. "missing FROM-clause
// entry": see missingFrom.
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
	old := rv.Relname
	written := old
	if rv.Schemaname != "" {
		written = rv.Schemaname + "." + old
	}
	retarget := func(t *schema.Table) target {
		label := d.r.writtenName(t)
		return target{label: label, col: t.Name, table: t, edit: edit{rule: RuleFuzzyTable, note: written + " → " + t.QualifiedName(),
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
			}}}
	}
	best, alts, tied := d.r.closestTables(rv.Schemaname, old, nil)
	if best != nil {
		return []edit{retarget(best).edit}
	}
	var ts []target
	for _, t := range alts {
		ts = append(ts, retarget(t))
	}
	d.decline(RuleFuzzyTable, written, tied, ts)
	return nil
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

// qualifierRank rates how well a qualifier names a table: its name (or a
// misspelling, singular, gloss of it) > an abbreviation, its initials or
// one of its words > the first letter of one of its words.
func (m matcher) qualifierRank(q string, t *schema.Table) rank {
	if rk := m.rank(q, t.Name, nil); rk <= rankTypo {
		return rankExact
	}
	if abbrev(q, t.Name) || q == initials(t.Name) || m.rank(q, t.Name, nil) <= rankAbbrev {
		return rankWords
	}
	for _, w := range splitWords(t.Name) {
		if m.wordRank(q, w) <= rankAbbrev {
			return rankWords
		}
	}
	for _, w := range splitWords(t.Name) {
		if len(q) == 1 && w[0] == q[0] {
			return rankTypo
		}
	}
	return rankNone
}

// missingFrom answers "missing FROM-clause entry for table q" (or "invalid
// reference to FROM-clause entry"): q.col names no relation of the query.
// q becomes the alias of the relation in scope it names that has col
// (customers.x FROM customers c); failing that, the table one declared
// foreign key away that q names and that has col is joined as q (the
// query wrote q.col: it meant a join, in whichever direction). Only when
// exactly one relation fits best; otherwise the candidates are reported.
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
	hasCol := func(t *schema.Table) bool { return col == "" || t.Column(col) != nil }
	var inScope []target
	for _, r := range sc.tables() {
		if rk := m.qualifierRank(q, r.table); rk < rankNone && hasCol(r.table) {
			alias := r.alias
			inScope = append(inScope, target{rank: rk, label: alias, col: alias, table: r.table,
				edit: edit{rule: RuleFromAlias, note: q + ".* → " + alias + ".*", fn: requalify(off, q, alias)}})
		}
	}
	if len(inScope) > 0 {
		return d.choose(RuleFromAlias, q, inScope)
	}
	var joins []target
	for _, r := range sc.tables() {
		for _, nb := range d.neighbors(r) {
			if !hasCol(nb.table) || sc.inScope(nb.table) != nil {
				continue
			}
			if rk := m.qualifierRank(q, nb.table); rk < rankNone {
				joins = append(joins, target{rank: rk, label: d.r.writtenName(nb.table), col: nb.table.QualifiedName(), table: nb.table,
					edit: edit{rule: RuleMissingFrom, note: fmt.Sprintf("joined %s AS %s on %s", nb.table.QualifiedName(), q, joinText(nb, q)),
						fn: addJoin(nb, q)}})
			}
		}
	}
	return d.choose(RuleMissingFrom, q, joins)
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
