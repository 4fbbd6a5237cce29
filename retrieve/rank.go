package retrieve

import (
	"context"
	"fmt"
	"sort"
)

// rrfK is the reciprocal rank fusion constant of Cormack et al. (2009).
const rrfK = 60

// candidate is a table on its way into a result: its fused score, why it
// is there, and the table an expansion reached it from.
type candidate struct {
	score   float64
	reasons map[string]bool
	via     string
}

// candidates are the tables of one Tables call by qualified name. Every
// step adds to the same map, so a table found several ways has one score
// and all its reasons.
type candidates map[string]*candidate

// add adds a ranking's vote for a table.
func (cs candidates) add(table, reason string, score float64) {
	c := cs[table]
	if c == nil {
		c = &candidate{reasons: map[string]bool{}}
		cs[table] = c
	}
	c.score += score
	c.reasons[reason] = true
}

// sortByScore sorts tables best first, ties by name: the same order on
// every run, whatever the map order.
func (cs candidates) sortByScore(s []string) {
	sort.Slice(s, func(i, j int) bool {
		a, b := cs[s[i]], cs[s[j]]
		if a.score != b.score {
			return a.score > b.score
		}
		return s[i] < s[j]
	})
}

// named reports whether the question names t, directly, through the
// thesaurus or through a glossary term: such a table leads the context.
func (cs candidates) named(t string) bool {
	c := cs[t]
	return c != nil && (c.reasons["name"] || c.reasons["thesaurus"] || c.reasons["glossary"])
}

// anyNamed reports whether the question names any table: naming one makes
// the match strong.
func (cs candidates) anyNamed() bool {
	named := false
	for _, c := range cs {
		named = named || c.reasons["name"] || c.reasons["thesaurus"] || c.reasons["glossary"]
	}
	return named
}

// mark records why arrange moved t up (reason "" for none), adding t if no
// ranking found it.
func (cs candidates) mark(t, reason, via string) {
	c := cs[t]
	if c == nil {
		c = &candidate{reasons: map[string]bool{}}
		cs[t] = c
	}
	if reason != "" {
		c.reasons[reason] = true
		if c.via == "" {
			c.via = via
		}
	}
}

// kept reports whether the cut must keep t: the question names it, or
// arrange pulled it in for a table the question is about.
func (cs candidates) kept(t string) bool {
	c := cs[t]
	return c.reasons["name"] || c.reasons["thesaurus"] || c.reasons["glossary"] || c.reasons["bridge"] || c.reasons["header"] || c.reasons["lines"] || c.reasons["child"]
}

// searchHits are the store's answers to one question, one list per
// ranking.
type searchHits struct {
	vector []Hit // table documents by embedding
	text   []Hit // table documents by BM25
	column []Hit // column documents by BM25
	module []Hit // module documents by embedding
}

// searchDepth is how many documents a search of tables fetches; the column
// search fetches three times as many, a table having several.
const searchDepth = 40

// search runs the rankings' searches: the embedding sees the question, the
// BM25 searches also the thesaurus' schema words.
func (ix *Retriever) search(ctx context.Context, r request) (searchHits, error) {
	var h searchHits
	vecs, err := ix.cfg.embedder.Embed(ctx, []string{r.text})
	if err != nil {
		return h, fmt.Errorf("retrieve: embed question: %w", err)
	}
	if len(vecs) != 1 {
		return h, fmt.Errorf("retrieve: embedder returned %d vectors for 1 text", len(vecs))
	}
	qv := vecs[0]
	tf := Filter{Kinds: []Kind{KindTable}, Scopes: r.scopes}
	if h.vector, err = ix.cfg.store.SearchVector(ctx, qv, searchDepth, tf); err != nil {
		return h, fmt.Errorf("retrieve: vector search: %w", err)
	}
	if h.text, err = ix.cfg.store.SearchText(ctx, r.lexical, searchDepth, tf); err != nil {
		return h, fmt.Errorf("retrieve: text search: %w", err)
	}
	if h.column, err = ix.cfg.store.SearchText(ctx, r.lexical, searchDepth*3, Filter{Kinds: []Kind{KindColumn}, Scopes: r.scopes}); err != nil {
		return h, fmt.Errorf("retrieve: column search: %w", err)
	}
	if h.module, err = ix.cfg.store.SearchVector(ctx, qv, 3, Filter{Kinds: []Kind{KindModule}}); err != nil {
		return h, fmt.Errorf("retrieve: module search: %w", err)
	}
	return h, nil
}

// routeModules picks the modules a question is routed to: the best, and
// others close to it (1-3). routed holds their names.
func routeModules(hits []Hit) (modules []ModuleHit, routed map[string]bool) {
	routed = map[string]bool{}
	for i, h := range hits {
		if i > 0 && h.Score < 0.8*hits[0].Score {
			break
		}
		modules = append(modules, ModuleHit{Name: h.Module, Score: h.Score})
		routed[h.Module] = true
	}
	return modules, routed
}

// rank scores the tables the searches found and returns them best first:
// the rankings fused with reciprocal rank fusion, the glossary's bonus and
// the usage prior.
func (ix *Retriever) rank(r request, h searchHits, routed map[string]bool) (candidates, []string) {
	cands := fuse(h, routed)
	ix.addGlossary(cands, r)
	ranked := make([]string, 0, len(cands))
	for t, c := range cands {
		c.score += ix.usagePrior(t) // 0 without WithUsage
		ranked = append(ranked, t)
	}
	cands.sortByScore(ranked)
	return cands, ranked
}

// fuse adds each ranking's reciprocal rank votes: vector and BM25 over
// tables, BM25 over columns (a table's best column counts), and the
// vector hits of the routed modules, the last two at lower weights.
func fuse(hits searchHits, routed map[string]bool) candidates {
	cands := candidates{}
	vhits := hits.vector
	// Nearest neighbours always exist; only those reasonably close to the
	// best count as evidence, or a small catalog would rank everything.
	if len(vhits) > 0 {
		floor := max(0.05, 0.35*vhits[0].Score)
		n := 0
		for n < len(vhits) && vhits[n].Score >= floor {
			n++
		}
		vhits = vhits[:n]
	}
	for r, h := range vhits {
		cands.add(h.Table, "vector", 1.0/float64(rrfK+r+1))
	}
	for r, h := range hits.text {
		cands.add(h.Table, "bm25", 1.0/float64(rrfK+r+1))
	}
	rank := 0
	colSeen := map[string]bool{}
	for _, h := range hits.column {
		if colSeen[h.Table] {
			continue
		}
		colSeen[h.Table] = true
		cands.add(h.Table, "column", 0.7/float64(rrfK+rank+1))
		rank++
	}
	rank = 0
	for _, h := range vhits {
		if routed[h.Module] {
			cands.add(h.Table, "module", 0.5/float64(rrfK+rank+1))
			rank++
		}
	}
	return cands
}
