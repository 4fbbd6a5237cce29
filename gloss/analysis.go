package gloss

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Analysis is a question (or any free text) read once: its tokens, the
// words of each, their stems, and the phrases worth matching against a
// schema. Analyze makes it; every stage of the pipeline reads the question
// through it instead of splitting and stemming the text again. An Analysis
// is not modified after Analyze returns it and is safe for concurrent use.
type Analysis struct {
	// Text is the text as analysed; spans are byte offsets into it.
	Text string
	// Tokens are the words and numbers of Text, in order. An identifier
	// ("tot_amt", "sales.orders"), a number ("3.5", "1,200") and a name
	// with an apostrophe ("o'brien") are one token each.
	Tokens []Token
	// Words are the tokens split into lower-case words as Fields splits a
	// text ("tot_amt" is "tot", "amt"; "custNbr" is "cust", "nbr"), in
	// order: the words of Fields(Text), each with its stem and token.
	Words []Word
	// Phrases are the spans worth matching (quoted values, numbers, dates,
	// years, capitalised names, word n-grams), ordered by position, then
	// kind.
	Phrases []Phrase
}

// Token is a word or number of an analysed text.
type Token struct {
	Text       string // as written, a possessive 's dropped
	Lower      string // Text in lower case
	Stem       string // Stem(Lower)
	Start, End int    // byte span in the text (End keeps a possessive 's)
	Number     bool   // starts with a digit
	Stop       bool   // Stopword(Lower)
	Quoted     bool   // inside a quoted span
	Dated      bool   // inside a date or year
	SentStart  bool   // first token of a sentence
	Identifier bool   // holds '_' or '.' and starts with a letter: tot_amt
}

// Word is one word of a token (see Analysis.Words).
type Word struct {
	Text  string // lower case
	Stem  string // Stem(Text)
	Stop  bool   // Stopword(Text)
	Token int    // index of its token in Analysis.Tokens
}

// PhraseKind says how a phrase was found.
type PhraseKind string

// Phrase kinds.
const (
	PhraseQuoted      PhraseKind = "quoted"      // 'Acme', "Net 30", `tot_amt`
	PhraseNumber      PhraseKind = "number"      // 42, 3.5, $1,200, 15%
	PhraseDate        PhraseKind = "date"        // 2024-01-31, March 2024, Q3 2023
	PhraseYear        PhraseKind = "year"        // 2023
	PhraseCapitalized PhraseKind = "capitalized" // Acme Corp, Negotiation (not sentence-initial)
	PhraseNGram       PhraseKind = "ngram"       // 1 to 3 consecutive content words
)

// Phrase is a span of a text worth matching against a schema.
type Phrase struct {
	Text  string     `json:"text"`            // as written, quotes removed
	Kind  PhraseKind `json:"kind"`            //
	Words []string   `json:"words,omitempty"` // lower-case singular content words
	Start int        `json:"start"`           // byte offset in the text
}

// Terms returns the stems of the words that are no stopword, in order:
// Terms(a.Text), without reading the text again. Nil for a nil Analysis.
func (a *Analysis) Terms() []string {
	if a == nil {
		return nil
	}
	out := make([]string, 0, len(a.Words))
	for _, w := range a.Words {
		if !w.Stop {
			out = append(out, w.Stem)
		}
	}
	return out
}

// Capitalized reports whether the token reads as part of a name: it starts
// with a capital and is no number, quoted text, date or identifier; a
// capitalised stopword ("How", "What") counts only as an acronym inside a
// sentence.
func (t *Token) Capitalized() bool {
	if t.Quoted || t.Dated || t.Number || t.Identifier {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t.Text)
	if !unicode.IsUpper(r) {
		return false
	}
	return !t.Stop || (!t.SentStart && len(t.Text) > 1 && strings.ToUpper(t.Text) == t.Text)
}

// Content reports whether the token is a content word: no stopword,
// number, quoted text or date.
func (t *Token) Content() bool { return !t.Stop && !t.Number && !t.Quoted && !t.Dated }

// Adjacent reports whether tokens i-1 and i are separated only by spaces,
// hyphens or slashes (punctuation such as a comma ends a phrase).
func (a *Analysis) Adjacent(i int) bool {
	return i > 0 && i < len(a.Tokens) && strings.Trim(a.Text[a.Tokens[i-1].End:a.Tokens[i].Start], " \t-/") == ""
}

// Span returns the text of tokens i to j-1 as written.
func (a *Analysis) Span(i, j int) string { return a.Text[a.Tokens[i].Start:a.Tokens[j-1].End] }

var (
	quotedRe = regexp.MustCompile("(?:^|[\\s(\\[,:=])(?:'([^']+)'|\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’|`([^`]+)`)")
	// numDateRe is tried only where a number or a quarter ("Q3") starts.
	numDateRe   = regexp.MustCompile(`^(?:\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4}|[qQ][1-4]\s*\d{4})\b`)
	monthDateRe = regexp.MustCompile(`(?i)\b(?:\d{1,2}(?:st|nd|rd|th)?\s+)?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?(?:\s+\d{1,2}(?:st|nd|rd|th)?,?)?\s+\d{4}\b`)
	months      = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
)

