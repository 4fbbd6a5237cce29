package schema_test

import (
	"testing"

	"github.com/nl2sqlgo/nl2sql/schema"
)

func TestQuoteIdent(t *testing.T) {
	for in, want := range map[string]string{
		"orders":        "orders",
		"order_2":       "order_2",
		"Orders":        `"Orders"`,
		"cust nbr":      `"cust nbr"`,
		"select":        `"select"`,
		"user":          `"user"`,
		"2fa":           `"2fa"`,
		`we"ird`:        `"we""ird"`,
		"":              `""`,
		"ümlaut":        `"ümlaut"`,
		"name":          "name", // non-reserved key word
		"tot_amt$local": "tot_amt$local",
	} {
		if got := schema.QuoteIdent(in); got != want {
			t.Errorf("QuoteIdent(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestCompactType(t *testing.T) {
	for in, want := range map[string]string{
		"character varying(40)":          "VARCHAR(40)",
		"character varying":              "VARCHAR",
		"character(3)":                   "CHAR(3)",
		"numeric(12,2)":                  "NUMERIC(12,2)",
		"timestamp with time zone":       "TIMESTAMPTZ",
		"timestamp(3) with time zone":    "TIMESTAMPTZ(3)",
		"timestamp(0) without time zone": "TIMESTAMP(0)",
		"integer[]":                      "INTEGER[]",
		"double precision":               "FLOAT8",
		"order_status":                   "order_status",
		"sales.channel[]":                "sales.channel[]",
		"vector(384)":                    "vector(384)",
	} {
		if got := schema.CompactType(in); got != want {
			t.Errorf("CompactType(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestCatalogLookups(t *testing.T) {
	a := &schema.Table{Schema: "div_01", Name: "orders", Columns: []schema.Column{{Name: "id"}}}
	b := &schema.Table{Schema: "public", Name: "orders"}
	c := &schema.Table{Schema: "public", Name: "countries", ForeignKeys: nil}
	a.ForeignKeys = []schema.ForeignKey{{Name: "fk", Columns: []string{"c"}, RefSchema: "public", RefTable: "countries", RefColumns: []string{"id"}}}
	cat := schema.NewCatalog([]schema.Schema{{Name: "public"}, {Name: "div_01"}}, []*schema.Table{c, b, a}, nil)
	a.Columns = append(a.Columns, schema.Column{Name: "c"})
	if got := a.ColumnNames(); len(got) != 2 || got[0] != "id" || got[1] != "c" || len(b.ColumnNames()) != 0 {
		t.Errorf("ColumnNames = %v, %v", got, b.ColumnNames())
	}
	if cat.Tables[0] != a || cat.Schemas[0].Name != "div_01" {
		t.Errorf("not sorted: %v", cat.Tables[0].QualifiedName())
	}
	if cat.Table("orders") != b || cat.Table("div_01.orders") != a {
		t.Error("Table lookup")
	}
	if cat.Resolve("orders", []string{"div_01", "public"}) != a || cat.Resolve("countries", []string{"div_01", "public"}) != c {
		t.Error("Resolve along search path")
	}
	if cat.Resolve("nope", []string{"public"}) != nil {
		t.Error("Resolve of unknown table")
	}
	if refs := cat.ReferencedBy("public.countries"); len(refs) != 1 || refs[0].From != a {
		t.Errorf("ReferencedBy = %v", refs)
	}
	sub := cat.Subset([]string{"div_01.orders", "missing.table", "div_01.orders"})
	if len(sub.Tables) != 1 || len(sub.Schemas) != 1 {
		t.Errorf("Subset = %d tables, %d schemas", len(sub.Tables), len(sub.Schemas))
	}
	if a.Column("id") == nil || a.Column("x") != nil {
		t.Error("Column lookup")
	}
}
