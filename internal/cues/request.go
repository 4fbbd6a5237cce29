package cues

import (
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// requestVerbs open a sentence that says what the answer shows: "Return
// the make, model and total revenue", "List the name and age of ...".
var requestVerbs = map[string]bool{"return": true, "show": true, "list": true, "give": true, "display": true,
	"provide": true, "output": true, "find": true, "get": true}

// requestLead may stand before a request's verb ("please return").
var requestLead = map[string]bool{"please": true, "also": true, "then": true, "and": true}

// requestKeeps are the stopwords a request's list of things to show may
// hold ("the make, model and year"); any other stopword ("of", "in",
// "with", "who", "for") starts what the rows are, not what they show.
var requestKeeps = map[string]bool{"the": true, "a": true, "an": true, "and": true, "or": true, "their": true,
	"its": true, "his": true, "her": true, "each": true, "all": true, "both": true, "me": true, "us": true, "as": true, "well": true}

// copulas after "what" open a request asked as a question.
var copulas = map[string]bool{"is": true, "are": true, "was": true, "were": true}

// determiners may stand before a participle that describes what to show
// ("the assigned driver").
var determiners = map[string]bool{"the": true, "a": true, "an": true, "their": true, "its": true, "his": true, "her": true}

// participle reports whether w reads as a participle ("directed",
// "sorted", "having"): after what to show, it starts which rows ("all
// cartoons directed by Ben Jones").
func participle(w string) bool {
	return len(w) >= 5 && (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing")) || irregularParticiples[w]
}

// irregularParticiples are participles that end otherwise.
var irregularParticiples = map[string]bool{"written": true, "made": true, "sold": true, "held": true, "born": true, "given": true,
	"taken": true, "known": true, "built": true, "paid": true, "spent": true, "won": true, "led": true, "bought": true, "seen": true,
	"shown": true, "sent": true, "found": true, "owned": true, "run": true, "done": true, "kept": true, "taught": true, "set": true}

// groupWords ask for one row per group of what follows them ("for each
// semester id", "per airport code"): the answer shows what names the
// group.
var groupWords = map[string]bool{"each": true, "per": true, "every": true}

// Requests returns what the question (the first analysis) asks the
// answer to show, each request's words in lower case:
//   - a sentence that opens with a verb asking to show something
//     ("Return", "List", "Show me", "Please give") or with "what is" or
//     "what are" requests the words after them;
//   - "each", "per" or "every" requests what names the group after it
//     ("for each semester id").
//
// A request's words run up to the first one that says which rows rather
// than what they show ("of", "in", "with", "who"..., or a participle:
// "directed", "sorted") or the sentence's end: "Return the make, model
// and year of cars sold in 2023." requests the make, model and year. A
// request holds a word that is no stopword; a comma between two of its
// words is one of them (","): it ends an item of a list.
func (r *Reading) Requests() [][]string {
	var out [][]string
	add := func(words []string) {
		if slices.ContainsFunc(words, func(w string) bool { return !gloss.Stopword(w) }) {
			out = append(out, words)
		}
	}
	start := true // at a sentence's start
	for i := 0; i < len(r.words) && r.words[i].ana == 0; i++ {
		w := r.words[i].lower
		open := start
		start = i+1 < len(r.words) && strings.ContainsAny(r.between(i), ".?!;:")
		if groupWords[w] {
			add(r.requested(i + 1))
			continue
		}
		if !open {
			continue
		}
		switch {
		case requestLead[w] && !start:
			start = true // the verb may follow
		case requestVerbs[w]:
			add(r.requested(i + 1))
		case w == "what" && i+1 < len(r.words) && copulas[r.words[i+1].lower] && r.between(i) == " ":
			add(r.requested(i + 2))
		}
	}
	return out
}

// requested returns the words of a request from word i > 0 on (see
// Requests).
func (r *Reading) requested(i int) []string {
	var words []string
	for j := i; j < len(r.words) && r.words[j].ana == 0; j++ {
		w := r.words[j].lower
		if before := r.between(j - 1); w == "s" && (strings.HasSuffix(before, "'") || strings.HasSuffix(before, "’")) {
			continue // the manager's name
		}
		if gloss.Stopword(w) && !requestKeeps[w] || participle(w) && !determiners[r.words[j-1].lower] {
			break
		}
		words = append(words, w)
		if j+1 < len(r.words) {
			if between := r.between(j); strings.ContainsAny(between, ".?!;:") {
				break
			} else if strings.Contains(between, ",") {
				words = append(words, ",")
			}
		}
	}
	return words
}
