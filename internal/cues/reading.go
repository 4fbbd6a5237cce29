package cues

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// Reading is how the scorer and the signals read a question and its
// evidence: through their analyses only (gloss.Analyze ran once), never
// the text again. Its words are the ASCII letter, digit and underscore
// runs of the analyses' tokens (a token is one word, or several:
// "sales.count" holds "sales" and "count"), lower-cased, in order: the
// words a `\bword\b` pattern matched when the cues were regular
// expressions, so that every cue reads as it did. Words of the question
// come first, then the evidence's, separated as by one space. A Reading
// is made for one goroutine.
type Reading struct {
	analyses []*gloss.Analysis
	words    []word
	lower    string // the text in lower case, for Contains; made once
	lowered  bool
}

// word is an ASCII word of a token.
type word struct {
	lower      string
	ana, token int // which analysis, which of its tokens
	start, end int // byte span in the analysis's text
}

// Read reads the analyses (the question's, then the evidence's); a nil
// analysis reads as an empty text.
func Read(analyses ...*gloss.Analysis) *Reading {
	r := &Reading{analyses: analyses}
	n := 0
	for _, a := range analyses {
		if a != nil {
			n += len(a.Tokens)
		}
	}
	r.words = make([]word, 0, n) // most tokens are one word
	for ai, a := range analyses {
		if a == nil {
			continue
		}
		for ti, t := range a.Tokens {
			for i := t.Start; i < t.End; {
				if !asciiWord(a.Text[i]) {
					i++
					continue
				}
				j := i
				for j < t.End && asciiWord(a.Text[j]) {
					j++
				}
				lower := lowerOf(a.Text[i:j], t, i)
				r.words = append(r.words, word{lower: lower, ana: ai, token: ti, start: i, end: j})
				i = j
			}
		}
	}
	return r
}

// lowerOf returns the ASCII word w, at byte i of the text, in lower case:
// the same bytes of its token's Lower when they are it (no allocation),
// else a new string.
func lowerOf(w string, t gloss.Token, i int) string {
	k := i - t.Start
	if k+len(w) <= len(t.Lower) {
		lo := t.Lower[k : k+len(w)]
		same := true
		for n := 0; n < len(w) && same; n++ {
			c := w[n]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			same = lo[n] == c
		}
		if same {
			return lo
		}
	}
	return strings.ToLower(w)
}

func asciiWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// between returns what separates words i and i+1 as written (the
// analyses joined by one space).
func (r *Reading) between(i int) string {
	w, n := r.words[i], r.words[i+1]
	if w.ana == n.ana {
		return r.analyses[w.ana].Text[w.end:n.start]
	}
	var b strings.Builder
	b.WriteString(r.analyses[w.ana].Text[w.end:])
	for a := w.ana + 1; a < n.ana; a++ {
		if r.analyses[a] != nil {
			b.WriteString(" " + r.analyses[a].Text)
		} else {
			b.WriteString(" ")
		}
	}
	b.WriteString(" " + r.analyses[n.ana].Text[:n.start])
	return b.String()
}

// span returns the text of words i to j, as written.
func (r *Reading) span(i, j int) string {
	if r.words[i].ana == r.words[j].ana {
		return r.analyses[r.words[i].ana].Text[r.words[i].start:r.words[j].end]
	}
	var b strings.Builder
	for k := i; k <= j; k++ {
		b.WriteString(r.analyses[r.words[k].ana].Text[r.words[k].start:r.words[k].end])
		if k < j {
			b.WriteString(r.between(k))
		}
	}
	return b.String()
}

// Cue is a set of words and phrases ("count", "how many") that say
// something about the answer a question asks for. A phrase matches words
// written one space apart, in any case.
type Cue struct {
	phrases [][]string
	texts   []string // the phrases, words one space apart
}

// NewCue makes a cue of the phrases, tried in order at each word.
func NewCue(phrases ...string) Cue {
	c := Cue{}
	for _, p := range phrases {
		words := strings.Fields(strings.ToLower(p))
		c.phrases = append(c.phrases, words)
		c.texts = append(c.texts, strings.Join(words, " "))
	}
	return c
}

// Match is a cue found in a Reading.
type Match struct {
	Text        string // the phrase in lower case, words one space apart
	first, last int    // words
}

