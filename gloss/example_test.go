package gloss_test

import (
	"fmt"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// An identifier read three ways, and a question word that the schema does
// not use led to one it does.
func Example() {
	fmt.Println(gloss.Split("tot_amt"), gloss.Words("tot_amt"), gloss.Text("PONbr"))

	ctr := gloss.Abbreviations(map[string]string{"ctr": "contract"})
	fmt.Println(strings.Join(ctr("ctr_sgn_dt"), " "))

	for _, t := range gloss.DefaultThesaurus().Related("staff")[:1] {
		fmt.Println(t.Text, t.Source, t.Weight)
	}
	// Output:
	// [tot amt] [total amount] purchase order number
	// contract sgn date
	// employee curated 1
}

func ExampleText() {
	for _, name := range []string{"tot_amt", "PONbr", "custno", "ytd_rev", "qty_on_hand"} {
		fmt.Printf("%s: %s\n", name, gloss.Text(name))
	}
	// Output:
	// tot_amt: total amount
	// PONbr: purchase order number
	// custno: customer number
	// ytd_rev: year to date revenue
	// qty_on_hand: quantity on hand
}

// A question read once: what every stage of the pipeline reads.
func ExampleAnalyze() {
	a := gloss.Analyze("Revenue by region in March 2024 for 'Acme Corp'")
	fmt.Println(a.Terms())
	for _, p := range a.Phrases {
		if p.Kind != gloss.PhraseNGram {
			fmt.Println(p.Kind, p.Text)
		}
	}
	// Output:
	// [revenue region march 2024 acme corp]
	// date March 2024
	// quoted Acme Corp
}
