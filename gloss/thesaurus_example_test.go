package gloss_test

import (
	"fmt"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

func ExampleThesaurus_Related() {
	for _, t := range gloss.DefaultThesaurus().Related("Headcount") {
		fmt.Println(t.Text, t.Source, t.Weight)
	}
	// Output:
	// employee curated 1
	// staff curated 1
	// head count wordnet 0.5
}

// A retriever keeps the related terms that occur in the schema.
func ExampleThesaurus_Related_schema() {
	schema := map[string]bool{"customer": true, "sales order": true, "invoice": true, "hire date": true}
	for _, w := range []string{"clients", "revenue", "tenure"} {
		var hits []string
		for _, t := range gloss.DefaultThesaurus().Related(w) {
			if schema[t.Text] {
				hits = append(hits, t.Text)
			}
		}
		fmt.Println(w, "->", strings.Join(hits, ", "))
	}
	// Output:
	// clients -> customer
	// revenue -> sales order, invoice
	// tenure -> hire date
}

func ExampleMergeThesauri() {
	user, err := gloss.ParseThesaurus(strings.NewReader(`
# our words
sku, article number
crew -> field technician
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	th := gloss.MergeThesauri(user, gloss.DefaultThesaurus())
	for _, t := range th.Related("crews")[:2] {
		fmt.Println(t.Text, t.Source)
	}
	// Output:
	// field technician user
	// employee curated
}

func ExampleParseThesaurus_error() {
	_, err := gloss.ParseThesaurus(strings.NewReader("vendor, supplier\nclient => customer\n"))
	fmt.Println(err)
	// Output:
	// gloss: thesaurus line 2: "=>" is no arrow: write ->
}
