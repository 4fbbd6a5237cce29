package gloss_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
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
		{"IDs", "ids"}, // an acronym's plural, not "i"+"ds"
		{"doctorIDs", "doctor|ids"},
		{"URLsPerHost", "urls|per|host"},
		{"HTTPSender", "http|sender"},
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
		{"notes", "notes"},           // not "no"+"tes"
		{"model_list", "model|list"}, // not "mo"+"del": "month deleted"
		{"modelid", "model|id"},
		{"posts", "posts"}, // a plural of a known word, not "pos"+"ts"
		{"arts", "arts"},
		{"common", "common"},
		{"weekend", "weekend"},     // not "week"+"end"
		{"status", "status"},       // known word, never split
		{"inventory", "inventory"}, // "inv"+"entory" is not two words
		{"category", "category"},
		{"Straße", "straße"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(gloss.Split(tt.in), "|"); got != tt.want {
			t.Errorf("Split(%q) = %q, want %q", tt.in, got, tt.want)
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
		{"model_list", "model list"}, // not "month deleted list"
		{"modelid", "model id"},
		{"custno", "customer number"},
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
		if got := gloss.Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if p, w := gloss.Split("PONbr"), gloss.Words("PONbr"); !reflect.DeepEqual(p, []string{"po", "nbr"}) || !reflect.DeepEqual(w, []string{"purchase", "order", "number"}) {
		t.Errorf("PONbr: Split %q, Words %q", p, w)
	}
}

func TestAbbreviations(t *testing.T) {
	g := gloss.Abbreviations(map[string]string{"CTR": "Contract", "inv": "inventory"})
	for in, want := range map[string]string{
		"ctr_sgn_dt": "contract sgn date",  // added, next to built-in ones
		"inv_qty":    "inventory quantity", // wins over the built-in "invoice"
		"CostCtr":    "cost contract",
	} {
		if got := strings.Join(g(in), " "); got != want {
			t.Errorf("Abbreviations(...)(%q) = %q, want %q", in, got, want)
		}
	}
	if got := gloss.Text("inv_qty"); got != "invoice quantity" {
		t.Errorf("Abbreviations changed the default: %q", got)
	}
}

func BenchmarkWords(b *testing.B) {
	names := []string{"tot_amt", "POLineNbr", "custno", "gl_acct_no", "qty_on_hand", "HTTPServerLogEntry", "ytd_sales", "whse_loc_cd"}
	i := 0
	for b.Loop() {
		gloss.Words(names[i%len(names)])
		i++
	}
}
