package link

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// maxWarnTables bounds the named tables considered for warnings, so that a
// word naming thousands of tables costs no more than one naming ten.
const maxWarnTables = 10

// namedTables returns the (at most maxWarnTables) best tables the question
// names directly with at least score s, in catalog order.
func (st *linkState) namedTables(s float64) []int32 {
	var out []int32
	for ti, tl := range st.tableHit {
		if tl.Score >= s {
			out = append(out, ti)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := st.tableHit[out[i]].Score, st.tableHit[out[j]].Score
		return a > b || a == b && out[i] < out[j]
	})
	if len(out) > maxWarnTables {
		out = out[:maxWarnTables]
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// redirects warns when a table the question names lacks a column the
// question asks for while a table it references has it: "orders by region"
// where region lives in customers.
func (st *linkState) redirects() []Warning {
	var out []Warning
	seen := map[string]bool{}
	for _, ti := range st.namedTables(0.7) {
		t := &st.l.tables[ti]
		for _, fk := range t.t.ForeignKeys {
			pi, ok := st.l.byName[fk.Ref()]
			if !ok || pi == ti {
				continue
			}
			p := &st.l.tables[pi]
			for _, i := range st.parentPhrases(pi) {
				ph := &st.phrases[i]
				if s, _ := st.matchName(ph, t.lower, t.parts, t.words, nil); s >= 0.7 {
					continue
				}
				if s, _ := st.matchName(ph, p.lower, p.parts, p.words, nil); s >= 0.7 {
					continue
				}
				if st.bestColumn(ti, ph, true) >= 0 {
					continue
				}
				ci := st.bestColumn(pi, ph, false)
				if ci < 0 {
					continue
				}
				col := st.l.cols[ci].name
				key := t.name + "\x00" + p.name + "\x00" + col
				if seen[key] {
					continue
				}
				seen[key] = true
				// The parent's column counts nearly as the named table's own.
				s, _ := st.scoreColumn(ph, ci)
				if s *= 0.9 * ph.weight * st.context(ti); s >= st.colHit[ci].Score {
					st.colHit[ci] = ColumnLink{Table: p.name, Column: col, Score: s, Phrase: ph.text, Reason: ReasonRedirect}
				}
				on := make([]string, len(fk.Columns))
				for k := range fk.Columns {
					on[k] = fmt.Sprintf("%s.%s = %s.%s", t.t.Name, fk.Columns[k], p.t.Name, fk.RefColumns[k])
				}
				out = append(out, Warning{
					Code: WarnColumnRedirect,
					Message: fmt.Sprintf("%s has no column `%s`; its FK parent %s has `%s` — join %s (%s)",
						t.name, col, p.name, col, p.name, strings.Join(on, " AND ")),
					Tables: []string{t.name, p.name}, Column: col, Phrase: ph.text,
				})
			}
		}
	}
	return out
}

// parentPhrases returns the phrases sharing a word with a non-key column of
// table ti, in order.
func (st *linkState) parentPhrases(ti int32) []int {
	t := &st.l.tables[ti]
	seen := map[int]bool{}
	var out []int
	for ci := t.lo; ci < t.hi; ci++ {
		c := &st.l.cols[ci]
		if c.key {
			continue
		}
		for _, i := range st.relevant(c.parts, c.words) {
			if !seen[i] && st.phrases[i].via == "" {
				seen[i] = true
				out = append(out, i)
			}
		}
	}
	sort.Ints(out)
	return out
}

// bestColumn returns the column of table ti the phrase matches best, or -1.
// For the named table (weak = true) any partial match counts as having the
// column; for the parent only a name or gloss match of a non-key column does.
func (st *linkState) bestColumn(ti int32, ph *phrase, weak bool) int32 {
	t := &st.l.tables[ti]
	best, bestScore := int32(-1), 0.0
	for ci := t.lo; ci < t.hi; ci++ {
		if !weak && st.l.cols[ci].key {
			continue
		}
		s, _ := st.scoreColumn(ph, ci)
		if (weak && s >= 0.55 || !weak && s >= 0.9) && s > bestScore {
			best, bestScore = ci, s
		}
	}
	return best
}

// confusables warns about configured pairs of which one table is linked, and
// about linked tables that share a head noun while the question uses none of
// the words telling them apart (invoices / supplier_invoices, sales_orders /
// purchase_orders).
func (st *linkState) confusables() []Warning {
	var out []Warning
	linked := map[int32]bool{}
	for _, ti := range st.namedTables(0.7) {
		linked[ti] = true
	}
	keys := make([][2]int32, 0, len(st.l.confusable))
	for k := range st.l.confusable {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	for _, k := range keys {
		if !linked[k[0]] && !linked[k[1]] {
			continue
		}
		a, b := &st.l.tables[k[0]], &st.l.tables[k[1]]
		msg := fmt.Sprintf("%s and %s are easily confused", a.name, b.name)
		if note := st.l.confusable[k]; note != "" {
			msg += ": " + note
		}
		out = append(out, Warning{Code: WarnConfusableTables, Message: msg, Tables: []string{a.name, b.name}})
	}
	if !st.l.cfg.auto {
		return out
	}
	named := st.namedTables(st.l.cfg.minScore)
	auto := 0
	for i := 0; i < len(named) && auto < 5; i++ {
		for j := i + 1; j < len(named) && auto < 5; j++ {
			ai, bi := named[i], named[j]
			if _, configured := st.l.confusable[pairKey(ai, bi)]; configured {
				continue
			}
			a, b := &st.l.tables[ai], &st.l.tables[bi]
			if a.head == "" || a.head != b.head {
				continue
			}
			da, db := difference(a.words, b.words), difference(b.words, a.words)
			if len(da)+len(db) == 0 {
				// Same name in two schemas: the schema tells them apart.
				da, db = []string{gloss.Stem(a.t.Schema)}, []string{gloss.Stem(b.t.Schema)}
			}
			if st.mentionsAny(da) || st.mentionsAny(db) {
				continue
			}
			auto++
			out = append(out, Warning{
				Code: WarnConfusableTables,
				Message: fmt.Sprintf("%s and %s are both %q tables and the question does not say which%s",
					a.name, b.name, a.head, describe(a, b)),
				Tables: []string{a.name, b.name},
			})
		}
	}
	return out
}

// difference returns the strong words of a not in b.
func difference(a, b []string) []string {
	var out []string
	for _, w := range a {
		if weakWords[w] {
			continue
		}
		if !slices.Contains(b, w) {
			out = append(out, w)
		}
	}
	return out
}

func (st *linkState) mentionsAny(ws []string) bool {
	for _, w := range ws {
		if st.qwords[w] {
			return true
		}
	}
	return false
}

// describe appends the table comments, which usually tell the tables apart.
func describe(a, b *tableInfo) string {
	var parts []string
	for _, t := range []*tableInfo{a, b} {
		if c := strings.TrimSpace(t.t.Comment); c != "" {
			parts = append(parts, t.name+": "+clip(c, 100))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
