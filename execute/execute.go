package execute

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// Acquirer hands out pooled connections; *pgxpool.Pool satisfies it. The
// executor needs a whole connection, not a DBTX, because it must be able to
// destroy it instead of returning it to the pool.
type Acquirer interface {
	Acquire(ctx context.Context) (*pgxpool.Conn, error)
}

// Executor runs untrusted SELECT queries safely. It is safe for concurrent use.
type Executor struct {
	pool Acquirer
	cfg  *config

	mu         sync.Mutex
	validators map[string]*validate.Validator // by scope and row cap
	typeNames  sync.Map                       // uint32 OID -> string, types pgx does not know
}

// maxCachedValidators bounds the validator cache; scopes beyond it get a
// fresh validator per query.
const maxCachedValidators = 256

// New returns an Executor running queries on connections from pool.
func New(pool Acquirer, opts ...Option) *Executor {
	cfg := defaultConfig()
	for _, o := range opts {
		if o != nil {
			o.apply(cfg)
		}
	}
	return &Executor{pool: pool, cfg: cfg, validators: map[string]*validate.Validator{}}
}

// Column describes a result column.
type Column struct {
	Name string
	// Type is the PostgreSQL type name as in pg_type.typname ("int4",
	// "numeric", "timestamptz", "_text" for text[], an enum's name, ...);
	// empty if it could not be looked up.
	Type string
	OID  uint32
}

// Result is the outcome of a query.
type Result struct {
	// SQL is the SQL that ran: the validator's rewrite of the input.
	SQL     string
	Columns []Column
	// Rows hold JSON-friendly values (encoding/json marshals them as
	// expected): nil for NULL; bool; int64 for int2/int4/int8/oid; float64
	// for float4/float8 (the strings "NaN", "Infinity", "-Infinity" for
	// non-finite values); json.Number for numeric, exact (non-finite
	// numerics as strings); string for text types, date ("2024-01-31"),
	// uuid, interval, time, ranges, enums and every other type, as
	// PostgreSQL prints it; time.Time for timestamptz (the instant) and
	// timestamp (the wall clock, in UTC), the strings "infinity" and
	// "-infinity" for infinite ones; []byte for bytea (encoding/json writes
	// base64); json.RawMessage for json and jsonb; []any for arrays of
	// bool, integers, floats, numeric, text types, date, timestamps and
	// uuid, nested per dimension (other arrays are strings such as
	// "{a,b}").
	Rows     [][]any
	RowCount int
	// Truncated reports that the query had more rows than the caps allow;
	// Rows holds those read before the cap and TruncateReason says which
	// cap was reached.
	Truncated      bool
	TruncateReason string
	// Bytes is the size of the values read, as sent by the server.
	Bytes int64
	// Duration is the time from acquiring a connection to the last row read.
	Duration time.Duration
	// Validation is the validator's report (issues, tables, functions);
	// nil only in tests that bypass validation.
	Validation *validate.Result
}

