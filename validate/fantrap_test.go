package validate_test

import (
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// keyedTables is a small shop with keys: orders have lines and payments,
// lines reference products, profiles are one-to-one with customers.
var keyedTables = []validate.Table{
	{Schema: "public", Name: "customers", Columns: []string{"id", "name", "region"}, PrimaryKey: []string{"id"}},
	{Schema: "public", Name: "orders", Columns: []string{"id", "customer_id", "total", "status"}, PrimaryKey: []string{"id"},
		ForeignKeys: []validate.ForeignKey{{Columns: []string{"customer_id"}, RefSchema: "public", RefTable: "customers", RefColumns: []string{"id"}}}},
	{Schema: "public", Name: "order_lines", Columns: []string{"id", "order_id", "line_no", "product_id", "qty", "price"},
		PrimaryKey: []string{"id"}, Unique: [][]string{{"order_id", "line_no"}},
		ForeignKeys: []validate.ForeignKey{
			{Columns: []string{"order_id"}, RefSchema: "public", RefTable: "orders", RefColumns: []string{"id"}},
			{Columns: []string{"product_id"}, RefTable: "products", RefColumns: []string{"id"}},
		}},
	{Schema: "public", Name: "products", Columns: []string{"id", "name", "price"}, PrimaryKey: []string{"id"}},
	{Schema: "public", Name: "payments", Columns: []string{"id", "order_id", "amount"}, PrimaryKey: []string{"id"},
		ForeignKeys: []validate.ForeignKey{{Columns: []string{"order_id"}, RefTable: "orders", RefColumns: []string{"id"}}}},
	{Schema: "public", Name: "profiles", Columns: []string{"customer_id", "bio", "score"}, PrimaryKey: []string{"customer_id"},
		ForeignKeys: []validate.ForeignKey{{Columns: []string{"customer_id"}, RefTable: "customers", RefColumns: []string{"id"}}}},
	{Schema: "public", Name: "accounts", Columns: []string{"account_id", "owner", "balance"}, PrimaryKey: []string{"account_id"}},
	{Schema: "public", Name: "transactions", Columns: []string{"txn_id", "account_id", "amount"}, PrimaryKey: []string{"txn_id"},
		ForeignKeys: []validate.ForeignKey{{Columns: []string{"account_id"}, RefTable: "accounts", RefColumns: []string{"account_id"}}}},
	// Keys known only from the referencing side's foreign key.
	{Schema: "public", Name: "parent", Columns: []string{"code", "budget"}},
	{Schema: "public", Name: "child", Columns: []string{"id", "parent_code", "cost"}, PrimaryKey: []string{"id"},
		ForeignKeys: []validate.ForeignKey{{Columns: []string{"parent_code"}, RefTable: "parent", RefColumns: []string{"code"}}}},
	// No key data at all.
	{Schema: "public", Name: "notes", Columns: []string{"id", "order_id", "body"}},
	// Names that need quoting, in another schema.
	{Schema: "Sales", Name: "Invoice", Columns: []string{"InvoiceID", "Amount"}, PrimaryKey: []string{"InvoiceID"}},
	{Schema: "Sales", Name: "InvoiceLine", Columns: []string{"LineID", "InvoiceID", "Qty"}, PrimaryKey: []string{"LineID"},
		ForeignKeys: []validate.ForeignKey{{Columns: []string{"InvoiceID"}, RefSchema: "Sales", RefTable: "Invoice", RefColumns: []string{"InvoiceID"}}}},
}

func TestFanTrap(t *testing.T) {
	v := validate.New(validate.WithTables(keyedTables...))
	cases := []struct {
		name string
		sql  string
		want int // L010 warnings
	}{
		// True positives.
		{"sum over lines", "SELECT SUM(o.total) FROM orders o JOIN order_lines l ON l.order_id = o.id", 1},
		{"join in WHERE", "SELECT sum(o.total) FROM orders o, order_lines l WHERE o.id = l.order_id AND l.qty > 1", 1},
		{"upper case", "SELECT SUM(O.TOTAL) FROM ORDERS O INNER JOIN ORDER_LINES L ON L.ORDER_ID = O.ID", 1},
		{"qualified names", "SELECT sum(public.orders.total) FROM public.orders JOIN public.order_lines ON public.order_lines.order_id = public.orders.id", 1},
		{"no aliases", "SELECT sum(orders.total) FROM orders JOIN order_lines ON orders.id = order_lines.order_id", 1},
		{"quoted identifiers", `SELECT SUM(i."Amount") FROM "Sales"."Invoice" i JOIN "Sales"."InvoiceLine" il ON il."InvoiceID" = i."InvoiceID"`, 1},
		{"quoted, unaliased", `SELECT SUM("Invoice"."Amount") FROM "Sales"."Invoice" JOIN "Sales"."InvoiceLine" ON "InvoiceLine"."InvoiceID" = "Invoice"."InvoiceID"`, 1},
		{"unqualified column", "SELECT SUM(balance) FROM accounts JOIN transactions ON transactions.account_id = accounts.account_id", 1},
		{"USING", "SELECT SUM(a.balance) FROM accounts a JOIN transactions t USING (account_id)", 1},
		{"NATURAL", "SELECT AVG(a.balance) FROM accounts a NATURAL JOIN transactions t", 1},
		{"cast in the condition", "SELECT SUM(o.total) FROM orders o JOIN order_lines l ON l.order_id::bigint = o.id", 1},
		{"avg", "SELECT AVG(o.total) FROM orders o LEFT JOIN order_lines l ON l.order_id = o.id", 1},
		{"count of the one side", "SELECT count(o.id) FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE l.product_id = 7", 1},
		{"expression of the one side", "SELECT sum(o.total * 1.2) FROM orders o JOIN order_lines l ON l.order_id = o.id", 1},
		{"grouped by the one side", "SELECT o.id, sum(o.total) FROM orders o JOIN order_lines l ON l.order_id = o.id GROUP BY o.id", 1},
		{"HAVING", "SELECT o.customer_id FROM orders o JOIN order_lines l ON l.order_id = o.id GROUP BY o.customer_id HAVING SUM(o.total) > 100", 1},
		{"ORDER BY", "SELECT o.customer_id FROM orders o JOIN order_lines l ON l.order_id = o.id GROUP BY o.customer_id ORDER BY SUM(o.total) DESC", 1},
		{"ROLLUP of the many key", "SELECT l.id, sum(o.total) FROM orders o JOIN order_lines l ON l.order_id = o.id GROUP BY ROLLUP (l.id)", 1},
		{"key known from the foreign key", "SELECT SUM(p.budget) FROM parent p JOIN child c ON c.parent_code = p.code", 1},
		{"alias column list", "SELECT SUM(x.t) FROM orders AS x(oid, cid, t) JOIN order_lines l ON l.order_id = x.oid", 1},
		{"through the one side", "SELECT c.name, SUM(o.total), SUM(l.qty) FROM customers c JOIN orders o ON o.customer_id = c.id JOIN order_lines l ON l.order_id = o.id GROUP BY c.name", 1},
		{"chasm: lines per payment", "SELECT SUM(l.qty) FROM order_lines l JOIN orders o ON o.id = l.order_id JOIN payments p ON p.order_id = o.id", 1},
		{"chasm: both sides", "SELECT SUM(l.qty), SUM(p.amount) FROM order_lines l JOIN orders o ON o.id = l.order_id JOIN payments p ON p.order_id = o.id", 2},
		{"customer total over orders", "SELECT c.id, sum(c.id) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id", 1},
		{"in a CTE", "WITH t AS (SELECT o.id, SUM(o.total) AS s FROM orders o JOIN order_lines l ON l.order_id = o.id GROUP BY o.id) SELECT * FROM t", 1},
		{"in a subquery", "SELECT * FROM customers c WHERE c.id IN (SELECT o.customer_id FROM orders o JOIN payments p ON p.order_id = o.id GROUP BY 1 HAVING sum(o.total) > 10)", 1},
		{"inside a window", "SELECT sum(sum(o.total)) OVER () FROM orders o JOIN order_lines l ON l.order_id = o.id GROUP BY o.customer_id", 1},

		// True negatives.
		{"grouped by the many key", "SELECT l.id, SUM(o.total) FROM orders o JOIN order_lines l ON l.order_id = o.id GROUP BY l.id", 0},
		{"grouped by position", "SELECT l.id, SUM(o.total) FROM orders o JOIN order_lines l ON l.order_id = o.id GROUP BY 1", 0},
		{"grouped by output name", "SELECT l.id AS line, SUM(o.total) FROM orders o JOIN order_lines l ON l.order_id = o.id GROUP BY line", 0},
		{"grouped completes a unique key", "SELECT l.line_no, SUM(o.total) FROM orders o JOIN order_lines l ON l.order_id = o.id GROUP BY l.line_no", 0},
		{"fixed by a constant", "SELECT SUM(o.total) FROM orders o JOIN order_lines l ON l.order_id = o.id AND l.line_no = 1", 0},
		{"count distinct", "SELECT COUNT(DISTINCT o.id) FROM orders o JOIN order_lines l ON l.order_id = o.id", 0},
		{"sum distinct", "SELECT SUM(DISTINCT o.total) FROM orders o JOIN order_lines l ON l.order_id = o.id", 0},
		{"count star", "SELECT COUNT(*) FROM orders o JOIN order_lines l ON l.order_id = o.id", 0},
		{"min and max", "SELECT MIN(o.total), MAX(o.total) FROM orders o JOIN order_lines l ON l.order_id = o.id", 0},
		{"many side", "SELECT SUM(l.qty) FROM orders o JOIN order_lines l ON l.order_id = o.id", 0},
		{"many-to-one only", "SELECT SUM(l.qty) FROM order_lines l JOIN orders o ON o.id = l.order_id", 0},
		{"both sides in the expression", "SELECT SUM(l.qty * p.price) FROM order_lines l JOIN products p ON p.id = l.product_id", 0},
		{"customers per region", "SELECT c.region, SUM(o.total) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.region", 0},
		{"one-to-one", "SELECT COUNT(c.name), SUM(p.score) FROM customers c JOIN profiles p ON p.customer_id = c.id", 0},
		{"pre-aggregated subquery", "SELECT SUM(o.total), SUM(l.q) FROM orders o JOIN (SELECT order_id, SUM(qty) AS q FROM order_lines GROUP BY order_id) l ON l.order_id = o.id", 0},
		{"pre-aggregated CTE", "WITH lt AS (SELECT order_id, SUM(qty) AS q FROM order_lines GROUP BY order_id) SELECT SUM(o.total) FROM orders o JOIN lt ON lt.order_id = o.id", 0},
		{"correlated subquery", "SELECT o.id, o.total, (SELECT SUM(l.qty) FROM order_lines l WHERE l.order_id = o.id) FROM orders o", 0},
		{"EXISTS", "SELECT SUM(o.total) FROM orders o WHERE EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id)", 0},
		{"window only", "SELECT SUM(o.total) OVER () FROM orders o JOIN order_lines l ON l.order_id = o.id", 0},
		{"no key data", "SELECT SUM(o.total) FROM orders o JOIN notes n ON n.order_id = o.id", 0},
		{"not the key", "SELECT SUM(o.total) FROM orders o JOIN order_lines l ON l.qty = o.status::int", 0},
		{"cycle", "SELECT SUM(l.qty) FROM orders o JOIN order_lines l ON l.order_id = o.id JOIN payments p ON p.order_id = o.id AND p.id = l.id", 0},
		{"join condition in an OR", "SELECT SUM(o.total) FROM orders o JOIN order_lines l ON l.order_id = o.id OR l.qty > 5", 0},
		{"outer reference", "SELECT (SELECT SUM(o.total) FROM order_lines l WHERE l.order_id = o.id) FROM orders o", 0},
		{"CTE named like a table", "WITH order_lines AS (SELECT 1 AS order_id) SELECT SUM(o.total) FROM orders o JOIN order_lines l ON l.order_id = o.id", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := v.Validate(c.sql)
			if err != nil {
				t.Fatal(err)
			}
			var got []validate.Issue
			for _, is := range res.Issues {
				if is.Code == validate.CodeFanTrap {
					got = append(got, is)
				}
			}
			if len(got) != c.want {
				t.Errorf("%s\n%d L010 warnings, want %d: %v", c.sql, len(got), c.want, res.Issues)
			}
			for _, is := range got {
				if is.Severity != validate.SeverityWarning || is.Location < 0 || is.Location >= len(c.sql) ||
					!strings.Contains(strings.ToLower(c.sql[is.Location:]), "(") {
					t.Errorf("issue %v", is)
				}
			}
		})
	}
}

