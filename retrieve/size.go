package retrieve

import (
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/plan"
)

// The adaptive cut: at least minContext tables, and contextMargin more
// after the tables the question's words call for.
const (
	minContext    = 3
	contextMargin = 2
	maxBridged    = 6 // tables whose pairs are bridged
	bridgeHops    = 3 // joins of a bridge: up to two tables between

)

// enough returns how many of the ranked tables a context needs: the
// shortest prefix whose tables hold every question term any of them holds,
// and every table the question names, plus a margin for the tables a query
// needs without the question saying so (a header's date, a bridge).
func (ix *Retriever) enough(ordered []string, limit, margin int, qterms []string, keep func(string) bool) []string {
	kmin := minContext
	all := ordered
	ordered = ordered[:min(len(ordered), limit)]
	need := map[string]bool{}
	for _, w := range qterms {
		if analysisWord(w) || ix.df[w]*5 > len(ix.cat.Tables) {
			continue
		}
		for _, t := range ordered {
			if has(ix.terms[t], w) {
				need[w] = true
				break
			}
		}
	}
	k := 0
	for i, t := range ordered {
		if keep(t) {
			k = i + 1
		}
		for w := range need {
			if has(ix.terms[t], w) {
				delete(need, w)
				k = max(k, i+1)
			}
		}
	}
	cut := min(len(ordered), max(k, kmin))
	out := slices.Clone(ordered[:cut])
	// The margin: first the parents of what is kept (the product of a
	// stock row holds its price), then the next best.
	pos := make(map[string]int, len(all))
	for i, t := range all {
		pos[t] = i
	}
	// Parents referenced by more of the kept tables first: the dimension
	// they share (products for stock rows and their movements).
	refs := map[int]int{}
	var parents []int
	for _, t := range out {
		seen := map[int]bool{}
		for _, e := range ix.graph.Edges(t) {
			if e.Forward && !e.Self() {
				if i, ok := pos[e.To]; ok && i >= cut && !seen[i] {
					seen[i] = true
					if refs[i] == 0 {
						parents = append(parents, i)
					}
					refs[i]++
				}
			}
		}
	}
	slices.SortFunc(parents, func(a, b int) int {
		if refs[a] != refs[b] {
			return refs[b] - refs[a]
		}
		return a - b
	})
	taken := map[int]bool{}
	for _, i := range parents[:min(len(parents), margin)] {
		out = append(out, all[i])
		taken[i] = true
	}
	for i := cut; i < len(all) && len(out) < cut+margin; i++ {
		if !taken[i] {
			out = append(out, all[i])
		}
	}
	return out[:min(len(out), limit)]
}

// analysisWords say how to compute an answer, not what it is about: every
// table can count, sum or group by month.
var analysisWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`total sum count number average avg mean median max maximum min minimum
		highest lowest largest smallest biggest best worst greatest rate ratio percent percentage share proportion
		day week month quarter year date time daily weekly monthly quarterly yearly annual annually
		last first next previous recent current ago today yesterday since until
		one two three four five six seven eight nine ten hundred thousand million
		rank ranked ranking sort sorted group grouped each per distinct unique
		amount value level`) {
		m[Stem(w)] = true
	}
	return m
}()

