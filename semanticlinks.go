package nl2sql

import (
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// SemanticLink is a measure, named filter, dimension or metric of the
// semantic model (WithSemantic) that a question names, by its name or a
// synonym, with its definition as SQL to reuse.
type SemanticLink struct {
	Name string `json:"name"`
	// Kind is "measure", "filter", "dimension" or "metric".
	Kind string `json:"kind"`
	// Entity is a dimension's entity (dimension names are unique only
	// within theirs).
	Entity string `json:"entity,omitempty"`
	// Phrase is the question's words that name it, as the model writes
	// them ("turnover").
	Phrase     string              `json:"phrase"`
	Definition semantic.Definition `json:"definition"`
}

// Kinds of SemanticLink.
const (
	linkMeasure   = "measure"
	linkFilter    = "filter"
	linkDimension = "dimension"
	linkMetric    = "metric"
)

// semanticItem is a definition of the model with the phrases naming it.
type semanticItem struct {
	kind, entity, name string
	table              string // a dimension's table (qualified), to keep those of the context
	phrases            []string
}

// semanticItems lists the model's measures, filters, dimensions and
// metrics in file order, each with its name (as words) and synonyms.
func semanticItems(m *semantic.Model) []semanticItem {
	var out []semanticItem
	item := func(kind, entity, name, table string, synonyms []string) {
		out = append(out, semanticItem{kind: kind, entity: entity, name: name, table: table, phrases: append([]string{name}, synonyms...)})
	}
	for _, e := range m.Entities {
		table := ""
		if t := e.Relation(); t != nil {
			table = t.QualifiedName()
		}
		for _, d := range e.Dimensions {
			item(linkDimension, e.Name, d.Name, table, d.Synonyms)
		}
		for _, d := range e.TimeDimensions {
			item(linkDimension, e.Name, d.Name, table, d.Synonyms)
		}
		for _, f := range e.Filters {
			item(linkFilter, e.Name, f.Name, table, f.Synonyms)
		}
		for _, ms := range e.Measures {
			item(linkMeasure, e.Name, ms.Name, table, ms.Synonyms)
		}
	}
	for _, mt := range m.Metrics {
		item(linkMetric, "", mt.Name, "", mt.Synonyms)
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

// semanticLinks finds the definitions question names. A phrase names its
// definition where its words stand in the question in a row (case and
// plural aside); of overlapping phrases the longest wins ("line revenue"
// over "revenue"), phrases of the same length all count. A dimension
// counts only when its table is among tables (the context's): "status" is
// a dimension of many entities. The links come in the order the question
// names them, then the model's order. A definition reading a table
// outside tables is left out: the prompt does not show that table, and a
// scoped request must not hear of another tenant's.
func semanticLinks(m *semantic.Model, cat *schema.Catalog, question *gloss.Analysis, tables []string) []SemanticLink {
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
	items := semanticItems(m)
	var found []match
	phraseOf := map[match]string{}
	for i, it := range items {
		if it.kind == linkDimension && !slices.Contains(tables, it.table) {
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
	var out []SemanticLink
	for _, k := range kept {
		it := items[k.item]
		var d semantic.Definition
		var err error
		if it.kind == linkDimension {
			d, err = m.DimensionDefinition(it.entity, it.name)
		} else {
			d, err = m.Definition(it.name)
		}
		if err != nil || slices.ContainsFunc(d.Tables, func(t string) bool { return !visible[t] }) {
			continue // a checked model renders every definition; no guess otherwise
		}
		l := SemanticLink{Name: it.name, Kind: it.kind, Phrase: phraseOf[k], Definition: d}
		if it.kind == linkDimension {
			l.Entity = it.entity
		}
		out = append(out, l)
	}
	return out
}

// definitionLines renders the links for the prompt's Definitions section:
// "measure revenue on public.sales_orders: sum(total_amount) FILTER
// (WHERE status <> 'Cancelled') -- Order revenue in USD".
func definitionLines(links []SemanticLink) []string {
	var out []string
	for _, l := range links {
		line := l.Kind + " " + l.Name + " on " + strings.Join(l.Definition.Tables, ", ") + ": " + oneLine(l.Definition.Expr)
		if d := oneLine(l.Definition.Description); d != "" {
			line += " -- " + d
		}
		out = append(out, line)
	}
	return out
}

// namedMeasures are the names of the measures among links.
func namedMeasures(links []SemanticLink) []string {
	var out []string
	for _, l := range links {
		if l.Kind == linkMeasure {
			out = append(out, l.Name)
		}
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
