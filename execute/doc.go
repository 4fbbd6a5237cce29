// Package execute runs untrusted, LLM-written SQL against PostgreSQL so that
// nothing escapes: no write, no lasting session change, no runaway query.
//
// An Executor wraps a connection pool (*pgxpool.Pool satisfies Acquirer):
//
//	ex := execute.New(pool,
//		execute.WithValidateOptions(validate.WithTables(tables...)),
//		execute.WithStatementTimeout(10*time.Second),
//		execute.MaxRows(500))
//	res, err := ex.Query(ctx, generatedSQL, execute.Scope("div_01", "public"))
//	switch {
//	case errors.Is(err, execute.ErrRejected), errors.Is(err, execute.ErrRepairable):
//		// give err (and, with errors.As, its *validate.Error or *execute.Error
//		// fields) back to the model to fix the SQL
//	case errors.Is(err, execute.ErrTimeout):
//		// ask for a simpler query
//	case err != nil:
//		// permission, connection, cancellation: report
//	}
//	// res.Columns, res.Rows (JSON-friendly values), res.Truncated ...
//
// # Layers
//
// The validator (package validate) decides on the parse tree; the executor
// always runs it first and runs only the text it returns (which also
// carries a LIMIT of the row cap + 1). The executor is defence in depth for
// what the validator might miss, because a read-only transaction alone is not
// a security boundary:
//
//   - The query is sent with the extended protocol only, which parses
//     exactly one statement: a stacked "SELECT 1; COMMIT; CREATE TABLE ..."
//     fails to parse instead of committing. The simple protocol is used only
//     for the executor's own constant text.
//   - It runs inside BEGIN READ ONLY, with statement_timeout, lock_timeout,
//     idle_in_transaction_session_timeout, search_path (the query's scope,
//     quoted, pg_temp last), standard_conforming_strings = on (string
//     literals read as the validator read them), work_mem (WithWorkMem),
//     temp_file_limit (WithTempFileLimit, where the pool's role may set
//     it) and, on PostgreSQL 14+, client_connection_check_interval, set
//     with set_config(..., true), that is SET LOCAL, from parameters, never
//     spliced text. work_mem and temp_file_limit are only ever lowered. AsRole
//     adds SET LOCAL ROLE for per-user privileges.
//   - Before the query runs, in the same transaction and the same round trip
//     as BEGIN, the server plans it: EXPLAIN (VERBOSE, FORMAT JSON) shows
//     every function, operator and type the server resolved (functional
//     notation, inlined SQL functions, implicit casts), and
//     validate.Validator.CheckPlan refuses what the policy does not allow
//     (ErrRejected, Op "plan", V015). A plan over 8 MiB (constants the
//     planner folded) is refused unread, as one that cannot be checked.
//   - The transaction is always rolled back, and in the same round trip the
//     session is reset: everything DISCARD ALL clears (cursors, LISTEN,
//     advisory locks, cached plans, temporary tables, sequence state,
//     settings: RESET ALL, which keeps the startup packet's parameters,
//     pgx's RuntimeParams, and ALTER ROLE/DATABASE ... SET) but prepared
//     statements, and random() is reseeded from crypto/rand (setseed()
//     state survives all of these). Where the pool's role may start a
//     backup, a backup the query left running is stopped.
//   - A connection is reused only after a clean run. After an error, a role
//     change, a result cut mid-stream, a cancellation, a prepared statement
//     created or deallocated by the query (pgx's statement cache must match
//     the server's) or a backup left running it is destroyed (hijacked from
//     the pool and closed), not reset with DISCARD ALL, which would also
//     desynchronise pgx's statement cache for the pool's other users.
//   - Rows are counted and their size summed while reading; at a cap the
//     reading stops, the server query is cancelled if it is still producing,
//     and the result says Truncated with a reason. The byte cap also limits
//     the protocol reader itself (pgx buffers each message whole): a row
//     larger than the cap (64 KiB at the least) is refused after its 5-byte
//     header, never buffered, and the connection closed.
//   - If the server misses the statement timeout (a call that does not
//     check for interrupts, such as format() padding a huge width), the
//     executor closes the connection 2 s after it (ErrTimeout): the caller
//     never waits much longer than the timeout. The watchdog (WithWatchdog)
//     then follows the backend from another pooled connection and, if it
//     still runs, sends pg_cancel_backend and then pg_terminate_backend,
//     logging each step. On PostgreSQL 14+ client_connection_check_interval
//     is set to 1 s for the transaction, so a backend whose client went
//     away stops at its next interrupt check; neither that, nor a cancel,
//     nor a terminate stops a call that never checks: only the validator's
//     refusal (V022, V028) does, and the operator's limits (docs/security.md,
//     "What the server operator must set").
//
// What the executor cannot contain: with AsRole, a query that reaches the
// server with set_config('role', ...) could switch back to the pool's login
// role; only the validator stops that (it denies set_config), as in any
// system using SET ROLE. Likewise set_config could raise work_mem again
// (temp_file_limit only for a superuser). Memory that one call or aggregate
// builds up (repeat, format widths, array_agg, string_agg: not bounded by
// work_mem) grows until the statement timeout interrupts it, up to
// PostgreSQL's 1 GB per value and more while a large row is sent; a call
// that ignores interrupts runs on in the server after the executor gave
// up. The validator's guards refuse those queries (V021-V024).
// temp_file_limit is per process: a parallel query may use it once per
// worker. Run the pool as a role with only the privileges queries need, not
// as a superuser (which also pays a backup check on every query, and can
// reach session state such as LOAD that no reset undoes), and with a
// pool of its own: the reset undoes SETs and temporary tables that other
// users of the pool made.
//
// # Values as parameters
//
// Args runs a trusted template (a verified query, semantic.VerifiedQuestion.Bind)
// with values as query parameters: the executor inlines each value as a
// literal of its type, validates and plans that text, then prepares the
// same text, pinned, with each literal back as a parameter typed as the
// literal was (each use its own parameter), so the server resolves every
// operator as it did for the planned text; a text the validator must
// rewrite beyond appending its LIMIT is refused. The values never reach
// the SQL text that runs.
//
// # Errors
//
// Every error is an *Error carrying the SQLSTATE, message, detail, hint and
// position of the server's report, and whether a retry may help; its class
// (what a caller should do about it) is matched with errors.Is against the
// sentinels (ErrRejected, ErrRepairable,
// ErrPermission, ErrTimeout, ErrConnection, ErrCanceled); the cause
// (*validate.Error, *pgconn.PgError, context.Canceled, ...) is in the chain.
// A connection that died while idle in the pool is retried once on a fresh
// one, before the query is sent.
package execute
