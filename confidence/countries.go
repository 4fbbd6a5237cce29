package confidence

// countryCodes are the ISO 3166-1 codes (alpha-2 and alpha-3, lower case)
// whose letters do not follow their country's English name, which
// abbreviates cannot read off the name: 'DE' and 'DEU' are Germany,
// 'GB' the United Kingdom, 'USA' the United States. Codes that do follow
// the name ('FR', 'NLD') are left to abbreviates' rule.
var countryCodes = map[string][]string{
	"de": {"germany"}, "deu": {"germany"},
	"es": {"spain"}, "esp": {"spain"},
	"ch": {"switzerland"}, "che": {"switzerland"},
	"gb": {"united kingdom", "britain"}, "gbr": {"united kingdom", "britain", "great britain"},
	"za": {"south africa"}, "zaf": {"south africa"},
	"hr": {"croatia"}, "hrv": {"croatia"},
	"ae": {"united arab emirates"}, "are": {"united arab emirates"},
	"kh": {"cambodia"}, "khm": {"cambodia"},
	"lk": {"sri lanka"}, "lka": {"sri lanka"},
	"kr": {"south korea"}, "kor": {"south korea", "korea"},
	"kp": {"north korea"}, "prk": {"north korea"},
	"dz": {"algeria"}, "dza": {"algeria"},
	"ci": {"ivory coast", "côte d'ivoire"}, "civ": {"ivory coast", "côte d'ivoire"},
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
	"usa": {"united states", "united states of america", "america"},
}
