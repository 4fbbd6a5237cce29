package generate

import (
	"errors"
	"strings"
	"testing"
)

func TestExtractSQL(t *testing.T) {
	cases := []struct {
		name, reply, want string
	}{
		{"plain", "SELECT 1", "SELECT 1"},
		{"semicolon", "SELECT a FROM t;", "SELECT a FROM t"},
		{"fenced sql", "Here you go:\n```sql\nSELECT count(*) FROM orders;\n```\nThis counts orders.", "SELECT count(*) FROM orders"},
		{"fenced untagged", "```\nSELECT 2\n```", "SELECT 2"},
		{"tagged wins over untagged", "```\nnot sql at all\n```\n```postgresql\nSELECT 3\n```", "SELECT 3"},
		{"prose before", "To answer this we need the orders table.\nSELECT id FROM orders WHERE total > 10", "SELECT id FROM orders WHERE total > 10"},
		{"prose after", "SELECT id FROM orders;\nThis query lists the orders.", "SELECT id FROM orders"},
		{"prose after blank line", "SELECT id FROM orders\n\nThis query lists the orders.", "SELECT id FROM orders"},
		{"with query", "```sql\nWITH x AS (SELECT 1 AS a) SELECT a FROM x\n```", "WITH x AS (SELECT 1 AS a) SELECT a FROM x"},
		{"several statements: first select", "```sql\nSET search_path TO x;\nSELECT 1;\nSELECT 2;\n```", "SELECT 1"},
		{"json", `{"sql": "SELECT name FROM customers"}`, "SELECT name FROM customers"},
		{"mysql dialect kept for repair", "```sql\nSELECT `name` FROM customers LIMIT 5, 10;\n```", "SELECT `name` FROM customers LIMIT 5, 10"},
		{"keyword inside string is not a start", "The word 'select' appears here.\nSELECT 'select' AS s", "SELECT 'select' AS s"},
		{"multi-line fenced", "```sql\nSELECT c.name,\n       sum(o.total)\nFROM customers c\nJOIN orders o ON o.cid = c.id\nGROUP BY c.name\n```", "SELECT c.name,\n       sum(o.total)\nFROM customers c\nJOIN orders o ON o.cid = c.id\nGROUP BY c.name"},
	}
	for _, c := range cases {
		got, err := ExtractSQL(c.reply)
		if err != nil || got != c.want {
			t.Errorf("%s: ExtractSQL = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "I cannot answer that from this database.", "```sql\nDELETE FROM orders\n```", "UPDATE t SET a = 1"} {
		if got, err := ExtractSQL(bad); !errors.Is(err, ErrNoSQL) {
			t.Errorf("ExtractSQL(%q) = %q, %v; want ErrNoSQL", bad, got, err)
		}
	}
}

func TestCanonicalAndFingerprint(t *testing.T) {
	a, _ := Canonical("select  ID from ORDERS where total>1")
	b, _ := Canonical("SELECT id\nFROM orders\nWHERE (total > 1)")
	c, _ := Canonical("SELECT id FROM orders WHERE total > 2")
	if a != b || a == c {
		t.Errorf("canonical: %q %q %q", a, b, c)
	}
	fa, _ := Fingerprint("SELECT id FROM orders WHERE total > 1")
	fc, _ := Fingerprint("SELECT id FROM orders WHERE total > 2")
	if fa != fc {
		t.Error("fingerprints should ignore constants")
	}
	if _, err := Canonical("SELEC"); err == nil {
		t.Error("parse error not reported")
	}
}

func TestClassify(t *testing.T) {
	cases := map[string]Difficulty{
		"List all warehouses":                                                              Easy,
		"Show the customers in Rome":                                                       Easy,
		"Total sales amount per region in 2024":                                            Medium,
		"How many employees are in each department?":                                       Medium,
		"Rank sales reps by revenue growth compared to the previous year":                  Hard,
		"What percentage of customers placed at least one order every month of 2024?":      Hard,
		"Which products were never ordered, and what is their share of the catalog value?": Hard,
	}
	for q, want := range cases {
		if got := Classify(q, 1); got != want {
			t.Errorf("Classify(%q) = %s, want %s", q, got, want)
		}
	}
	if Classify("List all warehouses", 5) == Easy {
		t.Error("many tables should raise difficulty")
	}
}

func TestBuildPrompt(t *testing.T) {
	q := "Which 3 customers spent the most in 2024?"
	p := Build(PromptData{
		Question: q, Evidence: "spent means sum of invoice totals",
		Schema:   "【Schema】\n# Table: customers\n[\n(id:INTEGER, Primary Key)\n]",
		Joins:    []string{"FROM customers c JOIN invoices i ON i.customer_id = c.id"},
		Values:   []string{"invoices.status = 'Paid'"},
		Warnings: []string{"invoices (AR) vs supplier_invoices (AP)"},
		Examples: []Example{{Question: "How many customers?", SQL: "SELECT count(*)\nFROM customers"}},
		Notes:    []string{"Server: PostgreSQL 15"},
	})
	for _, want := range []string{q, "【Join paths】", "invoices.status = 'Paid'", "【Warnings】", "SQL: SELECT count(*) FROM customers", "【Evidence】\nspent means", "# Table: customers"} {
		if !strings.Contains(p.User, want) {
			t.Errorf("user prompt lacks %q:\n%s", want, p.User)
		}
	}
	if !strings.HasSuffix(p.User, "【Question】\n"+q+"\n") {
		t.Errorf("question must come last, verbatim:\n%s", p.User)
	}
	if !strings.Contains(p.System, "PostgreSQL 15") || !strings.Contains(p.System, "```sql") {
		t.Errorf("system prompt: %s", p.System)
	}
	bare := Build(PromptData{Question: q})
	if strings.Contains(bare.User, "【Join paths】") || strings.Contains(bare.User, "【Examples】") {
		t.Errorf("empty sections rendered:\n%s", bare.User)
	}
	d := RepairDelta{SQL: "SELECT x FROM t", SQLState: "42703", Message: "column \"x\" does not exist", Hints: []string{"t has columns: id, name"}}.Text()
	for _, want := range []string{"42703", `column "x" does not exist`, "- t has columns: id, name", "```sql"} {
		if !strings.Contains(d, want) {
			t.Errorf("repair delta lacks %q: %s", want, d)
		}
	}
}

// TestBuildPromptHistory: a conversation is shown before the question, in
// order, with the follow-up rule; without one the prompt has neither.
func TestBuildPromptHistory(t *testing.T) {
	d := PromptData{Question: "and in 2023?", Schema: "# Table: orders"}
	plain := Build(d)
	if strings.Contains(plain.User, "Conversation") || strings.Contains(plain.System, "follow up") {
		t.Fatalf("no history, yet: %+v", plain)
	}
	d.History = []Turn{
		{Question: "Revenue per customer in 2024", SQL: "SELECT customer_id, sum(total)\nFROM orders GROUP BY 1", Columns: []string{"customer_id", "sum"}},
		{Question: "only the top 5", SQL: "SELECT 1"},
	}
	p := Build(d)
	conv := strings.Index(p.User, "【Conversation so far】\nQ1: Revenue per customer in 2024\nSQL: SELECT customer_id, sum(total) FROM orders GROUP BY 1\nColumns: customer_id, sum\nQ2: only the top 5\nSQL: SELECT 1\n")
	q := strings.Index(p.User, "【Question】\nand in 2023?")
	if conv < 0 || q < conv || !strings.Contains(p.System, "follow up on the conversation") {
		t.Errorf("prompt:\n%s\n%s", p.System, p.User)
	}
}

// TestBuildPromptDefinitions: definitions get their section, before the
// column hints, and the rule to compute them as defined; without any the
// prompt has neither.
func TestBuildPromptDefinitions(t *testing.T) {
	d := PromptData{Question: "What is our revenue?", Schema: "# Table: sales_orders", Links: []string{`"revenue" -> public.sales_orders.total_amount`}}
	plain := Build(d)
	if strings.Contains(plain.User, "Definitions") || strings.Contains(plain.System, "Definitions") {
		t.Fatalf("no definitions, yet: %+v", plain)
	}
	d.Definitions = []string{"measure revenue on public.sales_orders: sum(total_amount) FILTER (WHERE status <> 'Cancelled')"}
	p := Build(d)
	defs := strings.Index(p.User, "【Definitions】\nmeasure revenue on public.sales_orders: sum(total_amount) FILTER (WHERE status <> 'Cancelled')\n")
	hints := strings.Index(p.User, "【Column hints】")
	if defs < 0 || hints < defs || !strings.Contains(p.System, "exactly as defined") {
		t.Errorf("prompt:\n%s\n%s", p.System, p.User)
	}
}
