package link

import (
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// WithThesaurus sets the thesaurus that relates the words of a question to
// the words of the schema (default gloss.DefaultThesaurus(); nil for none). A
// span of the question whose words the schema's names do not use ("staff",
// "tenure", "clients") is matched through the words the thesaurus relates
// to it (employee, hire date, customer), more weakly than the same match
// of the question's own words: curated and user links at 0.9 of it,
// WordNet synonyms at 0.7 and only when no curated link applies. A word the
// schema's names use is never looked up: it means what the schema means by
// it. Such links have Reason "thesaurus" and Via "thesaurus: tenure -> hire
// date". Merge a list of your own with the default:
// gloss.MergeThesauri(mine, gloss.DefaultThesaurus()).
func WithThesaurus(t *gloss.Thesaurus) Option {
	return optionFunc(func(c *config) { c.thesaurus = t })
}

// maxThesaurusWords bounds the words of a span looked up in the thesaurus
// ("length of service" is three).
const maxThesaurusWords = 4

// thesaurusStrength is what a match through a related term counts next to
// the same match of the question's own words: 0.9 for a curated or user
// link (weight 1), 0.7 for a WordNet synonym (weight 0.5).
func thesaurusStrength(weight float64) float64 { return 0.5 + 0.4*weight }

// aggregateWords say how to compute, not what: "total number of orders"
// asks for a count, not for an amount column, whatever the thesaurus
// relates "total" to. A span of them alone is not looked up.
var aggregateWords = map[string]bool{
	"total": true, "sum": true, "count": true, "number": true, "average": true, "avg": true, "mean": true,
	"median": true, "maximum": true, "max": true, "minimum": true, "min": true, "overall": true,
}

// nameWord reports whether a stem is a word of some table or column name
// (its parts or glosses): a word the schema uses itself.
func (l *Linker) nameWord(w string) bool {
	return len(l.colWords[w]) > 0 || len(l.tableWords[w]) > 0
}

// addThesaurus adds, for the spans of the text that the schema's names do
// not spell, the related terms the schema's names do: "tenure" ->
// "hire date". A span is one to maxThesaurusWords words, starting and
// ending with a content word (stopwords inside: "length of service"), with
// no number, date, quoted text, identifier or capitalised word inside a
// sentence; longer spans first, and the words of a span that found a term
// are not looked up again. Not looked up: a span all of whose content
// words are name words (it means what the schema means by them), a table
// or column name ("username"), a span of aggregate words ("total"), a
// glossary term (the user defined it), and a span that reads as a table
// and its column ("deal owner"). A related term counts when every word of
// it is a name word; curated and user terms first, WordNet synonyms only
// when no curated term counts.
func (st *linkState) addThesaurus(a *gloss.Analysis, weight float64, src int) {
	th := st.l.cfg.thesaurus
	if th == nil {
		return
	}
	toks := a.Tokens
	used := make([]bool, len(toks))
	st.glossarySpans(a, used)
	// Numbers, dates, quoted text, identifiers and capitalised words inside
	// a sentence (values and names: "Enterprise", "Toyota") are not looked
	// up.
	usable := func(t *gloss.Token) bool {
		return !t.Number && !t.Quoted && !t.Dated && !t.Identifier && (t.SentStart || !t.Capitalized())
	}
	var sb strings.Builder
	for n := min(maxThesaurusWords, len(toks)); n >= 1; n-- {
	windows:
		for i := 0; i+n <= len(toks); i++ {
			j := i + n
			if toks[i].Stop || toks[j-1].Stop {
				continue
			}
			known, aggregate := true, true
			for k := i; k < j; k++ {
				t := &toks[k]
				if used[k] || !usable(t) || k > i && !a.Adjacent(k) {
					continue windows
				}
				if !t.Stop && !st.l.nameWord(t.Stem) {
					known = false
				}
				if !t.Stop && !aggregateWords[t.Stem] {
					aggregate = false
				}
			}
			if known || aggregate {
				continue
			}
			sb.Reset()
			for k := i; k < j; k++ {
				if k > i {
					sb.WriteByte(' ')
				}
				sb.WriteString(toks[k].Lower)
			}
			span := sb.String()
			if st.l.names[strings.ReplaceAll(span, " ", "_")] {
				continue // "username" is users.username
			}
			if st.tableAndColumn(toks[i:j]) {
				continue
			}
			found := 0.0 // the weight of the terms found
			for _, term := range th.Related(span) {
				if term.Weight < found {
					break // WordNet only when no curated term counts
				}
				words := gloss.ContentStems(term.Text)
				if len(words) == 0 || !st.allNameWords(words) {
					continue
				}
				found = term.Weight
				via := "thesaurus: " + span + " -> " + term.Text
				if term.Source != gloss.Curated {
					via = "thesaurus (" + term.Source.String() + "): " + span + " -> " + term.Text
				}
				st.phrases = append(st.phrases, phrase{
					text: a.Span(i, j), ident: strings.Join(strings.Fields(term.Text), "_"),
					words: words, weight: weight * thesaurusStrength(term.Weight), kind: PhraseNGram, src: src,
					start: toks[i].Start, end: toks[j-1].End, via: via,
				})
			}
			if found > 0 {
				for k := i; k < j; k++ {
					used[k] = true
				}
			}
		}
	}
}

// tableAndColumn reports whether a span reads as a table and one of its
// columns: its last word is a word of a column's name, and another of its
// words, or a curated term the thesaurus relates to that word, is the head
// word of the column's table's name. "deal owner" is opportunities'
// owner_emp_id (deal -> opportunity), whatever the thesaurus relates to
// "deal owner" as a whole: the direct match of "owner" wins.
func (st *linkState) tableAndColumn(toks []gloss.Token) bool {
	last := toks[len(toks)-1].Stem
	if len(toks) < 2 || weakWords[last] || len(st.l.colWords[last]) == 0 {
		return false
	}
	for _, t := range toks[:len(toks)-1] {
		if t.Stop {
			continue
		}
		heads := []string{t.Stem}
		for _, term := range st.l.cfg.thesaurus.Related(t.Lower) {
			if ws := gloss.ContentStems(term.Text); term.Weight >= 1 && len(ws) > 0 {
				heads = append(heads, ws[len(ws)-1])
			}
		}
		for _, h := range heads {
			for _, ti := range st.l.tableWords[h] {
				tb := &st.l.tables[ti]
				if tb.head != h {
					continue
				}
				for ci := tb.lo; ci < tb.hi; ci++ {
					if slices.Contains(st.l.cols[ci].words, last) {
						return true
					}
				}
			}
		}
	}
	return false
}

func (st *linkState) allNameWords(ws []string) bool {
	for _, w := range ws {
		if !st.l.nameWord(w) {
			return false
		}
	}
	return true
}

// glossarySpans marks the tokens of glossary terms the text holds.
func (st *linkState) glossarySpans(a *gloss.Analysis, used []bool) {
	st.glossaryTerms(a, func(i int, gt *glossTerm) {
		for k := i; k < i+len(gt.words); k++ {
			used[k] = true
		}
	})
}

// thesaurusTable reports whether a related term's match of a table name
// links the table: only when the term names it ("staff" -> employee names
// employees, but "clients" -> customer does not link customer_contacts).
func thesaurusTable(s float64, r Reason) bool {
	return s >= 0.9 && r != ReasonFuzzy && r != ReasonComment
}

// thesaurusColumn reports whether a related term's match of a column links
// the column: a name or gloss match ("tenure" -> hire date is
// employees.hire_date), or a partial one that spells most of the name of a
// column that is not an identifier ("age" -> birth date is date_of_birth;
// "revenue" -> invoice is neither invoice_number nor invoice_date). A key
// or identifier column counts only as a foreign key to a table the term
// names, in a table another phrase links: in "total spend per vendor",
// vendor -> supplier is purchase_orders' supplier_id (spend -> purchase
// order), but "staff" is not every table's emp_id. Comments and
// misspellings do not count.
func (st *linkState) thesaurusColumn(i int, s float64, r Reason, c *colInfo) bool {
	p := &st.phrases[i]
	switch r {
	case ReasonExact, ReasonGloss:
		return true
	case ReasonPartial:
		ident := c.key
		for _, w := range c.words {
			ident = ident || weakWords[w]
		}
		if ident {
			tl, ok := st.tableHit[c.table]
			return ok && tl.Phrase != p.text && c.ref >= 0 && st.named[i][c.ref] > 0
		}
		return s >= 0.75
	}
	return false
}