// at returns the first phrase of c that starts at word i.
func (r *Reading) at(c Cue, i int) (Match, bool) {
	for k, p := range c.phrases {
		if i+len(p) > len(r.words) {
			continue
		}
		ok := true
		for n, w := range p {
			if r.words[i+n].lower != w || n > 0 && r.between(i+n-1) != " " {
				ok = false
				break
			}
		}
		if ok {
			return Match{Text: c.texts[k], first: i, last: i + len(p) - 1}, true
		}
	}
	return Match{}, false
}

// Find returns the first place the cue is found.
func (r *Reading) Find(c Cue) (Match, bool) {
	for i := range r.words {
		if m, ok := r.at(c, i); ok {
			return m, true
		}
	}
	return Match{}, false
}

// Has reports whether the cue is found.
func (r *Reading) Has(c Cue) bool {
	_, ok := r.Find(c)
	return ok
}

// FindAll returns the places the cue is found, none overlapping another.
func (r *Reading) FindAll(c Cue) []Match {
	var out []Match
	for i := 0; i < len(r.words); i++ {
		if m, ok := r.at(c, i); ok {
			out = append(out, m)
			i = m.last
		}
	}
	return out
}

// Without returns the reading without the places the cue is found: "at
// least 3" asks for no extreme, so a superlative is read without it.
func (r *Reading) Without(c Cue) *Reading {
	out := &Reading{analyses: r.analyses}
	for i := 0; i < len(r.words); i++ {
		if m, ok := r.at(c, i); ok {
			i = m.last
			continue
		}
		out.words = append(out.words, r.words[i])
	}
	return out
}

// Unquoted returns the reading without the words of quoted values: the
// item named 'Most Wanted' asks for no extreme.
func (r *Reading) Unquoted() *Reading {
	out := &Reading{analyses: r.analyses}
	for _, w := range r.words {
		if !r.analyses[w.ana].Tokens[w.token].Quoted {
			out.words = append(out.words, w)
		}
	}
	return out
}

// Any reports whether some word satisfies ok.
func (r *Reading) Any(ok func(word string) bool) bool {
	for _, w := range r.words {
		if ok(w.lower) {
			return true
		}
	}
	return false
}

// Pair returns the first two consecutive words, separated by white space
// only, that ok accepts: "top 5", "3 oldest".
func (r *Reading) Pair(ok func(a, b string) bool) (a, b string, found bool) {
	return r.PairBefore(func(a, b, _ string) bool { return ok(a, b) })
}

// PairBefore is Pair with the word after the pair ("" at the end): "last
// 10 years" is a period, "last 10 orders" the last rows.
func (r *Reading) PairBefore(ok func(a, b, next string) bool) (a, b string, found bool) {
	for i := 0; i+1 < len(r.words); i++ {
		next := ""
		if i+2 < len(r.words) {
			next = r.words[i+2].lower
		}
		if ok(r.words[i].lower, r.words[i+1].lower, next) && strings.Trim(r.between(i), " \t\n\f\r") == "" {
			return r.words[i].lower, r.words[i+1].lower, true
		}
	}
	return "", "", false
}

// Lead returns the first n words, in lower case (fewer when the text
// has fewer).
func (r *Reading) Lead(n int) []string {
	out := make([]string, 0, n)
	for i := 0; i < n && i < len(r.words); i++ {
		out = append(out, r.words[i].lower)
	}
	return out
}

// Near reports whether a word that first accepts is followed, at most
// within characters and with no '.', '?' or '!' between, by a word that
// second accepts: "last quarter", "the past 3 months".
func (r *Reading) Near(first, second func(word string) bool, within int) bool {
	for i := range r.words {
		if !first(r.words[i].lower) {
			continue
		}
		for j := i + 1; j < len(r.words); j++ {
			gap := r.span(i, j)
			gap = gap[len(r.words[i].lower) : len(gap)-len(r.words[j].lower)]
			if utf8.RuneCountInString(gap) > within || strings.ContainsAny(gap, ".?!") {
				break
			}
			if second(r.words[j].lower) {
				return true
			}
		}
	}
	return false
}

// A Number is a number the text writes: in digits ("3.5", "30,000"),
// as a word ("two"), either scaled by a word ("2 million", "a hundred
// thousand"), or as a percentage ("70%", "70 percent").
type Number struct {
	Text    string  // as written
	Value   float64 // its value (70 for "70%")
	Digits  bool    // written with digits, not only words
	Percent bool    // a percentage: a query may compare with Value/100
}

