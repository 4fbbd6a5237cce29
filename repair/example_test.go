package repair_test

import (
	"errors"
	"fmt"

	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/schema"
)

func exampleCatalog() *schema.Catalog {
	return schema.NewCatalog(nil, []*schema.Table{
		{Schema: "public", Name: "customers", PrimaryKey: []string{"id"}, Columns: []schema.Column{
			{Name: "id", Type: "integer", NotNull: true, PrimaryKey: true}, {Name: "cust_nm", Type: "text", NotNull: true}}},
		{Schema: "public", Name: "orders", PrimaryKey: []string{"id"}, Columns: []schema.Column{
			{Name: "id", Type: "integer", NotNull: true, PrimaryKey: true}, {Name: "customer_id", Type: "integer", NotNull: true},
			{Name: "order_date", Type: "date"}},
			ForeignKeys: []schema.ForeignKey{{Columns: []string{"customer_id"}, RefSchema: "public", RefTable: "customers", RefColumns: []string{"id"}}}},
	}, nil)
}

func ExampleRepairer_Normalize() {
	r := repair.New(exampleCatalog())
	sql, changes, err := r.Normalize("SELECT `id`, IFNULL(YEAR(order_date), 0) FROM orders LIMIT 10, 5")
	if err != nil {
		panic(err)
	}
	fmt.Println(sql)
	for _, c := range changes {
		fmt.Println(c.Rule)
	}
	// Output:
	// SELECT id, COALESCE(extract ('year' FROM order_date), 0) FROM orders LIMIT 5 OFFSET 10
	// dialect.backtick
	// dialect.limit_comma
	// dialect.ifnull
	// dialect.extract
}

func ExampleRepairer_Fix() {
	r := repair.New(exampleCatalog())
	sql := "SELECT o.id, o.customer_name FROM orders o"
	// What PostgreSQL answered when the query ran.
	f := repair.Failure{SQLState: "42703", Message: "column o.customer_name does not exist", Position: 14}
	fixes, err := r.Fix(sql, f)
	if err != nil {
		panic(err)
	}
	fmt.Println(fixes[0].Rule)
	fmt.Println(fixes[0].SQL)
	// Output:
	// 42703.join_neighbor
	// SELECT o.id, customers.cust_nm FROM orders o JOIN customers ON o.customer_id = customers.id
}

func ExampleAmbiguousError() {
	r := repair.New(exampleCatalog())
	sql := "SELECT id FROM customers c JOIN orders o ON o.customer_id = c.id"
	f := repair.Failure{SQLState: "42702", Message: `column reference "id" is ambiguous`, Position: 8}
	_, err := r.Fix(sql, f)
	var amb *repair.AmbiguousError
	if errors.As(err, &amb) {
		fmt.Println(errors.Is(err, repair.ErrNoFix), amb.Tied, amb.Alternatives)
		fmt.Println(amb.Fixes[1].SQL)
	}
	// Output:
	// true true [c.id o.id]
	// SELECT o.id FROM customers c JOIN orders o ON o.customer_id = c.id
}

func ExampleRepairer_Table() {
	cat := schema.NewCatalog(nil, []*schema.Table{
		{Schema: "public", Name: "orders"},
		{Schema: "div_01", Name: "employees"},
		{Schema: "div_02", Name: "employees"},
	}, nil)
	r := repair.New(cat)
	t, err := r.Table("employes", nil)
	fmt.Println(t, err)
	// The request may read div_02's tables and public's only.
	t, err = r.Table("employes", []*schema.Table{cat.Table("div_02.employees"), cat.Table("public.orders")})
	fmt.Println(t.QualifiedName(), err)
	// Output:
	// <nil> repair: no deterministic fix: "employes" is ambiguous: div_01.employees or div_02.employees
	// div_02.employees <nil>
}
