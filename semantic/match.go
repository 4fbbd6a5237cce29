package semantic

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Values tells a stored value of a column from other text: it returns the
// value as stored ("Enterprise" for "enterprise") and whether text is one.
// column is the parameter's "table.column".
type Values func(column, text string) (string, bool)

// maxSlotWords bounds how many words of a question one slot takes.
const maxSlotWords = 8

// Match reports the bindings under which question is q's question: the
// same words, compared lower-case without the plain punctuation around
// them (words: a sign such as "%", "<" or "+" stays and fails), apart from the
// slots, each of which takes one or more words of its kind (a year: four
// digits; top_n: a whole number 1..MaxTopN, digits or a number word up to
// twenty; date_range: see ParseDateRange; value: a stored value of its
// column, as values recognises it). Every binding is returned, in a
// deterministic order: more than one means the question is ambiguous. A
// question without parameters matches its own words only (one empty
// binding).
func (q *VerifiedQuestion) Match(question string, values Values) []map[string]string {
	params := map[string]*Parameter{}
	for _, p := range q.Parameters {
		params[p.Name] = p
	}
	type item struct {
		word string
		slot *Parameter // nil: a word
	}
	var tmpl []item
	addWords := func(s string) {
		for _, w := range words(s) {
			tmpl = append(tmpl, item{word: w})
		}
	}
	last := 0
	for _, loc := range placeholderRE.FindAllStringSubmatchIndex(q.Question, -1) {
		addWords(q.Question[last:loc[0]])
		p := params[q.Question[loc[2]:loc[3]]]
		if p == nil || loc[4] >= 0 { // undeclared, or {name.from}: CheckShape refuses it
			return nil
		}
		tmpl = append(tmpl, item{slot: p})
		last = loc[1]
	}
	addWords(q.Question[last:])
	have := words(question)
	var out []map[string]string
	seen := map[string]bool{}
	var walk func(ti, hi int, bound map[string]string)
	walk = func(ti, hi int, bound map[string]string) {
		if ti == len(tmpl) {
			if hi == len(have) {
				key := bindingKey(bound)
				if !seen[key] {
					seen[key] = true
					out = append(out, maps.Clone(bound))
				}
			}
			return
		}
		p := tmpl[ti].slot
		if p == nil {
			if hi < len(have) && have[hi] == tmpl[ti].word {
				walk(ti+1, hi+1, bound)
			}
			return
		}
		for n := 1; n <= maxSlotWords && hi+n <= len(have); n++ {
			v, ok := p.recognise(strings.Join(have[hi:hi+n], " "), values)
			if !ok {
				continue
			}
			if prev, dup := bound[p.Name]; dup {
				if prev == v { // the same slot twice in the question
					walk(ti+1, hi+n, bound)
				}
				continue
			}
			bound[p.Name] = v
			walk(ti+1, hi+n, bound)
			delete(bound, p.Name)
		}
	}
	walk(0, 0, map[string]string{})
	return out
}

// recognise reads text (lower-case words) as a value of p, in the text
// form Bind takes.
func (p *Parameter) recognise(text string, values Values) (string, bool) {
	switch p.Kind {
	case ParamYear:
		if _, err := p.parse(text); err == nil && digits(text) {
			return text, true
		}
	case ParamTopN:
		if n, ok := numberWords[text]; ok {
			text = strconv.Itoa(n)
		}
		if _, err := p.parse(text); err == nil && digits(text) {
			return text, true
		}
	case ParamDateRange:
		if from, to, ok := ParseDateRange(text); ok {
			return from.Format(time.DateOnly) + "/" + to.Format(time.DateOnly), true
		}
	case ParamValue:
		if values != nil {
			return values(p.Column, text)
		}
	}
	return "", false
}

// digits reports whether text is ASCII digits only: strconv.Atoi also
// takes a sign ("+5" is 5), which a question's slot must not drop.
func digits(text string) bool {
	return text != "" && strings.Trim(text, "0123456789") == ""
}

var numberWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20}

var months = map[string]time.Month{}

func init() {
	for m := time.January; m <= time.December; m++ {
		name := strings.ToLower(m.String())
		months[name], months[name[:3]] = m, m
	}
}

// ParseDateRange reads a period as [from, to), to exclusive:
// "2024-01-01/2024-04-01" (the file's form, to exclusive), "2024-01-01
// and 2024-03-31" or "... to ..." (both days included), "2024" (the
// year), "q1 2024" (a quarter), "march 2024" or "2024-03" (a month). Text
// is compared lower-case.
func ParseDateRange(text string) (from, to time.Time, ok bool) {
	text = strings.ToLower(strings.TrimSpace(text))
	day := func(s string) (time.Time, bool) {
		t, err := time.Parse(time.DateOnly, s)
		return t, err == nil
	}
	if a, b, cut := strings.Cut(text, "/"); cut {
		f, ok1 := day(a)
		t, ok2 := day(b)
		return f, t, ok1 && ok2 && f.Before(t)
	}
	for _, sep := range []string{" and ", " to ", " through "} {
		if a, b, cut := strings.Cut(text, sep); cut {
			f, ok1 := day(a)
			t, ok2 := day(b)
			return f, t.AddDate(0, 0, 1), ok1 && ok2 && !t.Before(f)
		}
	}
	year := func(s string) (int, bool) {
		y, err := strconv.Atoi(s)
		return y, err == nil && len(s) == 4 && y >= 1000
	}
	f := strings.Fields(text)
	switch {
	case len(f) == 1:
		if y, ok := year(f[0]); ok {
			from = time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
			return from, from.AddDate(1, 0, 0), true
		}
		if t, err := time.Parse("2006-01", f[0]); err == nil {
			return t, t.AddDate(0, 1, 0), true
		}
	case len(f) == 2:
		y, isYear := year(f[1])
		if !isYear {
			break
		}
		if len(f[0]) == 2 && f[0][0] == 'q' && f[0][1] >= '1' && f[0][1] <= '4' {
			from = time.Date(y, time.Month(3*int(f[0][1]-'1')+1), 1, 0, 0, 0, 0, time.UTC)
			return from, from.AddDate(0, 3, 0), true
		}
		if m, ok := months[f[0]]; ok {
			from = time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
			return from, from.AddDate(0, 1, 0), true
		}
	}
	return time.Time{}, time.Time{}, false
}

// words splits s into lower-case words without the plain punctuation
// around them: opening quotes and brackets before a word, closing ones
// and the sentence's ".,?!;:" after it. Every other rune stays part of
// the word, so a sign that changes the question ("10%", ">2024",
// "2024+", "≠2024", "-5", ".5") is no number a slot takes and no
// template's word: the question goes to the model. What stays inside a
// word ("2024-01-01", "o'brien") is kept; a word of punctuation alone
// ("-", "&") is a word, and fails a template that does not have it.
func words(s string) []string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.TrimLeft(w, openingPunct)
		w = strings.TrimRight(w, closingPunct)
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// The punctuation words drops: a list, not a class of runes (a sign
// outside it keeps a word from matching, failing closed).
const (
	openingPunct = "\"'([{“‘«"
	closingPunct = "\"')]}”’».,?!;:"
)

func bindingKey(b map[string]string) string {
	var parts []string
	for k, v := range b {
		parts = append(parts, k+"\x00"+v)
	}
	slices.Sort(parts)
	return strings.Join(parts, "\x01")
}