// numberWords are the numbers written as one word.
var numberWords = map[string]int64{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}

// scaleWords multiply the number before them.
var scaleWords = map[string]float64{"hundred": 100, "thousand": 1e3, "million": 1e6, "billion": 1e9}

// NumberWord returns the number a word writes ("three": 3); ok false
// for any other word.
func NumberWord(w string) (n int64, ok bool) {
	n, ok = numberWords[w]
	return n, ok
}

// Numbers returns the numbers written, in order: "3.5"; "1,200" is 1200
// (a group of three digits after a comma), "1, 200" two numbers; "2nd"
// and "Q3" are none.
func (r *Reading) Numbers() []Number {
	var out []Number
	for i := 0; i < len(r.words); i++ {
		w := r.words[i].lower
		start := i
		var n Number
		switch v, word := numberWords[w]; {
		case Digits(w):
			text := w
			for i+1 < len(r.words) && Digits(r.words[i+1].lower) && len(r.words[i+1].lower) == 3 && r.between(i) == "," {
				text += r.words[i+1].lower
				i++
			}
			if i+1 < len(r.words) && Digits(r.words[i+1].lower) && r.between(i) == "." {
				text += "." + r.words[i+1].lower
				i++
			}
			n.Value, _ = strconv.ParseFloat(text, 64)
			n.Digits = true
		case word:
			n.Value = float64(v)
		case (w == "a" || w == "an") && i+1 < len(r.words) && scaleWords[r.words[i+1].lower] > 0:
			n.Value = 1
		default:
			continue
		}
		for i+1 < len(r.words) && scaleWords[r.words[i+1].lower] > 0 && strings.TrimSpace(r.between(i)) == "" {
			n.Value *= scaleWords[r.words[i+1].lower]
			i++
		}
		n.Text = r.span(start, i)
		n.Percent = percentNext(r.analyses[r.words[i].ana].Text[r.words[i].end:])
		out = append(out, n)
	}
	return out
}

// percentNext reports whether the text after a number makes it a
// percentage: "%" or the word "percent".
func percentNext(rest string) bool {
	if strings.HasPrefix(rest, "%") {
		return true
	}
	rest = strings.TrimLeft(rest, " ")
	return strings.HasPrefix(strings.ToLower(rest), "percent") && (len(rest) == len("percent") || !asciiWord(rest[len("percent")]))
}

// Digits reports whether s is ASCII digits only (and not empty).
func Digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Names returns the names written with capitals in the first analysis
// (the question): runs of words each a capital then letters and digits,
// one space or hyphen apart ("Aberdeen", "New York", "APG"). A name that
// starts a sentence loses its first word, which is capitalised anyway
// ("Convert to minutes." in a question of several sentences).
func (r *Reading) Names() []string {
	var out []string
	for i := 0; i < len(r.words) && r.words[i].ana == 0; i++ {
		if !r.capitalised(i) {
			continue
		}
		j := i
		for j+1 < len(r.words) && r.words[j+1].ana == 0 && (r.between(j) == " " || r.between(j) == "-") &&
			r.capitalised(j+1) {
			j++
		}
		name := r.span(i, j)
		before := strings.TrimSpace(r.analyses[0].Text[:r.words[i].start])
		starts := before == "" || strings.ContainsAny(before[len(before)-1:], ".?!:;")
		i = j
		if starts {
			k := strings.IndexByte(name, ' ')
			if k < 0 {
				continue
			}
			name = name[k+1:]
		}
		out = append(out, name)
	}
	return out
}

// capitalised reports whether word i is written as a capital then ASCII
// letters and digits.
func (r *Reading) capitalised(i int) bool {
	w := r.words[i]
	c := r.analyses[w.ana].Text[w.start]
	return c >= 'A' && c <= 'Z' && !strings.Contains(w.lower, "_")
}

// WordAround returns the word (gloss.Word) of the analyses just before
// the match and the one just after it, as gloss.Fields splits them; ok
// false for none.
func (r *Reading) WordAround(m Match) (before, after gloss.Word, hasBefore, hasAfter bool) {
	first, last := r.words[m.first], r.words[m.last]
	for ai, a := range r.analyses {
		if a == nil {
			continue
		}
		for _, w := range a.Words {
			switch {
			case ai < first.ana || ai == first.ana && w.Token < first.token:
				before, hasBefore = w, true
			case !hasAfter && (ai > last.ana || ai == last.ana && w.Token > last.token):
				after, hasAfter = w, true
			}
		}
	}
	return before, after, hasBefore, hasAfter
}

