package thesaurus_test

import (
	"fmt"
	"strings"

	"github.com/nl2sqlgo/nl2sql/thesaurus"
)

func ExampleThesaurus_Related() {
	for _, t := range thesaurus.Default().Related("Headcount") {
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
		for _, t := range thesaurus.Default().Related(w) {
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

func ExampleMerge() {
	user, err := thesaurus.Parse(strings.NewReader(`
# our words
sku, article number
crew -> field technician
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	th := thesaurus.Merge(user, thesaurus.Default())
	for _, t := range th.Related("crews")[:2] {
		fmt.Println(t.Text, t.Source)
	}
	// Output:
	// field technician user
	// employee curated
}

func ExampleParse_error() {
	_, err := thesaurus.Parse(strings.NewReader("vendor, supplier\nclient => customer\n"))
	fmt.Println(err)
	// Output:
	// thesaurus: line 2: "=>" is no arrow: write ->
}
