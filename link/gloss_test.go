package link_test

import (
	"testing"

	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/schema"
)

func TestInferSemantic(t *testing.T) {
	tests := []struct {
		name, typ string
		want      link.Semantic
	}{
		{"tot_amt", "numeric(14,2)", link.SemMoney},
		{"list_prc", "numeric(12,2)", link.SemMoney},
		{"balance", "money", link.SemMoney},
		{"qty", "numeric(12,3)", link.SemQuantity},
		{"qty_on_hand", "integer", link.SemQuantity},
		{"disc_pct", "numeric(5,2)", link.SemPercentage},
		{"tax_rate", "numeric", link.SemPercentage},
		{"order_dt", "date", link.SemDate},
		{"upd_ts", "timestamp with time zone", link.SemTimestamp},
		{"created_at", "timestamp(3) without time zone", link.SemTimestamp},
		{"fiscal_year", "integer", link.SemYear},
		{"fy", "smallint", link.SemYear},
		{"is_active", "boolean", link.SemFlag},
		{"stat", "text", link.SemCode},
		{"order_type", "character varying(10)", link.SemCode},
		{"cust_nm", "text", link.SemName},
		{"email_addr", "character varying(200)", link.SemEmail},
		{"tel_no", "text", link.SemPhone},
		{"ship_city", "text", link.SemAddress},
		{"country_cd", "character(2)", link.SemCountryCode},
		{"curr_cd", "character(3)", link.SemCurrencyCode},
		{"notes", "text", link.SemFreeText},
		{"line_cnt", "integer", link.SemCount},
		{"cust_id", "integer", link.SemIdentifier},
		{"guid", "uuid", link.SemIdentifier},
		{"inv_nbr", "text", link.SemIdentifier},
		{"tags", "text[]", ""},
		{"weird", "tsvector", ""},
	}
	for _, tt := range tests {
		if got := link.InferSemantic(tt.name, tt.typ); got != tt.want {
			t.Errorf("InferSemantic(%q, %q) = %q, want %q", tt.name, tt.typ, got, tt.want)
		}
	}
}

func TestColumnAndTableGloss(t *testing.T) {
	tb := &schema.Table{Schema: "sales", Name: "po_hdr", Kind: schema.KindTable,
		Columns: []schema.Column{
			{Name: "po_id", Type: "integer", PrimaryKey: true},
			{Name: "tot_amt", Type: "numeric(14,2)"},
			{Name: "cust_id", Type: "integer"},
			{Name: "stat", Type: "sales.po_status", EnumLabels: []string{"Open", "Closed"}},
			{Name: "memo", Type: "text"},
			{Name: "xyz", Type: "tsvector"},
		},
		PrimaryKey:  []string{"po_id"},
		ForeignKeys: []schema.ForeignKey{{Columns: []string{"cust_id"}, RefSchema: "sales", RefTable: "customers", RefColumns: []string{"cust_id"}}},
	}
	want := map[string]string{
		"po_id":   "purchase order id (identifier)",
		"tot_amt": "total amount (money)",
		"cust_id": "customer id (foreign key to sales.customers)",
		"stat":    "status (status/category code)",
		"memo":    "memo (free text)",
		"xyz":     "xyz",
	}
	for i := range tb.Columns {
		c := &tb.Columns[i]
		if got := link.ColumnGloss(tb, c); got != want[c.Name] {
			t.Errorf("ColumnGloss(%s) = %q, want %q", c.Name, got, want[c.Name])
		}
	}
	if got := link.TableGloss(tb); got != "purchase order header" {
		t.Errorf("TableGloss = %q", got)
	}
	view := &schema.Table{Schema: "hr", Name: "v_emp_hrs", Kind: schema.KindView}
	if got := link.TableGloss(view); got != "v employee hours (view)" {
		t.Errorf("TableGloss(view) = %q", got)
	}
}
