package retrieve

import (
	"sort"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// glossText is how an identifier reads in documents and names: its split
// words, then g's reading when it differs ("cust_nbr" -> "cust nbr customer
// number"), so both the legacy spelling and the plain words match.
func glossText(g gloss.Glosser, id string) string {
	raw := strings.ToLower(strings.Join(gloss.Split(id), " "))
	if exp := strings.Join(g(id), " "); exp != "" && exp != raw {
		return raw + " " + exp
	}
	return raw
}

// glossed is glossText with the configured glosser.
func (ix *Retriever) glossed(id string) string { return glossText(ix.cfg.gloss, id) }

// documents builds the table, column and module documents of a catalog.
func (ix *Retriever) documents(cat *schema.Catalog, catalogFP string) []Document {
	var docs []Document
	for _, t := range cat.Tables {
		q := t.QualifiedName()
		module := ix.moduleOf[q]
		fp := cat.TableFingerprint(t)
		docs = append(docs, Document{
			ID: "table:" + q, Kind: KindTable, Scope: t.Schema, Module: module, Table: q,
			Text: ix.tableText(cat, t), Fingerprint: fp, Catalog: catalogFP,
		})
		for _, c := range t.Columns {
			docs = append(docs, Document{
				ID: "column:" + q + "." + c.Name, Kind: KindColumn, Scope: t.Schema, Module: module, Table: q, Column: c.Name,
				Text: ix.columnText(t, &c), Fingerprint: fp, Catalog: catalogFP,
			})
		}
	}
	for _, m := range ix.moduleNames() {
		docs = append(docs, Document{
			ID: "module:" + m, Kind: KindModule, Module: m, Text: ix.moduleText(cat, m),
			Fingerprint: ix.moduleFingerprint(cat, m), Catalog: catalogFP,
		})
	}
	return docs
}

// tableText is what a table is searched by: its name and gloss, comment,
// column names and glosses, and the names of its FK neighbours.
func (ix *Retriever) tableText(cat *schema.Catalog, t *schema.Table) string {
	var b strings.Builder
	name := ix.glossed(t.Name)
	b.WriteString(name + ". " + name + ". ")
	if t.Comment != "" {
		b.WriteString(t.Comment + ". ")
	}
	b.WriteString("Columns: ")
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(ix.glossed(c.Name))
	}
	b.WriteString(". ")
	var neigh []string
	for _, fk := range t.ForeignKeys {
		neigh = append(neigh, ix.glossed(fk.RefTable))
	}
	for _, r := range cat.ReferencedBy(t.QualifiedName()) {
		neigh = append(neigh, ix.glossed(r.From.Name))
	}
	if len(neigh) > 0 {
		sort.Strings(neigh)
		b.WriteString("Related: " + strings.Join(dedupStrings(neigh), ", ") + ".")
	}
	// A stored value (enum label, sampled value) that only this table holds
	// is a rare word a question may name ("Backordered"): it points straight
	// at the table. Values many tables share ("Open", "Active") only blur
	// the documents, so they stay out.
	for _, c := range t.Columns {
		var rare []string
		for _, v := range ix.columnValues(t, &c) {
			if ix.valueTables[strings.ToLower(v)] == 1 && len(rare) < 8 {
				rare = append(rare, v)
			}
		}
		if len(rare) > 0 {
			b.WriteString(" " + ix.glossed(c.Name) + ": " + strings.Join(rare, ", ") + ".")
		}
	}
	for _, term := range ix.glossaryFor[t.QualifiedName()] {
		b.WriteString(" " + term + ".")
	}
	return b.String()
}

func (ix *Retriever) columnText(t *schema.Table, c *schema.Column) string {
	var b strings.Builder
	b.WriteString(ix.glossed(c.Name) + " of " + ix.glossed(t.Name) + ". ")
	if c.Comment != "" {
		b.WriteString(c.Comment + ". ")
	}
	if len(c.EnumLabels) > 0 {
		b.WriteString("Values: " + strings.Join(c.EnumLabels, ", ") + ". ")
	} else if ex := ix.cfg.examples[t.QualifiedName()+"."+c.Name]; len(ex) > 0 {
		if len(ex) > 10 {
			ex = ex[:10]
		}
		b.WriteString("Values: " + strings.Join(ex, ", ") + ". ")
	}
	for _, term := range ix.glossaryFor[t.QualifiedName()+"."+c.Name] {
		b.WriteString(term + ". ")
	}
	return b.String()
}

func (ix *Retriever) moduleText(cat *schema.Catalog, m string) string {
	var b strings.Builder
	b.WriteString(ix.glossed(m) + ". ")
	for _, q := range ix.modules[m] {
		t := cat.Table(q)
		if t == nil {
			continue
		}
		b.WriteString(ix.glossed(t.Name))
		if t.Comment != "" {
			b.WriteString(" (" + firstSentence(t.Comment) + ")")
		}
		b.WriteString(". ")
	}
	for _, k := range ix.cfg.moduleKeywords[m] {
		b.WriteString(k + ". ")
	}
	return b.String()
}

func (ix *Retriever) moduleFingerprint(cat *schema.Catalog, m string) string {
	var parts []string
	for _, q := range ix.modules[m] {
		if t := cat.Table(q); t != nil {
			parts = append(parts, cat.TableFingerprint(t))
		}
	}
	parts = append(parts, ix.cfg.moduleKeywords[m]...)
	return strings.Join(parts, ",")
}

func firstSentence(s string) string {
	if i := strings.IndexAny(s, ".;\n"); i > 0 {
		return s[:i]
	}
	return s
}

func dedupStrings(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// columnValues returns a column's known values: enum labels, else examples.
func (ix *Retriever) columnValues(t *schema.Table, c *schema.Column) []string {
	if len(c.EnumLabels) > 0 {
		return c.EnumLabels
	}
	return ix.cfg.examples[t.QualifiedName()+"."+c.Name]
}

// countValueTables counts, per lower-cased value, the distinct table names
// (schema aside: division copies count once) holding it.
func (ix *Retriever) countValueTables(cat *schema.Catalog) {
	seen := map[string]map[string]bool{}
	for _, t := range cat.Tables {
		for i := range t.Columns {
			for _, v := range ix.columnValues(t, &t.Columns[i]) {
				k := strings.ToLower(v)
				if seen[k] == nil {
					seen[k] = map[string]bool{}
				}
				seen[k][t.Name] = true
			}
		}
	}
	ix.valueTables = make(map[string]int, len(seen))
	for k, ts := range seen {
		ix.valueTables[k] = len(ts)
	}
}
