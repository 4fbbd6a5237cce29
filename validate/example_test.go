package validate_test

import (
	"errors"
	"fmt"

	"github.com/nl2sqlgo/nl2sql/validate"
)

func Example() {
	v := validate.New(
		validate.WithTables(
			validate.Table{Schema: "public", Name: "customers", Columns: []string{"id", "name", "country"}},
			validate.Table{Schema: "public", Name: "orders", Columns: []string{"id", "customer_id", "total"}},
		),
		validate.WithMaxRows(100),
	)
	res, err := v.Validate("select c.name, sum(o.total) as spent from customers c join orders o on o.customer_id = c.id group by c.name order by spent desc;")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.SQL)
	fmt.Println(res.Tables, res.Functions)

	_, err = v.Validate("SELECT name, pg_sleep(10) FROM customers; DELETE FROM orders")
	var ve *validate.Error
	if errors.As(err, &ve) {
		for _, is := range ve.Violations() {
			fmt.Println(is.Code, is.Message)
		}
	}
	// Output:
	// select c.name, sum(o.total) as spent from customers c join orders o on o.customer_id = c.id group by c.name order by spent desc LIMIT 100
	// [public.customers public.orders] [sum]
	// V003 2 statements found; write exactly one SELECT query with no semicolon-separated statements
}

func ExampleError() {
	v := validate.New(validate.WithTables(validate.Table{Schema: "public", Name: "orders"}))
	_, err := v.Validate("SELECT * FROM orders o, pg_authid a WHERE pg_catalog.pg_sleep(1) IS NULL")
	fmt.Println(errors.Is(err, validate.ErrRejected))
	var ve *validate.Error
	errors.As(err, &ve)
	for _, is := range ve.Violations() {
		fmt.Printf("%s at %d: %s\n", is.Code, is.Location, is.Message)
	}
	// Output:
	// true
	// V013 at 24: system catalog pg_catalog.pg_authid cannot be read; query only the application tables
	// V010 at 42: function pg_catalog.pg_sleep is not allowed (side effects, system access or SQL from a string); remove it
}
