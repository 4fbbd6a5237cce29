package execute

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"
)

// Sentinel errors, matched with errors.Is by every *Error of the class.
var (
	// ErrRejected: the validator rejected the query; nothing ran. The
	// *validate.Error is in the chain (errors.As) with every violation.
	ErrRejected = errors.New("execute: query rejected by the validator")
	// ErrRepairable: the server rejected the SQL itself (syntax, unknown
	// column or table, type mismatch, bad cast, division by zero, ...): a
	// repair step can fix it from the message.
	ErrRepairable = errors.New("execute: query failed; the SQL can be repaired")
	// ErrPermission: insufficient privilege (42501), or a write attempted
	// in the read-only transaction (25006).
	ErrPermission = errors.New("execute: permission denied")
	// ErrTimeout: statement_timeout, lock_timeout or temp_file_limit ended
	// the query (57014, 55P03, 53400), or the server missed the statement
	// timeout and the executor closed the connection (no SQLSTATE).
	ErrTimeout = errors.New("execute: query timed out")
	// ErrConnection: the connection or the server failed (08xxx, 53xxx,
	// 57P01-57P03, 58xxx, network errors). Error.Retryable tells whether
	// trying again can help.
	ErrConnection = errors.New("execute: connection or server failure")
	// ErrCanceled: the caller's context was canceled or passed its
	// deadline; context.Canceled or context.DeadlineExceeded is in the chain.
	ErrCanceled = errors.New("execute: canceled")
)

// class groups errors by what a caller should do about them.
type class int

// Error classes.
const (
	classUnknown    class = iota // none of the below (internal errors, bad options, ...)
	classRejected                // ErrRejected: fix the SQL using the validator's issues
	classRepairable              // ErrRepairable: fix the SQL using the server's message
	classPermission              // ErrPermission: not allowed for this user; do not retry
	classTimeout                 // ErrTimeout: too slow or too big; simplify the query
	classConnection              // ErrConnection: fail fast; retry later if Retryable
	classCanceled                // ErrCanceled: the caller gave up
)

var classNames = [...]string{"unknown", "rejected", "repairable", "permission", "timeout", "connection", "canceled"}

// String returns the class name ("repairable", ...).
func (c class) String() string {
	if c >= 0 && int(c) < len(classNames) {
		return classNames[c]
	}
	return fmt.Sprintf("class(%d)", int(c))
}

func (c class) sentinel() error {
	switch c {
	case classRejected:
		return ErrRejected
	case classRepairable:
		return ErrRepairable
	case classPermission:
		return ErrPermission
	case classTimeout:
		return ErrTimeout
	case classConnection:
		return ErrConnection
	case classCanceled:
		return ErrCanceled
	}
	return nil
}

// Error is the error Query returns. Use errors.Is with the sentinels for the
// class and errors.As for the details; the cause (a *pgconn.PgError, a
// *validate.Error, a context error, a network error) is in the chain.
type Error struct {
	class class
	// Op is the step that failed: "validate", "plan" (the server's plan
	// of the query was refused), "acquire", "begin", "query", "read",
	// "rollback" or "options".
	Op string
	// SQLState, Message, Detail, Hint and Position come from the server's
	// error report; Position is a 1-based character offset into SQL
	// (0 when not given).
	SQLState string
	Message  string
	Detail   string
	Hint     string
	Position int
	// Retryable reports whether running the same query again may succeed
	// (a lost connection, too many connections, a lock timeout, ...).
	Retryable bool
	// SQL is the SQL that ran (the validator's rewrite), or the input when
	// validation failed.
	SQL string
	Err error
}

