package gloss

import (
	"cmp"
	_ "embed"
	"slices"
	"strings"
	"sync"
)

// Source tells which list a related term comes from.
type Source uint8

const (
	// Curated is the built-in business list (curated.txt): links between
	// the words people use and the words schemas use. Strong.
	Curated Source = iota + 1
	// WordNet is a synonym from WordNet (wordnet.txt). Weaker: a synonym in
	// general English, not necessarily in the schema's sense.
	WordNet
	// User is a term from a list read by ParseThesaurus. Strong.
	User
)

func (s Source) String() string {
	switch s {
	case Curated:
		return "curated"
	case WordNet:
		return "wordnet"
	case User:
		return "user"
	}
	return "unknown"
}

// Weight is the confidence in a link of source s: 1 for the curated and
// user lists, 0.5 for WordNet synonyms.
func (s Source) Weight() float64 {
	if s == WordNet {
		return 0.5
	}
	return 1
}

// Term is a word or phrase related to the looked-up word.
type Term struct {
	Text   string  // lower case, words separated by single spaces
	Source Source  // the list that links it
	Weight float64 // Source.Weight(): 1 strong, 0.5 WordNet
}

// Thesaurus maps words and phrases to related words and phrases. It is
// immutable: safe for concurrent use.
type Thesaurus struct {
	groups []group
	index  map[string][]int32  // term -> the groups it leads from, ascending
	forms  map[string][]string // irregular form -> its bases
}

// group is one line of a thesaurus file.
type group struct {
	terms  []string
	split  int // > 0: terms[:split] lead to terms[split:]; 0: all to all
	source Source
}

// from returns the terms that lead to others.
func (g *group) from() []string {
	if g.split > 0 {
		return g.terms[:g.split]
	}
	return g.terms
}

// to returns the terms the group leads to.
func (g *group) to() []string {
	return g.terms[g.split:]
}

var (
	//go:embed curated.txt
	curatedText string
	//go:embed wordnet.txt
	wordnetText string
)

var defaultThesaurus = sync.OnceValue(func() *Thesaurus {
	c, err := parse(strings.NewReader(curatedText), Curated)
	if err != nil {
		panic("gloss: curated.txt: " + err.Error()) // caught by TestDefault
	}
	w, err := parse(strings.NewReader(wordnetText), WordNet)
	if err != nil {
		panic("gloss: wordnet.txt: " + err.Error())
	}
	return MergeThesauri(c, w)
})

// DefaultThesaurus returns the built-in thesaurus: the curated business list, then
// the WordNet synonyms. It is parsed on first use, once.
func DefaultThesaurus() *Thesaurus {
	return defaultThesaurus()
}

// MergeThesauri returns a thesaurus holding the links of all of ts; at equal
// weight, the links of an earlier one rank first. Nil entries are skipped.
// MergeThesauri(user, DefaultThesaurus()) puts a user's list before the built-in one.
func MergeThesauri(ts ...*Thesaurus) *Thesaurus {
	out := &Thesaurus{index: map[string][]int32{}, forms: map[string][]string{}}
	for _, t := range ts {
		if t == nil {
			continue
		}
		base := int32(len(out.groups))
		out.groups = append(out.groups, t.groups...)
		for term, ids := range t.index {
			list := out.index[term]
			for _, id := range ids {
				list = append(list, base+id)
			}
			out.index[term] = list
		}
		for form, bases := range t.forms {
			for _, b := range bases {
				if !contains(out.forms[form], b) {
					out.forms[form] = append(out.forms[form], b)
				}
			}
		}
	}
	return out
}

// Len returns the number of words and phrases that have related terms.
func (t *Thesaurus) Len() int {
	if t == nil {
		return 0
	}
	return len(t.index)
}

// Related returns the words and phrases related to word, best first:
// higher Weight first, then in the order of the lists (a curated link
// before a WordNet synonym; the earlier line, the earlier term within a
// line first). word may be in any case, singular or plural ("Staff",
// "clients", "sales orders"), with underscores for spaces ("hire_date");
// the result never holds the word itself or its singular. Nil when nothing
// is known.
func (t *Thesaurus) Related(word string) []Term {
	if t == nil || len(word) > 4*maxTermLen {
		return nil
	}
	w := normalize(word)
	if w == "" || len(w) > maxTermLen {
		return nil
	}
	forms := t.lookupForms(w)
	var out []Term
	for _, f := range forms {
		for _, id := range t.index[f] {
			g := &t.groups[id]
			for _, x := range g.to() {
				if !contains(forms, x) {
					out = append(out, Term{Text: x, Source: g.source, Weight: g.source.Weight()})
				}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	slices.SortStableFunc(out, byWeight)
	seen := make(map[string]bool, len(out))
	return slices.DeleteFunc(out, func(x Term) bool {
		if seen[x.Text] {
			return true
		}
		seen[x.Text] = true
		return false
	})
}

// byWeight orders terms by decreasing weight.
func byWeight(a, b Term) int { return cmp.Compare(b.Weight, a.Weight) }

// nounSuffixes are WordNet's detachment rules for regular noun plurals
// (morphy(7WN)).
var nounSuffixes = [...][2]string{
	{"s", ""}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"}, {"men", "man"}, {"ies", "y"},
}

// lookupForms returns w and the base forms of w (of its last word, for a
// phrase) that the thesaurus knows: irregular forms from its FORM = BASE
// lines, regular plurals by the suffix rules.
func (t *Thesaurus) lookupForms(w string) []string {
	forms := []string{w}
	add := func(f string) {
		if !contains(forms, f) {
			forms = append(forms, f)
		}
	}
	for _, b := range t.forms[w] {
		add(b)
	}
	prefix, last := "", w
	if i := strings.LastIndexByte(w, ' '); i >= 0 {
		prefix, last = w[:i+1], w[i+1:]
		for _, b := range t.forms[last] {
			if _, ok := t.index[prefix+b]; ok {
				add(prefix + b)
			}
		}
	}
	for _, r := range nounSuffixes {
		if len(last) > len(r[0]) && strings.HasSuffix(last, r[0]) {
			cand := prefix + last[:len(last)-len(r[0])] + r[1]
			if _, ok := t.index[cand]; ok {
				add(cand)
			}
		}
	}
	return forms
}
