package retrieve

import (
	"slices"
	"sort"

	"github.com/nl2sqlgo/nl2sql/plan"
)

// Expansion adds the tables joined to the ones the rankings found: a query
// needs the tables its joins pass through, not only those its words name.

const (
	maxBridged = 6 // tables whose pairs are bridged
	bridgeHops = 3 // joins of a bridge: up to two tables between
)

// expandFK adds the foreign-key neighbours of the best ranked tables (the
// seeds) with a decayed score and returns ranked with the new tables
// appended; it is evidence that a table joins a strong one.
func (ix *Retriever) expandFK(cands candidates, ranked, scopes []string) []string {
	// Hubs are not expanded from (their neighbourhoods are everything).
	seeds := ranked[:min(ix.cfg.seeds, len(ranked))]
	for _, s := range seeds {
		for _, n := range ix.neighbours(s) {
			nb := n.name
			if !ix.inScope(nb, scopes) {
				continue
			}
			c := cands[nb]
			seed := cands[s].score
			// A parent (the order of a line, the project of a task) is more
			// often needed than a child: it holds the dates, statuses and
			// names questions filter and group by.
			decay := ix.cfg.fkDecay
			if n.parent {
				decay = min(1.5*decay, 0.95)
			}
			switch {
			case c == nil:
				cands[nb] = &candidate{score: seed * decay, reasons: map[string]bool{"fk": true}, via: s}
				ranked = append(ranked, nb)
			case !c.reasons["fk"]:
				// Being joinable to a strong table is evidence too, but a
				// neighbour must not overtake the table that pulled it in.
				c.reasons["fk"] = true
				c.via = s
				if c.score < seed {
					c.score = min(max(c.score+0.3*decay*seed, decay*seed), 0.99*seed)
				}
			}
		}
	}
	return ranked
}

// neighbours returns the tables to expand a seed to, sorted: always the
// tables it references (a row has one parent each, and questions about a
// fact name its dimensions), and the tables referencing it unless it is a
// hub (referenced by more than the hub degree: its children are half the
// schema). Edges come from the join graph, so keys guessed from column names
// count where the database declares none.
func (ix *Retriever) neighbours(q string) []neighbour {
	var parents, children []string
	for _, e := range ix.graph.Edges(q) {
		switch {
		case e.Self():
		case e.Forward || e.Cardinality == plan.Unknown:
			parents = append(parents, e.To)
		default:
			children = append(children, e.To)
		}
	}
	set := map[string]bool{} // name -> is a parent
	if len(children) <= ix.cfg.hubDegree {
		for _, c := range children {
			set[c] = false
		}
	}
	for _, p := range parents {
		set[p] = true
	}
	out := make([]neighbour, 0, len(set))
	for n, parent := range set {
		out = append(out, neighbour{n, parent})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// neighbour is a table joined to a seed; parent when the seed references
// it.
type neighbour struct {
	name   string
	parent bool
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
