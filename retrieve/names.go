package retrieve

import (
	"sort"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// maxNameWords bounds the words of a table name a question can spell out
// ("purchase order lines" is three); longer names are matched by ranking.
const maxNameWords = 4

// tableNames maps the stemmed words of a table's name ("purchase order",
// "employee benefit" for emp_bnft, "employee directory" for the view
// v_employee_directory) to the tables of that name, in catalog order. A
// question that spells a key out names the table.
func tableNames(cat *schema.Catalog, g gloss.Glosser) map[string][]string {
	out := map[string][]string{}
	for _, t := range cat.Tables {
		q := t.QualifiedName()
		keys := map[string]bool{}
		for _, text := range []string{strings.Join(gloss.Fields(t.Name), " "), strings.Join(g(t.Name), " "), glossText(g, t.Name)} {
			terms := gloss.Terms(text)
			// A view's prefix is not a word of its name.
			if len(terms) > 1 && (terms[0] == "v" || terms[0] == "vw" || terms[0] == "view") {
				terms = terms[1:]
			}
			if len(terms) == 0 || len(terms) > maxNameWords {
				continue
			}
			keys[strings.Join(terms, " ")] = true
		}
		for k := range keys {
			out[k] = append(out[k], q)
		}
	}
	return out
}

// namedTable is a table the question names.
type namedTable struct {
	table  string
	reason string // "name", or "thesaurus" when named through a related word
	words  int    // words of the name the question spelled
}

// words are the content words of a question: raw (for the thesaurus) and
// stemmed (for the index), aligned.
type words struct{ raw, terms []string }

// questionWords are the content words of the question and its evidence,
// in this order, as their analyses read them.
func questionWords(as ...*gloss.Analysis) words {
	var w words
	for _, a := range as {
		if a == nil {
			continue
		}
		for _, x := range a.Words {
			if !x.Stop {
				w.raw = append(w.raw, x.Text)
				w.terms = append(w.terms, x.Stem)
			}
		}
	}
	return w
}

// related returns the stemmed phrases the thesaurus relates to a raw
// phrase, with their weights; strongOnly keeps the curated and user links.
func (ix *Retriever) related(phrase string, strongOnly bool) []string {
	var out []string
	for _, t := range ix.cfg.thesaurus.Related(phrase) {
		if strongOnly && t.Weight < 1 {
			continue
		}
		if ts := gloss.Terms(t.Text); len(ts) > 0 {
			out = append(out, strings.Join(ts, " "))
		}
	}
	return out
}

// expansion returns the schema words the thesaurus relates to the question
// words the schema does not use ("tenure" -> hire date), for the lexical
// searches: a word the schema uses already finds its tables.
func (ix *Retriever) expansion(q words) []string {
	var out []string
	seen := map[string]bool{}
	for i, w := range q.terms {
		if ix.df[w] > 0 {
			continue
		}
		for _, r := range ix.related(q.raw[i], false) {
			if ix.knows(r) && !seen[r] {
				seen[r] = true
				out = append(out, r)
			}
		}
	}
	return out
}

// named finds the tables a question names: the longest spans of its terms
// that spell a table's name, then, for the words left over, the names their
// curated thesaurus entries spell ("staff" -> employee). Each span names
// once: in "purchase order lines" the lines table is named, not
// purchase_orders.
//
// free reports, per term, whether no name consumed it: the words left to
// say what else the question needs.
func (ix *Retriever) named(q words) (out []namedTable, free []bool) {
	terms := q.terms
	used := make([]bool, len(terms))
	seen := map[string]bool{}
	emit := func(tables []string, reason string, words int) {
		for _, t := range tables {
			if !seen[t] {
				seen[t] = true
				out = append(out, namedTable{table: t, reason: reason, words: words})
			}
		}
	}
	unused := func(i, n int) bool {
		for j := i; j < i+n; j++ {
			if used[j] {
				return false
			}
		}
		return true
	}
	for n := min(maxNameWords, len(terms)); n >= 1; n-- {
		for i := 0; i+n <= len(terms); i++ {
			if !unused(i, n) {
				continue
			}
			if tables := ix.names[strings.Join(terms[i:i+n], " ")]; len(tables) > 0 {
				emit(tables, "name", n)
				for j := i; j < i+n; j++ {
					used[j] = true
				}
			}
		}
	}
	for n := min(2, len(terms)); n >= 1; n-- {
		for i := 0; i+n <= len(terms); i++ {
			if !unused(i, n) {
				continue
			}
			// A word of a table's name means what the schema means by it
			// ("sales" in "sales region" is not a sales order).
			if n == 1 && ix.nameWords[terms[i]] {
				continue
			}
			for _, r := range ix.related(strings.Join(q.raw[i:i+n], " "), true) {
				if tables := ix.names[r]; len(tables) > 0 {
					emit(tables, "thesaurus", n)
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].words > out[j].words })
	free = make([]bool, len(terms))
	for i := range used {
		free[i] = !used[i]
	}
	return out, free
}

// tableTerms returns, per table, the sorted terms of what the table itself
// says: its name, comment, columns (names, comments, values) and glossary
// terms, but not its neighbours' names. A question term a table's terms
// hold is one the table can answer.
func (ix *Retriever) tableTerms(cat *schema.Catalog) map[string][]string {
	out := make(map[string][]string, len(cat.Tables))
	for _, t := range cat.Tables {
		q := t.QualifiedName()
		set := map[string]bool{}
		addText := func(s string) {
			for _, w := range gloss.Terms(s) {
				set[w] = true
			}
		}
		addText(ix.glossed(t.Name))
		addText(t.Comment)
		for i := range t.Columns {
			c := &t.Columns[i]
			addText(ix.glossed(c.Name))
			addText(c.Comment)
			for _, v := range ix.columnValues(t, c) {
				addText(v)
			}
			for _, term := range ix.glossaryFor[q+"."+c.Name] {
				addText(term)
			}
		}
		for _, term := range ix.glossaryFor[q] {
			addText(term)
		}
		terms := make([]string, 0, len(set))
		for w := range set {
			terms = append(terms, w)
		}
		sort.Strings(terms)
		out[q] = terms
	}
	return out
}

// has reports whether a table's sorted terms hold term.
func has(terms []string, term string) bool {
	i := sort.SearchStrings(terms, term)
	return i < len(terms) && terms[i] == term
}

// addNamed gives the tables the question names a bonus, and returns ranked
// with those no ranking found appended. A table the question names is what
// it is about, whatever the rankings say ("How many staff did we hire" ->
// employees). It runs after FK expansion: naming a table is no evidence
// for its neighbours.
func (ix *Retriever) addNamed(cands candidates, ranked []string, named []namedTable, scopes []string) []string {
	for _, n := range named {
		if !ix.inScope(n.table, scopes) {
			continue
		}
		if cands[n.table] == nil {
			ranked = append(ranked, n.table)
		}
		cands.add(n.table, n.reason, 2.0/float64(rrfK+1))
	}
	return ranked
}

// unnamedWords returns the question's words no table name took, with their
// one-word synonyms: what else the question asks for, which arrange looks
// for in the tables around the named ones.
func (ix *Retriever) unnamedWords(q words, free []bool) map[string]bool {
	out := map[string]bool{}
	for i, w := range q.raw {
		if analysisWord(q.terms[i]) || !free[i] {
			continue
		}
		out[q.terms[i]] = true
		for _, r := range ix.related(w, true) {
			// One-word synonyms only: "member" of "team member" (for
			// employee) names project_members by accident.
			if !strings.Contains(r, " ") {
				out[r] = true
			}
		}
	}
	return out
}
