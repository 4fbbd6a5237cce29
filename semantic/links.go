package semantic

import (
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// Link is a measure, named filter, dimension or metric of the model that a
// question names, by its name or a synonym, with its definition as SQL to
// reuse.
type Link struct {
	Name string `json:"name"`
	// Kind is LinkMeasure, LinkFilter, LinkDimension or LinkMetric.
	Kind string `json:"kind"`
	// Entity is a dimension's entity (dimension names are unique only
	// within theirs).
	Entity string `json:"entity,omitempty"`
	// Phrase is the question's words that name it, as the model writes
	// them ("turnover").
	Phrase     string     `json:"phrase"`
	Definition Definition `json:"definition"`
}

// Kinds of Link.
const (
	LinkMeasure   = "measure"
	LinkFilter    = "filter"
	LinkDimension = "dimension"
	LinkMetric    = "metric"
)

// linkItem is a definition of the model with the phrases naming it.
type linkItem struct {
	kind, entity, name string
	table              string // a dimension's table (qualified), to keep those of the context
	phrases            []string
}

// linkItems lists the model's measures, filters, dimensions and metrics
// in file order, each with its name (as words) and synonyms.
func (m *Model) linkItems() []linkItem {
	var out []linkItem
	item := func(kind, entity, name, table string, synonyms []string) {
		out = append(out, linkItem{kind: kind, entity: entity, name: name, table: table, phrases: append([]string{name}, synonyms...)})
	}
	for _, e := range m.Entities {
		table := ""
		if t := e.Relation(); t != nil {
			table = t.QualifiedName()
		}
		for _, d := range e.Dimensions {
			item(LinkDimension, e.Name, d.Name, table, d.Synonyms)
		}
		for _, d := range e.TimeDimensions {
			item(LinkDimension, e.Name, d.Name, table, d.Synonyms)
		}
		for _, f := range e.Filters {
			item(LinkFilter, e.Name, f.Name, table, f.Synonyms)
		}
		for _, ms := range e.Measures {
			item(LinkMeasure, e.Name, ms.Name, table, ms.Synonyms)
		}
	}
	for _, mt := range m.Metrics {
		item(LinkMetric, "", mt.Name, "", mt.Synonyms)
	}
	return out
}

// stems are the stemmed words of text, stopwords kept: a phrase matches
// the same words in a row ("number of orders").
func stems(text string) []string {
	ws := gloss.Fields(text)
	for i, w := range ws {
		ws[i] = gloss.Stem(w)
	}
	return ws
}

// Links finds the definitions of a checked model that question names,
// among tables (qualified names of cat: the ones a prompt shows). A
// phrase names its definition where its words stand in the question in a
// row (case and plural aside); of overlapping phrases the longest wins
// ("line revenue" over "revenue"), phrases of the same length all count.
// A dimension counts only when its table is among tables: "status" is a
// dimension of many entities. The links come in the order the question
// names them, then the model's order. A definition reading a table
// outside tables is left out: the prompt does not show that table, and a
// scoped request must not hear of another tenant's. A nil model links
// nothing.
func (m *Model) Links(question *gloss.Analysis, cat *schema.Catalog, tables []string) []Link {
	if m == nil {
		return nil
	}
	visible := map[string]bool{}
	for _, name := range tables {
		if t := cat.Table(name); t != nil {
			visible[t.QuoteQualified()] = true
		}
	}
	q := make([]string, len(question.Words))
	for i, w := range question.Words {
		q[i] = w.Stem
	}
	type match struct{ item, start, n int }
	items := m.linkItems()
	var found []match
	phraseOf := map[match]string{}
	for i, it := range items {
		if it.kind == LinkDimension && !slices.Contains(tables, it.table) {
			continue
		}
		for _, p := range it.phrases {
			ps := stems(p)
			if len(ps) == 0 {
				continue
			}
			for s := 0; s+len(ps) <= len(q); s++ {
				if slices.Equal(q[s:s+len(ps)], ps) {
					mt := match{i, s, len(ps)}
					found = append(found, mt)
					phraseOf[mt] = p
				}
			}
		}
	}
	slices.SortStableFunc(found, func(a, b match) int {
		if a.n != b.n {
			return b.n - a.n
		}
		if a.start != b.start {
			return a.start - b.start
		}
		return a.item - b.item
	})
	var kept []match
	seen := map[int]bool{}
	for _, f := range found {
		shadowed := slices.ContainsFunc(kept, func(k match) bool {
			return k.n > f.n && k.start < f.start+f.n && f.start < k.start+k.n
		})
		if shadowed || seen[f.item] {
			continue
		}
		seen[f.item] = true
		kept = append(kept, f)
	}
	slices.SortStableFunc(kept, func(a, b match) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return a.item - b.item
	})
	var out []Link
	for _, k := range kept {
		it := items[k.item]
		var d Definition
		var err error
		if it.kind == LinkDimension {
			d, err = m.DimensionDefinition(it.entity, it.name)
		} else {
			d, err = m.Definition(it.name)
		}
		if err != nil || slices.ContainsFunc(d.Tables, func(t string) bool { return !visible[t] }) {
			continue // a checked model renders every definition; no guess otherwise
		}
		l := Link{Name: it.name, Kind: it.kind, Phrase: phraseOf[k], Definition: d}
		if it.kind == LinkDimension {
			l.Entity = it.entity
		}
		out = append(out, l)
	}
	return out
}

// Line renders the link for a prompt's definitions: "measure revenue on
// public.sales_orders: sum(total_amount) FILTER (WHERE status <>
// 'Cancelled') -- Order revenue in USD".
func (l Link) Line() string {
	line := l.Kind + " " + l.Name + " on " + strings.Join(l.Definition.Tables, ", ") + ": " + oneLine(l.Definition.Expr)
	if d := oneLine(l.Definition.Description); d != "" {
		line += " -- " + d
	}
	return line
}

// Measures are the names of the measures among links.
func Measures(links []Link) []string {
	var out []string
	for _, l := range links {
		if l.Kind == LinkMeasure {
			out = append(out, l.Name)
		}
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
