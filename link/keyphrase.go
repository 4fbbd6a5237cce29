package link

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PhraseKind says how a keyphrase was found.
type PhraseKind string

// Keyphrase kinds.
const (
	PhraseQuoted      PhraseKind = "quoted"      // 'Acme', "Net 30", `tot_amt`
	PhraseNumber      PhraseKind = "number"      // 42, 3.5, $1,200, 15%
	PhraseDate        PhraseKind = "date"        // 2024-01-31, March 2024, Q3 2023
	PhraseYear        PhraseKind = "year"        // 2023
	PhraseCapitalized PhraseKind = "capitalized" // Acme Corp, Negotiation (not sentence-initial)
	PhraseNGram       PhraseKind = "ngram"       // 1 to 3 consecutive content words
)

// Keyphrase is a span of the question worth matching against the schema.
type Keyphrase struct {
	Text  string     `json:"text"`            // as written, quotes removed
	Kind  PhraseKind `json:"kind"`            //
	Words []string   `json:"words,omitempty"` // lower-case singular content words
	Start int        `json:"start"`           // byte offset in the question
}

// token is a word or number of the question.
type token struct {
	text       string // surface
	lower      string
	stem       string
	start, end int
	number     bool
	stop       bool
	quoted     bool // inside a quoted span
	dated      bool // inside a date span
	sentStart  bool // first token of a sentence
	identifier bool // contains '_' or '.' between letters, e.g. tot_amt
}

var (
	quotedRe = regexp.MustCompile("(?:^|[\\s(\\[,:=])(?:'([^']+)'|\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’|`([^`]+)`)")
	// numDateRe is tried only where a number or a quarter ("Q3") starts.
	numDateRe   = regexp.MustCompile(`^(?:\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4}|[qQ][1-4]\s*\d{4})\b`)
	monthDateRe = regexp.MustCompile(`(?i)\b(?:\d{1,2}(?:st|nd|rd|th)?\s+)?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?(?:\s+\d{1,2}(?:st|nd|rd|th)?,?)?\s+\d{4}\b`)
	months      = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
)

// Keyphrases extracts the spans of a question that may name tables,
// columns or values: quoted strings, numbers, dates and years, capitalised
// phrases, and word n-grams (up to three words, stopwords excluded). The
// result is ordered by position, then kind.
func Keyphrases(question string) []Keyphrase {
	return analyze(question).phrases
}

type analysis struct {
	tokens  []token
	phrases []Keyphrase
}

