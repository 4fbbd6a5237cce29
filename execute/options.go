package execute

import (
	"log/slog"
	"time"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// Defaults used by New.
const (
	DefaultStatementTimeout         = 30 * time.Second
	DefaultLockTimeout              = 5 * time.Second
	DefaultIdleInTransactionTimeout = 60 * time.Second
	DefaultMaxRows                  = 1000
	DefaultMaxBytes                 = 4 << 20 // 4 MiB of result values as sent by the server
	// DefaultWorkMem is the most work_mem a query runs with (a lower
	// setting of the server, database or role is kept, PostgreSQL's own
	// default being 4 MB): the memory each sort or hash node may use before
	// it spills to temporary files (hash nodes: times hash_mem_multiplier,
	// 2 by default). 32 MiB lets the aggregations and joins of a reporting
	// query run in memory on a server tuned for them while a plan of a
	// dozen such nodes stays in the hundreds of MiB.
	DefaultWorkMem = 32 << 20
	// DefaultTempFileLimit is the most temp_file_limit a query runs with
	// where the pool's role may set it (PostgreSQL's default is no limit):
	// the temporary file space one server process may use (a parallel
	// query may use it once per worker). 512 MiB is well above what a
	// result of DefaultMaxRows needs and stops a runaway sort or hash long
	// before it fills a disk.
	DefaultTempFileLimit = 512 << 20
)

// minMemSetting is the smallest work_mem (and temp_file_limit) the executor
// sets: PostgreSQL's own minimum for work_mem.
const minMemSetting = 64 << 10

// Option configures an Executor.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	validateOpts     []validate.Option
	statementTimeout time.Duration
	lockTimeout      time.Duration
	idleTimeout      time.Duration
	workMem          int64
	tempFileLimit    int64
	watchdogGrace    time.Duration
	caps
	scope  []string
	logger *slog.Logger
}

func defaultConfig() *config {
	return &config{
		statementTimeout: DefaultStatementTimeout,
		lockTimeout:      DefaultLockTimeout,
		idleTimeout:      DefaultIdleInTransactionTimeout,
		workMem:          DefaultWorkMem,
		tempFileLimit:    DefaultTempFileLimit,
		watchdogGrace:    DefaultWatchdogGrace,
		caps:             caps{maxRows: DefaultMaxRows, maxBytes: DefaultMaxBytes},
		scope:            []string{"public"},
		logger:           slog.New(slog.DiscardHandler),
	}
}

// WithValidateOptions configures the validator every query passes before it
// runs (repeatable: the options add up). Without it the validator has
// validate.New's safe defaults. The executor appends validate.WithSearchPath
// (the query's scope) and validate.WithMaxRows (its row cap + 1) after these,
// so that the validator resolves names exactly as the session will and the
// server never produces more rows than the executor reads.
func WithValidateOptions(opts ...validate.Option) Option {
	return optionFunc(func(c *config) { c.validateOpts = append(c.validateOpts, opts...) })
}

// WithStatementTimeout sets statement_timeout for every query (default
// DefaultStatementTimeout). Zero or less keeps the default: an executor of
// untrusted SQL never runs without one.
func WithStatementTimeout(d time.Duration) Option {
	return optionFunc(func(c *config) {
		if d > 0 {
			c.statementTimeout = d
		}
	})
}

// WithLockTimeout sets lock_timeout (default DefaultLockTimeout); zero or less
// keeps the default.
func WithLockTimeout(d time.Duration) Option {
	return optionFunc(func(c *config) {
		if d > 0 {
			c.lockTimeout = d
		}
	})
}

// WithIdleInTransactionTimeout sets idle_in_transaction_session_timeout
// (default DefaultIdleInTransactionTimeout), which ends the session if this
// process stalls with the transaction open; zero or less keeps the default.
func WithIdleInTransactionTimeout(d time.Duration) Option {
	return optionFunc(func(c *config) {
		if d > 0 {
			c.idleTimeout = d
		}
	})
}

// WithWorkMem sets work_mem for every query, in bytes (default
// DefaultWorkMem; at least 64 KiB): the memory each sort or hash node of the
// plan may use before spilling to temporary files. It bounds sorts and
// hashes only: memory that other operations build up (array_agg, string_agg,
// a long string) is bounded by the statement timeout alone. The executor
// only lowers the setting: a smaller work_mem of the role, the database or
// postgresql.conf is kept. Zero or less keeps the default.
func WithWorkMem(bytes int64) Option {
	return optionFunc(func(c *config) {
		if bytes > 0 {
			c.workMem = max(bytes, minMemSetting)
		}
	})
}

