package schema_test

import (
	"fmt"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// shopCatalog stands in for schema.Introspect, so the examples run without
// a database: two tables of a "sales" schema, orders referencing customers.
func shopCatalog() *schema.Catalog {
	return schema.NewCatalog(
		[]schema.Schema{{Name: "sales", Comment: "Orders and the customers who place them"}},
		[]*schema.Table{
			{Schema: "sales", Name: "orders", Kind: schema.KindTable, Comment: "One row per customer order", EstimatedRows: 52000,
				Columns: []schema.Column{
					{Name: "order_id", Type: "integer", NotNull: true, PrimaryKey: true},
					{Name: "cust_id", Type: "integer", NotNull: true, Comment: "Customer who placed the order"},
					{Name: "ord_dt", Type: "date", Comment: "Order date"},
					{Name: "tot_amt", Type: "numeric(12,2)", Comment: "Order total in EUR"},
					{Name: "status", Type: "sales.order_status", EnumLabels: []string{"open", "shipped", "cancelled"}},
				},
				PrimaryKey: []string{"order_id"},
				ForeignKeys: []schema.ForeignKey{{Name: "orders_cust_id_fkey", Columns: []string{"cust_id"},
					RefSchema: "sales", RefTable: "customers", RefColumns: []string{"cust_id"}}},
			},
			{Schema: "sales", Name: "customers", Kind: schema.KindTable, Comment: "Companies that buy from us", EstimatedRows: 1200,
				Columns: []schema.Column{
					{Name: "cust_id", Type: "integer", NotNull: true, PrimaryKey: true},
					{Name: "cust_nm", Type: "character varying(80)", NotNull: true, Comment: "Company name"},
					{Name: "country", Type: "character(2)", Comment: "ISO country code"},
				},
				PrimaryKey: []string{"cust_id"},
			},
		},
		map[string][]string{"sales.order_status": {"open", "shipped", "cancelled"}},
	)
}

// The M-Schema of a small catalog: what the model reads about the tables
// retrieval chose. Example values come from the caller (the Engine samples
// them from the database); foreign keys are listed when both ends are shown.
func ExampleMSchema() {
	cat := shopCatalog()
	fmt.Print(schema.MSchema(cat.Tables,
		schema.WithDBID("shop"),
		schema.WithExamples(map[string][]string{
			"sales.customers.cust_nm": {"Acme GmbH", "Globex", "Initech", "Umbrella"},
			"sales.customers.country": {"DE", "US"},
		}),
		schema.WithMaxExamples(3),
	))
	// Output:
	// 【DB_ID】 shop
	// 【Schema】
	// # Table: sales.customers, Companies that buy from us
	// [
	// (cust_id:INTEGER, Primary Key),
	// (cust_nm:VARCHAR(80), Company name, Examples: [Acme GmbH, Globex, Initech]),
	// (country:CHAR(2), ISO country code, Examples: [DE, US])
	// ]
	// # Table: sales.orders, One row per customer order
	// [
	// (order_id:INTEGER, Primary Key),
	// (cust_id:INTEGER, Customer who placed the order),
	// (ord_dt:DATE, Order date),
	// (tot_amt:NUMERIC(12,2), Order total in EUR),
	// (status:sales.order_status, Values: [open, shipped, cancelled])
	// ]
	// 【Foreign keys】
	// sales.orders.cust_id=sales.customers.cust_id
}

// WithUnqualified drops the schema from names for a query that runs with that
// search_path; WithRowEstimates shows table sizes.
func ExampleCatalog_MSchema() {
	cat := shopCatalog().Subset([]string{"sales.customers"})
	fmt.Print(cat.MSchema(schema.WithUnqualified("sales"), schema.WithRowEstimates(true)))
	// Output:
	// 【Schema】
	// # Table: customers, Companies that buy from us (~1200 rows)
	// [
	// (cust_id:INTEGER, Primary Key),
	// (cust_nm:VARCHAR(80), Company name),
	// (country:CHAR(2), ISO country code)
	// ]
}

// Tables are sorted by schema and name; a foreign key is also seen from
// the table it references.
func ExampleCatalog_ReferencedBy() {
	cat := shopCatalog()
	for _, t := range cat.Tables {
		fmt.Println(t.QualifiedName(), t.PrimaryKey)
	}
	for _, r := range cat.ReferencedBy("sales.customers") {
		fmt.Println(r.From.QualifiedName(), r.FK.Columns, "->", r.FK.Ref(), r.FK.RefColumns)
	}
	fmt.Println(cat.Table("sales.orders").Column("tot_amt").Comment)
	// Output:
	// sales.customers [cust_id]
	// sales.orders [order_id]
	// sales.orders [cust_id] -> sales.customers [cust_id]
	// Order total in EUR
}
