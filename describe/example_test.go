package describe_test

import (
	"fmt"

	"github.com/nl2sqlgo/nl2sql/describe"
)

func Example() {
	d, err := describe.SQL(`SELECT c.customer_name, sum(so.tot_amt) AS total
		FROM sales_orders so JOIN customers c ON c.customer_id = so.customer_id
		WHERE so.order_date >= DATE '2024-01-01' AND so.order_date < DATE '2025-01-01'
		GROUP BY c.customer_name ORDER BY total DESC LIMIT 5`)
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Text)
	fmt.Println(d.GroupBy, d.Measures, *d.Limit)
	// Output:
	// For each customer name, computes the sum of sales order total amount, from sales orders joined with customers, where order date is in 2024, sorted by the sum of sales order total amount (highest first), top 5.
	// [customer name] [the sum of sales order total amount] 5
}
