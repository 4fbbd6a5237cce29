package main

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/llm"
)

// errDatabaseDown is a failure to reach the database, as the client sees
// it: without it, a question asked while the database is down reads like a
// model failure ("no candidate query validated and planned: ... conn
// closed").
type errDatabaseDown struct{ cause error }

func (e *errDatabaseDown) Error() string {
	return fmt.Sprintf("the database could not be reached: %v; is the server running?", e.cause)
}

func (e *errDatabaseDown) Unwrap() error { return e.cause }

// databaseDown returns err as an *errDatabaseDown when it says the
// database could not be reached, and nil otherwise: the engine's
// nl2sql.ErrConnection, or (for errors met outside the engine's
// classification, such as a failed Prepare retried by a tool call) pgx's
// connection failures as execute.ConnectionFailed reads them. A model
// server that cannot be reached is an HTTP failure, not the database's.
func databaseDown(err error) error {
	var down *errDatabaseDown
	if err == nil || errors.As(err, &down) {
		return down
	}
	var ue *url.Error
	if errors.As(err, &ue) || errors.Is(err, llm.ErrUnreachable) {
		return nil
	}
	if errors.Is(err, nl2sql.ErrConnection) || execute.ConnectionFailed(err) {
		return &errDatabaseDown{cause: innermost(err)}
	}
	return nil
}

// innermost is the last error of a single-Unwrap chain: the low-level
// reason, without the steps that met it.
func innermost(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}
