package workload_test

import (
	"fmt"
	"strings"

	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/workload"
)

// shopCatalog stands in for schema.Introspect: a shop that declares no
// foreign keys.
func shopCatalog() *schema.Catalog {
	id := schema.Column{Name: "id", Type: "integer", PrimaryKey: true}
	return schema.NewCatalog([]schema.Schema{{Name: "public"}}, []*schema.Table{
		{Schema: "public", Name: "clients", PrimaryKey: []string{"id"},
			Columns: []schema.Column{id, {Name: "name", Type: "text"}}},
		{Schema: "public", Name: "orders", PrimaryKey: []string{"id"},
			Columns: []schema.Column{id, {Name: "buyer", Type: "integer"}, {Name: "total", Type: "numeric"}}},
	}, nil)
}

func Example() {
	log := `SELECT c.name, sum(o.total) FROM orders o JOIN clients c ON c.id = o.buyer GROUP BY c.name
{"query": "SELECT o.* FROM orders o, clients c WHERE o.buyer = c.id AND c.name = $1", "calls": 41}
{"query": "UPDATE orders SET total = $1 WHERE id = $2", "calls": 7}
`
	stmts, err := workload.Read(strings.NewReader(log))
	if err != nil {
		panic(err)
	}
	cat := shopCatalog()
	k := workload.Learn(cat, stmts)
	fmt.Printf("kept %d of %d statements, %d calls\n", k.Kept, k.Statements, k.Calls)
	for _, e := range k.Edges {
		fmt.Println("edge:", e.From, "=", e.To, e.Count)
	}
	fmt.Println("tables:", k.Tables)
	fmt.Println("top shape:", k.Shapes[0].Count, k.Shapes[0].SQL)

	// The planner joins along the learned edge: orders.buyer -> clients.id.
	g := plan.NewGraph(cat, plan.WithLearnedEdges(k.Edges...))
	tree, err := g.Connect([]string{"public.clients", "public.orders"})
	if err != nil {
		panic(err)
	}
	fmt.Println(tree.Skeleton())
	// Output:
	// kept 2 of 3 statements, 42 calls
	// edge: public.clients.id = public.orders.buyer 42
	// tables: [{public.clients 42} {public.orders 42}]
	// top shape: 41 SELECT o.* FROM orders o, clients c WHERE o.buyer = c.id AND c.name = $1
	// FROM public.clients c JOIN public.orders o ON o.buyer = c.id
}
