package plan_test

import (
	"testing"

	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// TestInferredEdgesStayInTheirTenant: in a multi-tenant catalog, guessed
// keys join tables of the same schema, or a shared table whose name no
// other schema has, never one tenant's table to another's.
func TestInferredEdgesStayInTheirTenant(t *testing.T) {
	col := func(name, typ string) schema.Column { return schema.Column{Name: name, Type: typ} }
	var tables []*schema.Table
	for _, s := range []string{"div_01", "div_02"} {
		tables = append(tables,
			&schema.Table{Schema: s, Name: "customers", PrimaryKey: []string{"customer_id"},
				Columns: []schema.Column{col("customer_id", "integer"), col("name", "text")}},
			&schema.Table{Schema: s, Name: "orders", PrimaryKey: []string{"order_id"},
				Columns: []schema.Column{col("order_id", "integer"), col("customer_id", "integer"), col("country_code", "character(2)")}})
	}
	tables = append(tables, &schema.Table{Schema: "public", Name: "countries", PrimaryKey: []string{"country_code"},
		Columns: []schema.Column{col("country_code", "character(2)"), col("name", "text")}})
	g := plan.NewGraph(schema.NewCatalog(nil, tables, nil), plan.WithInferredEdges(true))
	got := map[string]bool{}
	for _, e := range g.Edges("div_01.orders") {
		got[e.To] = true
	}
	if !got["div_01.customers"] || !got["public.countries"] {
		t.Errorf("expected edges to its own customers and the shared countries: %v", got)
	}
	if got["div_02.customers"] {
		t.Errorf("an inferred edge crossed tenants: %v", got)
	}
}
