package plan_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// shopCatalog is built by hand (no PostgreSQL): customers <- orders <-
// order_lines, quotes -> customers, and a second tenant's schema with the
// same orders.
func shopCatalog() *schema.Catalog {
	id := func(name string) schema.Column {
		return schema.Column{Name: name, Type: "integer", NotNull: true, PrimaryKey: true}
	}
	fk := func(col, ref string) schema.ForeignKey {
		s, t, _ := strings.Cut(ref, ".")
		return schema.ForeignKey{Name: col + "_fkey", Columns: []string{col}, RefSchema: s, RefTable: t, RefColumns: []string{"id"}}
	}
	tables := []*schema.Table{}
	for _, s := range []string{"shop", "other"} {
		tables = append(tables,
			&schema.Table{Schema: s, Name: "customers", PrimaryKey: []string{"id"},
				Columns: []schema.Column{id("id"), {Name: "name", Type: "text"}}},
			&schema.Table{Schema: s, Name: "orders", PrimaryKey: []string{"id"},
				Columns:     []schema.Column{id("id"), {Name: "customer_id", Type: "integer"}, {Name: "total_amount", Type: "numeric(12,2)"}},
				ForeignKeys: []schema.ForeignKey{fk("customer_id", s+".customers")}},
			&schema.Table{Schema: s, Name: "order_lines", PrimaryKey: []string{"id"},
				Columns:     []schema.Column{id("id"), {Name: "order_id", Type: "integer"}, {Name: "quantity", Type: "integer"}},
				ForeignKeys: []schema.ForeignKey{fk("order_id", s+".orders")}},
			&schema.Table{Schema: s, Name: "quotes", PrimaryKey: []string{"id"},
				Columns:     []schema.Column{id("id"), {Name: "customer_id", Type: "integer"}, {Name: "total_amount", Type: "numeric"}},
				ForeignKeys: []schema.ForeignKey{fk("customer_id", s+".customers")}},
		)
	}
	return schema.NewCatalog([]schema.Schema{{Name: "shop"}, {Name: "other"}}, tables, nil)
}

// TestPlanQuestion: the plan joins the tables the question needs and the
// tables of its strong column links (not a second table for a phrase
// already answered), only through the context's tables and, scoped, its
// schemas; it warns of a join repeating the rows a sum reads.
func TestPlanQuestion(t *testing.T) {
	g := plan.NewGraph(shopCatalog())
	all := []string{"shop.customers", "shop.orders", "shop.order_lines", "shop.quotes"}
	col := func(table, column, phrase string, score float64) link.ColumnLink {
		return link.ColumnLink{Table: table, Column: column, Phrase: phrase, Score: score}
	}
	for _, c := range []struct {
		name     string
		q        plan.Question
		core     []string
		skeleton string // a part of it; "" when there is none
		warn     string // a part of the one warning; "" when none
	}{
		{name: "one table", q: plan.Question{Text: "list customers", Needed: []string{"shop.customers"}, Tables: all},
			core: []string{"shop.customers"}},
		{name: "no needed table: the best one", q: plan.Question{Text: "list them", Tables: all},
			core: []string{"shop.customers"}},
		{name: "two needed tables", q: plan.Question{Text: "customers with their order lines",
			Needed: []string{"shop.customers", "shop.order_lines"}, Tables: all, SearchPath: []string{"shop"}},
			core: []string{"shop.customers", "shop.order_lines"}, skeleton: "JOIN orders"},
		{name: "a strong column link pulls its table in", q: plan.Question{Text: "customers by quantity",
			Needed: []string{"shop.customers"}, Tables: all, SearchPath: []string{"shop"},
			Columns: []link.ColumnLink{col("shop.order_lines", "quantity", "quantity", 0.9), col("shop.quotes", "id", "weak", 0.5)}},
			core: []string{"shop.customers", "shop.order_lines"}, skeleton: "order_lines"},
		{name: "a phrase a needed table answers pulls in no other", q: plan.Question{Text: "total amount of orders",
			Needed: []string{"shop.orders"}, Tables: all,
			Columns: []link.ColumnLink{col("shop.orders", "total_amount", "total amount", 0.8), col("shop.quotes", "total_amount", "total amount", 0.8)}},
			core: []string{"shop.orders"}},
		{name: "fan trap", q: plan.Question{Text: "Total amount of the orders with their lines",
			Needed: []string{"shop.orders", "shop.order_lines"}, Tables: all, SearchPath: []string{"shop"},
			Columns: []link.ColumnLink{col("shop.orders", "total_amount", "total amount", 0.9)}},
			core: []string{"shop.orders", "shop.order_lines"}, skeleton: "JOIN order_lines",
			warn: "Joining order_lines repeats each orders row once per matching order_lines row, so a sum or average of orders.total_amount"},
		{name: "a key is no measure", q: plan.Question{Text: "total of customers with orders",
			Needed: []string{"shop.customers", "shop.orders"}, Tables: all, SearchPath: []string{"shop"},
			Columns: []link.ColumnLink{col("shop.customers", "id", "customers", 0.9)}},
			core: []string{"shop.customers", "shop.orders"}, skeleton: "JOIN orders"},
		{name: "only through the context's tables", q: plan.Question{Text: "customers with their order lines",
			Needed: []string{"shop.customers", "shop.order_lines"}, Tables: []string{"shop.customers", "shop.order_lines"}},
			core: []string{"shop.customers", "shop.order_lines"}, skeleton: "CROSS JOIN"},
		{name: "scoped: only through the path's schemas", q: plan.Question{Text: "customers with their order lines",
			Needed: []string{"shop.customers", "other.order_lines"}, Tables: []string{"shop.customers", "other.order_lines", "other.orders"},
			SearchPath: []string{"shop"}, Scoped: true},
			core: []string{"shop.customers", "other.order_lines"}, skeleton: "CROSS JOIN"},
		{name: "at most MaxJoined", q: plan.Question{Text: "everything",
			Needed: append(slices.Clone(all), "other.customers", "other.orders", "other.order_lines"), Tables: all},
			core: append(slices.Clone(all), "other.customers", "other.orders"), skeleton: "CROSS JOIN other.customers"},
	} {
		qp, _ := g.PlanQuestion(c.q)
		if !slices.Equal(qp.Core, c.core) {
			t.Errorf("%s: core %v, want %v", c.name, qp.Core, c.core)
		}
		if (c.skeleton == "") != (qp.Skeleton == "") || !strings.Contains(qp.Skeleton, c.skeleton) {
			t.Errorf("%s: skeleton %q, want one with %q", c.name, qp.Skeleton, c.skeleton)
		}
		if c.skeleton != "" && len(qp.Joins) == 0 && !strings.Contains(c.skeleton, "CROSS") {
			t.Errorf("%s: a skeleton without joins", c.name)
		}
		switch {
		case c.warn == "" && len(qp.Warnings) > 0:
			t.Errorf("%s: warnings %q", c.name, qp.Warnings)
		case c.warn != "" && (len(qp.Warnings) != 1 || !strings.Contains(qp.Warnings[0], c.warn)):
			t.Errorf("%s: warnings %q, want one with %q", c.name, qp.Warnings, c.warn)
		}
	}
}