func analyze(q string) *analysis {
	a := &analysis{}
	type span struct{ start, end int }
	var quoted, dated []span
	inSpans := func(spans []span, s, e int) bool {
		for _, sp := range spans {
			if s < sp.end && e > sp.start {
				return true
			}
		}
		return false
	}
	add := func(text string, kind PhraseKind, start int, words []string) {
		a.phrases = append(a.phrases, Keyphrase{Text: text, Kind: kind, Words: words, Start: start})
	}
	// The regular expressions are slow next to the rest; run each only when
	// the question has what it needs.
	hasDigit := strings.ContainsAny(q, "0123456789")
	var quotes [][]int
	if strings.ContainsAny(q, "'\"“‘`") {
		quotes = quotedRe.FindAllStringSubmatchIndex(q, -1)
	}
	var dates, years, numbers [][]int
	if hasDigit {
		years, numbers = scanNumbers(q)
		for i := 0; i < len(q); i++ {
			c := q[i]
			start := i == 0 || !isWordRune(rune(q[i-1]))
			if start && (c >= '0' && c <= '9' || (c == 'q' || c == 'Q') && i+1 < len(q) && q[i+1] >= '1' && q[i+1] <= '4') {
				if m := numDateRe.FindStringIndex(q[i:]); m != nil {
					dates = append(dates, []int{i, i + m[1]})
					i += m[1] - 1
				}
			}
		}
		lower := strings.ToLower(q)
		for _, m := range months {
			if strings.Contains(lower, m) {
				dates = append(dates, monthDateRe.FindAllStringIndex(q, -1)...)
				break
			}
		}
		sort.Slice(dates, func(i, j int) bool { return dates[i][0] < dates[j][0] })
	}
	for _, m := range quotes {
		for g := 2; g < len(m); g += 2 {
			if m[g] >= 0 {
				quoted = append(quoted, span{m[g] - 1, m[g+1] + 1})
				text := q[m[g]:m[g+1]]
				if strings.TrimSpace(text) != "" {
					add(text, PhraseQuoted, m[g], contentStems(text))
				}
			}
		}
	}
	for _, m := range dates {
		if !inSpans(quoted, m[0], m[1]) && !inSpans(dated, m[0], m[1]) {
			dated = append(dated, span{m[0], m[1]})
			add(q[m[0]:m[1]], PhraseDate, m[0], nil)
		}
	}
	for _, m := range years {
		if !inSpans(quoted, m[0], m[1]) && !inSpans(dated, m[0], m[1]) {
			dated = append(dated, span{m[0], m[1]})
			add(q[m[0]:m[1]], PhraseYear, m[0], nil)
		}
	}
	for _, m := range numbers {
		s, e := m[0], m[1]
		for e > s && q[e-1] == ',' {
			e--
		}
		// Digits glued to letters ("Q3", "addr2") are not numbers.
		if s > 0 {
			if r, _ := utf8.DecodeLastRuneInString(q[:s]); unicode.IsLetter(r) || r == '_' {
				continue
			}
		}
		if e < len(q) {
			if r, _ := utf8.DecodeRuneInString(q[e:]); unicode.IsLetter(r) || r == '_' {
				continue
			}
		}
		if !inSpans(quoted, s, e) && !inSpans(dated, s, e) {
			add(q[s:e], PhraseNumber, s, nil)
		}
	}

	a.tokens = tokenize(q)
	for i := range a.tokens {
		tk := &a.tokens[i]
		tk.quoted = inSpans(quoted, tk.start, tk.end)
		// Words of a date ("March" in "March 2024") are part of the date.
		tk.dated = inSpans(dated, tk.start, tk.end)
	}
	toks := a.tokens

	// Capitalised phrases: runs of capitalised words, joined by "of", "and" or
	// "&"; a single capitalised word that starts a sentence does not count.
	for i := 0; i < len(toks); {
		if !capitalized(toks[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(toks) {
			if capitalized(toks[j]) && toks[j].start-toks[j-1].end <= 2 {
				j++
				continue
			}
			if j+1 < len(toks) && (toks[j].lower == "of" || toks[j].lower == "and" || toks[j].lower == "&") && capitalized(toks[j+1]) {
				j += 2
				continue
			}
			break
		}
		if j-i > 1 || !toks[i].sentStart {
			text := q[toks[i].start:toks[j-1].end]
			add(text, PhraseCapitalized, toks[i].start, contentStems(text))
		}
		i = j
	}

	// N-grams over runs of content words.
	for i := 0; i < len(toks); {
		if !content(toks[i]) {
			i++
			continue
		}
		j := i
		for j < len(toks) && content(toks[j]) && (j == i || adjacent(q, toks[j-1], toks[j])) {
			j++
		}
		for s := i; s < j; s++ {
			for n := 1; n <= 3 && s+n <= j; n++ {
				words := make([]string, n)
				for k := range words {
					words[k] = toks[s+k].stem
				}
				add(q[toks[s].start:toks[s+n-1].end], PhraseNGram, toks[s].start, words)
			}
		}
		i = j
	}

	sort.SliceStable(a.phrases, func(i, j int) bool { return a.phrases[i].Start < a.phrases[j].Start })
	return a
}

// adjacent reports whether two tokens are separated only by spaces or
// hyphens (punctuation such as a comma ends an n-gram).
// scanNumbers finds numbers ([-+]?$?digits with thousands commas, a
// decimal part and %) and, among them, years (19xx, 20xx standing alone).
func scanNumbers(q string) (years, numbers [][]int) {
	isDigit := func(i int) bool { return i >= 0 && i < len(q) && q[i] >= '0' && q[i] <= '9' }
	for i := 0; i < len(q); i++ {
		if !isDigit(i) || isDigit(i-1) {
			continue
		}
		s, e := i, i
		for isDigit(e) || e < len(q) && q[e] == ',' && isDigit(e+1) && isDigit(e-1) {
			e++
		}
		if e+1 < len(q) && q[e] == '.' && isDigit(e+1) {
			e++
			for isDigit(e) {
				e++
			}
		}
		if e < len(q) && q[e] == '%' {
			e++
		}
		if s > 0 && q[s-1] == '$' {
			s--
		}
		if s > 0 && (q[s-1] == '-' || q[s-1] == '+') && (s == 1 || q[s-2] == ' ') {
			s--
		}
		numbers = append(numbers, []int{s, e})
		if e-i == 4 && s == i && (q[i:i+2] == "19" || q[i:i+2] == "20") {
			years = append(years, []int{s, e})
		}
		i = e - 1
	}
	return years, numbers
}

func adjacent(q string, a, b token) bool {
	return strings.Trim(q[a.end:b.start], " \t-/") == ""
}

func capitalized(t token) bool {
	if t.quoted || t.dated || t.number || t.identifier {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t.text)
	if !unicode.IsUpper(r) {
		return false
	}
	// "How", "What": a capitalised stopword only counts inside a phrase.
	return !t.stop || (!t.sentStart && len(t.text) > 1 && strings.ToUpper(t.text) == t.text)
}

func content(t token) bool { return !t.stop && !t.number && !t.quoted && !t.dated }

// tokenize splits q into words and numbers. Underscores and inner dots
// belong to words so identifiers ("tot_amt", "sales.orders") stay whole.
func tokenize(q string) []token {
	var toks []token
	sentStart := true
	i := 0
	for i < len(q) {
		r, size := utf8.DecodeRuneInString(q[i:])
		if !isWordRune(r) {
			if r == '.' || r == '?' || r == '!' || r == ';' || r == '\n' {
				sentStart = true
			}
			i += size
			continue
		}
		start := i
		for i < len(q) {
			r, size := utf8.DecodeRuneInString(q[i:])
			if isWordRune(r) {
				i += size
				continue
			}
			// Keep "sales.orders", "3.5", "1,200" and "o'brien" together.
			if (r == '.' || r == ',' || r == '\'' || r == '’') && i+size < len(q) {
				next, _ := utf8.DecodeRuneInString(q[i+size:])
				prev, _ := utf8.DecodeLastRuneInString(q[start:i])
				digits := unicode.IsDigit(prev) && unicode.IsDigit(next)
				if (r == '.' && isWordRune(next) && (digits || !unicode.IsDigit(prev))) || (r == ',' && digits) ||
					((r == '\'' || r == '’') && unicode.IsLetter(prev) && unicode.IsLetter(next)) {
					i += size
					continue
				}
			}
			break
		}
		text := q[start:i]
		// Possessive: customer's -> customer.
		for _, suf := range []string{"'s", "’s"} {
			if strings.HasSuffix(strings.ToLower(text), suf) {
				text = text[:len(text)-len(suf)]
			}
		}
		r0, _ := utf8.DecodeRuneInString(text)
		lower := strings.ToLower(text)
		t := token{
			text: text, lower: lower, start: start, end: i, // end keeps a possessive 's: spans stay as written
			number:     unicode.IsDigit(r0),
			identifier: strings.ContainsAny(text, "_.") && !unicode.IsDigit(r0),
			sentStart:  sentStart,
		}
		t.stop = stopwords[lower]
		t.stem = stem(lower)
		toks = append(toks, t)
		sentStart = false
	}
	return toks
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// contentStems returns the normalised content words of a free text.
func contentStems(s string) []string {
	var out []string
	for _, t := range tokenize(s) {
		if !t.stop {
			out = append(out, t.stem)
		}
	}
	return out
}
