package repair

import (
	"strings"
	"unicode"

	"github.com/agnivade/levenshtein"
)

// Name matching: an LLM writes customer_name where the column is cust_nm,
// or qty for quantity. Names are split into words, words are expanded
// through abbreviations (built-in plus the injected glosser), and the word
// sets are compared; a plain edit distance covers typos.

// abbreviations maps common abbreviations in column names to a full word.
var abbreviations = map[string]string{
	"cust": "customer", "cus": "customer", "nm": "name", "nme": "name", "qty": "quantity", "amt": "amount",
	"no": "number", "num": "number", "nbr": "number", "nr": "number", "dt": "date", "ts": "timestamp",
	"desc": "description", "descr": "description", "addr": "address", "prod": "product", "cat": "category",
	"emp": "employee", "empl": "employee", "dept": "department", "dep": "department", "inv": "invoice",
	"ord": "order", "pct": "percent", "tot": "total", "prc": "price", "sup": "supplier", "supp": "supplier",
	"acct": "account", "acc": "account", "bal": "balance", "wh": "warehouse", "whse": "warehouse",
	"loc": "location", "mgr": "manager", "cnt": "count", "ctry": "country", "cntry": "country",
	"st": "status", "stat": "status", "sts": "status", "yr": "year", "mo": "month", "mth": "month",
	"dob": "birth", "tel": "phone", "ph": "phone", "fname": "first", "lname": "last", "id": "id",
	"crt": "created", "upd": "updated", "ref": "reference", "curr": "currency", "ccy": "currency",
	"avg": "average", "min": "minimum", "max": "maximum", "sal": "salary", "hr": "hour", "hrs": "hours",
	"txn": "transaction", "trx": "transaction", "pmt": "payment", "pymt": "payment", "vend": "vendor",
}

// splitWords splits an identifier on '_', digits and camelCase, lower-cased.
func splitWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == '_' || r == ' ' || r == '-' || r == '.':
			flush()
		case unicode.IsUpper(r):
			if i > 0 && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))) {
				flush()
			}
			cur = append(cur, unicode.ToLower(r))
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

// singular strips a plural ending.
func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "ses") || strings.HasSuffix(w, "xes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

// matcher scores how well a wanted name matches a candidate name. The
// caches hold the words and word forms of every catalog name, computed
// once by New (read-only afterwards, so safe for concurrent use).
type matcher struct {
	gloss func(string) []string
	words map[string][]string // name → splitWords(name)
	forms map[string][]string // word → canonForms(word)
}

func newMatcher(gloss func(string) []string, catalogNames []string) matcher {
	m := matcher{gloss: gloss, words: map[string][]string{}, forms: map[string][]string{}}
	for _, n := range catalogNames {
		ws := splitWords(n)
		m.words[n] = ws
		for _, w := range ws {
			if _, ok := m.forms[w]; !ok {
				m.forms[w] = m.canonForms(w)
			}
		}
	}
	return m
}

func (m matcher) split(name string) []string {
	if ws, ok := m.words[name]; ok {
		return ws
	}
	return splitWords(name)
}

func (m matcher) canon(w string) []string {
	if f, ok := m.forms[w]; ok {
		return f
	}
	return m.canonForms(w)
}

// canonForms returns the forms a word may stand for.
func (m matcher) canonForms(w string) []string {
	forms := []string{singular(w)}
	if full, ok := abbreviations[w]; ok {
		forms = append(forms, full)
	}
	if m.gloss != nil {
		for _, g := range m.gloss(w) {
			forms = append(forms, singular(strings.ToLower(g)))
		}
	}
	return forms
}

// wordScore compares two words in [0, 1].
func (m matcher) wordScore(a, b string) float64 {
	if a == b {
		return 1
	}
	ca, cb := m.canon(a), m.canon(b)
	for _, x := range ca {
		for _, y := range cb {
			if x == y {
				return 1
			}
		}
	}
	if abbrev(a, b) || abbrev(b, a) {
		return 0.85
	}
	if s := similarity(singular(a), singular(b)); s >= 0.75 {
		return s * 0.9
	}
	return 0
}

// abbrev reports whether short abbreviates long: a prefix of at least two
// letters, or its consonant skeleton ("nm" for "name", "qty" for "quantity").
func abbrev(short, long string) bool {
	if len(short) < 2 || len(short) >= len(long) || short[0] != long[0] {
		return false
	}
	if strings.HasPrefix(long, short) {
		return true
	}
	// subsequence with the same first letter
	j := 0
	for i := 0; i < len(long) && j < len(short); i++ {
		if long[i] == short[j] {
			j++
		}
	}
	return j == len(short) && len(short) >= 2
}

func similarity(a, b string) float64 {
	if a == "" || b == "" {
		return 0
	}
	n := max(len([]rune(a)), len([]rune(b)))
	return 1 - float64(levenshtein.ComputeDistance(a, b))/float64(n)
}

// setScore compares two word lists (average of best matches both ways).
func (m matcher) setScore(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	sum := 0.0
	for _, x := range a {
		sum += m.best(x, b)
	}
	for _, y := range b {
		sum += m.best(y, a)
	}
	return sum / float64(len(a)+len(b))
}

// best returns the best score of word x against the words ys.
func (m matcher) best(x string, ys []string) float64 {
	b := 0.0
	for _, y := range ys {
		b = max(b, m.wordScore(x, y))
	}
	return b
}

// score rates candidate as a replacement for wanted; context holds words of
// the candidate's table, which a wanted name may carry ("customer_name"
// for customers.name).
func (m matcher) score(wanted, candidate string, context []string) float64 {
	lw, lc := strings.ToLower(wanted), strings.ToLower(candidate)
	if lw == lc {
		return 1
	}
	s := similarity(lw, lc)
	ww, cw := m.split(wanted), m.split(candidate)
	ww, cw = dropFlagPrefix(ww, cw), dropFlagPrefix(cw, ww)
	s = max(s, m.setScore(ww, cw))
	if len(context) > 0 && len(ww) > len(cw) {
		// Only the wanted words not matched by the candidate may come from
		// the table name, and every candidate word must be matched.
		withCtx := append(append([]string(nil), cw...), context...)
		cov := 0.0
		for _, x := range ww {
			cov += m.best(x, withCtx)
		}
		if cov/float64(len(ww)) >= 0.99 && m.covers(ww, cw) {
			s = max(s, 0.9)
		}
	}
	return s
}

// covers reports whether every word of b is matched by a word of a.
func (m matcher) covers(a, b []string) bool {
	for _, y := range b {
		if m.best(y, a) < 0.85 {
			return false
		}
	}
	return true
}

// dropFlagPrefix removes a boolean "is"/"has" prefix word from a when b
// lacks it: paid and is_paid name the same flag.
func dropFlagPrefix(a, b []string) []string {
	if len(a) > 1 && (a[0] == "is" || a[0] == "has") && (len(b) == 0 || b[0] != a[0]) {
		return a[1:]
	}
	return a
}
