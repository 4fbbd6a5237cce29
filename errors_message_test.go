package nl2sql_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestErrorSaysItOnce: an *Error's message says its class, code and cause
// once each ("nl2sql: rejected_unsafe: ... [V004]: validate: query
// rejected: V004: ..." said the refusal three times), and errors.Is/As
// still reach the cause.
func TestErrorSaysItOnce(t *testing.T) {
	refusal := &validate.Error{Issues: []validate.Issue{{Code: "V004", Severity: validate.SeverityError, Message: "only SELECT is allowed", Location: -1}}}
	for _, c := range []struct {
		err  *nl2sql.Error
		want string
	}{
		{&nl2sql.Error{Class: nl2sql.ClassUnsafe, Code: "V004", Message: "the query is not allowed", Err: refusal},
			"nl2sql: rejected_unsafe: the query is not allowed: V004: only SELECT is allowed"},
		{&nl2sql.Error{Class: nl2sql.ClassExecution, Code: "42703", Message: "the query failed to run",
			Err: &execute.Error{Op: "query", SQLState: "42703", Message: `column "x" does not exist`}},
			`nl2sql: execution_error: the query failed to run: execute: query: column "x" does not exist (SQLSTATE 42703)`},
		{&nl2sql.Error{Class: nl2sql.ClassExecution, Code: "V004", Message: "the query failed to run",
			Err: &execute.Error{Op: "validate", Err: refusal}},
			"nl2sql: execution_error: the query failed to run: execute: validate: query rejected: V004: only SELECT is allowed"},
		// A cause that does not name the code: the code is said.
		{&nl2sql.Error{Class: nl2sql.ClassExecution, Code: "57014", Message: "the query failed to run", Err: errors.New("canceled")},
			"nl2sql: execution_error: the query failed to run [57014]: canceled"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// TestRefusalMessages: what Run and Ask return for a refused query says
// the refusal once, with its code once, and errors.Is/As still work.
func TestRefusalMessages(t *testing.T) {
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT pg_sleep(1)") })
	ctx := context.Background()
	_, runErr := eng.Run(ctx, "SELECT pg_sleep(1)")
	res, askErr := eng.Ask(ctx, "How many employees are there?")
	for what, err := range map[string]error{"Run": runErr, "Ask": askErr} {
		var ne *nl2sql.Error
		var ve *validate.Error
		if !errors.Is(err, nl2sql.ErrUnsafe) || !errors.As(err, &ne) || ne.Code != "V010" || !errors.As(err, &ve) || !ve.Has("V010") {
			t.Errorf("%s: %v, want an unsafe refusal coded V010 wrapping the validator's error", what, err)
			continue
		}
		msg := err.Error()
		if strings.Count(msg, "V010") != 1 || strings.Contains(msg, "query rejected") || strings.Count(msg, "pg_sleep") != 1 {
			t.Errorf("%s: %q says the refusal more than once", what, msg)
		}
	}
	if res == nil || res.Error == nil || res.Error.Message != askErr.Error() {
		t.Errorf("Ask's result error %+v, want the same message", res)
	}
}
