package retrieve_test

import (
	"context"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// TestHashEmbedderDeterministic: the same text gives the same vector, bit
// for bit, on every call. With few dimensions many features share a
// bucket, and float32 sums depend on the order they are added in: the
// features were added in map order, so two calls could differ in the last
// bits and a near tie in ranking could flip between runs.
func TestHashEmbedderDeterministic(t *testing.T) {
	texts := []string{
		"Which general ledger account had the largest total debit amount in the last fiscal quarter, by cost center?",
		"table sales.opportunity_line_items: opportunity id, product id, quantity, unit price, discount percent, total amount",
		// Repeated words and trigrams: weights 1+ln(count), not sums of
		// halves and quarters that float32 adds exactly in any order.
		"account account account ledger ledger amount amount amount amount invoice invoice customer customer customer " +
			"payment payment order order order order shipment shipment warehouse warehouse warehouse supplier supplier",
	}
	for _, dim := range []int{7, 64, 384} {
		e := retrieve.NewHashEmbedder(dim)
		want, err := e.Embed(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		for range 200 {
			got, err := e.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			for i := range texts {
				if !slices.Equal(got[i], want[i]) {
					t.Fatalf("dim %d, text %d: two calls gave different vectors:\n%v\n%v", dim, i, want[i], got[i])
				}
			}
		}
	}
}