// After returns up to n words that follow m, each one space or a hyphen
// from the one before, in lower case: "average patient height in cm"
// after "average" is patient, height, in, cm. A comma, a full stop or any
// other mark ends them.
func (r *Reading) After(m Match, n int) []string {
	var out []string
	for i := m.last; i+1 < len(r.words) && len(out) < n; i++ {
		if r.words[i].ana != r.words[i+1].ana || strings.Trim(r.between(i), " -") != "" {
			break
		}
		out = append(out, r.words[i+1].lower)
	}
	return out
}

// InName reports whether m begins with a capital inside a sentence: a
// word of a name ("When was Top Gun released?"), not of the question.
func (r *Reading) InName(m Match) bool {
	if !r.capitalised(m.first) {
		return false
	}
	w := r.words[m.first]
	before := strings.TrimSpace(r.analyses[w.ana].Text[:w.start])
	return before != "" && !strings.ContainsAny(before[len(before)-1:], ".?!:;")
}

// Before returns the word just before m when only white space or a
// hyphen separates them, in lower case; "" otherwise.
func (r *Reading) Before(m Match) string {
	i := m.first - 1
	if i < 0 || r.words[i].ana != r.words[m.first].ana || strings.Trim(r.between(i), " -") != "" {
		return ""
	}
	return r.words[i].lower
}

// Parenthesised returns what the text writes in parentheses right after
// phrase ("ORD" for "Chicago" in "flights to Chicago (ORD)"), "" when it
// writes none there.
func (r *Reading) Parenthesised(phrase string) string {
	text := r.text()
	lower, p := strings.ToLower(text), strings.ToLower(phrase)
	if p == "" {
		return ""
	}
	for from := 0; ; {
		i := strings.Index(lower[from:], p)
		if i < 0 {
			return ""
		}
		at := from + i + len(p)
		rest := strings.TrimLeft(text[at:], " ")
		if strings.HasPrefix(rest, "(") {
			if j := strings.IndexByte(rest, ')'); j > 1 {
				return strings.TrimSpace(rest[1:j])
			}
		}
		from = at
	}
}

// Contains reports whether the text of the analyses (joined by a space)
// holds phrase between word boundaries, in any case: a stored value the
// question writes out, punctuation and all.
func (r *Reading) Contains(phrase string) bool {
	if !r.lowered {
		r.lower, r.lowered = strings.ToLower(r.text()), true
	}
	return containsWord(r.lower, strings.ToLower(phrase))
}

func (r *Reading) text() string {
	parts := make([]string, len(r.analyses))
	for i, a := range r.analyses {
		if a != nil {
			parts[i] = a.Text
		}
	}
	return strings.Join(parts, " ")
}

// containsWord reports whether text holds phrase between word boundaries.
func containsWord(text, phrase string) bool {
	for i := 0; phrase != "" && i+len(phrase) <= len(text); {
		k := strings.Index(text[i:], phrase)
		if k < 0 {
			return false
		}
		at, end := i+k, i+k+len(phrase)
		before, _ := utf8.DecodeLastRuneInString(text[:at])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if (at == 0 || !isWordRune(before)) && (end == len(text) || !isWordRune(after)) {
			return true
		}
		i = at + 1
	}
	return false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Quoted returns the values the text quotes ('Acme', "Net 30"; at most
// 80 characters between the quotes), spaces trimmed, in order. It is the
// one cue read in the analysed text rather than in its tokens and
// phrases: gloss.Analyze's quoted phrases (PhraseQuoted) also take curly
// quotes and backquotes, and open a quote only after a space or a
// bracket, so reading them would change the signals of questions such as
// "whose last name is ‘Smith’" (spider-pools) and a defog question with
// an unbalanced quote. Keeping the signals identical (issue 28, item 3)
// keeps this reading until the calibrator is refitted.
func (r *Reading) Quoted() []string {
	var out []string
	for _, m := range quotedRe.FindAllStringSubmatch(r.text(), -1) {
		out = append(out, strings.TrimSpace(m[1]+m[2]))
	}
	return out
}

var quotedRe = regexp.MustCompile(`"([^"]{1,80})"|(?:^|[^\pL\pN])'([^']{1,80})'(?:$|[^\pL\pN])`)
