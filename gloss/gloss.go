package gloss

import "strings"

// A Glosser reads an identifier, or a single word of one, as lower-case
// English words: "tot_amt" as "total", "amount". Words is the default of
// every package that takes one (link, retrieve and repair, each through its
// WithGlosser option); Abbreviations builds one that also knows a
// database's own abbreviations. A Glosser must be safe for concurrent use
// and must not modify the slices it returns after returning them.
type Glosser func(identifier string) []string

// Words is the ERP-aware Glosser: it splits identifier (Split) and
// replaces each part that is a known ERP abbreviation by its words, so
// Words("tot_amt") is "total", "amount" and Words("PONbr") is "purchase",
// "order", "number". Parts it does not know are kept as they are.
func Words(identifier string) []string {
	return expand(identifier, nil)
}

// Text is Words joined by spaces: Text("tot_amt") is "total amount".
func Text(identifier string) string {
	return strings.Join(Words(identifier), " ")
}

// Abbreviations returns Words with the abbreviations of m added to the
// built-in ERP ones, and winning over them: Abbreviations(map[string]string{
// "ctr": "contract"}) reads "ctr_end_dt" as "contract end date". Keys and
// values are lower-cased; a value may be several words. m is copied.
func Abbreviations(m map[string]string) Glosser {
	extra := make(map[string]string, len(m))
	for k, v := range m {
		extra[strings.ToLower(k)] = strings.ToLower(v)
	}
	return func(identifier string) []string { return expand(identifier, extra) }
}

func expand(identifier string, extra map[string]string) []string {
	var out []string
	for _, p := range Split(identifier) {
		exp, ok := extra[p]
		if !ok {
			exp, ok = abbreviations[p]
		}
		if ok {
			out = append(out, strings.Fields(exp)...)
		} else {
			out = append(out, p)
		}
	}
	return out
}
