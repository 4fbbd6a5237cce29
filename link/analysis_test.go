package link_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/link"
)

// TestLinkAnalysisIsLink: linking a question read once by gloss.Analyze
// gives what Link gives reading the text itself, evidence or none.
func TestLinkAnalysisIsLink(t *testing.T) {
	cat := syntheticCatalog(200)
	l := link.New(cat)
	ctx := context.Background()
	for _, c := range []struct{ q, e string }{
		{"total tot_amt of sales order lines per customer in 2024", ""},
		{"Which suppliers have open invoice_hdr rows?", "open means stat = 'O'"},
		{"qty of items shipped by route 'R-7' last quarter", "items are inv.item_dtl"},
	} {
		want := l.Link(ctx, c.q, c.e, nil)
		var ea *gloss.Analysis
		if c.e != "" {
			ea = gloss.Analyze(c.e)
		}
		got := l.LinkAnalysis(ctx, gloss.Analyze(c.q), ea, nil)
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		if string(w) != string(g) {
			t.Errorf("%q: LinkAnalysis\n%s\nLink\n%s", c.q, g, w)
		}
		if len(want.Tables) == 0 {
			t.Errorf("%q: nothing linked", c.q)
		}
	}
	if r := l.LinkAnalysis(ctx, nil, nil, nil); r == nil || len(r.Tables) != 0 || r.Keyphrases == nil {
		t.Errorf("a nil analysis: %+v", r)
	}
}
