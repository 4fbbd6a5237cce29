package confidence

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// countryCodes are the ISO 3166-1 codes (alpha-2 and alpha-3, lower case)
// whose letters do not follow their country's English name, which
// abbreviates cannot read off the name: 'DE' and 'DEU' are Germany,
// 'GB' the United Kingdom, 'USA' the United States. Codes that do follow
// the name ('FR', 'NLD') are left to abbreviates' rule. A code is read
// so only where the query compares it with a column that holds a
// country (countryCompared): 'DE' compared with a state is Delaware,
// 'are' with a unit is the unit of area.
var countryCodes = map[string][]string{
	"de": {"germany"}, "deu": {"germany"},
	"es": {"spain"}, "esp": {"spain"},
	"ch": {"switzerland"}, "che": {"switzerland"},
	"gb": {"united kingdom", "britain", "great britain", "uk"}, "gbr": {"united kingdom", "britain", "great britain", "uk"},
	"za": {"south africa"}, "zaf": {"south africa"},
	"hr": {"croatia"}, "hrv": {"croatia"},
	"ae": {"united arab emirates", "uae"}, "are": {"united arab emirates", "uae"},
	"kh": {"cambodia"}, "khm": {"cambodia"},
	"lk": {"sri lanka"}, "lka": {"sri lanka"},
	"kr": {"south korea"}, "kor": {"south korea", "korea"},
	"kp": {"north korea"}, "prk": {"north korea"},
	"dz": {"algeria"}, "dza": {"algeria"},
	"ci": {"ivory coast", "côte d'ivoire", "cote d'ivoire"}, "civ": {"ivory coast", "côte d'ivoire", "cote d'ivoire"},
	"cd": {"democratic republic of the congo"}, "cod": {"democratic republic of the congo"},
	"cf": {"central african republic"}, "caf": {"central african republic"},
	"do": {"dominican republic"}, "dom": {"dominican republic"},
	"sv": {"el salvador"}, "slv": {"el salvador"},
	"ba": {"bosnia and herzegovina"}, "bih": {"bosnia and herzegovina"},
	"mk": {"north macedonia", "macedonia"}, "mkd": {"north macedonia", "macedonia"},
	"gq": {"equatorial guinea"}, "gnq": {"equatorial guinea"},
	"eh": {"western sahara"}, "esh": {"western sahara"},
	"va": {"vatican", "vatican city", "holy see"}, "vat": {"vatican", "vatican city", "holy see"},
	"lc": {"saint lucia"}, "lca": {"saint lucia"},
	"kn": {"saint kitts and nevis"}, "kna": {"saint kitts and nevis"},
	"usa": {"united states", "united states of america", "us"},
}

// countryCompared are the string constants (lower case, no pattern) the
// query compares, in a condition (WHERE, HAVING, a join's ON), with a
// column whose name says it holds a country (country, ctry, nation, an
// ISO code): = or <> one, IN or NOT IN a list of them, the column
// perhaps in lower(), upper() or trim().
func countryCompared(tree *pg_query.ParseResult) map[string]bool {
	out := map[string]bool{}
	if tree == nil {
		return out
	}
	add := func(n *pg_query.Node) {
		if c := pgparse.Uncast(n).GetAConst(); c != nil && c.GetSval() != nil {
			if s := strings.ToLower(strings.TrimSpace(c.GetSval().Sval)); s != "" && !strings.ContainsAny(s, "%_") {
				out[s] = true
			}
		}
	}
	for _, q := range allConditions(tree) {
		pgparse.Walk(q.ProtoReflect(), func(m protoreflect.Message) bool {
			e, ok := m.Interface().(*pg_query.A_Expr)
			if !ok || len(e.Name) != 1 {
				return true
			}
			op := e.Name[0].GetString_().GetSval()
			switch {
			case e.Kind == pg_query.A_Expr_Kind_AEXPR_OP && (op == "=" || op == "<>" || op == "!="):
				if countryColumn(e.Lexpr) {
					add(e.Rexpr)
				}
				if countryColumn(e.Rexpr) {
					add(e.Lexpr)
				}
			case e.Kind == pg_query.A_Expr_Kind_AEXPR_IN && countryColumn(e.Lexpr):
				for _, item := range e.Rexpr.GetList().GetItems() {
					add(item)
				}
			}
			return true
		})
	}
	return out
}

// mayNameCountry reports whether sql may compare a country column at
// all (it writes a string constant and a name countryColumn reads): most
// queries do not, and countryCompared then need not walk their tree.
func mayNameCountry(sql string) bool {
	if !strings.ContainsAny(sql, "'$") {
		return false
	}
	lower := strings.ToLower(sql)
	return strings.Contains(lower, "ctry") || strings.Contains(lower, "cntry") ||
		strings.Contains(lower, "country") || strings.Contains(lower, "nation") || strings.Contains(lower, "iso")
}

// countryColumn reports whether n is a column (perhaps cast, or in
// lower(), upper(), trim()) whose name says it holds a country.
func countryColumn(n *pg_query.Node) bool {
	n = pgparse.Uncast(n)
	if f := n.GetFuncCall(); f != nil && len(f.Args) == 1 {
		switch pgparse.BuiltinName(f) {
		case "lower", "upper", "btrim", "trim":
			n = pgparse.Uncast(f.Args[0])
		}
	}
	ref := n.GetColumnRef()
	if ref == nil || len(ref.Fields) == 0 {
		return false
	}
	for _, t := range gloss.Fields(columnName(ref)) {
		t = strings.ToLower(t)
		// countrycode and homecountry run the word together with
		// another; "destination" holds no nation.
		if countryWords[t] || strings.HasPrefix(t, "country") || strings.HasSuffix(t, "country") {
			return true
		}
	}
	return false
}

// countryWords name a column that holds a country.
var countryWords = map[string]bool{"country": true, "ctry": true, "cntry": true, "nation": true, "nationality": true,
	"iso": true, "iso2": true, "iso3": true}

// countryNamed reports whether the query compares a country's code
// (countryCodes, one of compared) with a country column for the name the
// question writes (any case).
func countryNamed(compared map[string]bool, name string) bool {
	name = strings.ToLower(strings.TrimSpace(name))
	for code := range compared {
		if slices.Contains(countryCodes[code], name) {
			return true
		}
	}
	return false
}
