package execute

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// The watchdog. A call that does not check for interrupts (an array &&
// of two huge arrays, numeric arithmetic on a hundred thousand digits)
// ignores statement_timeout, the cancel request the backstop sends and
// the closed socket (client_connection_check_interval is itself checked
// only where the backend checks for interrupts): the backend runs on after
// Query has returned. The validator refuses the known ones (V022, V028);
// for the rest, the watchdog follows the backend from another pooled
// connection once the backstop has given up on it: if it still runs after
// the grace it sends pg_cancel_backend, after another grace
// pg_terminate_backend, and logs each step. Both signals too act only when
// the backend next checks for interrupts, so the watchdog makes the stop
// sure and visible, not sooner; a backend that never checks is the
// server operator's to stop (docs/security.md).

// DefaultWatchdogGrace is how long the watchdog waits at each step (see
// WithWatchdog).
const DefaultWatchdogGrace = 2 * time.Second

// watchPoll is how often the watchdog looks at the backend.
const watchPoll = 100 * time.Millisecond

// watchSQL finds the backend, once: its start time tells it from a later
// backend given the same process id.
const watchSQL = `SELECT backend_start FROM pg_catalog.pg_stat_activity WHERE pid = $1 AND state <> 'idle'`

// runningSQL reports whether that backend still runs.
const runningSQL = `SELECT EXISTS (SELECT FROM pg_catalog.pg_stat_activity
	WHERE pid = $1 AND backend_start = $2 AND state <> 'idle')`

// signalSQL signals the backend if it is still the same one ($3: cancel or
// terminate). NULL: it had gone.
const signalSQL = `SELECT CASE WHEN $3 THEN pg_catalog.pg_terminate_backend(pid) ELSE pg_catalog.pg_cancel_backend(pid) END
	FROM pg_catalog.pg_stat_activity WHERE pid = $1 AND backend_start = $2`

// watch follows the backend pid of a query the backstop gave up on, until
// it stops or the watchdog has tried everything; Query returns after it.
// The watchdog's connection belongs to the pool's login role, as the
// backend does, which may signal its own backends without pg_signal_backend;
// its statements leave nothing in the connection's statement cache.
func (e *Executor) watch(ctx context.Context, pid uint32, sql string) {
	grace := e.cfg.watchdogGrace
	if grace <= 0 || pid == 0 {
		return
	}
	log := e.cfg.logger.With("pid", pid, "sql", sql)
	ctx, cancel := context.WithTimeout(ctx, 3*grace+5*time.Second)
	defer cancel()
	pc, err := e.pool.Acquire(ctx)
	if err != nil {
		log.WarnContext(ctx, "execute: watchdog: no connection to follow a backend past its statement timeout", "err", err)
		return
	}
	defer pc.Release()
	var started time.Time
	if err := pc.QueryRow(ctx, watchSQL, pgx.QueryExecModeExec, int32(pid)).Scan(&started); err != nil {
		// Gone already (no row), or the watchdog cannot see it.
		return
	}
	since := time.Now()
	stopped := func(d time.Duration) bool {
		for end := time.Now().Add(d); ; {
			var running bool
			if err := pc.QueryRow(ctx, runningSQL, pgx.QueryExecModeExec, int32(pid), started).Scan(&running); err != nil {
				log.WarnContext(ctx, "execute: watchdog: lost sight of a backend", "err", err)
				return true
			}
			if !running || !time.Now().Before(end) {
				return !running
			}
			select {
			case <-ctx.Done():
				return false
			case <-time.After(watchPoll):
			}
		}
	}
	for _, terminate := range []bool{false, true} {
		if stopped(grace) {
			log.InfoContext(ctx, "execute: watchdog: the backend stopped", "after", time.Since(since).Round(time.Millisecond))
			return
		}
		if ctx.Err() != nil {
			break
		}
		step, msg := "pg_cancel_backend", "execute: watchdog: a backend still runs past its statement timeout; cancelling it"
		if terminate {
			step, msg = "pg_terminate_backend", "execute: watchdog: a backend ignored its cancel; terminating it"
		}
		log.WarnContext(ctx, msg, "after", time.Since(since).Round(time.Millisecond))
		var sent *bool
		err := pc.QueryRow(ctx, signalSQL, pgx.QueryExecModeExec, int32(pid), started, terminate).Scan(&sent)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) && ctx.Err() == nil {
			// Without the privilege (a backend of another role): the
			// operator has to grant pg_signal_backend.
			log.ErrorContext(ctx, "execute: watchdog: "+step+" failed", "err", err)
		}
	}
	if !stopped(grace) {
		log.ErrorContext(ctx, "execute: watchdog: a backend runs on after cancel and terminate: it does not check for interrupts; "+
			"only the server's operator can stop it", "after", time.Since(since).Round(time.Millisecond))
		return
	}
	log.InfoContext(ctx, "execute: watchdog: the backend stopped", "after", time.Since(since).Round(time.Millisecond))
}