// Query validates sql and runs the validator's rewrite of it: one statement,
// with the extended protocol, in a READ ONLY transaction that is always
// rolled back, with statement_timeout, lock_timeout,
// idle_in_transaction_session_timeout and search_path set for the
// transaction only, optionally under another role. Reading stops at the row
// or byte cap. Errors are *Error (see the sentinels).
func (e *Executor) Query(ctx context.Context, sql string, opts ...QueryOption) (*Result, error) {
	qc := queryConfig{scope: e.cfg.scope, caps: e.cfg.caps}
	for _, o := range opts {
		if o != nil {
			o.applyQuery(&qc)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, newError(ctx, "validate", sql, err)
	}
	if err := checkNames(qc.scope, qc.role); err != nil {
		return nil, &Error{Op: "options", SQL: sql, Message: err.Error(), Err: err}
	}
	run := sql
	var vres *validate.Result
	if !qc.unvalidated {
		var err error
		if vres, err = e.validator(&qc).Validate(sql); err != nil {
			e.cfg.logger.DebugContext(ctx, "execute: rejected", "sql", sql, "err", err)
			return nil, &Error{Class: ClassRejected, Op: "validate", SQL: sql, Message: err.Error(), Err: err}
		}
		run = vres.SQL
	}
	if strings.TrimSpace(run) == "" {
		// pgx sends an empty query with the simple protocol; never do that.
		return nil, &Error{Class: ClassRejected, Op: "validate", SQL: sql, Message: "empty query"}
	}
	for attempt := 0; ; attempt++ {
		res, err, sent := e.run(ctx, run, &qc)
		if err != nil {
			// A pooled connection that died while idle (server restart,
			// network blip) fails before the query is sent: one retry on a
			// fresh connection is safe and hides it.
			if !sent && attempt == 0 && err.Class == ClassConnection && ctx.Err() == nil {
				e.cfg.logger.InfoContext(ctx, "execute: retrying on a new connection", "err", err)
				continue
			}
			return nil, err
		}
		res.Validation = vres
		e.nameTypes(ctx, res.Columns)
		return res, nil
	}
}

// validator returns the validator for qc: the executor's options plus the
// query's, with the scope as search path and the row cap + 1 as LIMIT.
func (e *Executor) validator(qc *queryConfig) *validate.Validator {
	opts := append(append(append([]validate.Option(nil), e.cfg.validateOpts...), qc.validateOpts...),
		validate.WithSearchPath(qc.scope...), validate.WithMaxLimit(int64(qc.maxRows)+1))
	if len(qc.validateOpts) > 0 {
		return validate.New(opts...)
	}
	key := strings.Join(qc.scope, "\x00") + "\x00" + strconv.Itoa(qc.maxRows)
	e.mu.Lock()
	defer e.mu.Unlock()
	v := e.validators[key]
	if v == nil {
		v = validate.New(opts...)
		if len(e.validators) < maxCachedValidators {
			e.validators[key] = v
		}
	}
	return v
}

// checkNames rejects schema and role names PostgreSQL would truncate or could
// not store.
func checkNames(scope []string, role string) error {
	if len(scope) == 0 {
		return errors.New("execute: empty scope")
	}
	for _, s := range scope {
		if err := checkName("schema", s); err != nil {
			return err
		}
	}
	if role != "" {
		return checkName("role", role)
	}
	return nil
}

func checkName(what, s string) error {
	if s == "" || len(s) > 63 || !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
		return fmt.Errorf("execute: invalid %s name %q: 1 to 63 bytes of UTF-8 without NUL", what, s)
	}
	return nil
}

// searchPath quotes scope as a search_path value, pg_temp last.
func searchPath(scope []string) string {
	parts := make([]string, 0, len(scope)+1)
	for _, s := range scope {
		parts = append(parts, pgx.Identifier{s}.Sanitize())
	}
	return strings.Join(append(parts, "pg_temp"), ", ")
}

// setupSQL pins the transaction's settings. Values travel as parameters
// (never spliced into SQL); set_config(..., true) is SET LOCAL. The role is
// set last; set_config('role') takes the name itself, not an identifier, so
// it needs no quoting.
const setupSQL = `SELECT pg_catalog.set_config('statement_timeout', $1, true),
	pg_catalog.set_config('lock_timeout', $2, true),
	pg_catalog.set_config('idle_in_transaction_session_timeout', $3, true),
	pg_catalog.set_config('search_path', $4, true),
	pg_catalog.set_config('standard_conforming_strings', 'on', true),
	CASE WHEN $5::text <> '' THEN pg_catalog.set_config('role', $5, true) END`

// endSQL ends the transaction and reports session state that survives a
// ROLLBACK (prepared statements, cursors, LISTEN); advisory locks are
// released outright. The validator rejects everything that creates such
// state, so "true" means it was bypassed: the connection is then destroyed.
// It is our own constant text, so the simple protocol is fine here.
const endSQL = `ROLLBACK; SELECT pg_catalog.pg_advisory_unlock_all();
SELECT EXISTS (SELECT FROM pg_catalog.pg_prepared_statements WHERE from_sql)
	OR EXISTS (SELECT FROM pg_catalog.pg_cursors WHERE name <> '')
	OR EXISTS (SELECT FROM pg_catalog.pg_listening_channels())`

