package link_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/schema"
)

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want string // words joined by "|"
	}{
		{"tot_amt", "tot|amt"},
		{"TotAmt", "tot|amt"},
		{"totAmt", "tot|amt"},
		{"TOT_AMT", "tot|amt"},
		{"HTTPServer", "http|server"},
		{"POLineNbr", "po|line|nbr"},
		{"addr2", "addr|2"},
		{"addr_line_2", "addr|line|2"},
		{"line1Amt", "line|1|amt"},
		{"q3_rev", "q|3|rev"},
		{"__weird__name__", "weird|name"},
		{"order-date", "order|date"},
		{"custno", "cust|no"},
		{"orderdate", "order|date"},
		{"empid", "emp|id"},
		{"isactive", "is|active"},
		{"firstname", "first|name"},
		{"glacct", "gl|acct"},
		{"notes", "notes"},         // not "no"+"tes"
		{"status", "status"},       // known word, never split
		{"inventory", "inventory"}, // "inv"+"entory" is not two words
		{"category", "category"},
		{"Straße", "straße"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(link.Words(tt.in), "|"); got != tt.want {
			t.Errorf("Words(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestGloss(t *testing.T) {
	tests := []struct{ in, want string }{
		{"tot_amt", "total amount"},
		{"qty", "quantity"},
		{"qty_on_hand", "quantity on hand"},
		{"unit_prc", "unit price"},
		{"inv_nbr", "invoice number"},
		{"po_no", "purchase order number"},
		{"PONum", "purchase order number"},
		{"so_id", "sales order id"},
		{"cust_id", "customer id"},
		{"CustName", "customer name"},
		{"cust_nm", "customer name"},
		{"dept_cd", "department code"},
		{"emp_mgr_id", "employee manager id"},
		{"hire_dt", "hire date"},
		{"upd_ts", "updated timestamp"},
		{"created_at", "created at"},
		{"disc_pct", "discount percent"},
		{"ytd_sales", "year to date sales"},
		{"mtd_rev", "month to date revenue"},
		{"uom", "unit of measure"},
		{"sku", "stock keeping unit"},
		{"acct_bal", "account balance"},
		{"gl_acct_no", "general ledger account number"},
		{"ap_inv", "accounts payable invoice"},
		{"ar_bal", "accounts receivable balance"},
		{"fy", "fiscal year"},
		{"fy2024", "fiscal year 2024"},
		{"whse_loc", "warehouse location"},
		{"wh_id", "warehouse id"},
		{"vend_id", "vendor id"},
		{"vndr_nm", "vendor name"},
		{"supp_id", "supplier id"},
		{"prod_cat", "product category"},
		{"stat_cd", "status code"},
		{"seq_no", "sequence number"},
		{"ref_no", "reference number"},
		{"curr_cd", "currency code"},
		{"exch_rt", "exchange rt"}, // "rt" is not in the dictionary: left alone
		{"exch_rate", "exchange rate"},
		{"txn_dt", "transaction date"},
		{"org_id", "organization id"},
		{"proj_mgr", "project manager"},
		{"asset_id", "asset id"},
		{"depr_amt", "depreciation amount"},
		{"accum_depr", "accumulated depreciation"},
		{"hr_dept", "human resources department"},
		{"ship_addr", "ship address"},
		{"item_desc", "item description"},
		{"dob", "date of birth"},
		{"ln_nbr", "line number"},
		{"po_hdr", "purchase order header"},
		{"po_dtl", "purchase order detail"},
		{"bom_lvl", "bill of materials level"},
		{"wo_qty", "work order quantity"},
		{"cogs_amt", "cost of goods sold amount"},
		{"fcst_qty", "forecast quantity"},
		{"avg_cost", "average cost"},
		{"max_qty", "maximum quantity"},
		{"cnt", "count"},
		{"eff_dt", "effective date"},
		{"pmt_terms", "payment terms"},
		{"rcpt_dt", "receipt date"},
		{"ctry_cd", "country code"},
		{"tel_no", "telephone number"},
		{"sal_amt", "salary amount"},
		{"emp_fname", "employee first name"},
		{"custno", "customer number"},
		{"invoicenbr", "invoice number"},
		{"CostCtr", "cost ctr"},
		{"cc_id", "cost center id"},
		{"paid_flg", "paid flag"},
		{"yr", "year"},
		{"qtr", "quarter"},
		{"customers", "customers"},
		{"order_lines", "order lines"},
	}
	if len(tests) < 60 {
		t.Fatalf("want at least 60 cases, have %d", len(tests))
	}
	for _, tt := range tests {
		if got := link.Gloss(tt.in).Text(); got != tt.want {
			t.Errorf("Gloss(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	g := link.Gloss("PONbr")
	if !reflect.DeepEqual(g.Parts, []string{"po", "nbr"}) || !reflect.DeepEqual(g.Words, []string{"purchase", "order", "number"}) {
		t.Errorf("Gloss(PONbr) = %+v", g)
	}
}

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