// WithTempFileLimit sets temp_file_limit for every query, in bytes (default
// DefaultTempFileLimit; at least 64 KiB): the temporary file space a query's
// server process may use; past it the query fails with SQLSTATE 53400
// (ErrTimeout). temp_file_limit is a superuser setting: the executor sets it
// only where the pool's role may (a superuser, or on PostgreSQL 15+ a role
// granted SET ON PARAMETER temp_file_limit) and otherwise logs once, at info
// level, that the operator has to set it for the role (ALTER ROLE ... SET
// temp_file_limit = ...) or in postgresql.conf. Like work_mem it is only
// ever lowered. Zero or less keeps the default.
func WithTempFileLimit(bytes int64) Option {
	return optionFunc(func(c *config) {
		if bytes > 0 {
			c.tempFileLimit = max(bytes, minMemSetting)
		}
	})
}

// WithWatchdog sets the watchdog's grace (default DefaultWatchdogGrace;
// a negative grace turns the watchdog off, zero keeps the default). When
// the server has not stopped a query backstopSlack (2 s) after its
// statement timeout, the executor closes the connection and the watchdog
// follows the backend from another pooled connection: if it still runs
// after the grace, pg_cancel_backend; after another grace,
// pg_terminate_backend; each step is logged at warn level, a backend
// still running after a third grace at error level. Query returns when the
// watchdog is done, so at most three graces later than it would have.
func WithWatchdog(grace time.Duration) Option {
	return optionFunc(func(c *config) {
		switch {
		case grace < 0:
			c.watchdogGrace = 0
		case grace > 0:
			c.watchdogGrace = grace
		}
	})
}

// WithScope sets the default schemas unqualified names resolve in (default
// "public"), used by queries without a Scope option.
func WithScope(schemas ...string) Option {
	return optionFunc(func(c *config) {
		if len(schemas) > 0 {
			c.scope = append([]string(nil), schemas...)
		}
	})
}

// WithLogger sets the logger (silent by default). Queries are logged at debug
// level; discarded connections, and once that the pool's role may not set
// temp_file_limit, at info level; connections found holding session state
// after a query (which the validator should have prevented) at warn level.
func WithLogger(l *slog.Logger) Option {
	return optionFunc(func(c *config) {
		if l != nil {
			c.logger = l
		}
	})
}

type caps struct {
	maxRows  int
	maxBytes int64
}

// QueryOption configures one Query call.
type QueryOption interface{ applyQuery(*queryConfig) }

type queryOptionFunc func(*queryConfig)

func (f queryOptionFunc) applyQuery(c *queryConfig) { f(c) }

type queryConfig struct {
	scope    []string
	role     string
	settings [][2]string
	caps
	validateOpts []validate.Option
	args         []any       // Args
	bound        *boundQuery // Args' template, inlined

	// unvalidated skips the validator and the plan check. Only tests set
	// it (see main_test.go): it proves what the transaction layer alone
	// contains.
	unvalidated bool
	// planOnly skips the static validation but keeps the plan check. Only
	// tests set it: it proves the plan check works on its own.
	planOnly bool
}

// Scope pins search_path for this query to schemas, in order (for example
// Scope("div_01", "public")), and makes the validator resolve unqualified
// names the same way. pg_catalog stays first and pg_temp is put last, so a
// temporary table can never shadow a validated name.
func Scope(schemas ...string) QueryOption {
	return queryOptionFunc(func(c *queryConfig) { c.scope = append([]string(nil), schemas...) })
}

// AsRole runs this query with the privileges of role (SET LOCAL ROLE), for
// per-user impersonation. The pool's login user must be a member of role.
// Privilege checks then happen in the server: a table role may not read fails
// with ErrPermission. The connection is discarded afterwards.
func AsRole(role string) QueryOption {
	return queryOptionFunc(func(c *queryConfig) { c.role = role })
}

// Limit caps a result. It is both an Option (the executor's default, for
// New) and a QueryOption (one query, for Query). Values of zero or less are
// ignored.
type Limit struct {
	rows  int
	bytes int64
}

// Cap names the limit that cut a result short.
type Cap string

// The caps of a result (Result.TruncatedBy).
const (
	CapRows  Cap = "row_cap"  // MaxRows
	CapBytes Cap = "byte_cap" // MaxBytes
)

// MaxRows caps how many rows a result holds (default DefaultMaxRows); a query
// that would return more is cut and reported as truncated.
func MaxRows(n int) Limit { return Limit{rows: n} }

// MaxBytes caps the bytes of values (as sent by the server) a result holds
// (default DefaultMaxBytes); reading stops before the row that would exceed
// it and the result is reported as truncated.
func MaxBytes(n int64) Limit { return Limit{bytes: n} }

func (l Limit) set(c *caps) {
	if l.rows > 0 {
		c.maxRows = l.rows
	}
	if l.bytes > 0 {
		c.maxBytes = l.bytes
	}
}

func (l Limit) apply(c *config)           { l.set(&c.caps) }
func (l Limit) applyQuery(c *queryConfig) { l.set(&c.caps) }

// ValidateOptions adds validator options for this query, after the
// executor's: for example the tables this user may read.
func ValidateOptions(opts ...validate.Option) QueryOption {
	return queryOptionFunc(func(c *queryConfig) { c.validateOpts = append(c.validateOpts, opts...) })
}
