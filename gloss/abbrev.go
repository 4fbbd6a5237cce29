package gloss

import "strings"

// abbreviations maps ERP naming abbreviations to their English words. Where
// an abbreviation is ambiguous the reading most common in ERP schemas wins
// (inv is invoice, curr is currency, rev is revenue).
var abbreviations = map[string]string{
	"acct": "account", "accts": "accounts", "acc": "account", "accum": "accumulated", "act": "actual",
	"addr": "address", "adj": "adjustment", "amt": "amount", "ap": "accounts payable", "ar": "accounts receivable",
	"attr": "attribute", "avg": "average", "bal": "balance", "bldg": "building", "bom": "bill of materials",
	"bu": "business unit", "bud": "budget", "bgt": "budget", "calc": "calculated", "cat": "category",
	"cc": "cost center", "ccy": "currency", "cd": "code", "cert": "certificate", "chg": "change",
	"cls": "class", "cmt": "comment", "cnt": "count", "co": "company", "coa": "chart of accounts",
	"cogs": "cost of goods sold", "comm": "commission", "cntry": "country", "ctry": "country",
	"cr": "credit", "crt": "created", "curr": "currency", "cust": "customer", "custs": "customers",
	"db": "debit", "del": "deleted", "depr": "depreciation", "dept": "department", "depts": "departments",
	"desc": "description", "descr": "description", "dim": "dimension", "disc": "discount", "div": "division",
	"dlv": "delivery", "dlvr": "delivery", "doc": "document", "dob": "date of birth", "dst": "destination",
	"dt": "date", "dtl": "detail", "dtls": "details", "eff": "effective", "emp": "employee", "empl": "employee",
	"emps": "employees", "equip": "equipment", "est": "estimated", "eta": "estimated time of arrival",
	"exch": "exchange", "ext": "external", "fa": "fixed asset", "fcst": "forecast", "flg": "flag",
	"fname": "first name", "fx": "foreign exchange", "fy": "fiscal year", "gl": "general ledger",
	"grp": "group", "grs": "gross", "hdr": "header", "hr": "human resources", "hrs": "hours", "ht": "height",
	"ic": "intercompany", "img": "image", "ind": "indicator", "inv": "invoice", "invs": "invoices",
	"itm": "item", "je": "journal entry", "jnl": "journal", "lang": "language", "lat": "latitude",
	"ledg": "ledger", "lic": "license", "ln": "line", "lname": "last name", "lng": "longitude",
	"loc": "location", "lon": "longitude", "lvl": "level", "maint": "maintenance", "max": "maximum",
	"mfg": "manufacturing", "mfr": "manufacturer", "mgr": "manager", "min": "minimum", "mname": "middle name",
	"mo": "month", "mod": "modified", "msg": "message", "mth": "month", "mtd": "month to date",
	"nbr": "number", "nbv": "net book value", "nm": "name", "no": "number", "num": "number",
	"opp": "opportunity", "oppty": "opportunity", "ord": "order", "org": "organization", "orgs": "organizations",
	"pct": "percent", "ph": "phone", "pkg": "package", "pmt": "payment", "pmts": "payments", "po": "purchase order",
	"pos": "position", "pri": "priority", "prio": "priority", "prod": "product", "prods": "products",
	"proj": "project", "projs": "projects", "prc": "price", "px": "price", "qtd": "quarter to date",
	"qty": "quantity", "qtr": "quarter", "rcpt": "receipt", "rcv": "received", "recv": "received",
	"ref": "reference", "reg": "region", "rev": "revenue", "rgn": "region", "rm": "room", "rmk": "remark",
	"rma": "return merchandise authorization", "sal": "salary", "sched": "schedule", "seq": "sequence",
	"shp": "ship", "shpt": "shipment", "sku": "stock keeping unit", "so": "sales order", "src": "source",
	"ssn": "social security number", "stat": "status", "std": "standard", "supp": "supplier",
	"sup": "supervisor", "svc": "service", "tel": "telephone", "terr": "territory", "tgt": "target",
	"tot": "total", "trans": "transaction", "trx": "transaction", "ts": "timestamp", "txn": "transaction",
	"txns": "transactions", "typ": "type", "tz": "time zone", "uom": "unit of measure", "upd": "updated",
	"usr": "user", "val": "value", "veh": "vehicle", "vend": "vendor", "vndr": "vendor", "vol": "volume",
	"wh": "warehouse", "whse": "warehouse", "wk": "week", "wo": "work order", "wt": "weight", "yn": "yes no",
	"yr": "year", "yrs": "years", "ytd": "year to date",
}

// vocabulary holds plain English words common in ERP identifiers; glued
// identifiers ("orderdate") are segmented only into known words.
var vocabulary = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`id key name code date time type status amount number total price cost order
		customer product item line user first last middle full zip post postal email phone address city state country
		region created updated modified deleted by at on is has flag active start end due paid ship shipped bill billing
		ref count rate unit value level group class category manager employee account invoice payment hire birth tax
		discount year month day week quarter balance credit debit currency owner title description note notes comment
		text sales sale purchase vendor supplier warehouse location stock stage deal lead close closed open expected
		actual budget plan project task hours hour salary timestamp datetime uuid guid label kind mode method source
		channel valid from to list unit units head count headcount login logon email mail parent child seq sort
		expiry expire expires expiration effective period fiscal calendar journal entry ledger asset assets fixed
		contract contact company department office branch site plant region territory segment industry tier grade
		priority priority note remark remarks memo reason approved approval approver request requested received
		receipt return returned cancel cancelled canceled complete completed net gross weight volume size color
		street house phone mobile fax web url tracking carrier route batch lot serial version revision
		model art common weekend`) {
		m[w] = true
	}
	for _, exp := range abbreviations {
		for _, w := range strings.Fields(exp) {
			m[w] = true
		}
	}
	return m
}()