// begin opens the read-only transaction and pins its settings, pipelined in
// one round trip. Values travel as parameters.
func begin(ctx context.Context, conn *pgx.Conn, cfg *config, qc *queryConfig) error {
	setup := setupSQL
	params := [][]byte{[]byte(ms(cfg.statementTimeout)), []byte(ms(cfg.lockTimeout)), []byte(ms(cfg.idleTimeout)),
		[]byte(searchPath(qc.scope)), []byte(qc.role)}
	if serverMajor(conn) >= 14 {
		setup += connCheckSQL
		params = append(params, []byte(ms(connCheckInterval)))
	}
	p := conn.PgConn().StartPipeline(ctx)
	p.SendQueryParams("BEGIN READ ONLY", nil, nil, nil, nil)
	p.SendQueryParams(setup, params, nil, nil, nil)
	if err := p.Sync(); err != nil {
		_ = p.Close()
		return err
	}
	return p.Close() // reads the results; the first error, if any
}

// connCheckSQL makes PostgreSQL 14+ poll the client socket while the query
// runs, so that a query whose client went away stops within
// connCheckInterval even if no cancel request reached it.
const connCheckSQL = `,
	pg_catalog.set_config('client_connection_check_interval', $6, true)`

const connCheckInterval = time.Second

// serverMajor returns the server's major version (0 if unknown).
func serverMajor(conn *pgx.Conn) int {
	v := conn.PgConn().ParameterStatus("server_version")
	if i := strings.IndexAny(v, ". "); i >= 0 {
		v = v[:i]
	}
	n, _ := strconv.Atoi(v)
	return n
}

func ms(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }

// run executes sql once on one connection. sent reports whether the query
// itself reached the server.
func (e *Executor) run(ctx context.Context, sql string, qc *queryConfig) (res *Result, qerr *Error, sent bool) {
	start := time.Now()
	pc, err := e.pool.Acquire(ctx)
	if err != nil {
		return nil, newError(ctx, "acquire", sql, err), false
	}
	keep := false
	var why string
	defer func() { e.release(ctx, pc, keep, why) }()
	conn := pc.Conn()
	fail := func(op string, err error) *Error {
		why = op + " failed"
		qe := newError(ctx, op, sql, err)
		if qe.Class == ClassUnknown && conn.IsClosed() {
			qe.Class, qe.Retryable = ClassConnection, true
		}
		return qe
	}

	if err := begin(ctx, conn, e.cfg, qc); err != nil {
		return nil, fail("begin", err), false
	}

	// pgx must not see the caller's context during the query: on
	// cancellation it sends a CancelRequest, then drains the socket until
	// the server closes it, for up to 15 s. A cancel request is not always
	// honoured (PostgreSQL 15 was seen running an extended-protocol query
	// on after one), so the drain can last the full 15 s while the query
	// runs on. kill sends a CancelRequest and closes the socket at once; the
	// server then stops at its next write or connection check
	// (client_connection_check_interval) at the latest.
	var killed sync.Once
	kill := func() {
		killed.Do(func() {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
			defer cancel()
			_ = conn.PgConn().CancelRequest(cctx)
			_ = conn.PgConn().Conn().Close()
		})
	}
	unwatch := context.AfterFunc(ctx, kill)
	defer func() {
		unwatch()
		killed.Do(func() {}) // waits for a kill in progress
	}()
	qctx := context.WithoutCancel(ctx)
	rows, err := conn.Query(qctx, sql, pgx.QueryExecModeDescribeExec, binaryOIDs)
	if err != nil {
		return nil, fail("query", err), true
	}
	res = &Result{SQL: sql}
	fds := rows.FieldDescriptions()
	res.Columns = make([]Column, len(fds))
	for i, fd := range fds {
		res.Columns[i] = Column{Name: fd.Name, OID: fd.DataTypeOID}
		if t, ok := conn.TypeMap().TypeForOID(fd.DataTypeOID); ok {
			res.Columns[i].Type = t.Name
		}
	}
	stopped := false
	for rows.Next() {
		raw := rows.RawValues()
		var n int64
		for _, v := range raw {
			n += int64(len(v))
		}
		switch {
		case len(res.Rows) >= qc.maxRows:
			res.TruncateReason = fmt.Sprintf("row cap reached: the query returns more than %d rows", qc.maxRows)
		case res.Bytes+n > qc.maxBytes:
			res.TruncateReason = fmt.Sprintf("byte cap reached: the next row would bring the result over %d bytes", qc.maxBytes)
		}
		if res.TruncateReason != "" {
			res.Truncated = true
			// The validator's LIMIT (row cap + 1) usually ends the result
			// right here; otherwise stop the server rather than read on.
			if rows.Next() {
				stopped = true
				kill()
			}
			break
		}
		row := make([]any, len(raw))
		for i, v := range raw {
			if row[i], err = decodeValue(conn.TypeMap(), &fds[i], v); err != nil {
				rows.Close()
				return nil, fail("read", err), true
			}
		}
		res.Rows = append(res.Rows, row)
		res.Bytes += n
	}
	rows.Close()
	if err := rows.Err(); err != nil && !(stopped && ctx.Err() == nil) {
		return nil, fail("query", err), true
	}
	res.RowCount = len(res.Rows)
	res.Duration = time.Since(start)
	e.cfg.logger.DebugContext(ctx, "execute: query", "sql", sql, "rows", res.RowCount, "bytes", res.Bytes,
		"truncated", res.Truncated, "duration", res.Duration)

	switch {
	case stopped:
		why = "result truncated mid-stream"
	case qc.role != "":
		why = "role changed"
	default:
		keep, why = e.end(ctx, pc)
	}
	return res, nil, true
}