// Analyze reads text once: its tokens and their words and stems, and the
// phrases that may name tables, columns or values: quoted strings,
// numbers, dates and years, capitalised phrases, and word n-grams (up to
// three words, stopwords excluded).
func Analyze(text string) *Analysis {
	q := text
	a := &Analysis{Text: q}
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
		a.Phrases = append(a.Phrases, Phrase{Text: text, Kind: kind, Words: words, Start: start})
	}
	// The regular expressions are slow next to the rest; run each only when
	// the text has what it needs.
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
					add(text, PhraseQuoted, m[g], ContentStems(text))
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

	a.Tokens = Tokenize(q)
	a.Words = make([]Word, 0, len(a.Tokens))
	for i := range a.Tokens {
		tk := &a.Tokens[i]
		tk.Quoted = inSpans(quoted, tk.Start, tk.End)
		// Words of a date ("March" in "March 2024") are part of the date.
		tk.Dated = inSpans(dated, tk.Start, tk.End)
		if surface := q[tk.Start:tk.End]; oneWord(surface) {
			// Most tokens are one word: the token's own reading is it.
			a.Words = append(a.Words, Word{Text: tk.Lower, Stem: tk.Stem, Stop: tk.Stop, Token: i})
			continue
		}
		for _, w := range splitRaw(q[tk.Start:tk.End]) {
			a.Words = append(a.Words, Word{Text: w, Stem: Stem(w), Stop: stopwords[w], Token: i})
		}
	}
	toks := a.Tokens

	// Capitalised phrases: runs of capitalised words, joined by "of", "and" or
	// "&"; a single capitalised word that starts a sentence does not count.
	for i := 0; i < len(toks); {
		if !toks[i].Capitalized() {
			i++
			continue
		}
		j := i + 1
		for j < len(toks) {
			if toks[j].Capitalized() && toks[j].Start-toks[j-1].End <= 2 {
				j++
				continue
			}
			if j+1 < len(toks) && (toks[j].Lower == "of" || toks[j].Lower == "and" || toks[j].Lower == "&") && toks[j+1].Capitalized() {
				j += 2
				continue
			}
			break
		}
		if j-i > 1 || !toks[i].SentStart {
			text := a.Span(i, j)
			add(text, PhraseCapitalized, toks[i].Start, ContentStems(text))
		}
		i = j
	}

	// N-grams over runs of content words.
	for i := 0; i < len(toks); {
		if !toks[i].Content() {
			i++
			continue
		}
		j := i
		for j < len(toks) && toks[j].Content() && (j == i || a.Adjacent(j)) {
			j++
		}
		for s := i; s < j; s++ {
			for n := 1; n <= 3 && s+n <= j; n++ {
				words := make([]string, n)
				for k := range words {
					words[k] = toks[s+k].Stem
				}
				add(a.Span(s, s+n), PhraseNGram, toks[s].Start, words)
			}
		}
		i = j
	}

	sort.SliceStable(a.Phrases, func(i, j int) bool { return a.Phrases[i].Start < a.Phrases[j].Start })
	return a
}

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

// Tokenize splits text into words and numbers, without the phrases of
// Analyze (Quoted and Dated are left false) or the tokens' Words.
// Underscores and inner dots belong to words, so identifiers ("tot_amt",
// "sales.orders") stay whole.
func Tokenize(text string) []Token {
	q := text
	var toks []Token
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
		toks = append(toks, Token{
			Text: text, Lower: lower, Stem: Stem(lower), Start: start, End: i, // End keeps a possessive 's: spans stay as written
			Number:     unicode.IsDigit(r0),
			Identifier: strings.ContainsAny(text, "_.") && !unicode.IsDigit(r0),
			SentStart:  sentStart,
			Stop:       stopwords[lower],
		})
		sentStart = false
	}
	return toks
}

// oneWord reports whether Fields splits s into itself, lower-cased: ASCII
// digits only, or ASCII letters of which only the first may be a capital.
func oneWord(s string) bool {
	if s == "" {
		return false
	}
	digits := s[0] >= '0' && s[0] <= '9'
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case digits:
			if c < '0' || c > '9' {
				return false
			}
		case c >= 'a' && c <= 'z':
		case i == 0 && c >= 'A' && c <= 'Z':
		default:
			return false
		}
	}
	return true
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// ContentStems returns the stems of the tokens of text that are no
// stopword, in order: how a comment, a glossary term or a related term
// is matched with an Analysis's tokens.
func ContentStems(text string) []string {
	var out []string
	for _, t := range Tokenize(text) {
		if !t.Stop {
			out = append(out, t.Stem)
		}
	}
	return out
}