func TestFanTrapMessage(t *testing.T) {
	v := validate.New(validate.WithTables(keyedTables...))
	sql := "SELECT count(o.id) FROM orders o JOIN order_lines l ON l.order_id = o.id"
	res, err := v.Validate(sql)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Issues) != 1 {
		t.Fatalf("issues %v", res.Issues)
	}
	is := res.Issues[0]
	for _, want := range []string{"COUNT(o.id)", "orders", "order_lines", "l.order_id = o.id", "fan trap", "grouped by order_id", "COUNT(DISTINCT"} {
		if !strings.Contains(is.Message, want) {
			t.Errorf("message lacks %q: %s", want, is.Message)
		}
	}
	if is.Location != strings.Index(sql, "count") {
		t.Errorf("location %d", is.Location)
	}
	// Off with lint, and silent without key data.
	if res, _ := validate.New(validate.WithTables(keyedTables...), validate.WithLint(false)).Validate(sql); len(res.Issues) != 0 {
		t.Errorf("WithLint(false): %v", res.Issues)
	}
	if res, _ := validate.New().Validate(sql); len(res.Issues) != 0 {
		t.Errorf("no tables: %v", res.Issues)
	}
	var bare []validate.Table
	for _, tb := range keyedTables {
		bare = append(bare, validate.Table{Schema: tb.Schema, Name: tb.Name, Columns: tb.Columns})
	}
	if res, _ := validate.New(validate.WithTables(bare...)).Validate(sql); len(res.Issues) != 0 {
		t.Errorf("no keys: %v", res.Issues)
	}
}
