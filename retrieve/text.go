package retrieve

import (
	"strings"
	"unicode"
)

// Words splits text into lower-case words: on anything that is not a letter
// or digit, on snake_case and on camelCase boundaries ("custNbr" -> cust,
// nbr; "HTTPServer" -> http, server).
func Words(text string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(text)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if len(cur) > 0 {
				prev := rs[i-1]
				lowerToUpper := unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev))
				acronymEnd := unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
				letterDigit := unicode.IsDigit(r) != unicode.IsDigit(prev)
				if lowerToUpper || acronymEnd || letterDigit {
					flush()
				}
			}
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// stopwords are question words that carry no schema meaning.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of in on at to for from by with and or not no is are was were be been being
		what which who whom whose how many much list show give me find get return tell all each every per
		do does did have has had that this these those there their its it i we you they our your
		as than then into over under between during before after above below up down out off
		can could should would will shall may might must please also only just some any
		top most least more less`) {
		m[w] = true
	}
	return m
}()

// Stem reduces an English word to a crude stem so that plural and singular
// forms meet ("categories" -> "category", "orders" -> "order").
func Stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "xes")):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:n-1]
	}
	return w
}

// Terms returns the stemmed, stopword-free terms of text: the vocabulary of
// both the lexical index and the built-in embedder.
func Terms(text string) []string {
	ws := Words(text)
	out := ws[:0]
	for _, w := range ws {
		if stopwords[w] {
			continue
		}
		out = append(out, Stem(w))
	}
	return out
}
