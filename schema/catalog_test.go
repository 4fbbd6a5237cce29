package schema_test

import (
	"encoding/json"
	"strings"
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

// TestInSchemas: only the named schemas' tables, schemas and enum types
// (and the enum types their columns use) are kept; a foreign key into
// another schema is dropped from a copy, the original table unchanged.
func TestInSchemas(t *testing.T) {
	a := &schema.Table{Schema: "div_01", Name: "a", Columns: []schema.Column{{Name: "k", Type: "div_02.kind"}},
		ForeignKeys: []schema.ForeignKey{{Columns: []string{"b"}, RefSchema: "div_02", RefTable: "b", RefColumns: []string{"id"}},
			{Columns: []string{"p"}, RefSchema: "public", RefTable: "p", RefColumns: []string{"id"}}}}
	b := &schema.Table{Schema: "div_02", Name: "b", ForeignKeys: []schema.ForeignKey{{Columns: []string{"a"}, RefSchema: "div_01", RefTable: "a", RefColumns: []string{"id"}}}}
	p := &schema.Table{Schema: "public", Name: "p"}
	cat := schema.NewCatalog([]schema.Schema{{Name: "div_01"}, {Name: "div_02", Comment: "secret"}, {Name: "public"}}, []*schema.Table{a, b, p},
		map[string][]string{"div_02.kind": {"x"}, "div_02.other": {"y"}, "public.mood": {"ok"}})
	got := cat.InSchemas("div_01", "public")
	out, _ := json.Marshal(got)
	if len(got.Tables) != 2 || got.Table("div_02.b") != nil || len(got.Schemas) != 2 || got.Enums["div_02.other"] != nil ||
		got.Enums["div_02.kind"] == nil || got.Enums["public.mood"] == nil || strings.Contains(string(out), `"div_02","ref_table"`) ||
		strings.Contains(string(out), `"div_02.b"`) || len(got.ReferencedBy("div_01.a")) != 0 {
		t.Errorf("InSchemas: %s", out)
	}
	if len(a.ForeignKeys) != 2 || len(got.Table("div_01.a").ForeignKeys) != 1 {
		t.Errorf("the original's foreign keys changed, or the copy kept div_02's: %v", a.ForeignKeys)
	}
}
