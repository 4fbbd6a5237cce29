package nl2sql

import (
	"context"

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
