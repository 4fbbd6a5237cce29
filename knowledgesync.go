package nl2sql

import (
	"context"
	"maps"
	"reflect"
	"slices"

	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// syncKnowledge makes the knowledge in the engine's store the engine's,
// when the store's version differs from *last (a store without
// retrieve.KnowledgeVersioner is read at every call): what another engine
// sharing the store (a replica) learnt or forgot. It writes nothing to the
// store: the store is the truth every replica reads. An index file
// (LoadIndexFile) is read again when it changed.
func (e *Engine) syncKnowledge(ctx context.Context, last *string) {
	if e.cfg.indexFile != "" {
		e.takeOnOthers(ctx)
		return
	}
	st := e.st.Load()
	if st == nil {
		return
	}
	store := st.retriever.Store()
	version := ""
	if v, ok := store.(retrieve.KnowledgeVersioner); ok {
		var err error
		if version, err = v.KnowledgeVersion(ctx); err != nil {
			e.watchFailed(ctx, "reading the knowledge version failed", err)
			return
		}
		if version == *last {
			return
		}
	}
	// Exclusive: a Learn or Forget of this engine (shared) is either in
	// the store read below and remembered, or waits until this is done.
	e.file.changing.Lock()
	theirs, err := storedKnowledge(ctx, store)
	terms := false
	if err == nil {
		want := make(map[string]Knowledge, len(theirs))
		for _, k := range theirs {
			want[k.ID] = k
		}
		terms = e.adopt(ctx, want)
	}
	e.file.changing.Unlock()
	if err != nil {
		e.watchFailed(ctx, "reading the shared knowledge failed", err)
		return
	}
	if terms {
		// A term feeds the schema index: rebuilt on the current catalog.
		if err := e.rebuild(ctx, true); err != nil {
			e.watchFailed(ctx, "re-indexing for a term another engine taught failed", err)
			return
		}
	}
	*last = version
}

// adopt makes want the engine's knowledge (remembering what it lacks,
// forgetting what want has not) and reports whether a term changed. The
// caller holds e.file.changing.
func (e *Engine) adopt(ctx context.Context, want map[string]Knowledge) (terms bool) {
	added, dropped, terms := e.knowledgeDiff(want)
	for _, k := range dropped {
		e.unremember(k)
	}
	for _, k := range added {
		e.remember(ctx, k)
	}
	return terms
}

// knowledgeDiff is what the engine lacks of want (or holds differently),
// and what it holds that want has not, each ordered by ID; terms says
// whether a term is among them.
func (e *Engine) knowledgeDiff(want map[string]Knowledge) (added, dropped []Knowledge, terms bool) {
	e.know.mu.RLock()
	have := maps.Clone(e.know.items)
	e.know.mu.RUnlock()
	for _, id := range slices.Sorted(maps.Keys(want)) {
		if k, ok := have[id]; !ok || !reflect.DeepEqual(k, want[id]) {
			added = append(added, want[id])
			terms = terms || want[id].Kind == KnowledgeTerm
		}
	}
	for _, id := range slices.Sorted(maps.Keys(have)) {
		if _, ok := want[id]; !ok {
			dropped = append(dropped, have[id])
			terms = terms || have[id].Kind == KnowledgeTerm
		}
	}
	return added, dropped, terms
}