func analysisWord(w string) bool {
	if analysisWords[w] {
		return true
	}
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// arrange orders the ranked tables for the cut: the tables the question
// names (and the best one) first, then the tables that join them (a bridge
// such as writes between author and paper, up to two in a row), each
// followed by its header (sales_orders after sales_order_lines: the dates
// and parties of a line live there), then the rest by score. mark records
// why a table moved up (reason "" for none).
func (ix *Retriever) arrange(ranked, scopes []string, qwords map[string]bool, named func(string) bool, mark func(table, reason, via string)) []string {
	var core []string
	for i, t := range ranked {
		if i == 0 || named(t) {
			core = append(core, t)
		}
	}
	out := make([]string, 0, len(ranked)+4)
	seen := map[string]bool{}
	// Headers are marked (kept by the cut) only for the tables the
	// question is about; elsewhere they just follow their lines.
	keyed := true
	var push func(t, reason, via string)
	push = func(t, reason, via string) {
		if seen[t] {
			return
		}
		seen[t] = true
		if !keyed {
			reason = ""
		}
		mark(t, reason, via)
		out = append(out, t)
		if h := ix.header(t, scopes); h != "" {
			push(h, "header", t)
		}
	}
	for _, t := range core {
		push(t, "", "")
	}
	// The lines of a document the question is about, when they hold a
	// word of the question the document does not ("per expense category"
	// of expense reports: the category is on the lines).
	for _, c := range slices.Clone(out) {
		for _, l := range ix.documentLines(c, scopes) {
			for w := range qwords {
				if has(ix.terms[l], w) && !has(ix.terms[c], w) {
					push(l, "lines", c)
					break
				}
			}
		}
	}
	// A table referencing one the question is about, whose own name
	// holds another word of the question: suppliers -> purchase_orders for
	// "ordered from suppliers", warehouses -> inventory_balances for
	// "stock" (a thesaurus word).
	for _, c := range slices.Clone(out) {
		for _, ch := range ix.children(c, scopes) {
			if ix.namesWord(ch, c, qwords) {
				push(ch, "child", c)
				for _, l := range ix.documentLines(ch, scopes) {
					push(l, "lines", ch)
				}
			}
		}
	}
	opts := []plan.SearchOption{plan.MaxHops(bridgeHops)}
	if len(scopes) > 0 {
		opts = append(opts, plan.Within(scopes...))
	}
	// Bridges between any two of the tables so far (the first few).
	ends := slices.Clone(out[:min(len(out), maxBridged)])
	for i := range ends {
		for j := i + 1; j < len(ends); j++ {
			p, err := ix.graph.ShortestPath(ends[i], ends[j], opts...)
			if err != nil {
				continue
			}
			for _, t := range p.Tables[1 : len(p.Tables)-1] {
				push(t, "bridge", ends[i])
			}
		}
	}
	keyed = false
	for _, t := range ranked {
		push(t, "", "")
	}
	return out
}

// header returns the table a line table belongs to: the parent it
// references whose name its own name extends (sales_order_lines ->
// sales_orders, invoice_items -> invoices), or "".
func (ix *Retriever) header(t string, scopes []string) string {
	own := ix.nameTerms[t]
	for _, e := range ix.graph.Edges(t) {
		if !e.Forward || e.Self() {
			continue
		}
		p := ix.cat.Table(e.To)
		if p == nil || (len(scopes) > 0 && !in(scopes, p.Schema)) {
			continue
		}
		pt := ix.nameTerms[e.To]
		if len(pt) > 0 && len(pt) < len(own) && slices.Equal(pt, own[:len(pt)]) {
			return e.To
		}
	}
	return ""
}

// documentLines returns the line tables of a document table, named or
// not after it (expense_reports -> expense_lines): tables referencing it
// whose name shares its first word and ends in a line word.
func (ix *Retriever) documentLines(t string, scopes []string) []string {
	own := ix.nameTerms[t]
	var out []string
	for _, ch := range ix.children(t, scopes) {
		ct := ix.nameTerms[ch]
		if len(own) > 0 && len(ct) > 1 && ct[0] == own[0] && lineWords[ct[len(ct)-1]] {
			out = append(out, ch)
		}
	}
	return out
}

// lineWords end the names of the tables that hold the lines of a document.
var lineWords = map[string]bool{"line": true, "item": true, "detail": true, "entry": true, "position": true}

// children returns the tables referencing t, in scope, sorted.
func (ix *Retriever) children(t string, scopes []string) []string {
	var out []string
	for _, e := range ix.graph.Edges(t) {
		if e.Forward || e.Self() || slices.Contains(out, e.To) {
			continue
		}
		if p := ix.cat.Table(e.To); p != nil && (len(scopes) == 0 || in(scopes, p.Schema)) {
			out = append(out, e.To)
		}
	}
	slices.Sort(out)
	return out
}

// namesWord reports whether the name of child holds a question word that
// the name of parent does not.
func (ix *Retriever) namesWord(child, parent string, qwords map[string]bool) bool {
	own := ix.nameTerms[parent]
	for _, w := range ix.nameTerms[child] {
		if qwords[w] && !slices.Contains(own, w) {
			return true
		}
	}
	return false
}
