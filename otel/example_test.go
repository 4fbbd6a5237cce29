package otel_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
	nlotel "github.com/nl2sqlgo/nl2sql/otel"
)

// Example starts the SDK from the OTEL_ variables (OTLP to
// OTEL_EXPORTER_OTLP_ENDPOINT by default) and traces every Ask of an
// Engine. TestTracerOverEngine runs the same wiring on the demo ERP.
func Example() {
	ctx := context.Background()
	tr, shutdown, err := nlotel.Setup(ctx, "my-service", nlotel.WithModel("openai", "gpt-4o-mini"))
	if err != nil {
		log.Fatal(err)
	}
	defer shutdown(context.Background()) // flushes what is buffered

	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(openai.New(openai.WithModel("gpt-4o-mini"))), nl2sql.WithTracer(tr))
	if err != nil {
		log.Fatal(err)
	}
	res, err := eng.Ask(ctx, "How many employees are active?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.SQL)
}

// ExampleEnabled: a server exports when its --otel flag says so, or when
// the environment names an exporter, an endpoint or a service.
func ExampleEnabled() {
	os.Setenv("OTEL_SDK_DISABLED", "true")
	fmt.Println(nlotel.Enabled(true))
	os.Unsetenv("OTEL_SDK_DISABLED")
	fmt.Println(nlotel.Enabled(true))
	// Output:
	// false
	// true
}
