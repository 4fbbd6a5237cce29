package generate_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// shopSchema is the M-Schema of the tables retrieval chose (the Engine
// renders it from the catalog it introspected).
func shopSchema() string {
	cat := schema.NewCatalog(nil, []*schema.Table{
		{Schema: "public", Name: "customers", Comment: "Companies that buy from us", PrimaryKey: []string{"id"},
			Columns: []schema.Column{{Name: "id", Type: "integer", PrimaryKey: true}, {Name: "name", Type: "text"}, {Name: "country", Type: "character(2)"}}},
		{Schema: "public", Name: "orders", PrimaryKey: []string{"id"},
			Columns: []schema.Column{{Name: "id", Type: "integer", PrimaryKey: true}, {Name: "customer_id", Type: "integer"},
				{Name: "ordered_on", Type: "date"}, {Name: "total", Type: "numeric(12,2)"}},
			ForeignKeys: []schema.ForeignKey{{Columns: []string{"customer_id"}, RefSchema: "public", RefTable: "customers", RefColumns: []string{"id"}}}},
	}, nil)
	return cat.MSchema(schema.WithUnqualified("public"))
}

// Build renders the prompt: the rules in the system message, the context
// sections and the verbatim question in the user message. The same data
// always gives the same text, so a provider can cache the prefix.
func ExampleBuild() {
	p := generate.Build(generate.PromptData{
		Question: "Top 3 customers by revenue in 2024",
		Evidence: "revenue is the sum of orders.total",
		Schema:   shopSchema(),
		Joins:    []string{"FROM orders o JOIN customers c ON c.id = o.customer_id"},
		Values:   []string{"customers.country = 'DE'"},
		Notes:    []string{"The server is PostgreSQL 15."},
	})
	sys := strings.Split(p.System, "\n")
	fmt.Println(sys[0])
	fmt.Println(sys[len(sys)-1])
	// The user message: the sections that have content, the question last.
	for _, line := range strings.Split(p.User, "\n") {
		if strings.HasPrefix(line, "【") {
			fmt.Println(line)
		}
	}
	lines := strings.Split(strings.TrimSpace(p.User), "\n")
	fmt.Println(lines[len(lines)-1])
	// Output:
	// You are an expert PostgreSQL analyst. Write exactly one read-only PostgreSQL query (SELECT or WITH ... SELECT) that answers the user's question.
	// - The server is PostgreSQL 15.
	// 【Schema】
	// 【Foreign keys】
	// 【Join paths】
	// 【Value hints】
	// 【Evidence】
	// 【Question】
	// Top 3 customers by revenue in 2024
}

// scripted is an llm.Model that answers by temperature, standing in for a
// provider (llm/openai, llm/anthropic, llm/ollama).
type scripted map[float64]string

func (s scripted) Complete(_ context.Context, req *llm.Request) (*llm.Response, error) {
	return &llm.Response{Content: s[*req.Temperature]}, nil
}

// Generate samples k replies at spread temperatures, extracts the query
// from each and merges the ones that are the same query written
// differently: votes are evidence the caller's scorer can use.
func ExampleGenerator_Generate() {
	model := scripted{
		0:   "```sql\nSELECT customer_id, count(*) FROM orders GROUP BY customer_id\n```",
		0.3: "Here you go:\nselect customer_id, COUNT(*)\nfrom orders group by customer_id;",
		0.5: "```sql\nSELECT c.name, count(o.id) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name\n```",
	}
	g := generate.New(model, generate.WithK(1, 3, 5))
	q := "How many orders did each customer place?"
	d := generate.Classify(q, 2)
	k := g.K(d)
	p := generate.Build(generate.PromptData{Question: q, Schema: shopSchema()})
	out, err := g.Generate(context.Background(), p, k)
	if err != nil {
		panic(err)
	}
	fmt.Println(d, "samples:", len(out.Samples))
	for _, c := range out.Candidates {
		fmt.Println(c.Votes, c.Temperatures, c.SQL)
	}
	// Output:
	// medium samples: 3
	// 2 [0 0.3] SELECT customer_id, count(*) FROM orders GROUP BY customer_id
	// 1 [0.5] SELECT c.name, count(o.id) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name
}

// ExtractSQL takes the query out of a reply, whatever the model wrapped it in.
func ExampleExtractSQL() {
	for _, reply := range []string{
		"```sql\nSELECT name FROM customers WHERE country = 'DE'\n```",
		`{"sql": "SELECT count(*) FROM orders"}`,
		"The answer is: SELECT max(total) FROM orders; it is the largest order.",
		"I cannot answer that.",
	} {
		sql, err := generate.ExtractSQL(reply)
		fmt.Printf("%q %v\n", sql, err)
	}
	// Output:
	// "SELECT name FROM customers WHERE country = 'DE'" <nil>
	// "SELECT count(*) FROM orders" <nil>
	// "SELECT max(total) FROM orders" <nil>
	// "" generate: no SQL query in the reply
}

// A RepairDelta is the follow-up turn after a query failed; Generator.Repair
// sends it after the base prompt and the failed query.
func ExampleRepairDelta() {
	d := generate.RepairDelta{
		SQL:      "SELECT c.nme FROM customers c",
		SQLState: "42703",
		Message:  "column c.nme does not exist",
		Hints:    []string{"customers has columns: id, name, country"},
	}
	fmt.Println(d.Text())
	// Output:
	// That query failed with SQLSTATE 42703: column c.nme does not exist.
	// - customers has columns: id, name, country
	// Write the corrected query. Reply with the SQL only, in a single ```sql code block.
}

// Classify decides how many candidates are worth asking for.
func ExampleClassify() {
	for _, q := range []string{
		"List the customers",
		"How many orders per country?",
		"Month over month revenue growth by country and product, 2024",
	} {
		fmt.Println(generate.Classify(q, 2), "-", q)
	}
	// Output:
	// easy - List the customers
	// medium - How many orders per country?
	// hard - Month over month revenue growth by country and product, 2024
}
