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
// hold ("the make, model and year of the car"); any other stopword ("in",
// "with", "who", "for") starts what the rows are, not what they show.
var requestKeeps = map[string]bool{"the": true, "a": true, "an": true, "and": true, "or": true, "of": true, "their": true,
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

// Requests returns, for each sentence of the first analysis (the
// question) that opens with a verb asking to show something ("Return",
// "List", "Show me", "Please give"), the words of what it asks to show,
// in lower case: the words after the verb up to the first one that says
// which rows rather than what they show ("in", "with", "who", "for"...)
// or a participle ("directed", "sorted") or the sentence's end. "Return the make, model and year of cars sold
// in 2023." asks to show "the make model and year of cars sold". A
// question asking "What are ..." is no request: its subject is read by
// the shape checks.
func (r *Reading) Requests() [][]string {
	var out [][]string
	start := true // at a sentence's start
	for i := 0; i < len(r.words); i++ {
		w := r.words[i]
		if w.ana != 0 {
			break
		}
		open := start
		start = false
		if i+1 < len(r.words) && strings.ContainsAny(r.between(i), ".?!;:") {
			start = true
		}
		if !open {
			continue
		}
		if requestLead[w.lower] && !start && i+1 < len(r.words) {
			start = true // the verb may follow
			continue
		}
		if !requestVerbs[w.lower] {
			// "What are the names and ages of ...": the same request,
			// asked.
			if w.lower != "what" || i+1 >= len(r.words) || !copulas[r.words[i+1].lower] || r.between(i) != " " {
				continue
			}
			i++
		}
		var words []string
		for j := i + 1; j < len(r.words) && r.words[j].ana == 0; j++ {
			lw := r.words[j].lower
			if lw == "of" || gloss.Stopword(lw) && !requestKeeps[lw] || participle(lw) && !determiners[r.words[j-1].lower] {
				break
			}
			words = append(words, r.words[j].lower)
			if j+1 < len(r.words) && strings.ContainsAny(r.between(j), ".?!;:") {
				break
			}
		}
		if slices.ContainsFunc(words, func(w string) bool { return !gloss.Stopword(w) }) {
			out = append(out, words)
		}
	}
	return out
}
