package gloss

import (
	"strings"
	"unicode"
)

// Fields splits text into lower-case words at anything that is not a
// letter or digit, and at camelCase, acronym and letter/digit boundaries
// ("custNbr" is "cust", "nbr"; "HTTPServer" is "http", "server"). Unlike
// Split it segments no glued abbreviation: it reads free text, and it is
// how Analyze splits a token into its words.
func Fields(text string) []string { return splitRaw(text) }

// Terms returns the stemmed words of text that are no stopword: the
// vocabulary the retrieval index and the built-in embedder share with the
// question's Analysis (Analysis.Terms).
func Terms(text string) []string {
	ws := splitRaw(text)
	out := ws[:0]
	for _, w := range ws {
		if !stopwords[w] {
			out = append(out, Stem(w))
		}
	}
	return out
}

// Stem reduces an English word to a crude stem so that plural and singular
// meet ("categories" -> "category", "orders" -> "order", "boxes" -> "box"),
// in lower case. It is deliberately conservative: words of three letters
// or less, "status", "address", "analysis" and words holding anything but
// letters and digits ("tot_amt", "o'brien") are left as they are. Every
// stage stems with it, so a question's words and the schema's meet alike
// in retrieval, linking and scoring.
func Stem(word string) string {
	w := strings.ToLower(word)
	n := len(w)
	if n <= 3 || !lettersOrDigits(w) {
		return w
	}
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "xes")):
		return w[:n-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:n-1]
	}
	return w
}

func lettersOrDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// Stopword reports whether a lower-case word is a question word that names
// nothing in a schema: articles, pronouns, prepositions, auxiliaries and
// the verbs of a request ("show", "list", "give me").
func Stopword(word string) bool { return stopwords[word] }

// stopwords is the one stopword list of the pipeline: retrieval, linking,
// scoring and the confidence signals drop the same words. It is the union
// of the lists retrieval and linking kept apart until they were merged,
// but for "returns": a plural that names data (the demo ERP's
// sales_returns), which the linker's list dropped. docs/benchmarks.md
// has the figures of the merge.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of in on at for to by with from and or not no is are was were be been
		being am do does did doing has have had having how many much what which who whom whose where when why
		show shows list give me my we our us you your i find get all each every per that this these those there
		their its it they as than then into over under between during about above below after before up down out off
		can could would should will shall may might must please tell display return returning let
		any some such only also just more most less least top other same so too very own both few nor
		but if else while whether again further once here s t don want need know see
		since until till ago via within versus vs etc`) {
		m[w] = true
	}
	return m
}()
