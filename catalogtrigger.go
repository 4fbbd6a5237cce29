package nl2sql

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// CatalogChannel is the NOTIFY channel of the catalog event trigger
// (CatalogTriggerSQL).
const CatalogChannel = "nl2sql_catalog"

// CatalogTriggerSQL installs an event trigger that notifies CatalogChannel
// at the end of every DDL command (a migration's CREATE, ALTER, DROP,
// COMMENT, GRANT), delivered when its transaction commits. An Engine with
// WithRefreshEvery that finds it installed (at the start of its watch)
// LISTENs on one connection of its pool and refreshes at once instead of
// at the next tick. Creating an event trigger takes a superuser (or, from
// PostgreSQL 17, the database owner with the event trigger privilege):
// run it once per database, as its owner, not as the engine's role.
// `nl2sql refresh --print-trigger` prints it.
const CatalogTriggerSQL = `CREATE OR REPLACE FUNCTION public.nl2sql_catalog_changed() RETURNS event_trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('` + CatalogChannel + `', tg_tag);
END
$$;
DROP EVENT TRIGGER IF EXISTS nl2sql_catalog_changed;
CREATE EVENT TRIGGER nl2sql_catalog_changed ON ddl_command_end
  EXECUTE FUNCTION public.nl2sql_catalog_changed();
`

// catalogTriggerName is the event trigger CatalogTriggerSQL creates.
const catalogTriggerName = "nl2sql_catalog_changed"

// listenCatalog LISTENs on CatalogChannel while the catalog event trigger
// is installed and enabled, and sends on notes at each notification
// (several at once make one). Without the trigger it returns at once: the
// polling alone notices changes. A lost connection is taken again after a
// tick. The connection is closed, not returned to the pool, when it ends:
// a pooled connection must not keep listening.
func (e *Engine) listenCatalog(ctx context.Context, notes chan<- struct{}) {
	for {
		installed, err := e.listenOnce(ctx, notes)
		if !installed || ctx.Err() != nil {
			return
		}
		e.watchFailed(ctx, "listening for catalog changes failed", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(e.cfg.refreshEvery):
		}
	}
}

// listenOnce holds one connection listening until it fails or ctx ends;
// installed is false when there is no trigger to listen for.
func (e *Engine) listenOnce(ctx context.Context, notes chan<- struct{}) (installed bool, err error) {
	conn, err := e.db.Acquire(ctx)
	if err != nil {
		return true, err // the database is down: try again later
	}
	defer closeListener(conn)
	var on bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_event_trigger WHERE evtname = $1 AND evtenabled <> 'D')`, catalogTriggerName).Scan(&on); err != nil {
		return true, err
	}
	if !on {
		e.cfg.logger.DebugContext(ctx, "nl2sql: no catalog event trigger; noticing catalog changes by polling only")
		return false, nil
	}
	if _, err := conn.Exec(ctx, "LISTEN "+CatalogChannel); err != nil {
		return true, err
	}
	for {
		if _, err := conn.Conn().WaitForNotification(ctx); err != nil {
			return true, err
		}
		select {
		case notes <- struct{}{}:
		default: // one is pending already: it covers this one
		}
	}
}

// closeListener closes a connection that listened (or may have), instead
// of returning it to the pool.
func closeListener(conn *pgxpool.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = conn.Hijack().Close(ctx)
}
