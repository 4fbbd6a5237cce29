package confidence

import (
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// TestMeasuresAsked: an adjective asks for its measure after "how",
// compared ("than"), or as the extreme of the rows a table read holds;
// not when it only describes, in a set phrase, hyphenated or in a name.
func TestMeasuresAsked(t *testing.T) {
	rivers := []string{"public.river"}
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"How long is the Nile?", []string{"length"}},
		{"Which students are older than 20?", []string{"age"}},
		{"Which products are more expensive than 10 dollars?", []string{"price"}},
		{"Which river is the longest?", []string{"length"}},
		{"What are the longest rivers?", []string{"length"}},
		{"Who is the youngest?", []string{"age"}},
		{"How far is Paris?", []string{"distance"}},
		{"How long ago was each river mapped?", nil},
		{"Which rivers are no longer navigable?", nil},
		{"How many rivers were mapped so far?", nil},
		{"Which river is by far the dirtiest?", nil},
		{"Which rivers have a long description?", nil},
		{"What was the old price?", nil},
		{"Which items are fast-moving?", nil},
		{"Which albums did Neil Young release?", nil},
		{"Which customers placed the oldest orders?", nil}, // no orders read
		{"Which older rivers flood?", nil},
		{"What is the highest point?", nil}, // high leads nowhere
	} {
		got := measuresAsked(gloss.Analyze(c.q), rivers)
		if !slices.Equal(got, c.want) {
			t.Errorf("measuresAsked(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}
