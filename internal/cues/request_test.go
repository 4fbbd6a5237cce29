package cues

import (
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// TestRequests: a sentence that opens with a verb asking to show
// something, or "what is/are", requests the words after it, up to the
// first word that says which rows ("of", "in", "who", a participle) or
// the sentence's end; the evidence requests nothing.
func TestRequests(t *testing.T) {
	for _, c := range []struct {
		q, evidence string
		want        []string // each request's words, one space apart
	}{
		{"What are the top 5 best selling car models by total revenue? Return the make, model, total number of sales and total revenue.", "",
			[]string{"the make , model , total number"}},
		{"Return the first name, last name and specialty of doctors.", "", []string{"the first name , last name and specialty"}},
		{"List all cartoons directed by Ben Jones.", "", []string{"all cartoons"}},
		{"List all cartoons written by Ben Jones.", "", []string{"all cartoons"}},
		{"Show the assigned driver and the route.", "", []string{"the assigned driver and the route"}},
		{"show me the daily total amount of payments received", "", []string{"me the daily total amount"}},
		{"Please give the names; then list the ages in order.", "", []string{"the names", "the ages"}},
		{"What are the id and names of the countries?", "", []string{"the id and names"}},
		{"What was the sku", "", []string{"the sku"}},
		{"Return", "", nil},
		{"Which products are below their reorder point? Give sku and product name", "", []string{"sku and product name"}},
		{"How many courses are offered for each semester id?", "", []string{"semester id"}},
		{"What is the average fare per airport code, and the count for every airline in 2023?", "", []string{"the average fare", "airport code , and the count", "airline"}},
		{"Show the total for each of the regions", "", []string{"the total"}},
		{"Count the orders for each returning customer", "", nil},
		{"Show the manager's name and the number of reports.", "", []string{"the manager name and the number"}},
		{"Show the manager’s name", "", []string{"the manager name"}},
		// No request: the verb does not open a sentence, a question
		// asked otherwise, the evidence's sentences.
		{"How many orders did we ship and return in 2024?", "", nil},
		{"Which warehouses are in the United States?", "", nil},
		{"What  are the names", "", nil}, // "what" and "are" not one space apart
		{"How many singers are there?", "Return the singer id.", nil},
		{"How many singers are there? Return", "the singer id", nil},
	} {
		var ev *gloss.Analysis
		if c.evidence != "" {
			ev = gloss.Analyze(c.evidence)
		}
		var got []string
		for _, r := range Read(gloss.Analyze(c.q), ev).Requests() {
			got = append(got, strings.Join(r, " "))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: requests %q, want %q", c.q, got, c.want)
		}
	}
}
