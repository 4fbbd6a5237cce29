package nl2sql

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/rewrite"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// Class says which stage lost when Ask fails.
type Class string

// Failure classes.
const (
	ClassRetrievalMiss Class = "retrieval_miss"   // the query needed a table the context lacked (42P01, V012)
	ClassColumnMiss    Class = "column_miss"      // a column could not be resolved (42703)
	ClassJoinPathMiss  Class = "join_path_miss"   // the needed tables could not be joined
	ClassExecution     Class = "execution_error"  // the chosen query failed to run (timeout, permission, ...)
	ClassLLM           Class = "llm_error"        // the model could not be reached or answered garbage
	ClassUnsafe        Class = "rejected_unsafe"  // the SQL breaks the safety policy (every candidate did, in Ask)
	ClassInvalid       Class = "invalid_sql"      // the caller's SQL does not parse, or names what the scope lacks (Run, Learn)
	ClassNoAnswer      Class = "no_answer"        // no usable query, or confidence below the abstain threshold
	ClassConfig        Class = "config_error"     // the engine could not be prepared (catalog, index)
	ClassInput         Class = "input_error"      // the input was refused before any work (over a length limit)
	ClassConnection    Class = "connection_error" // the database could not be reached (down, connection lost)
)

// Sentinels, one per class, for errors.Is.
var (
	ErrRetrievalMiss = errors.New("nl2sql: retrieval miss")
	ErrColumnMiss    = errors.New("nl2sql: column miss")
	ErrJoinPathMiss  = errors.New("nl2sql: join path miss")
	ErrExecution     = errors.New("nl2sql: execution error")
	ErrLLM           = errors.New("nl2sql: LLM error")
	ErrUnsafe        = errors.New("nl2sql: rejected as unsafe")
	ErrInvalid       = errors.New("nl2sql: invalid SQL")
	ErrNoAnswer      = errors.New("nl2sql: no answer")
	ErrConfig        = errors.New("nl2sql: configuration error")
	ErrInput         = errors.New("nl2sql: input error")
	ErrConnection    = errors.New("nl2sql: connection error")
)

var classSentinel = map[Class]error{
	ClassRetrievalMiss: ErrRetrievalMiss, ClassColumnMiss: ErrColumnMiss, ClassJoinPathMiss: ErrJoinPathMiss,
	ClassExecution: ErrExecution, ClassLLM: ErrLLM, ClassUnsafe: ErrUnsafe, ClassInvalid: ErrInvalid, ClassNoAnswer: ErrNoAnswer,
	ClassConfig: ErrConfig, ClassInput: ErrInput, ClassConnection: ErrConnection,
}

// Error is a failed Ask (or Prepare). errors.Is matches the class sentinel;
// Err holds the underlying cause (a *validate.Error, *execute.Error,
// *llm.APIError, context error...).
type Error struct {
	Class Class
	// Code is the SQLSTATE or validator code (V0xx) of the deciding
	// failure; for a failure with neither, a stable name of its cause (see
	// the Errors section of the package doc): "llm_timeout", "llm_unreachable", ...,
	// "too_long", or the class itself.
	Code    string
	Message string
	Err     error

	named bool // Code names the cause (fillCode), it is no server's code
}

