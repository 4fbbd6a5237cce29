package cues

import (
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// TestOutOfOrder: the columns the question names must come in the order
// it names them; a column it does not name places nothing, and "the
// number of ..." is named by "how many".
func TestOutOfOrder(t *testing.T) {
	for _, c := range []struct {
		question string
		columns  []string
		want     bool
	}{
		{"For each language, list the number of channels.", []string{"the number of channels", "the language"}, true},
		{"For each language, list the number of channels.", []string{"the language", "the number of channels"}, false},
		{"How many channels use each language?", []string{"the number of channels", "the language"}, false},
		{"How many channels use each language?", []string{"the language", "the number of channels"}, true},
		{"What are the names and ids of all countries?", []string{"the country id", "the country name"}, true},
		{"What are the names and ids of all countries?", []string{"the country name", "the country id"}, false},
		{"What are the names of all countries?", []string{"the continent", "the country name"}, false},
		{"What are the names of all countries?", nil, false},
	} {
		if got := OutOfOrder(gloss.Analyze(c.question).Words, c.columns); got != c.want {
			t.Errorf("%q %q: out of order %v, want %v", c.question, c.columns, got, c.want)
		}
	}
}
