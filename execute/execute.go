package execute

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/internal/ttlcache"
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

	tempFileLimitLogged atomic.Bool // the role may not set temp_file_limit: said once

	catalog catalogCaches

	maxMessageOnce  sync.Once
	maxMessageBytes int
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
	return &Executor{pool: pool, cfg: cfg, validators: map[string]*validate.Validator{},
		catalog: catalogCaches{lookalikes: ttlcache.New[[][]string](validate.LookalikeTTL, maxCachedValidators),
			objects: ttlcache.New[[][]string](validate.LookalikeTTL, maxCachedObjects)}}
}

// catalogCaches keep catalog checks' rows for validate.LookalikeTTL where
// only trusted owners can change them: the look-alike query's per pinned
// search path, the objects query's per pinned path and relations and types
// when all it reached is trusted (validate.Lookalikes.Reusable).
type catalogCaches struct {
	lookalikes, objects *ttlcache.Cache[[][]string]
}

// maxCachedObjects bounds the objects query's cache (distinct sets of
// relations read).
const maxCachedObjects = 4096

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
	// expected): nil for NULL; bool; int64 for int2/int4/int8/oid within
	// ±2^53, and the decimal string beyond (JSON readers that parse numbers
	// to float64, JavaScript's, would get another number); float64 for
	// float4/float8 (the strings "NaN", "Infinity", "-Infinity" for
	// non-finite values); for numeric, exact: json.Number when a float64
	// reads it back unchanged (an integer within ±2^53, or at most 15
	// significant digits), else the decimal string ("0.1" is 0.1,
	// "12345678901234567890" and "3.14159265358979323846" are strings; NaN
	// and the infinities are "NaN", "Infinity", "-Infinity"); string for text types, date ("2024-01-31"),
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
	// Rows holds those read before the cap, TruncatedBy says which cap was
	// reached and TruncateReason says it in words.
	Truncated      bool
	TruncatedBy    Cap
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
// idle_in_transaction_session_timeout, search_path, work_mem and
// temp_file_limit set for the transaction only, optionally under another
// role, once the validator has accepted the server's plan of it too.
// Reading stops at the row or byte cap. The session is reset afterwards.
// Errors are *Error (see the sentinels).
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
	if err := checkSettings(qc.settings); err != nil {
		return nil, &Error{Op: "options", SQL: sql, Message: err.Error(), Err: err}
	}
	if qc.args != nil {
		if qc.unvalidated || qc.planOnly {
			return nil, &Error{Op: "options", SQL: sql, Message: "execute: Args needs the validator", Err: errArgs}
		}
		b, err := bind(sql, qc.args)
		if err != nil {
			return nil, &Error{class: classRejected, Op: "validate", SQL: sql, Message: err.Error(), Err: err}
		}
		qc.bound, sql = b, b.inlined
	}
	run := sql
	var vres *validate.Result
	var v *validate.Validator // checks the plan; nil when bypassed (tests)
	if !qc.unvalidated {
		v = e.validator(&qc)
		if !qc.planOnly {
			var err error
			if vres, err = v.Validate(sql); err != nil {
				e.cfg.logger.DebugContext(ctx, "execute: rejected", "sql", sql, "err", err)
				return nil, &Error{class: classRejected, Op: "validate", SQL: sql, Message: err.Error(), Err: err}
			}
			run = vres.SQL
			if qc.bound != nil && !strings.HasPrefix(run, qc.bound.inlined) {
				err := fmt.Errorf("%w: the validator rewrote the query (a LIMIT over the row cap?); a query with arguments runs only as written", errArgs)
				return nil, &Error{class: classRejected, Op: "validate", SQL: sql, Message: err.Error(), Err: err}
			}
		}
	}
	if strings.TrimSpace(run) == "" {
		// pgx sends an empty query with the simple protocol; never do that.
		return nil, &Error{class: classRejected, Op: "validate", SQL: sql, Message: "empty query"}
	}
	for attempt := 0; ; attempt++ {
		res, err, sent := e.run(ctx, run, &qc, v, vres)
		if err != nil {
			// A pooled connection that died while idle (server restart,
			// network blip) fails before the query is sent: one retry on a
			// fresh connection is safe and hides it.
			if !sent && attempt == 0 && err.class == classConnection && ctx.Err() == nil {
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
		validate.WithSearchPath(qc.scope...), validate.WithMaxRows(qc.maxRows+1))
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

// setupSQLFormat pins the transaction's settings. Values travel as
// parameters (never spliced into SQL); set_config(..., true) is SET LOCAL.
// The columns are evaluated left to right, and the first three are facts
// read before the role switch, that is as the pool's login role:
//
//  0. temp_file_limit, set only where the role may set it (it is a
//     superuser parameter; %[1]s is the privilege test), else NULL;
//  1. how many prepared statements the session holds (pgx's own), so that
//     the end can tell whether the query created or deallocated any;
//  2. whether the role may start a backup (%[2]s), which leaves session
//     state that no ROLLBACK or RESET ends.
//
// plan_cache_mode keeps the generic plans of the catalog checks' prepared
// statements (planning them costs more than running them); the query
// itself has no parameters, so it is planned the same either way. jit is
// off while the catalog checks run (their generic plans' estimates would
// have every one compiled, hundreds of milliseconds each) and restored
// (restoreJIT) before the query is planned.
// work_mem and temp_file_limit are only ever lowered (LEAST ignores the
// NULL that stands for an unlimited temp_file_limit). The role is set last;
// set_config('role') takes the name itself, not an identifier, so it needs
// no quoting.
const setupSQLFormat = `SELECT CASE WHEN %[1]s THEN pg_catalog.set_config('temp_file_limit', pg_catalog.textcat(LEAST(
		NULLIF(pg_catalog.pg_size_bytes(pg_catalog.current_setting('temp_file_limit')), -1), $7::int8)::text, 'B'), true) END,
	(SELECT pg_catalog.count(*) FROM pg_catalog.pg_prepared_statement()),
	%[2]s,
	pg_catalog.set_config('statement_timeout', $1, true),
	pg_catalog.set_config('lock_timeout', $2, true),
	pg_catalog.set_config('idle_in_transaction_session_timeout', $3, true),
	pg_catalog.set_config('search_path', $4, true),
	pg_catalog.set_config('standard_conforming_strings', 'on', true),
	pg_catalog.set_config('plan_cache_mode', 'force_generic_plan', true),
	pg_catalog.set_config('nl2sql.jit', pg_catalog.current_setting('jit'), true),
	pg_catalog.set_config('jit', 'off', true),
	pg_catalog.set_config('work_mem', pg_catalog.textcat(LEAST(
		pg_catalog.pg_size_bytes(pg_catalog.current_setting('work_mem')), $6::int8)::text, 'B'), true),
	CASE WHEN $5::text <> '' THEN pg_catalog.set_config('role', $5, true) END`

// setupSQL is setupSQLFormat for PostgreSQL 15 and later, which can grant
// SET on a superuser parameter to a role and has pg_backup_start;
// setupSQL14 is for earlier versions.
var (
	setupSQL = fmt.Sprintf(setupSQLFormat, `pg_catalog.has_parameter_privilege('temp_file_limit', 'SET')`,
		`pg_catalog.has_function_privilege('pg_catalog.pg_backup_start(text, boolean)', 'EXECUTE')`)
	setupSQL14 = fmt.Sprintf(setupSQLFormat, `pg_catalog.current_setting('is_superuser')::bool`,
		`pg_catalog.has_function_privilege('pg_catalog.pg_start_backup(text, boolean, boolean)', 'EXECUTE')`)
)

// restoreJIT gives the query the jit setting the session had, which the
// setup kept in nl2sql.jit.
const restoreJIT = "SELECT pg_catalog.set_config('jit', pg_catalog.current_setting('nl2sql.jit'), true)"

// connCheckSQL makes PostgreSQL 14+ poll the client socket while the query
// runs, so that a query whose client went away stops within
// connCheckInterval even if no cancel request reached it.
const connCheckSQL = `,
	pg_catalog.set_config('client_connection_check_interval', $8, true)`

const connCheckInterval = time.Second

// explainPrefix turns the query into the plan the second layer checks. The
// query follows the closing parenthesis, where no option (ANALYZE) can be
// added, and the same text has to parse as one statement on its own too.
const explainPrefix = "EXPLAIN (VERBOSE, FORMAT JSON) "

// Limits on what the client reads, per protocol message: pgx buffers each
// message whole before anything else sees it, so these are what bounds the
// client's memory, not the byte cap's count.
const (
	// maxPlanBytes bounds the EXPLAIN output (and every other message of
	// the setup round trip). A plan is a few KiB; one this large holds
	// constants the planner folded, and cannot be checked.
	maxPlanBytes = 8 << 20
	// minMessageBytes is the smallest per-message limit while rows are
	// read, whatever the byte cap, so that the server's error reports
	// (which may quote a value) still arrive as errors.
	minMessageBytes = 64 << 10
	// defaultMaxMessageBytes is pgproto3's own default limit (the ~1 GiB
	// the server enforces on what it receives), restored after a query
	// on connections whose config sets none.
	defaultMaxMessageBytes = 0x3fffffff - 1
)

// backstopSlack is how long past statement_timeout the executor waits for
// the server to stop a query on its own before it closes the connection. A
// call that does not check for interrupts (format() padding a huge width,
// for one) runs on past the timeout; the client does not wait for it.
const backstopSlack = 2 * time.Second

// rowMessageLimit is the largest DataRow the executor reads for a byte cap
// of maxBytes and cols columns (2 bytes of column count, 4 of length per
// value); a larger one is refused after its 5-byte header.
func rowMessageLimit(maxBytes int64, cols int) int {
	n := max(maxBytes, minMessageBytes) + 2 + 4*int64(cols)
	return int(min(n, defaultMaxMessageBytes))
}

// serverMajor returns the server's major version (0 if unknown).
func serverMajor(pg *pgconn.PgConn) int {
	v := pg.ParameterStatus("server_version")
	if i := strings.IndexAny(v, ". "); i >= 0 {
		v = v[:i]
	}
	n, _ := strconv.Atoi(v)
	return n
}

func ms(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }

// session is what the setup round trip learned.
type session struct {
	major int
	// tempFileLimit reports that temp_file_limit was set.
	tempFileLimit bool
	// prepared counts the session's prepared statements before the query.
	prepared int64
	// settings reports that the query's custom settings were sent after
	// the setup (Setting).
	settings bool
	// mayBackup reports that the login role may start a backup.
	mayBackup bool
	// stmt describes the query, prepared as the unnamed statement.
	stmt *pgconn.StatementDescription
	// plan is EXPLAIN's JSON when the plan is checked.
	plan []byte
	// lookalikes are what the look-alike check found, for the plan check.
	lookalikes *validate.Lookalikes
}

// begin opens the read-only transaction, pins its settings, explains the
// query (when v is set) and prepares it, pipelined. With v, a first round
// trip also runs v's look-alike check of the query (vres; nil when the
// query was not validated), under the transaction's search path and role:
// the planner folds immutable functions on constants, so a look-alike
// would run during the EXPLAIN itself. A look-alike refuses the query with
// a *validate.Error (op "plan"); the session then holds no statement. op is
// the step an error belongs to: "begin" for the executor's own statements,
// "query" for the query's (its EXPLAIN, with the error position moved back
// onto the query text, and its preparation).
func begin(ctx context.Context, pg *pgconn.PgConn, cfg *config, qc *queryConfig, sql string, v *validate.Validator, vres *validate.Result,
	stmts *catalogStatements, caches *catalogCaches) (s *session, op string, err error) {
	s = &session{major: serverMajor(pg)}
	setup := setupSQL
	if s.major > 0 && s.major < 15 {
		setup = setupSQL14
	}
	params := [][]byte{[]byte(ms(cfg.statementTimeout)), []byte(ms(cfg.lockTimeout)), []byte(ms(cfg.idleTimeout)),
		[]byte(searchPath(qc.scope)), []byte(qc.role),
		[]byte(strconv.FormatInt(cfg.workMem, 10)), []byte(strconv.FormatInt(cfg.tempFileLimit, 10))}
	if s.major >= 14 {
		setup += connCheckSQL
		params = append(params, []byte(ms(connCheckInterval)))
	}
	p := pg.StartPipeline(ctx)
	fail := func(op string, err error) (*session, string, error) {
		_ = p.Close() // reads up to the Sync (the server skips the rest)
		return nil, op, err
	}
	p.SendQueryParams("BEGIN READ ONLY", nil, nil, nil, nil)
	p.SendQueryParams(setup, params, nil, nil, nil)
	if len(qc.settings) > 0 {
		var kv [][]byte
		for _, st := range qc.settings {
			kv = append(kv, []byte(st[0]), []byte(st[1]))
		}
		p.SendQueryParams(settingsSQL(len(qc.settings)), kv, nil, nil, nil)
		s.settings = true
	}
	var look *validate.Lookalikes
	var pin *validate.Pin
	run := sql
	if v != nil {
		refused := func(err error) (*session, string, error) {
			var ve *validate.Error
			if !errors.As(err, &ve) {
				return fail("begin", err)
			}
			ve.SQL = sql
			if err := p.Close(); err != nil {
				return nil, "begin", err
			}
			return s, "plan", err
		}
		if vres != nil {
			// Pin the query's name resolution first (validate.Pin): under
			// the request's path, where its relations and types resolve;
			// then lock what a tenant could change and run the rest under
			// the trusted schemas only.
			_, pinParams := v.PinQuery(vres)
			sendCatalogQuery(p, stmts.pin, pinParams)
			if err := readSetup(p, s); err != nil {
				return fail("begin", err)
			}
			rows, err := syncedRows(p)
			if err != nil {
				return fail("begin", err)
			}
			if pin, err = v.Pin(vres, rows); err != nil {
				return refused(err)
			}
			run = pin.SQL
			if pin.Lock != "" {
				p.SendQueryParams(pin.Lock, nil, nil, nil, nil)
			}
			p.SendQueryParams("SELECT pg_catalog.set_config('search_path', $1, true)", [][]byte{[]byte(pin.SearchPath)}, nil, nil, nil)
		}
		// The look-alikes of a pinned path change only by its trusted
		// owners: their rows are kept for a while (looks).
		_, lookParams := v.LookalikeQuery(vres)
		var lookRows [][]string
		cached := false
		if pin != nil {
			lookRows, cached = caches.lookalikes.Get(pin.SearchPath)
		}
		if cached {
			_ = p.Sync() // for the LOCK and the search path
		} else {
			sendCatalogQuery(p, stmts.lookalikes, lookParams)
		}
		if pin == nil {
			if err := readSetup(p, s); err != nil {
				return fail("begin", err)
			}
		} else {
			if pin.Lock != "" {
				if _, err := pipelineRows(p); err != nil {
					return fail("begin", err)
				}
			}
			if _, err := pipelineRows(p); err != nil {
				return fail("begin", err)
			}
		}
		if cached {
			if _, err := p.GetResults(); err != nil { // the Sync
				return fail("begin", err)
			}
		} else {
			if lookRows, err = syncedRows(p); err != nil {
				return fail("begin", err)
			}
			if pin != nil {
				caches.lookalikes.Put(pin.SearchPath, lookRows)
			}
		}
		if look, err = v.CheckLookalikes(vres, lookRows); err != nil {
			return refused(err)
		}
		if (pin == nil && look.NeedsObjects()) || (pin != nil && pin.NeedsObjects()) {
			// What the objects query says of trusted relations and types
			// changes only by their owners: kept like the look-alikes.
			_, objParams := v.LookalikeObjectsQuery(vres)
			key := ""
			if pin != nil {
				_, objParams = v.PinnedObjectsQuery(pin)
				key = pin.SearchPath + "\x00" + strings.Join(objParams, "\x00")
			}
			objRows, ok := caches.objects.Get(key)
			if key == "" || !ok {
				sendCatalogQuery(p, stmts.objects, objParams)
				if objRows, err = syncedRows(p); err != nil {
					return fail("begin", err)
				}
			}
			l, err := v.CheckLookalikes(vres, objRows)
			if key != "" && !ok && l.Reusable() {
				caches.objects.Put(key, objRows)
			}
			if err != nil {
				return refused(err)
			}
		}
		p.SendQueryParams(restoreJIT, nil, nil, nil, nil)
		p.SendQueryParams(explainPrefix+run, nil, nil, nil, nil)
	} else {
		p.SendQueryParams(restoreJIT, nil, nil, nil, nil)
	}
	// Prepared after the EXPLAIN, which takes the unnamed statement too.
	var oids []uint32
	if qc.bound != nil {
		if run, err = qc.bound.prepared(run, pin); err != nil {
			return fail("begin", err)
		}
		oids = qc.bound.oids
	}
	p.SendPrepare("", run, oids)
	if err := p.Sync(); err != nil {
		return fail("begin", err)
	}
	if v == nil {
		if err := readSetup(p, s); err != nil {
			return fail("begin", err)
		}
		if _, err := pipelineRows(p); err != nil { // restoreJIT
			return fail("begin", err)
		}
	} else {
		if _, err := pipelineRows(p); err != nil { // restoreJIT
			return fail("begin", err)
		}
		rows, err := pipelineRows(p)
		if err != nil {
			var pe *pgconn.PgError
			if errors.As(err, &pe) {
				pe.Position = int32(pin.Position(int(max(pe.Position-int32(len(explainPrefix)), 0))))
			}
			return fail("query", err)
		}
		if len(rows) != 1 || len(rows[0]) != 1 {
			return fail("query", errors.New("execute: unexpected EXPLAIN output"))
		}
		s.plan, s.lookalikes = rows[0][0], look
	}
	res, err := p.GetResults()
	if err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			pe.Position = int32(pin.Position(int(pe.Position)))
		}
		return fail("query", err)
	}
	var ok bool
	if s.stmt, ok = res.(*pgconn.StatementDescription); !ok {
		return fail("query", fmt.Errorf("execute: unexpected pipeline result %T", res))
	}
	if err := p.Close(); err != nil {
		return nil, "begin", err
	}
	return s, "", nil
}

// readSetup reads the results of BEGIN and the session setup into s.
func readSetup(p *pgconn.Pipeline, s *session) error {
	if _, err := pipelineRows(p); err != nil {
		return err
	}
	rows, err := pipelineRows(p)
	if err != nil {
		return err
	}
	if len(rows) != 1 || len(rows[0]) < 3 {
		return errors.New("execute: unexpected result of the session setup")
	}
	s.tempFileLimit = rows[0][0] != nil
	if s.prepared, err = strconv.ParseInt(string(rows[0][1]), 10, 64); err != nil {
		return fmt.Errorf("execute: session setup: %w", err)
	}
	s.mayBackup = string(rows[0][2]) == "t"
	if s.settings {
		if _, err := pipelineRows(p); err != nil {
			return err
		}
	}
	return nil
}

// sendCatalogQuery sends one of the catalog checks' prepared queries and
// a Sync: the next statements must wait for its verdict.
func sendCatalogQuery(p *pgconn.Pipeline, sd *pgconn.StatementDescription, params []string) {
	args := make([][]byte, len(params))
	for i, a := range params {
		args[i] = []byte(a)
	}
	p.SendQueryStatement(sd, args, nil, nil)
	_ = p.Sync() // a failed flush shows as the read's error
}

// catalogStatements are the catalog checks' queries (validate's pin,
// look-alike and objects queries), prepared on a connection.
type catalogStatements struct {
	pin, lookalikes, objects *pgconn.StatementDescription
}

// prepareCatalog prepares the catalog checks' queries on conn, once: pgx
// keeps a connection's named statements, and Prepare of a name it holds
// with the same text is free. They are prepared outside the query's
// transaction, before the session setup counts the session's statements.
// Each is qualified throughout, so the search path it later runs under
// (the request's, or the pinned one) cannot change what it means.
func prepareCatalog(ctx context.Context, conn *pgx.Conn, v *validate.Validator, vres *validate.Result) (*catalogStatements, error) {
	var st catalogStatements
	pinSQL, _ := v.PinQuery(vres)
	lookSQL, _ := v.LookalikeQuery(vres)
	objSQL, _ := v.LookalikeObjectsQuery(vres)
	for _, q := range []struct {
		name, sql string
		sd        **pgconn.StatementDescription
	}{{"nl2sql_pin", pinSQL, &st.pin}, {"nl2sql_lookalikes", lookSQL, &st.lookalikes}, {"nl2sql_objects", objSQL, &st.objects}} {
		sd, err := conn.Prepare(ctx, q.name, q.sql)
		if err != nil {
			return nil, err
		}
		*q.sd = sd
	}
	return &st, nil
}

// syncedRows reads the rows of a catalog query (as text) and its Sync.
func syncedRows(p *pgconn.Pipeline) ([][]string, error) {
	rows, err := pipelineRows(p)
	if err != nil {
		return nil, err
	}
	if _, err := p.GetResults(); err != nil { // the Sync
		return nil, err
	}
	found := make([][]string, len(rows))
	for i, r := range rows {
		for _, c := range r {
			found[i] = append(found[i], string(c))
		}
	}
	return found, nil
}

// pipelineRows reads the next result of p, a query's: its rows, copied.
func pipelineRows(p *pgconn.Pipeline) ([][][]byte, error) {
	res, err := p.GetResults()
	if err != nil {
		return nil, err
	}
	rr, ok := res.(*pgconn.ResultReader)
	if !ok {
		return nil, fmt.Errorf("execute: unexpected pipeline result %T", res)
	}
	r := rr.Read()
	return r.Rows, r.Err
}

// resetSQL clears, after the ROLLBACK, everything DISCARD ALL would (which
// cannot run in a multi-statement string) except prepared statements and
// their plans: pgx keeps its own statements (the catalog checks' among
// them, whose plans are most of their cost), a query that created or
// removed one has its connection destroyed instead, and the server
// invalidates a cached plan itself when what it depends on changes. RESET ALL returns settings to their session
// defaults, which keep what the connection's startup packet set (pgx's
// RuntimeParams) and the role's and database's ALTER ... SET; a SET the
// pool's AfterConnect ran is undone.
const resetSQL = `CLOSE ALL; UNLISTEN *; SELECT pg_catalog.pg_advisory_unlock_all();
DISCARD TEMP; DISCARD SEQUENCES; RESET ALL;`

// stopBackupSQL ends a backup the query started (pg_backup_start, session
// state that survives everything else) and then fails, so that the rest of
// the reset is skipped and the connection destroyed. It runs only where the role may start backups,
// on PostgreSQL 15+, where pg_backup_stop fails with 55000 when this
// session runs none.
const stopBackupSQL = `
DO $$DECLARE stopped bool := false;
BEGIN
	BEGIN
		PERFORM pg_catalog.pg_backup_stop(false);
		stopped := true;
	EXCEPTION WHEN object_not_in_prerequisite_state THEN NULL;
	END;
	IF stopped THEN
		RAISE EXCEPTION '` + backupLeftMessage + `';
	END IF;
END$$;`

