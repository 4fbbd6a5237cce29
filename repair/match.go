package repair

import (
	"strings"
	"unicode"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// Name matching: an LLM writes customer_name where the column is cust_nm,
// or qty for quantity. Names are split into words, words are expanded
// through abbreviations (built-in plus the injected glosser), and the word
// lists are compared; an edit distance that counts a transposition once
// covers typos.
//
// Two measures: rank, a discrete strength deciding whether a name may be
// replaced at all (and which of several candidates wins: only a strictly
// stronger one), and loose/score, a weaker resemblance only ever reported
// as a candidate.

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
	"cd": "code",
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
	gloss gloss.Glosser
	words map[string][]string // name → splitWords(name)
	forms map[string][]string // word → canonForms(word)
}

func newMatcher(g gloss.Glosser, catalogNames []string) matcher {
	m := matcher{gloss: g, words: map[string][]string{}, forms: map[string][]string{}}
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

// names returns the catalog names the matcher was built for.
func (m matcher) names() []string {
	out := make([]string, 0, len(m.words))
	for n := range m.words {
		out = append(out, n)
	}
	return out
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
	return 1 - float64(osa(a, b))/float64(n)
}

// osa returns the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of two adjacent letters
// each cost 1, so "nmae" is one edit from "name" (plain Levenshtein counts
// two, which puts the commonest typo of a model on par with a different
// word).
func osa(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	m := len(rb)
	prev2, prev, cur := make([]int, m+1), make([]int, m+1), make([]int, m+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= m; j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[m]
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

// rank is how strongly a written name stands for a catalog name; lower is
// stronger. A fix needs a rank below rankNone, and a rank no other
// candidate shares: a tie is a choice the repairer does not make.
type rank int

const (
	rankExact   rank = iota // the same name but for case
	rankWords               // the same words up to abbreviations, glosses, plurals and an is_/has_ prefix
	rankTypo                // one edit away (a swap of two letters counts once), in the name or in its words
	rankAbbrev              // a word cut to a prefix or its consonants, or two edits in a long name
	rankNamed               // the candidate with its table's name in front: customer_name for customers.name
	rankImplied             // the candidate without its table's name: name for customers.customer_name
	rankNone
)

// wordRank compares two words.
func (m matcher) wordRank(a, b string) rank {
	if a == b {
		return rankExact
	}
	ca, cb := m.canon(a), m.canon(b)
	for _, x := range ca {
		for _, y := range cb {
			if x == y {
				return rankWords
			}
		}
	}
	// A typo of the word or of what it abbreviates ("custmer" for cust).
	for _, x := range append([]string{a}, ca...) {
		for _, y := range append([]string{b}, cb...) {
			if min(len(x), len(y)) >= 4 && osa(x, y) == 1 {
				return rankTypo
			}
		}
	}
	// Two letters abbreviate too many words (at: amount, address...): only
	// the listed ones count (nm, dt, no...), through canon above.
	if min(len(a), len(b)) >= 3 && (abbrev(a, b) || abbrev(b, a)) {
		return rankAbbrev
	}
	return rankNone
}

// pair matches every word of a with a distinct word of b no weaker than
// limit, greedily in a's order (the best match first, the earlier word of b
// on a tie). It returns the weakest match and the words of b left over.
func (m matcher) pair(a, b []string, limit rank) (rank, []string, bool) {
	used := make([]bool, len(b))
	worst := rankExact
	for _, x := range a {
		bi, br := -1, rankNone
		for j, y := range b {
			if used[j] {
				continue
			}
			if r := m.wordRank(x, y); r <= limit && r < br {
				bi, br = j, r
			}
		}
		if bi < 0 {
			return rankNone, nil, false
		}
		used[bi] = true
		worst = max(worst, br)
	}
	var rest []string
	for j, y := range b {
		if !used[j] {
			rest = append(rest, y)
		}
	}
	return worst, rest, true
}

// nameWords returns the lower-cased words of a name without a leading is/has.
func (m matcher) nameWords(name string) []string {
	return dropFlagPrefix(m.split(name), nil)
}

// rank rates candidate as what wanted means. ctx holds the words of the
// candidate's table (nil for tables and derived tables): a column name may
// carry them (customer_name for customers.name) or drop them (name for
// customers.customer_name), but only all of them (id is not order_id in
// order_lines).
func (m matcher) rank(wanted, candidate string, ctx []string) rank {
	lw, lc := strings.ToLower(wanted), strings.ToLower(candidate)
	if lw == lc {
		return rankExact
	}
	best := rankNone
	ww, cw := m.nameWords(wanted), m.nameWords(candidate)
	if len(ww) == len(cw) {
		if worst, _, ok := m.pair(ww, cw, rankAbbrev); ok {
			best = max(worst, rankWords)
		}
	}
	n := min(len([]rune(lw)), len([]rune(lc)))
	switch d := osa(lw, lc); {
	case d == 1 && n >= 4:
		best = min(best, rankTypo)
	case d == 2 && n >= 8:
		best = min(best, rankAbbrev)
	}
	if best < rankNone || len(ctx) == 0 {
		return best
	}
	if len(ww) > len(cw) {
		if _, rest, ok := m.pair(cw, ww, rankAbbrev); ok && len(rest) == len(ctx) {
			if _, _, ok := m.pair(rest, ctx, rankAbbrev); ok {
				return rankNamed
			}
		}
	}
	if len(cw) > len(ww) {
		if _, rest, ok := m.pair(ww, cw, rankAbbrev); ok && len(rest) == len(ctx) {
			if _, _, ok := m.pair(rest, ctx, rankAbbrev); ok {
				return rankImplied
			}
		}
	}
	return rankNone
}

// loose reports a resemblance too weak to act on but worth naming as a
// candidate (and enough to doubt that a name is a phantom or that another
// table is meant): every word of the name found in a longer one (total in
// total_amt, shipped in shipped_at), the same words with a few edits each
// (hiring_date for hire_dt), or two edits in all. A shorter candidate
// (name for dept_name) is no such doubt: the words it lacks say where the
// name belongs, which is what rankNamed weighs.
func (m matcher) loose(wanted, candidate string) bool {
	ww, cw := m.nameWords(wanted), m.nameWords(candidate)
	if len(ww) < len(cw) {
		if _, _, ok := m.pair(ww, cw, rankAbbrev); ok {
			return true
		}
	}
	if len(ww) == len(cw) && len(ww) > 1 {
		ok := true
		for i := range ww {
			ok = ok && m.looseWord(ww[i], cw[i])
		}
		if ok {
			return true
		}
	}
	lw, lc := strings.ToLower(wanted), strings.ToLower(candidate)
	return min(len([]rune(lw)), len([]rune(lc))) >= 5 && osa(lw, lc) <= 2
}

// within reports whether every word of wanted is in candidate, which has
// more (date in due_date, id in manager_id).
func (m matcher) within(wanted, candidate string) bool {
	ww, cw := m.nameWords(wanted), m.nameWords(candidate)
	if len(ww) >= len(cw) {
		return false
	}
	_, _, ok := m.pair(ww, cw, rankAbbrev)
	return ok
}

// looseWord compares two words loosely: a rank, two edits, or one edit
// between their stems (hiring, hire).
func (m matcher) looseWord(a, b string) bool {
	if m.wordRank(a, b) <= rankAbbrev || min(len(a), len(b)) >= 4 && osa(a, b) <= 2 {
		return true
	}
	sa, sb := stem(a), stem(b)
	return min(len(sa), len(sb)) >= 3 && osa(sa, sb) <= 1
}

// stem drops one inflection ending: hiring, hired, hires, hire → hir.
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s", "e"} {
		if r, ok := strings.CutSuffix(w, suf); ok && len(r) >= 3 {
			return r
		}
	}
	return w
}

// genericWords name what every table has: a name made of them says nothing
// about which table it belongs to.
var genericWords = map[string]bool{
	"id": true, "name": true, "title": true, "label": true, "status": true, "state": true, "type": true, "kind": true,
	"code": true, "description": true, "note": true, "comment": true, "date": true, "time": true, "timestamp": true,
	"created": true, "updated": true, "modified": true, "active": true, "number": true, "value": true, "flag": true,
	"at": true, "on": true, "by": true,
}

// generic reports a name made only of generic words (name, status,
// created_at): a column of a neighbour matching it is that neighbour's name
// or status, and joining it would guess whose.
func (m matcher) generic(name string) bool {
	ws := m.nameWords(name)
	for _, w := range ws {
		g := genericWords[w]
		for _, f := range m.canon(w) {
			g = g || genericWords[f]
		}
		if !g {
			return false
		}
	}
	return len(ws) > 0
}
