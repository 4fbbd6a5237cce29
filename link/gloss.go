package link

import (
	"strings"
	"unicode/utf8"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// Semantic is a hint about what a column holds, inferred from its name and type.
type Semantic string

// Semantic hints. The empty Semantic means nothing could be inferred.
const (
	SemIdentifier   Semantic = "identifier"
	SemForeignKey   Semantic = "foreign key"
	SemMoney        Semantic = "money"
	SemQuantity     Semantic = "quantity"
	SemCount        Semantic = "count"
	SemPercentage   Semantic = "percentage"
	SemDate         Semantic = "date"
	SemTimestamp    Semantic = "timestamp"
	SemYear         Semantic = "year"
	SemFlag         Semantic = "flag"
	SemCode         Semantic = "status/category code"
	SemName         Semantic = "name"
	SemEmail        Semantic = "email"
	SemPhone        Semantic = "phone"
	SemAddress      Semantic = "address"
	SemCountryCode  Semantic = "country code"
	SemCurrencyCode Semantic = "currency code"
	SemFreeText     Semantic = "free text"
)

// typeClass is the coarse family of a PostgreSQL type.
type typeClass int

const (
	tcOther typeClass = iota
	tcInt
	tcNumeric
	tcMoney
	tcText
	tcShortChar // char(n)/varchar(n) with n <= 3
	tcBool
	tcDate
	tcTimestamp
	tcUUID
	tcArray
)

func classify(sqlType string) typeClass {
	t := strings.ToLower(strings.TrimSpace(sqlType))
	if strings.HasSuffix(t, "[]") {
		return tcArray
	}
	base, arg := t, ""
	if i := strings.IndexByte(t, '('); i >= 0 {
		base = strings.TrimSpace(t[:i])
		if j := strings.IndexByte(t[i:], ')'); j > 0 {
			arg = t[i+1 : i+j]
		}
		base += t[i+strings.IndexByte(t[i:], ')')+1:] // "timestamp(3) with time zone"
		base = strings.TrimSpace(base)
	}
	switch {
	case base == "smallint" || base == "integer" || base == "bigint" || base == "int2" || base == "int4" || base == "int8" || base == "int" || base == "serial" || base == "bigserial":
		return tcInt
	case base == "numeric" || base == "decimal" || base == "real" || base == "double precision" || base == "float4" || base == "float8":
		return tcNumeric
	case base == "money":
		return tcMoney
	case base == "boolean" || base == "bool":
		return tcBool
	case base == "date":
		return tcDate
	case strings.HasPrefix(base, "timestamp"):
		return tcTimestamp
	case base == "uuid":
		return tcUUID
	case base == "character varying" || base == "varchar" || base == "character" || base == "char" || base == "bpchar" || base == "\"char\"":
		if arg != "" && len(arg) == 1 && arg[0] >= '1' && arg[0] <= '3' {
			return tcShortChar
		}
		return tcText
	case base == "text" || base == "citext" || base == "name":
		return tcText
	}
	return tcOther
}

// InferSemantic guesses what a column holds from its name and SQL type
// (format_type spelling). Keys known from constraints are the business of
// ColumnSemantic; this looks at the name and type alone.
func InferSemantic(name, sqlType string) Semantic {
	return inferWords(gloss.Words(name), classify(sqlType), false)
}

// ColumnSemantic is InferSemantic refined with the table's keys and enum
// labels: primary key columns are identifiers, foreign key columns foreign
// keys, enum columns codes.
func ColumnSemantic(t *schema.Table, c *schema.Column) Semantic {
	if fkOf(t, c.Name) != nil {
		return SemForeignKey
	}
	if c.PrimaryKey {
		return SemIdentifier
	}
	return inferWords(gloss.Words(c.Name), classify(c.Type), len(c.EnumLabels) > 0)
}

// fkOf returns the single-column foreign key on column name, or nil.
func fkOf(t *schema.Table, name string) *schema.ForeignKey {
	for i := range t.ForeignKeys {
		fk := &t.ForeignKeys[i]
		for _, c := range fk.Columns {
			if c == name {
				return fk
			}
		}
	}
	return nil
}

func inferWords(words []string, tc typeClass, enum bool) Semantic {
	has := func(ws ...string) bool {
		for _, w := range words {
			for _, x := range ws {
				if w == x {
					return true
				}
			}
		}
		return false
	}
	last := ""
	if len(words) > 0 {
		last = words[len(words)-1]
	}
	numeric := tc == tcInt || tc == tcNumeric || tc == tcMoney
	text := tc == tcText || tc == tcShortChar
	switch {
	case tc == tcArray:
		return ""
	case tc == tcBool:
		return SemFlag
	case has("email", "mail") && !numeric:
		return SemEmail
	case has("phone", "telephone", "fax", "mobile", "cell") && !numeric:
		return SemPhone
	case tc == tcDate:
		return SemDate
	case tc == tcTimestamp:
		return SemTimestamp
	case tc == tcUUID:
		return SemIdentifier
	case tc == tcMoney:
		return SemMoney
	case (last == "year" || has("fy")) && (tc == tcInt || tc == tcShortChar || text):
		return SemYear
	case numeric && has("percent", "percentage", "ratio", "pct"):
		return SemPercentage
	case numeric && has("rate") && has("tax", "discount", "interest", "commission", "growth", "margin", "vacancy", "utilization", "churn"):
		return SemPercentage
	case numeric && (has("count", "headcount") || (has("number") && has("of"))):
		return SemCount
	case numeric && has("quantity", "units", "hours", "weight", "volume", "onhand", "stock") && !has("price", "cost", "amount"):
		return SemQuantity
	case numeric && has("amount", "price", "cost", "balance", "salary", "wage", "revenue", "fee", "tax", "payment",
		"budget", "discount", "credit", "debit", "spend", "income", "expense", "margin", "profit", "pay", "commission",
		"subtotal", "charge", "total", "value", "bonus", "freight", "rent"):
		return SemMoney
	case (last == "id" || last == "key" || last == "uuid" || last == "guid") && (numeric || text || tc == tcOther):
		return SemIdentifier
	case tc == tcInt && (last == "number" || last == "no" || last == "sequence"):
		return SemIdentifier
	case (text || enum) && has("country") && (tc == tcShortChar || has("code", "iso")):
		return SemCountryCode
	case (text || enum) && has("currency") && (tc == tcShortChar || has("code", "iso") || len(words) == 1):
		return SemCurrencyCode
	case enum:
		return SemCode
	case text && has("address", "street", "city", "zip", "postal", "postcode", "province", "country", "suburb"):
		return SemAddress
	case text && has("status", "stage", "state", "type", "category", "class", "kind", "code", "level", "tier",
		"priority", "segment", "grade", "method", "mode", "channel", "source", "gender", "industry", "region", "unit"):
		return SemCode
	case text && (last == "number" || last == "reference"):
		return SemIdentifier
	case text && has("name", "title", "label"):
		return SemName
	case text && has("date"):
		return SemDate
	case tc == tcText:
		return SemFreeText
	}
	return ""
}

// ColumnGloss is a short English reading of a column for retrieval
// documents and prompts, e.g. "total amount (money)" for tot_amt numeric,
// "customer id (foreign key to sales.customers)" for a foreign key column.
func ColumnGloss(t *schema.Table, c *schema.Column) string {
	text := gloss.Text(c.Name)
	if fk := fkOf(t, c.Name); fk != nil {
		return text + " (foreign key to " + fk.Ref() + ")"
	}
	if s := ColumnSemantic(t, c); s != "" {
		return text + " (" + string(s) + ")"
	}
	return text
}

// TableGloss is a short English reading of a table name, e.g. "purchase
// order header" for po_hdr; views are marked "(view)".
func TableGloss(t *schema.Table) string {
	text := gloss.Text(t.Name)
	switch t.Kind {
	case schema.KindView, schema.KindMaterializedView:
		text += " (view)"
	}
	return text
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }
