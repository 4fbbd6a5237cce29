// Command nl2sql-otel is the nl2sql command line with OpenTelemetry: every
// command is nl2sql's (cmd/nl2sql/cli), and serve --otel (or, without the
// flag, an OTEL_ variable that names an exporter, an endpoint or a
// service) exports the console's questions as spans and metrics, as the
// standard OTEL_ variables say (default OTLP/HTTP to
// $OTEL_EXPORTER_OTLP_ENDPOINT; service name nl2sql-console unless
// OTEL_SERVICE_NAME names another). It is built from the otel module so
// that the core module needs no OpenTelemetry dependency:
//
//	go install github.com/nl2sqlgo/nl2sql/otel/cmd/nl2sql-otel@latest
//	OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318 nl2sql-otel serve --dsn ... --llm openai:gpt-4o-mini --otel
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/cmd/nl2sql/cli"
	nlotel "github.com/nl2sqlgo/nl2sql/otel"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr, cli.Hooks{Telemetry: telemetry})
	stop()
	os.Exit(code)
}

// telemetry is the command line's Telemetry hook: the SDK from the OTEL_
// variables when --otel or the environment asks for it, nothing
// otherwise.
func telemetry(ctx context.Context, flag bool, model string) (nl2sql.Tracer, func(context.Context) error, error) {
	if !nlotel.Enabled(flag) {
		return nil, nil, nil
	}
	tr, shutdown, err := nlotel.Setup(ctx, "nl2sql-console", nlotel.WithModelSpec(model))
	if err != nil {
		return nil, nil, err
	}
	return tr, shutdown, nil
}