const backupLeftMessage = "nl2sql: the query left a backup running in the session; it was stopped"

// endSQL ends the transaction and resets the session, in one round trip
// (our own text, so the simple protocol is fine). Its second statement
// reports prepared statements the query created or deallocated (DEALLOCATE
// is not transactional; pgx's cache would no longer match the server's);
// the connection is then destroyed. random() is reseeded with a value from
// crypto/rand, since setseed() state survives everything else.
func endSQL(s *session) string {
	var b strings.Builder
	b.WriteString(`ROLLBACK;
SELECT pg_catalog.count(*) FILTER (WHERE from_sql) <> 0 OR pg_catalog.count(*) <> `)
	b.WriteString(strconv.FormatInt(s.prepared, 10))
	b.WriteString(" FROM pg_catalog.pg_prepared_statement();")
	if s.mayBackup {
		// Before the reset: after DISCARD PLANS and RESET ALL the DO
		// block costs several times more.
		b.WriteString(stopBackupSQL)
	}
	b.WriteString("\n" + resetSQL + "\nSELECT pg_catalog.setseed(" + randomSeed() + ");")
	return b.String()
}

// randomSeed returns a setseed() argument in [-1, 1) from crypto/rand.
func randomSeed() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (the runtime aborts first)
	f := float64(binary.LittleEndian.Uint64(b[:])>>11)/(1<<53)*2 - 1
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// resultFormats asks for binaryOIDs' types in the binary format.
func resultFormats(fields []pgconn.FieldDescription) []int16 {
	f := make([]int16, len(fields))
	for i := range fields {
		f[i] = binaryOIDs[fields[i].DataTypeOID]
	}
	return f
}

