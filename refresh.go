package nl2sql

import (
	"context"
	"sync"
	"time"
)

// WithRefreshEvery makes a long-running Engine notice what changes outside
// it: every d (and at once when the catalog event trigger notifies, see
// CatalogTriggerSQL) it runs one cheap catalog query and, when its digest
// moved, Refresh (an incremental re-index); and it reads again the
// knowledge of a store other engines share (WithStore: a pgvector store's
// version is one query), so what one replica learns or forgets is used by
// the others from their next question. The watch starts with the first
// build (Prepare, or the first question) and stops with Close. Questions
// asked while a refresh runs are answered on the state it replaces (it
// swaps the new one in whole). 0, the default, watches nothing: Refresh
// by hand.
func WithRefreshEvery(d time.Duration) Option {
	return optionFunc(func(c *config) { c.refreshEvery = max(d, 0) })
}

// Close stops the engine's background work (the watch of WithRefreshEvery)
// and waits for it to end: a refresh under way is cancelled, and the
// connection held to LISTEN is closed. The engine still answers, on the
// state it has. Close is idempotent; it does not close the database.
func (e *Engine) Close() error {
	if e == nil {
		return nil
	}
	e.watching.mu.Lock()
	e.watching.closed = true
	stop, done := e.watching.stop, e.watching.done
	e.watching.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
	return nil
}

// watcher is the background watch of WithRefreshEvery.
type watcher struct {
	mu     sync.Mutex
	closed bool               // Close was called: start no watch
	stop   context.CancelFunc // nil until the watch starts
	done   chan struct{}      // closed when every watch goroutine ended
}

// watchFailed logs a failure of the watch (not the end of its context):
// the engine keeps answering on the state it has, and the next tick tries
// again.
func (e *Engine) watchFailed(ctx context.Context, what string, err error) {
	if ctx.Err() == nil {
		e.cfg.logger.WarnContext(ctx, "nl2sql: "+what+"; answering on the state the engine has", "err", err)
	}
}