// Error formats the error like "execute: query: ERROR 42703: column "x" does not exist".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("execute: ")
	// The step, unless the cause's own prefix names it already (a
	// validator refusal reads "validate: query rejected: ...").
	if e.Op != "" && (e.SQLState != "" || e.Err == nil || !strings.HasPrefix(e.Err.Error(), e.Op+": ")) {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	switch {
	case e.SQLState != "":
		fmt.Fprintf(&b, "%s (SQLSTATE %s)", e.Message, e.SQLState)
		if e.Detail != "" {
			b.WriteString("; detail: " + e.Detail)
		}
		if e.Hint != "" {
			b.WriteString("; hint: " + e.Hint)
		}
	case e.Err != nil:
		b.WriteString(e.Err.Error())
	default:
		b.WriteString(e.Message)
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is matches the sentinel of the error's class.
func (e *Error) Is(target error) bool {
	s := e.class.sentinel()
	return s != nil && target == s
}

// newError classifies err, which happened during op. ctx is the caller's
// context: once it is done, whatever the driver reports, the caller gave up.
func newError(ctx context.Context, op, sql string, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	e = &Error{Op: op, SQL: sql, Err: err}
	if ctxErr := ctx.Err(); ctxErr != nil {
		e.class = classCanceled
		if !errors.Is(err, ctxErr) {
			e.Err = fmt.Errorf("%w (%w)", ctxErr, err)
		}
		return e
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		e.SQLState, e.Message, e.Detail, e.Hint, e.Position = pe.Code, pe.Message, pe.Detail, pe.Hint, int(pe.Position)
		e.class, e.Retryable = classify(pe.Code)
		if op != "query" && e.class == classRepairable {
			// The SQL we send around the query is fixed; an error in it
			// (for example a role that does not exist) is not the query's.
			e.class = classUnknown
		}
		return e
	}
	e.Message = err.Error()
	var ne net.Error
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) || errors.As(err, &ne) || pgconn.SafeToRetry(err) || isClosedConn(err) {
		e.class, e.Retryable = classConnection, true
	}
	return e
}

// ConnectionFailed reports whether err, from the executor or straight from
// pgx, means the database could not be reached or the connection broke (the
// ErrConnection class, minus the failures a retry on the same connection
// resolves: serialization failures and deadlocks). A cancelled context is
// not one.
func ConnectionFailed(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		c, _ := classify(pe.Code)
		return c == classConnection && pe.Code != "40001" && pe.Code != "40P01"
	}
	var e *Error
	if errors.As(err, &e) {
		return e.class == classConnection && e.SQLState != "40001" && e.SQLState != "40P01"
	}
	var ne net.Error
	var ce *pgconn.ConnectError
	return errors.As(err, &ce) || errors.As(err, &ne) || isClosedConn(err)
}

// isClosedConn recognises the errors pgx returns for a connection that died
// under it (unexpected EOF, conn closed, broken pipe ...).
func isClosedConn(err error) bool {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, puddle.ErrClosedPool) { // the pool was closed under the engine
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "conn closed") || strings.Contains(msg, "broken pipe") ||
		strings.Contains(msg, "connection reset")
}

// classify maps a SQLSTATE to a class and whether retrying may help.
func classify(code string) (class, bool) {
	switch code {
	case "42501", "25006": // insufficient_privilege, read_only_sql_transaction
		return classPermission, false
	case "57014": // query_canceled: statement_timeout (our CancelRequests come with a done context)
		return classTimeout, false
	case "55P03": // lock_not_available: lock_timeout
		return classTimeout, true
	case "57P01", "57P02", "57P03", "53300", "25P03", "57P05": // shutdowns, too many connections, idle timeouts
		return classConnection, true
	case "40001", "40P01": // serialization failure, deadlock
		return classConnection, true
	case "53400": // configuration_limit_exceeded: temp_file_limit, the query spilled too much
		return classTimeout, false
	case "53100", "53200": // disk full, out of memory: retrying will not help soon
		return classConnection, false
	case "3D000", "28000", "28P01": // the database is gone (dropped), the login refused: at connect
		return classConnection, false
	}
	switch {
	case len(code) < 2:
		return classUnknown, false
	case strings.HasPrefix(code, "08"):
		return classConnection, true
	case strings.HasPrefix(code, "53"), strings.HasPrefix(code, "58"):
		return classConnection, false
	case strings.HasPrefix(code, "42"), // syntax error or access rule violation
		strings.HasPrefix(code, "22"), // data exception
		strings.HasPrefix(code, "21"), // cardinality violation
		strings.HasPrefix(code, "54"), // program limit exceeded (statement too complex)
		strings.HasPrefix(code, "0A"), // feature not supported
		strings.HasPrefix(code, "2F"), strings.HasPrefix(code, "39"), strings.HasPrefix(code, "38"),
		code == "44000", code == "P0001":
		return classRepairable, false
	}
	return classUnknown, false
}