// run executes sql once on one connection; v, when not nil, checks the
// catalog for look-alikes of what vres uses and then the query's plan
// first. sent reports whether the query itself reached the server.
func (e *Executor) run(ctx context.Context, sql string, qc *queryConfig, v *validate.Validator, vres *validate.Result) (res *Result, qerr *Error, sent bool) {
	start := time.Now()
	pc, err := e.pool.Acquire(ctx)
	if err != nil {
		return nil, newError(ctx, "acquire", sql, err), false
	}
	keep := false
	var why string
	conn := pc.Conn()
	pg := conn.PgConn()
	var backstopped atomic.Bool
	pid := pg.PID()
	defer func() {
		e.release(ctx, pc, keep, why)
		if backstopped.Load() {
			// After the release, which frees the pool slot the
			// watchdog's own connection may need.
			e.watch(ctx, pid, sql)
		}
	}()

	// pgx must not see the caller's context: on cancellation it sends a
	// CancelRequest, then drains the socket until the server closes it,
	// for up to 15 s. A cancel request is not always honoured (PostgreSQL
	// 15 was seen running an extended-protocol query on after one), so the
	// drain can last the full 15 s while the query runs on. kill sends a
	// CancelRequest and closes the socket at once; the server then stops at
	// its next write or connection check (client_connection_check_interval)
	// at the latest. The backstop does the same once the statement timeout
	// has passed by backstopSlack: the server missed it.
	var killed sync.Once
	kill := func() {
		killed.Do(func() {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
			defer cancel()
			_ = pg.CancelRequest(cctx)
			_ = pg.Conn().Close()
		})
	}
	unwatch := context.AfterFunc(ctx, kill)
	backstopAfter := e.cfg.statementTimeout + backstopSlack
	backstop := time.AfterFunc(backstopAfter, func() {
		backstopped.Store(true)
		kill()
	})
	defer func() {
		backstop.Stop()
		unwatch()
		killed.Do(func() {}) // waits for a kill in progress
	}()
	fail := func(op string, err error) *Error {
		why = op + " failed"
		qe := newError(ctx, op, sql, err)
		switch {
		case backstopped.Load() && qe.class != classCanceled:
			qe.class, qe.Retryable, qe.SQLState = classTimeout, false, ""
			qe.Err = fmt.Errorf("the server did not stop the query at its statement timeout (%v); the connection was closed %v later (%w)",
				e.cfg.statementTimeout, backstopSlack, err)
			qe.Message = qe.Err.Error()
		case qe.class == classUnknown && conn.IsClosed():
			qe.class, qe.Retryable = classConnection, true
		}
		return qe
	}
	qctx := context.WithoutCancel(ctx)

	// Every message of the setup round trip is small but the plan, which
	// is bounded too; the row limit follows once the columns are known.
	pg.Frontend().SetMaxBodyLen(maxPlanBytes)
	defer func() {
		if !pg.IsClosed() {
			pg.Frontend().SetMaxBodyLen(e.maxMessage(conn))
		}
	}()
	var stmts *catalogStatements
	if v != nil {
		// Prepared once per connection: planning them is most of their cost.
		if stmts, err = prepareCatalog(qctx, conn, v, vres); err != nil {
			return nil, fail("begin", err), false
		}
	}
	s, op, err := begin(qctx, pg, e.cfg, qc, sql, v, vres, stmts, &e.catalog)
	if s != nil && err != nil { // a look-alike: refused before the plan
		e.cfg.logger.DebugContext(ctx, "execute: look-alike refused", "sql", sql, "err", err)
		backstop.Stop()
		keep, why = e.end(ctx, pc, s)
		return nil, &Error{class: classRejected, Op: op, SQL: sql, Message: err.Error(), Err: err}, false
	}
	if err != nil {
		var big *pgproto3.ExceededMaxBodyLenErr
		if op == "query" && errors.As(err, &big) && !backstopped.Load() && ctx.Err() == nil {
			why = "plan too large"
			kill() // pgx would drain the rest of it for up to 15 s
			ve := &validate.Error{SQL: sql, Issues: []validate.Issue{{Code: validate.CodePlan, Severity: validate.SeverityError,
				Location: -1, Message: fmt.Sprintf("the query's plan is larger than %d bytes (constants the server folded?) "+
					"and could not be checked; write a smaller query", maxPlanBytes)}}}
			return nil, &Error{class: classRejected, Op: "plan", SQL: sql, Message: ve.Error(), Err: ve}, true
		}
		return nil, fail(op, err), op == "query"
	}
	if !s.tempFileLimit && e.tempFileLimitLogged.CompareAndSwap(false, true) {
		e.cfg.logger.InfoContext(ctx, "execute: the pool's role may not set temp_file_limit, so queries run with the server's: "+
			"set it for the role (ALTER ROLE ... SET temp_file_limit = ...) or in postgresql.conf", "want", e.cfg.tempFileLimit)
	}
	if v != nil {
		if err := v.CheckPlan(s.plan, validate.Against(s.lookalikes)); err != nil {
			e.cfg.logger.DebugContext(ctx, "execute: plan rejected", "sql", sql, "err", err)
			backstop.Stop()
			keep, why = e.end(ctx, pc, s)
			return nil, &Error{class: classRejected, Op: "plan", SQL: sql, Message: err.Error(), Err: err}, true
		}
	}

	backstop.Reset(backstopAfter)
	pg.Frontend().SetMaxBodyLen(rowMessageLimit(qc.maxBytes, len(s.stmt.Fields)))
	var params [][]byte
	if qc.bound != nil {
		params = qc.bound.values
	}
	rr := pg.ExecStatement(qctx, s.stmt, params, nil, resultFormats(s.stmt.Fields))
	res = &Result{SQL: sql}
	fds := rr.FieldDescriptions()
	res.Columns = make([]Column, len(fds))
	for i, fd := range fds {
		res.Columns[i] = Column{Name: fd.Name, OID: fd.DataTypeOID}
		if t, ok := conn.TypeMap().TypeForOID(fd.DataTypeOID); ok {
			res.Columns[i].Type = t.Name
		}
	}
	stopped := false
	for rr.NextRow() {
		raw := rr.Values()
		var n int64
		for _, v := range raw {
			n += int64(len(v))
		}
		switch {
		case len(res.Rows) >= qc.maxRows:
			res.TruncatedBy = CapRows
			res.TruncateReason = fmt.Sprintf("row cap reached: the query returns more than %d rows", qc.maxRows)
		case res.Bytes+n > qc.maxBytes:
			res.TruncatedBy = CapBytes
			res.TruncateReason = fmt.Sprintf("byte cap reached: the next row would bring the result over %d bytes", qc.maxBytes)
		}
		if res.TruncateReason != "" {
			res.Truncated = true
			// The validator's LIMIT (row cap + 1) usually ends the result
			// right here; otherwise stop the server rather than read on.
			if rr.NextRow() {
				stopped = true
				kill()
			}
			break
		}
		row := make([]any, len(raw))
		for i, v := range raw {
			if row[i], err = decodeValue(conn.TypeMap(), &fds[i], v); err != nil {
				_, _ = rr.Close()
				return nil, fail("read", err), true
			}
		}
		res.Rows = append(res.Rows, row)
		res.Bytes += n
	}
	_, err = rr.Close()
	backstop.Stop()
	var big *pgproto3.ExceededMaxBodyLenErr
	if errors.As(err, &big) && !backstopped.Load() && ctx.Err() == nil {
		// A row too large to read: refused after its header, never
		// buffered. pgx has closed the connection; stop the server too.
		kill()
		stopped = true
		if !res.Truncated {
			res.Truncated, res.TruncatedBy = true, CapBytes
			res.TruncateReason = fmt.Sprintf("byte cap reached: the server sent a row of %d bytes, over the %d-byte cap; "+
				"it was not read and the query was stopped", big.ActualBodyLen, qc.maxBytes)
		}
		err = nil
	}
	if err != nil && !(stopped && ctx.Err() == nil && !backstopped.Load()) {
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
		keep, why = e.end(ctx, pc, s)
	}
	return res, nil, true
}

