package nl2sql

import (
	"maps"
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/gloss"
)

// Which learnt knowledge a request's prompt may show. Knowledge carries
// the identity it was learnt under (Knowledge.Role, Settings, Scope):
//
//   - learnt under none, it is the operator's, and every request is
//     offered it;
//   - learnt under one, only a request of the same identity (same role,
//     same settings, same scope) is offered it: its question and literals
//     are that identity's words, whatever it reads. What it reads does not
//     tell: a view over a table with row-level security (or filtering on
//     current_user or a setting) has none of its own, a function may read
//     any table, another scope's schema holds the same unqualified names,
//     and a literal or question may name what only its teacher reads
//     (docs/redteam5.md, findings 4 and 6). An operator shares an example
//     by teaching it under no identity.
//
// A learnt template (an example with parameters) answers a question only
// under the first two rules (verified.go, Engine.templates): it answers
// without the model, so its question and literals would be another
// identity's answer.
//
// Always, an example must pass the request's scope (its validator) and
// its role's privileges, and a doc of a table or column is shown only with
// a table of the context and a column the role may read. Terms are
// structure (a phrase and the tables or columns it means): every request
// uses them, and the links they make are cut to what its role may read.

// identity is the identity a request reads as: its role, custom settings
// (the last value of a name counts, as SET LOCAL would) and scope.
func (ac askConfig) identity() (role string, settings map[string]string, scope string) {
	for _, kv := range ac.settings {
		if settings == nil {
			settings = map[string]string{}
		}
		settings[kv[0]] = kv[1]
	}
	return ac.role, settings, ac.scope
}

// learntUnder gives k the request's identity and, when it has one, an ID
// of its own: two tenants teaching the same example keep two.
func (ac askConfig) learntUnder(k Knowledge) Knowledge {
	k.Role, k.Settings, k.Scope = ac.identity()
	if k.Role == "" && k.Settings == nil && k.Scope == "" {
		return k
	}
	parts := []string{k.ID, k.Role, k.Scope}
	for _, name := range slices.Sorted(maps.Keys(k.Settings)) {
		parts = append(parts, name, k.Settings[name])
	}
	k.ID = knowledgeID(k.Kind, parts...)
	return k
}

// offers reports whether k's identity lets the request see it: the
// operator's, or the request's own.
func (rq *request) offers(k Knowledge) bool {
	if k.Role == "" && len(k.Settings) == 0 && k.Scope == "" {
		return true
	}
	role, settings, scope := rq.ac.identity()
	return k.Role == role && k.Scope == scope && maps.Equal(k.Settings, settings)
}

// offeredExamples keeps up to n of exs the request may be shown.
func (e *Engine) offeredExamples(rq *request, exs []generate.Example, n int) []generate.Example {
	out := exs[:0]
	for _, ex := range exs {
		if len(out) == n {
			break
		}
		if rq.view.reads(rq.scope, ex.SQL) && (!rq.scope.scoped || rq.scope.reads(ex.SQL)) && e.exampleOffered(rq, ex) {
			out = append(out, ex)
		}
	}
	return out
}

// exampleOffered reports whether one of the identities that taught ex
// lets the request see it.
func (e *Engine) exampleOffered(rq *request, ex generate.Example) bool {
	e.know.mu.RLock()
	defer e.know.mu.RUnlock()
	for _, id := range e.know.examples[exampleKey(ex.Question, ex.SQL)] {
		if rq.offers(e.know.items[id]) {
			return true
		}
	}
	return false
}

// docsFor returns the documentation lines for a context of tables and a
// question: the docs of those tables and of their columns the role may
// read, then free-standing docs sharing at least two content words with
// the question; only those the request is offered.
func (e *Engine) docsFor(rq *request, tables []string, question *gloss.Analysis) []string {
	e.know.mu.RLock()
	defer e.know.mu.RUnlock()
	if len(e.know.items) == 0 {
		return nil
	}
	words := map[string]bool{}
	for _, w := range question.Terms() {
		words[w] = true
	}
	var attached, free []Knowledge
	for _, k := range e.know.items {
		switch {
		case k.Kind != KnowledgeDoc || !rq.offers(k):
		case k.Table != "" && slices.Contains(tables, k.Table) && (k.Column == "" || rq.view.g.column(k.Table, k.Column)):
			attached = append(attached, k)
		case k.Table == "":
			shared := 0
			for _, w := range e.know.terms[k.ID] {
				if words[w] {
					shared++
				}
			}
			if shared >= 2 {
				free = append(free, k)
			}
		}
	}
	order := func(a, b Knowledge) int {
		return strings.Compare(a.Table+"."+a.Column+"\x00"+a.ID, b.Table+"."+b.Column+"\x00"+b.ID)
	}
	slices.SortFunc(attached, order)
	slices.SortFunc(free, order)
	var lines []string
	for _, k := range append(attached, free...) {
		switch {
		case k.Column != "":
			lines = append(lines, k.Table+"."+k.Column+": "+k.Text)
		case k.Table != "":
			lines = append(lines, k.Table+": "+k.Text)
		default:
			lines = append(lines, k.Text)
		}
	}
	return lines[:min(len(lines), maxDocLines)]
}

// maxDocLines bounds the documentation a prompt shows.
const maxDocLines = 8
