package nl2sql

import (
	"errors"

	"github.com/nl2sqlgo/nl2sql/execute"
)

// Class says which stage lost when Ask fails.
type Class string

// Failure classes.
const (
	ClassRetrievalMiss Class = "retrieval_miss"  // the query needed a table the context lacked (42P01, V012)
	ClassColumnMiss    Class = "column_miss"     // a column could not be resolved (42703)
	ClassJoinPathMiss  Class = "join_path_miss"  // the needed tables could not be joined
	ClassExecution     Class = "execution_error" // the chosen query failed to run (timeout, permission, ...)
	ClassLLM           Class = "llm_error"       // the model could not be reached or answered garbage
	ClassRejected      Class = "rejected_unsafe" // every candidate broke the safety policy
	ClassNoAnswer      Class = "no_answer"       // no usable query, or confidence below the abstain threshold
	ClassConfig        Class = "config_error"    // the engine could not be prepared (catalog, index)
	ClassInput         Class = "input_error"     // the input was refused before any work (over a length limit)
)

// Sentinels, one per class, for errors.Is.
var (
	ErrRetrievalMiss = errors.New("nl2sql: retrieval miss")
	ErrColumnMiss    = errors.New("nl2sql: column miss")
	ErrJoinPathMiss  = errors.New("nl2sql: join path miss")
	ErrExecution     = errors.New("nl2sql: execution error")
	ErrLLM           = errors.New("nl2sql: LLM error")
	ErrUnsafe        = errors.New("nl2sql: rejected as unsafe")
	ErrNoAnswer      = errors.New("nl2sql: no answer")
	ErrConfig        = errors.New("nl2sql: configuration error")
	ErrInput         = errors.New("nl2sql: input error")
)

var classSentinel = map[Class]error{
	ClassRetrievalMiss: ErrRetrievalMiss, ClassColumnMiss: ErrColumnMiss, ClassJoinPathMiss: ErrJoinPathMiss,
	ClassExecution: ErrExecution, ClassLLM: ErrLLM, ClassRejected: ErrUnsafe, ClassNoAnswer: ErrNoAnswer,
	ClassConfig: ErrConfig, ClassInput: ErrInput,
}

// Error is a failed Ask (or Prepare). errors.Is matches the class sentinel;
// Err holds the underlying cause (a *validate.Error, *execute.Error,
// *llm.APIError, context error...).
type Error struct {
	Class   Class
	Code    string // SQLSTATE or validator code of the deciding failure, if any
	Message string
	Err     error
}

func (e *Error) Error() string {
	s := "nl2sql: " + string(e.Class) + ": " + e.Message
	if e.Code != "" {
		s += " [" + e.Code + "]"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Is matches the sentinel of the error's class.
func (e *Error) Is(target error) bool { return classSentinel[e.Class] == target }

// fail records err in the result's JSON shape and returns it as an *Error
// (an untyped error becomes an execution error).
func (r *Result) fail(err error) error {
	var ne *Error
	if !errors.As(err, &ne) {
		ne = &Error{Class: ClassExecution, Message: "unexpected failure", Err: err}
		err = ne
	}
	r.Error = &ErrorInfo{Code: ne.Code, Class: ne.Class, Message: ne.Error()}
	return err
}

// executionError wraps an executor failure, carrying its SQLSTATE.
func executionError(msg string, err error) *Error {
	e := &Error{Class: ClassExecution, Message: msg, Err: err}
	var xe *execute.Error
	if errors.As(err, &xe) {
		e.Code = xe.SQLState
	}
	return e
}
