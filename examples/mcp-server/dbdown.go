package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
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

// databaseDown returns err as an *errDatabaseDown when its chain shows the
// database could not be reached, and nil otherwise.
//
// The library reports such a failure as whatever step met it (an
// execution error, "no candidate query validated and planned", a failed
// Prepare), keeping pgx's error in the chain; this reads the chain:
// pgconn's connect errors and closed connections, the server's
// connection-exception and shutdown SQLSTATEs (class 08, 57P01..57P03),
// and network errors that do not come from an HTTP call (a model server
// that cannot be reached is not the database).
func databaseDown(err error) error {
	var down *errDatabaseDown
	if err == nil || errors.As(err, &down) {
		return down
	}
	if cause := connectionCause(err); cause != nil {
		return &errDatabaseDown{cause: cause}
	}
	return nil
}

// connectionCause walks err's chain (depth first, both kinds of Unwrap)
// for the error saying the database could not be reached.
func connectionCause(err error) error {
	var ce *pgconn.ConnectError
	var pe *pgconn.PgError
	var ue *url.Error
	var ne net.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ue):
		return nil // an HTTP call (the model) failed, not the database
	case errors.As(err, &ce):
		return ce
	case errors.As(err, &pe):
		if strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03" {
			return pe
		}
		return nil
	case errors.Is(err, pgconn.ErrConnClosed), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.ErrUnexpectedEOF):
		return innermostMessage(err)
	case errors.As(err, &ne):
		return ne
	}
	return nil
}

// innermostMessage is the last error of a single-Unwrap chain: the
// low-level reason, without the steps that met it.
func innermostMessage(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}
