package link_test

import (
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// TestShared: a value index shared between readers keeps no stored value
// of a table with row-level security, only its enum labels; an index
// without such values is returned as it is.
func TestShared(t *testing.T) {
	cat := schema.NewCatalog([]schema.Schema{{Name: "public"}}, []*schema.Table{
		{Schema: "public", Name: "open", Columns: []schema.Column{{Name: "status", Type: "text"}}},
		{Schema: "public", Name: "secured", RowSecurity: true, Columns: []schema.Column{{Name: "body", Type: "text"}, {Name: "kind", Type: "kind"}}},
	}, nil)
	if got := link.SharedTables(cat); !slices.Equal(got, []string{"public.open"}) {
		t.Errorf("SharedTables = %v", got)
	}
	cols := []link.ValueColumn{
		{Table: "public.open", Column: "status", Values: []string{"Open", "Shipped"}, Source: link.SourceStats},
		{Table: "public.secured", Column: "body", Values: []string{"another tenant's secret"}, Source: link.SourceSample},
		{Table: "public.secured", Column: "kind", Values: []string{"a", "b"}, Source: link.SourceEnum},
	}
	vi := link.NewValueIndex(cols)
	vi.Stats.FromSample = 1
	shared := vi.Shared(cat)
	var kept []string
	for _, c := range shared.Columns {
		kept = append(kept, c.Table+"."+c.Column)
	}
	if !slices.Equal(kept, []string{"public.open.status", "public.secured.kind"}) {
		t.Errorf("Shared kept %v", kept)
	}
	if shared.Stats != vi.Stats {
		t.Errorf("Shared lost the build's figures: %+v", shared.Stats)
	}
	if len(vi.Columns) != 3 {
		t.Errorf("Shared changed the index it was given: %d columns", len(vi.Columns))
	}
	if open := link.NewValueIndex(cols[:1]); open.Shared(cat) != open {
		t.Error("an index without row-secured values is not returned as it is")
	}
	var none *link.ValueIndex
	if none.Shared(cat) != nil {
		t.Error("a nil index shared is not nil")
	}
}