// end rolls the transaction back and checks the session is clean. The result
// is already read, so this runs even if ctx has just been cancelled.
func (e *Executor) end(ctx context.Context, pc *pgxpool.Conn) (keep bool, why string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	results, err := pc.Conn().PgConn().Exec(ctx, endSQL).ReadAll()
	if err != nil {
		return false, "rollback failed: " + err.Error()
	}
	last := results[len(results)-1]
	if len(last.Rows) != 1 || string(last.Rows[0][0]) != "f" {
		e.cfg.logger.WarnContext(ctx, "execute: session state left after the query (prepared statement, cursor or LISTEN); destroying the connection")
		return false, "session state left after the query"
	}
	return true, ""
}

// release returns a clean connection to the pool and destroys any other: a
// connection that saw an error, a role change, a truncated stream or leftover
// session state is never reused. Destroying (rather than DISCARD ALL) also
// keeps pgx's client-side statement cache consistent.
func (e *Executor) release(ctx context.Context, pc *pgxpool.Conn, keep bool, why string) {
	if keep {
		pc.Release()
		return
	}
	e.cfg.logger.InfoContext(ctx, "execute: destroying connection", "reason", why)
	conn := pc.Hijack()
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_ = conn.Close(cctx)
	// If pgx closed the connection itself (a cancelled context), its
	// cleanup goroutine sends a CancelRequest and drains the socket; wait
	// for it (it gives up after 15 s on its own) so no goroutine outlives
	// Query in the usual case.
	select {
	case <-conn.PgConn().CleanupDone():
	case <-time.After(3 * time.Second):
	}
}

// nameTypes fills in Column.Type for OIDs pgx's type map does not know
// (enums, domains' arrays, extension types), from pg_type, cached per
// executor. Failure leaves the names empty: it is not worth failing a query.
func (e *Executor) nameTypes(ctx context.Context, cols []Column) {
	var missing []uint32
	for i := range cols {
		if cols[i].Type != "" {
			continue
		}
		if n, ok := e.typeNames.Load(cols[i].OID); ok {
			cols[i].Type = n.(string)
			continue
		}
		missing = append(missing, cols[i].OID)
	}
	if len(missing) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	pc, err := e.pool.Acquire(ctx)
	if err != nil {
		return
	}
	defer pc.Release()
	rows, err := pc.Query(ctx, "SELECT oid, typname FROM pg_catalog.pg_type WHERE oid = ANY($1)", pgx.QueryExecModeExec, missing)
	if err != nil {
		return
	}
	for rows.Next() {
		var oid uint32
		var name string
		if rows.Scan(&oid, &name) == nil {
			e.typeNames.Store(oid, name)
		}
	}
	rows.Close()
	for i := range cols {
		if n, ok := e.typeNames.Load(cols[i].OID); ok && cols[i].Type == "" {
			cols[i].Type = n.(string)
		}
	}
}
