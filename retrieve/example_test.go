package retrieve_test

import (
	"context"
	"fmt"

	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// erpCatalog stands in for schema.Introspect, so the examples run without a
// database: a small ERP with a sales and an hr schema.
func erpCatalog() *schema.Catalog {
	id := func(name string) schema.Column {
		return schema.Column{Name: name, Type: "integer", NotNull: true, PrimaryKey: true}
	}
	col := func(name, typ, comment string) schema.Column {
		return schema.Column{Name: name, Type: typ, Comment: comment}
	}
	fk := func(column, schemaName, table string) schema.ForeignKey {
		return schema.ForeignKey{Name: column + "_fkey", Columns: []string{column}, RefSchema: schemaName, RefTable: table, RefColumns: []string{column}}
	}
	return schema.NewCatalog([]schema.Schema{{Name: "hr"}, {Name: "sales"}}, []*schema.Table{
		{Schema: "sales", Name: "customers", Comment: "Companies that buy from us", PrimaryKey: []string{"cust_id"},
			Columns: []schema.Column{id("cust_id"), col("cust_nm", "text", "Company name"), col("country", "character(2)", "")}},
		{Schema: "sales", Name: "orders", Comment: "Customer orders", PrimaryKey: []string{"order_id"},
			Columns:     []schema.Column{id("order_id"), col("cust_id", "integer", ""), col("ord_dt", "date", "Order date"), col("tot_amt", "numeric", "Order total")},
			ForeignKeys: []schema.ForeignKey{fk("cust_id", "sales", "customers")}},
		{Schema: "sales", Name: "order_lines", Comment: "Products on an order", PrimaryKey: []string{"order_id", "line_no"},
			Columns:     []schema.Column{col("order_id", "integer", ""), col("line_no", "integer", ""), col("prod_id", "integer", ""), col("qty", "integer", "Quantity")},
			ForeignKeys: []schema.ForeignKey{fk("order_id", "sales", "orders"), fk("prod_id", "sales", "products")}},
		{Schema: "sales", Name: "products", Comment: "What we sell", PrimaryKey: []string{"prod_id"},
			Columns: []schema.Column{id("prod_id"), col("prod_nm", "text", "Product name"), col("list_price", "numeric", "")}},
		{Schema: "hr", Name: "departments", PrimaryKey: []string{"dept_id"},
			Columns: []schema.Column{id("dept_id"), col("dept_nm", "text", "Department name")}},
		{Schema: "hr", Name: "employees", Comment: "People employed by the company", PrimaryKey: []string{"emp_id"},
			Columns:     []schema.Column{id("emp_id"), col("dept_id", "integer", ""), col("hire_dt", "date", "Hire date"), col("status", "text", "")},
			ForeignKeys: []schema.ForeignKey{fk("dept_id", "hr", "departments")}},
	}, nil)
}

// A Retriever over an in-memory index: with no options it embeds with the
// built-in HashEmbedder and keeps documents in a MemoryStore, so it needs
// neither a database nor a model, and the same catalog and question always
// give the same tables.
func ExampleRetriever_Tables() {
	ctx := context.Background()
	r, err := retrieve.New(ctx, erpCatalog(), retrieve.WithMaxTables(4))
	if err != nil {
		panic(err)
	}
	res, err := r.Tables(ctx, "Total order amount per customer in 2024")
	if err != nil {
		panic(err)
	}
	fmt.Println("match:", res.Match)
	for _, t := range res.Tables {
		fmt.Println(t.Name, t.Reasons, t.Via)
	}

	// "staff" is no word of the schema: the thesaurus relates it to employee.
	res, _ = r.Tables(ctx, "How many staff did we hire last year?")
	fmt.Println("match:", res.Match, res.Names())

	// Nothing in the schema: no tables, and the Engine abstains.
	res, _ = r.Tables(ctx, "xyzzy plugh")
	fmt.Println("match:", res.Match, len(res.Tables))
	// Output:
	// match: strong
	// sales.orders [name vector bm25 column module fk] sales.customers
	// sales.customers [name vector bm25 column module fk] sales.orders
	// sales.order_lines [vector bm25 column module fk] sales.orders
	// sales.products [bm25 fk] sales.order_lines
	// match: strong [hr.employees hr.departments]
	// match: none 0
}

// A glossary maps business words to tables; WithScope limits a call to one
// schema (plus the shared ones, "public" by default).
func ExampleWithGlossary() {
	ctx := context.Background()
	r, err := retrieve.New(ctx, erpCatalog(),
		retrieve.WithGlossary(map[string][]string{"churn": {"sales.customers"}}))
	if err != nil {
		panic(err)
	}
	res, _ := r.Tables(ctx, "churn by country", retrieve.Scope("sales"))
	for _, t := range res.Tables {
		fmt.Println(t.Name, t.Reasons)
	}
	// Output:
	// sales.customers [vector bm25 column glossary]
	// sales.orders [fk]
}

// Modules group tables for routing; without WithModules they are the
// catalog's foreign-key communities.
func ExampleRetriever_Modules() {
	r, err := retrieve.New(context.Background(), erpCatalog(), retrieve.WithModuleSource(retrieve.ModulesBySchema))
	if err != nil {
		panic(err)
	}
	m := r.Modules()
	fmt.Println(m["hr"])
	fmt.Println(m["sales"])
	// Output:
	// [hr.departments hr.employees]
	// [sales.customers sales.order_lines sales.orders sales.products]
}