// maxMessage is the message size limit the connections' config asks for
// (pgproto3's default when it sets none), restored after each query. It is
// read from the first connection's config: a pool's are all alike.
func (e *Executor) maxMessage(conn *pgx.Conn) int {
	e.maxMessageOnce.Do(func() {
		e.maxMessageBytes = conn.Config().MaxProtocolMessageBodyLen
		if e.maxMessageBytes <= 0 {
			e.maxMessageBytes = defaultMaxMessageBytes
		}
	})
	return e.maxMessageBytes
}

// end rolls the transaction back and resets the session (endSQL). The
// result is already read, so this runs even if ctx has just been cancelled.
func (e *Executor) end(ctx context.Context, pc *pgxpool.Conn, s *session) (keep bool, why string) {
	if s.mayBackup && s.major < 15 {
		// No way to tell whether a backup was left running.
		return false, "the role may start backups (PostgreSQL < 15)"
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	results, err := pc.Conn().PgConn().Exec(ctx, endSQL(s)).ReadAll()
	if err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Message == backupLeftMessage {
			e.cfg.logger.WarnContext(ctx, "execute: backup mode left on by the query (stopped); destroying the connection")
			return false, "backup left running"
		}
		return false, "rollback failed: " + err.Error()
	}
	if len(results) < 2 || len(results[1].Rows) != 1 || string(results[1].Rows[0][0]) != "f" {
		e.cfg.logger.WarnContext(ctx, "execute: the query created or removed a prepared statement; destroying the connection")
		return false, "prepared statements changed"
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
