package nl2sql

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// The watch of WithRefreshEvery (refresh.go): started by the first build,
// it runs in the background and calls the Engine as a caller would: the
// catalog listener, the knowledge sync and Refresh.

// startWatching starts the watch once, after the first build, unless it
// is off or the engine was closed.
func (e *Engine) startWatching() {
	if e.cfg.refreshEvery <= 0 {
		return
	}
	w := &e.watching
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || w.stop != nil {
		return
	}
	// Not the caller's context: the watch outlives the question that
	// happened to build the first state.
	ctx, stop := context.WithCancel(context.Background())
	w.stop, w.done = stop, make(chan struct{})
	notes := make(chan struct{}, 1)
	var wg sync.WaitGroup
	wg.Go(func() { e.listenCatalog(ctx, notes) })
	wg.Go(func() { e.watch(ctx, notes) })
	go func() { wg.Wait(); close(w.done) }()
}

// watch polls every refreshEvery, and at once on a catalog notification.
func (e *Engine) watch(ctx context.Context, notes <-chan struct{}) {
	tick := time.NewTicker(e.cfg.refreshEvery)
	defer tick.Stop()
	var catalog, knowledge string // the digests last acted on
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-notes:
		}
		e.refreshCatalog(ctx, &catalog)
		e.syncKnowledge(ctx, &knowledge)
	}
}

// refreshCatalog refreshes when the catalog digest differs from *last.
// The digest is read before Refresh, so a change made during it moves the
// next one; a failed Refresh keeps *last, to be tried again.
func (e *Engine) refreshCatalog(ctx context.Context, last *string) {
	digest, err := queryString(ctx, e.db, catalogDigestSQL)
	if err != nil {
		e.watchFailed(ctx, "reading the catalog digest failed", err)
		return
	}
	if digest == *last {
		return
	}
	if err := e.Refresh(ctx); err != nil {
		e.watchFailed(ctx, "refreshing after a catalog change failed", err)
		return
	}
	*last = digest
}

// catalogDigestSQL is the cheap check of WithRefreshEvery: a digest of
// what the engine reads of the catalog (relations and their columns,
// constraints, comments, enums and domains, privileges) outside the system
// schemas, computed in the server: the count of those catalog rows and the
// sum of their 64-bit hashes (hashtextextended), which needs no sort and
// sends one short value. It may move when nothing the engine
// uses changed (Refresh then compares the catalog's own fingerprint and
// re-indexes nothing).
const catalogDigestSQL = `
WITH user_ns AS (
  SELECT oid FROM pg_namespace
  WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\_toast%' AND nspname NOT LIKE 'pg\_temp\_%'
)
SELECT count(*) || ':' || coalesce(sum(hashtextextended(x, 0)), 0) FROM (
  SELECT 'r ' || c.oid || ' ' || c.relnamespace::regnamespace::text || '.' || c.relname || ' ' || c.relkind::text || ' ' || coalesce(c.relacl::text, '') || ' ' ||
         coalesce((SELECT string_agg(a.attname || ' ' || a.atttypid || ' ' || a.atttypmod || ' ' || a.attnotnull || ' ' || coalesce(a.attacl::text, ''), ',' ORDER BY a.attnum)
                   FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '')
  FROM pg_class c WHERE c.relnamespace IN (SELECT oid FROM user_ns) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
  UNION ALL
  SELECT 'c ' || conrelid || ' ' || conname || ' ' || contype::text || ' ' || coalesce(conkey::text, '') || ' ' || confrelid || ' ' || coalesce(confkey::text, '')
  FROM pg_constraint WHERE connamespace IN (SELECT oid FROM user_ns)
  UNION ALL
  SELECT 'd ' || objoid || ' ' || objsubid || ' ' || description
  FROM pg_description WHERE classoid = 'pg_class'::regclass AND objoid >= 16384 -- FirstNormalObjectId: not the system's
  UNION ALL
  SELECT 't ' || t.oid || ' ' || t.typname || ' ' || t.typtype::text || ' ' || t.typbasetype || ' ' || coalesce((SELECT string_agg(enumlabel, ',' ORDER BY enumsortorder) FROM pg_enum WHERE enumtypid = t.oid), '')
  FROM pg_type t WHERE t.typnamespace IN (SELECT oid FROM user_ns) AND t.typtype IN ('d', 'e')
) s(x)`

// queryString runs a query of one text value.
func queryString(ctx context.Context, db DB, sql string, args ...any) (string, error) {
	rows, err := db.Query(ctx, sql, args...)
	if err != nil {
		return "", err
	}
	return pgx.CollectExactlyOneRow(rows, pgx.RowTo[string])
}
