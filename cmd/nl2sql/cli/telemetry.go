package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/nl2sqlgo/nl2sql"
)

// errNoTelemetry is --otel's error in a build without Hooks.Telemetry.
const errNoTelemetry = "--otel: this nl2sql build has no OpenTelemetry; run nl2sql-otel (go install github.com/nl2sqlgo/nl2sql/otel/cmd/nl2sql-otel, see docs/deployment.md)"

// telemetry starts serve's telemetry through hooks.Telemetry (flag is
// --otel, model the --llm spec): the engine options it adds, none when it
// is off, and stop, which flushes it (for at most 5 s) at exit.
func telemetry(ctx context.Context, flag bool, model string, stderr io.Writer) (opts []nl2sql.Option, stop func(), err error) {
	stop = func() {}
	if hooks.Telemetry == nil {
		if flag {
			return nil, nil, usageErr(errNoTelemetry)
		}
		return nil, stop, nil
	}
	tr, shutdown, err := hooks.Telemetry(ctx, flag, model)
	if err != nil {
		return nil, nil, usageErr("--otel: %v", err)
	}
	if tr == nil {
		return nil, stop, nil
	}
	fmt.Fprintln(stderr, "nl2sql: exporting OpenTelemetry traces and metrics")
	stop = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := shutdown(ctx); err != nil {
			fmt.Fprintf(stderr, "nl2sql: flushing OpenTelemetry: %v\n", err)
		}
	}
	return []nl2sql.Option{nl2sql.WithTracer(tr)}, stop, nil
}
