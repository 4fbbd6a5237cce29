package retrieve

import (
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// The adaptive cut: at least minContext tables, and contextMargin more
// after the tables the question's words call for.
const (
	minContext    = 3
	contextMargin = 2
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
		m[gloss.Stem(w)] = true
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

// cut keeps as many of the arranged tables as the question needs (enough),
// with a wider margin when the match is weak: a context missing a table
// fails the query, one table too many rarely does.
func (ix *Retriever) cut(cands candidates, arranged []string, m Match, r request, limit int) []string {
	margin := contextMargin
	if m == MatchWeak {
		margin += 2
	}
	kept := ix.enough(arranged, limit, margin, r.words.terms, cands.kept)
	// On a weak match, when the whole scope fits in the limit, hand over
	// every table (ranked ones first) rather than risk a miss.
	if n := ix.tablesInScope(r.scopes); m == MatchWeak && n <= limit && len(kept) < n {
		seen := make(map[string]bool, len(kept))
		for _, t := range kept {
			seen[t] = true
		}
		for _, t := range ix.cat.Tables {
			if name := t.QualifiedName(); !seen[name] && ix.inScope(name, r.scopes) {
				if cands[name] == nil {
					cands[name] = &candidate{reasons: map[string]bool{}}
				}
				cands[name].reasons["small"] = true
				kept = append(kept, name)
			}
		}
	}
	return kept
}
