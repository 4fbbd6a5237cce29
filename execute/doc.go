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
//   - The query is sent with the extended protocol only
//     (QueryExecModeDescribeExec), which parses exactly one statement: a
//     stacked "SELECT 1; COMMIT; CREATE TABLE ..." fails to parse instead of
//     committing. The simple protocol is used only for the executor's own
//     constant BEGIN and ROLLBACK text.
//   - It runs inside BEGIN READ ONLY, with statement_timeout, lock_timeout,
//     idle_in_transaction_session_timeout, search_path (the query's scope,
//     quoted, pg_temp last), standard_conforming_strings = on (string
//     literals read as the validator read them) and, on PostgreSQL 14+,
//     client_connection_check_interval set with set_config(..., true), that
//     is SET LOCAL, from parameters, never spliced text. AsRole adds SET
//     LOCAL ROLE for per-user privileges.
//   - The transaction is always rolled back. In the same round trip the
//     executor releases advisory locks and checks for session state that
//     survives a rollback (prepared statements, cursors, LISTEN).
//   - A connection is reused only after a clean run. After an error, a role
//     change, a result cut mid-stream, a cancellation or leftover session
//     state it is destroyed (hijacked from the pool and closed), not reset
//     with DISCARD ALL, which would also desynchronise pgx's statement
//     cache for the pool's other users.
//   - Rows are counted and their size summed while reading; at a cap the
//     reading stops, the server query is cancelled if it is still producing,
//     and the result says Truncated with a reason.
//
// What the executor cannot contain: with AsRole, a query that reaches the
// server with set_config('role', ...) could switch back to the pool's login
// role; only the validator stops that (it denies set_config), as in any
// system using SET ROLE. Run the pool as a role with only the privileges
// queries need.
//
// # Errors
//
// Every error is an *Error carrying a Class, the SQLSTATE, message, detail,
// hint and position of the server's report, and whether a retry may help.
// errors.Is matches the class sentinels (ErrRejected, ErrRepairable,
// ErrPermission, ErrTimeout, ErrConnection, ErrCanceled); the cause
// (*validate.Error, *pgconn.PgError, context.Canceled, ...) is in the chain.
// A connection that died while idle in the pool is retried once on a fresh
// one, before the query is sent.
package execute
