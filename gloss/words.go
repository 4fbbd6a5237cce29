package gloss

import (
	"strings"
	"unicode"
)

// Split splits an identifier into lower-case words at underscores and other
// punctuation, camelCase and acronym boundaries ("HTTPServer" is "http",
// "server") and letter/digit boundaries ("addr2" is "addr", "2"). Lower-case
// runs that are glued abbreviations ("custno", "orderdate") are segmented
// when every piece is a known ERP word.
func Split(identifier string) []string {
	var out []string
	for _, w := range splitRaw(identifier) {
		out = append(out, segment(w)...)
	}
	return out
}

// splitRaw splits at case, digit and punctuation boundaries only.
func splitRaw(s string) []string {
	var (
		out  []string
		cur  []rune
		prev rune
	)
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	runes := []rune(s)
	for i, r := range runes {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			prev = 0
			continue
		}
		if len(cur) > 0 {
			switch {
			case unicode.IsDigit(r) != unicode.IsDigit(prev):
				flush()
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				flush()
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(runes) && unicode.IsLower(runes[i+1]) && !pluralS(runes, i+1):
				// "HTTPServer": the S starts a new word; "IDs", "URLs":
				// an acronym's plural does not.
				flush()
			}
		}
		cur = append(cur, r)
		prev = r
	}
	flush()
	return out
}

// segment splits a glued lower-case word into known words, preferring the
// fewest pieces; words that are known or cannot be fully segmented are
// returned whole.
func segment(w string) []string {
	if len(w) < 4 || len(w) > 32 || knownWord(w) || !isASCIILetters(w) {
		return []string{w}
	}
	n := len(w)
	// best[i] = fewest pieces segmenting w[:i]; from[i] = start of last piece.
	best := make([]int, n+1)
	from := make([]int, n+1)
	for i := 1; i <= n; i++ {
		best[i] = -1
		for j := 0; j <= i-2; j++ {
			if (j == 0 || best[j] > 0) && knownWord(w[j:i]) {
				if c := best[j] + 1; best[i] < 0 || c < best[i] {
					best[i], from[i] = c, j
				}
			}
		}
	}
	if best[n] < 2 {
		return []string{w}
	}
	var parts []string
	for i := n; i > 0; i = from[i] {
		parts = append(parts, w[from[i]:i])
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	// Two-letter pieces are only trusted next to a longer known word, so
	// "isactive" splits but runs of short abbreviations do not.
	for _, p := range parts {
		if len(p) < 2 {
			return []string{w}
		}
	}
	return parts
}

func isASCIILetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

func knownWord(w string) bool {
	if _, ok := abbreviations[w]; ok {
		return true
	}
	// A plural of a known word is one word ("posts" is no "pos", "ts").
	return vocabulary[w] || vocabulary[Stem(w)]
}

// pluralS reports whether runes[i] is an 's' that ends its word: the
// plural of the acronym before it ("IDs").
func pluralS(runes []rune, i int) bool {
	return runes[i] == 's' && (i+1 == len(runes) || !unicode.IsLetter(runes[i+1]) || unicode.IsUpper(runes[i+1]))
}