// Error says the class, the message, the code and the cause once each: the
// code is left out when the cause names it (a violation's "V010: ...", a
// server error's "(SQLSTATE 42703)"), and a validator refusal's own
// "validate: query rejected: " is left out after the class has said so.
func (e *Error) Error() string {
	s := "nl2sql: " + string(e.Class) + ": " + e.Message
	var cause string
	if e.Err != nil {
		// One prefix: the cause may be one of this package's own errors.
		cause = strings.TrimPrefix(e.Err.Error(), "nl2sql: ")
		var ve *validate.Error
		if errors.As(e.Err, &ve) {
			cause = strings.TrimPrefix(cause, validate.ErrRejected.Error()+": ")
		}
	}
	if e.Code != "" && !e.named && !strings.Contains(cause, e.Code) {
		s += " [" + e.Code + "]"
	}
	if cause != "" {
		s += ": " + cause
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Is matches the sentinel of the error's class.
func (e *Error) Is(target error) bool { return classSentinel[e.Class] == target }

// coded fills the Code of the *Error in *err, if any: every public method
// defers it so an *Error a caller sees always has one.
func coded(err *error) {
	var ne *Error
	if errors.As(*err, &ne) {
		ne.fillCode()
	}
}

// finish is what every public method of the Engine defers: a failure its
// context's end caused is reported as such (see ended), and the *Error
// gets its Code.
func finish(ctx context.Context, err *error) {
	*err = ended(ctx, *err)
	coded(err)
}

// ended returns err, unless it came of ctx's end (the caller cancelled, or
// a deadline passed: the caller's or the question's budget): then an
// execution error coded "canceled" or "timeout" that says so and wraps
// both (errors.Is with context.Canceled or context.DeadlineExceeded
// holds). Whatever stage it cut short, a request that ran out of time is
// never blamed on its input, the configuration or the question
// (ErrInvalid, ErrConfig, ErrRetrievalMiss). A model wait cut short keeps
// its ErrLLM (llm_timeout, llm_canceled), and an input error its class.
func ended(ctx context.Context, err error) error {
	if err == nil || ctx == nil || ctx.Err() == nil {
		return err
	}
	if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var ne *Error
	if errors.As(err, &ne) && (ne.Class == ClassLLM || ne.Class == ClassInput || ne.Code == codeCanceled || ne.Code == codeTimeout) {
		return err
	}
	code, what := codeCanceled, "the request was canceled"
	var be *budgetError
	switch cause := context.Cause(ctx); {
	case errors.As(cause, &be):
		code, what = codeTimeout, strings.TrimPrefix(be.Error(), "nl2sql: ")
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		code, what = codeTimeout, "the request's deadline passed"
	}
	msg := what
	if ne != nil {
		// The stage's words, not its class: errors.Is must not match it.
		msg, err = ne.Message+": "+what, ne.Err
		for inner, ok := err.(*Error); ok; inner, ok = err.(*Error) {
			err = inner.Err
		}
	}
	return &Error{Class: ClassExecution, Code: code, Message: msg, Err: err, named: true}
}

// Codes of a request its context's end cut short (see ended).
const (
	codeCanceled = "canceled"
	codeTimeout  = "timeout"
)

// fillCode gives an error without a SQLSTATE or validator code the stable
// name of its cause.
func (e *Error) fillCode() {
	if e.Code != "" {
		return
	}
	e.Code, e.named = string(e.Class), true
	switch e.Class {
	case ClassLLM:
		e.Code = llmCode(e.Err)
	case ClassInput:
		if errors.Is(e.Err, ErrTooLong) {
			e.Code = "too_long"
		}
	}
}

// llmCode names the cause of a model failure.
func llmCode(err error) string {
	for _, c := range []struct {
		err  error
		code string
	}{
		{context.DeadlineExceeded, "llm_timeout"}, {context.Canceled, "llm_canceled"},
		{llm.ErrUnreachable, "llm_unreachable"}, {llm.ErrAuth, "llm_auth"},
		{llm.ErrRateLimited, "llm_rate_limited"}, {llm.ErrServer, "llm_server_error"},
		{llm.ErrBadRequest, "llm_bad_request"}, {llm.ErrMalformedResponse, "llm_malformed_response"},
		{llm.ErrTruncated, "llm_truncated"}, {llm.ErrResponseTooLarge, "llm_response_too_large"},
		{llm.ErrRefused, "llm_refused"},
	} {
		if errors.Is(err, c.err) {
			return c.code
		}
	}
	return string(ClassLLM)
}

// connectionError is the error for a failure that lost the database, nil
// when err is not one: the server is down or unreachable, the connection
// broke, or the server is shutting down.
func connectionError(msg string, err error) *Error {
	if !execute.ConnectionFailed(err) {
		return nil
	}
	return &Error{Class: ClassConnection, Message: msg + ": the database could not be reached", Err: err}
}

// executionError wraps an executor failure, carrying its SQLSTATE; a lost
// database is a connection error.
func executionError(msg string, err error) *Error {
	if ce := connectionError(msg, err); ce != nil {
		return ce
	}
	e := &Error{Class: ClassExecution, Message: msg, Err: err}
	var xe *execute.Error
	if errors.As(err, &xe) {
		e.Code = xe.SQLState
	}
	return e
}

// budgetError is the cause of an Ask's context when its budget
// (WithTimeout, Timeout) ran out.
type budgetError struct{ d time.Duration }

func (b *budgetError) Error() string {
	return fmt.Sprintf("nl2sql: the question's %s budget ran out", b.d)
}

// Unwrap makes a spent budget a deadline (errors.Is with
// context.DeadlineExceeded), as the context's own error says.
func (b *budgetError) Unwrap() error { return context.DeadlineExceeded }

// lostOrEnded is the error of a check or run of caller SQL that failed
// because the database could not be reached or the request's context
// ended, nil when err is the query's own failure (or nil).
func lostOrEnded(ctx context.Context, msg string, err error) error {
	if err == nil {
		return nil
	}
	if ce := connectionError(msg, err); ce != nil {
		return ce
	}
	if ctx.Err() != nil {
		return ended(ctx, executionError(msg, err))
	}
	return nil
}

// ErrTooLong is wrapped by the *Error (class ClassInput) of an input over
// its limit: errors.Is(err, ErrTooLong) and errors.Is(err, ErrInput) both
// hold.
var ErrTooLong = errors.New("input too long")

// rejection is the error for caller-written SQL the validator refused,
// with the first violation's code: unsafe when it breaks the policy
// (validate.Unsafe, or a table of cat named by a schema the request may
// not read: rewrite.OtherScope), invalid otherwise (a syntax error, a
// misspelt table).
func rejection(cat *schema.Catalog, msg string, err error) *Error {
	e := &Error{Class: ClassInvalid, Message: msg, Err: err}
	var ve *validate.Error
	if errors.As(err, &ve) && len(ve.Violations()) > 0 {
		e.Code = ve.Violations()[0].Code
		if validate.Unsafe(e.Code) || rewrite.OtherScope(ve, cat) {
			e.Class = ClassUnsafe
		}
	}
	return e
}

// ErrLowConfidence is the cause (errors.Is) of the ErrNoAnswer an Ask
// returns when the answer's confidence is below WithMinConfidence: the
// Result still carries the SQL it did not run, the Reasons and the
// Alternatives.
var ErrLowConfidence = errors.New("nl2sql: low confidence")

// codeLowConfidence is the Error.Code of an abstention.
const codeLowConfidence = "low_confidence"
