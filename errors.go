package nl2sql

import (
	"context"
	"errors"
	"strings"

	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/llm"
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
	// Code's values in README): "llm_timeout", "llm_unreachable", ...,
	// "too_long", or the class itself.
	Code    string
	Message string
	Err     error

	named bool // Code names the cause (fillCode), it is no server's code
}

func (e *Error) Error() string {
	s := "nl2sql: " + string(e.Class) + ": " + e.Message
	if e.Code != "" && !e.named {
		s += " [" + e.Code + "]"
	}
	if e.Err != nil {
		// One prefix: the cause may be one of this package's own errors.
		s += ": " + strings.TrimPrefix(e.Err.Error(), "nl2sql: ")
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Is matches the sentinel of the error's class.
func (e *Error) Is(target error) bool { return classSentinel[e.Class] == target }

// fail records err in the result's JSON shape and returns it as an *Error
// (an untyped error becomes an execution error) with its Code filled.
func (r *Result) fail(err error) error {
	var ne *Error
	if !errors.As(err, &ne) {
		ne = &Error{Class: ClassExecution, Message: "unexpected failure", Err: err}
		err = ne
	}
	ne.fillCode()
	r.Error = &ErrorInfo{Code: ne.Code, Class: ne.Class, Message: ne.Error()}
	return err
}

// coded fills the Code of the *Error in *err, if any: every public method
// defers it so an *Error a caller sees always has one.
func coded(err *error) {
	var ne *Error
	if errors.As(*err, &ne) {
		ne.fillCode()
	}
}

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

// rejection is the error for caller-written SQL the validator refused,
// with the first violation's code: unsafe when it breaks the policy
// (validate.Unsafe, or a table of another scope named by its schema),
// invalid otherwise (a syntax error, a misspelt table).
func (st *state) rejection(msg string, err error) *Error {
	e := &Error{Class: ClassInvalid, Message: msg, Err: err}
	var ve *validate.Error
	if errors.As(err, &ve) && len(ve.Violations()) > 0 {
		e.Code = ve.Violations()[0].Code
		if validate.Unsafe(e.Code) || st.otherScope(ve) {
			e.Class = ClassUnsafe
		}
	}
	return e
}
