// Package cli is the nl2sql command line: cmd/nl2sql's main runs it, and
// so does otel/cmd/nl2sql-otel's, with OpenTelemetry added through Hooks
// (so that the core module needs no OpenTelemetry dependency). See
// docs/cli.md for the commands.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/cliflags"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/provider"
)

// exitError carries an exit status and a one-line reason.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

// failed maps a library error to its exit status: 2 when the setup is at
// fault (configuration, the database or the model out of reach, the model's
// credentials refused), 1 for a negative answer.
func failed(err error) error {
	var ee *exitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee):
		return err
	case errors.Is(err, nl2sql.ErrConfig), errors.Is(err, nl2sql.ErrConnection),
		errors.Is(err, llm.ErrUnreachable), errors.Is(err, llm.ErrAuth), errors.Is(err, provider.ErrSpec):
		return &exitError{code: 2, err: err}
	}
	return &exitError{code: 1, err: err}
}

// message is err as one line with one "nl2sql: " prefix and a hint.
func message(err error) string {
	m := oneLine(err.Error())
	for strings.HasPrefix(m, "nl2sql: ") {
		m = strings.TrimPrefix(m, "nl2sql: ")
	}
	if h := cliflags.Hint(err); h != "" {
		m += " (" + h + ")"
	}
	return "nl2sql: " + m
}

func usageErr(format string, a ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, a...)}
}

type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{
	"schema":    {"print the database catalog as M-Schema (or JSON)", runSchema},
	"ask":       {"answer a question: SQL and rows", runAsk},
	"retrieve":  {"print the schema context of a question (tables, columns, joins)", runRetrieve},
	"check":     {"validate SQL (and EXPLAIN it when a database is given)", runCheck},
	"index":     {"introspect and index a database, save it for --index", runIndex},
	"exam":      {"run an exam (CSV of questions with gold SQL) and score it", runExam},
	"repair":    {"deterministic repair of SQL (no model)", runRepair},
	"pick":      {"score SQL candidates for a question and pick one (no model)", runPick},
	"calibrate": {"fit the confidence calibrator on an exam's answers (for --calibrator)", runCalibrate},
	"role":      {"print (or --apply) the SQL creating a least-privilege reader role", runRole},
	"serve":     {"serve the web console (ask, trace, check, schema, teach)", runServe},
	"trigger":   {"print (or --apply) the SQL of the event trigger that tells servers the catalog changed", runTrigger},
	"semantic":  {"check a semantic model file (semantic check FILE) or import dbt's (semantic import-dbt DIR)", runSemantic},

	// What the engine learns (nl2sql learn, nl2sql knowledge).
	"learn":     {"teach the engine a verified question and SQL (docs, terms; --workload: from the workload)", runLearn},
	"knowledge": {"list, export or forget what the engine was taught", runKnowledge},
}

// Hooks are what a build of the command line adds to it: cmd/nl2sql adds
// none, otel/cmd/nl2sql-otel adds OpenTelemetry.
type Hooks struct {
	// Telemetry starts serve's telemetry: flag is --otel, model the --llm
	// spec. It returns the tracer to give the engine (nil: none wanted)
	// and the function that flushes and stops it. Nil: this build has
	// none, and --otel is a usage error naming the build that has it.
	Telemetry func(ctx context.Context, flag bool, model string) (nl2sql.Tracer, func(context.Context) error, error)
}

// hooks are the ones Main was given.
var hooks Hooks

// Main runs the command line args (the program's name left out) with h
// and returns its exit status.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer, h Hooks) int {
	hooks = h
	return run(ctx, args, stdout, stderr)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "nl2sql: unknown command %q (try nl2sql help)\n", args[0])
		return 2
	}
	err := cmd.run(ctx, args[1:], stdout, stderr)
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, message(ee.err))
		}
		return ee.code
	}
	fmt.Fprintln(stderr, message(err))
	return 1
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: nl2sql COMMAND [flags] [args]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'nl2sql COMMAND -h' for a command's flags.")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
