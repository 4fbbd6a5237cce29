package semantic

import (
	"slices"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// Relation is the catalog table the entity is over, once Check has
// resolved it (nil before).
func (e *Entity) Relation() *schema.Table { return e.table }

// DimensionDefinition renders the dimension (or time dimension) name of
// entity: its expression and the table it reads.
func (m *Model) DimensionDefinition(entity, name string) (Definition, error) {
	for _, e := range m.Entities {
		if e.Name != entity {
			continue
		}
		for _, d := range e.Dimensions {
			if d.Name == name {
				x := orName(d.Expr, d.Name)
				return Definition{Name: name, Kind: "dimension", Expr: x, Tables: []string{e.from()}, Query: "SELECT " + x + " FROM " + e.from(), Description: d.Description}, nil
			}
		}
		for _, d := range e.TimeDimensions {
			if d.Name == name {
				x := orName(d.Expr, d.Name)
				return Definition{Name: name, Kind: "dimension", Expr: x, Tables: []string{e.from()}, Query: "SELECT " + x + " FROM " + e.from(), Description: d.Description}, nil
			}
		}
	}
	return Definition{}, &Error{File: m.File, Where: entity + "." + name, Msg: "no dimension has this name", Err: ErrUnknownName}
}

// Vocabulary is the model's words as a glossary (term -> "schema.table"
// or "schema.table.column", the form of link.Glossary and
// retrieve.WithGlossary), so that a question's "revenue" retrieves and
// links what the measure reads: an entity's synonyms (and its name, when
// it is not the table's) mean its table; a measure's, named filter's and
// metric's name and synonyms mean the columns its expression reads (its
// table when it reads none, as count(*)); a dimension's synonyms mean its
// columns. A name is written as words ("order_count" is "order count");
// a term that only repeats its single column's name is left out (the
// column's own name already says it). Targets are sorted and unique. Nil
// before Check resolved the model.
func (m *Model) Vocabulary() map[string][]string {
	out := map[string][]string{}
	add := func(term string, targets []string) {
		term = strings.TrimSpace(term)
		if term == "" || len(targets) == 0 {
			return
		}
		if len(targets) == 1 && strings.Count(targets[0], ".") == 2 && sameWords(term, targets[0][strings.LastIndexByte(targets[0], '.')+1:]) {
			return
		}
		out[term] = append(out[term], targets...)
	}
	words := func(name string) string { return strings.ReplaceAll(name, "_", " ") }
	for _, e := range m.Entities {
		if e.table == nil {
			return nil
		}
		table := []string{e.table.QualifiedName()}
		if !sameWords(e.Name, e.table.Name) {
			add(words(e.Name), table)
		}
		for _, s := range e.Synonyms {
			add(s, table)
		}
		for _, d := range e.Dimensions {
			for _, s := range d.Synonyms {
				add(s, e.columns(orName(d.Expr, d.Name)))
			}
		}
		for _, d := range e.TimeDimensions {
			for _, s := range d.Synonyms {
				add(s, e.columns(orName(d.Expr, d.Name)))
			}
		}
		for _, ms := range e.Measures {
			cols := e.columns(ms.Expr)
			for _, t := range append([]string{words(ms.Name)}, ms.Synonyms...) {
				add(t, cols)
			}
		}
		for _, f := range e.Filters {
			cols := e.columns(f.Expr)
			for _, t := range append([]string{words(f.Name)}, f.Synonyms...) {
				add(t, cols)
			}
		}
	}
	for _, mt := range m.Metrics {
		var cols []string
		for _, ms := range m.metricMeasures(mt, 0) {
			cols = append(cols, ms.entity.columns(ms.Expr)...)
		}
		for _, t := range append([]string{words(mt.Name)}, mt.Synonyms...) {
			add(t, cols)
		}
	}
	for t, tg := range out {
		slices.Sort(tg)
		out[t] = slices.Compact(tg)
	}
	return out
}

// columns are the entity's columns expr reads ("schema.table.column"),
// or its table when it reads none (count(*), a constant).
func (e *Entity) columns(expr string) []string {
	var out []string
	if strings.TrimSpace(expr) != "" {
		if tree, err := pgparse.Parse("SELECT " + expr); err == nil {
			pgparse.WalkNodes(tree.ProtoReflect(), func(n *pg.Node) bool {
				if c := n.GetColumnRef(); c != nil && len(c.Fields) > 0 {
					if s := c.Fields[len(c.Fields)-1].GetString_(); s != nil && e.table.Column(s.Sval) != nil {
						out = append(out, e.table.QualifiedName()+"."+s.Sval)
					}
				}
				return true
			})
		}
	}
	if len(out) == 0 {
		return []string{e.table.QualifiedName()}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// metricMeasures are the measures a metric is computed from, through the
// metrics it names, in order of appearance.
func (m *Model) metricMeasures(mt *Metric, depth int) []*Measure {
	if depth > maxMetricDepth {
		return nil
	}
	expr := mt.Expr
	if mt.Type == MetricRatio {
		expr = mt.Numerator + " / " + mt.Denominator
	}
	toks, err := pg.Scan(expr)
	if err != nil {
		return nil
	}
	var out []*Measure
	for _, t := range toks.Tokens {
		word := expr[t.Start:t.End]
		if ms := m.measure(word); ms != nil {
			out = append(out, ms)
		} else if inner := m.metric(word); inner != nil && inner != mt {
			out = append(out, m.metricMeasures(inner, depth+1)...)
		}
	}
	return out
}

// sameWords reports whether two names are the same words ("order_count",
// "Order count").
func sameWords(a, b string) bool {
	norm := func(s string) string {
		return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '_' || r == ' ' || r == '-' }), " ")
	}
	return norm(a) == norm(b)
}
