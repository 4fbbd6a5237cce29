// Package otel exports what the nl2sql Engine does as OpenTelemetry spans
// and metrics. It is a module of its own (github.com/nl2sqlgo/nl2sql/otel),
// so that the core module keeps its small dependency set: import it only
// where telemetry is wanted.
//
// A [Tracer] is an nl2sql.Tracer; give it to nl2sql.WithTracer:
//
//	tr, err := otel.New() // the global providers, or WithTracerProvider/WithMeterProvider
//	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithTracer(tr))
//
// A server that reads the standard OTEL_ variables calls [Setup] instead
// (see [Enabled]); the MCP server (examples/mcp-server --otel) and the
// console of nl2sql-otel (otel/cmd/nl2sql-otel serve --otel) do.
//
// # Spans
//
// Each Ask is one span, nl2sql.ask (a SchemaContext one
// nl2sql.schema_context, over its four stages), with a child span per stage
// (nl2sql.retrieve, nl2sql.link, nl2sql.plan, nl2sql.prompt,
// nl2sql.generate, nl2sql.validate, nl2sql.backward, nl2sql.repair,
// nl2sql.score, nl2sql.execute) and, under the stage that made it, a client
// span per model call named "chat MODEL" with the GenAI semantic
// conventions' attributes (gen_ai.operation.name chat,
// gen_ai.provider.name and gen_ai.request.model from [WithModel],
// gen_ai.response.model, gen_ai.usage.input_tokens and output_tokens,
// gen_ai.response.finish_reasons, error.type).
//
// The request span carries what a dashboard needs: nl2sql.status
// (answered, uncertain, abstained, error), nl2sql.confidence,
// nl2sql.candidates and nl2sql.candidates.ok, nl2sql.attempts (model
// calls), nl2sql.repairs (deterministic repairs plus repair turns),
// nl2sql.tables (the relations the answer reads), nl2sql.context.tables,
// nl2sql.rows (a count), nl2sql.scope, the model's tokens
// (gen_ai.usage.*) and time (nl2sql.model.duration, seconds),
// db.system.name postgresql; on failure error.type (the error's Class),
// nl2sql.error.code (its Code: SQLSTATE, V0xx, llm_*) and an error status
// whose description is the class and code. The stages that run queries
// (validate, score, execute) carry db.system.name too; a stage that failed
// has error.type and an error status.
//
// Run, Check, Pick and Repair (caller-written SQL, no stages) make no
// span of their own.
//
// Never recorded: row values, the prompt, an error's message (a server's
// message may quote a value). The question (nl2sql.question) only with
// [WithQuestion], the answer's SQL (db.query.text) only with
// [WithQueryText]: both may hold the literals of a customer's data.
//
// # Metrics
//
// nl2sql.answers (counter, by nl2sql.status, and error.type on errors),
// nl2sql.abstentions (counter), nl2sql.repairs (counter, by
// nl2sql.repair.kind rule or turn), nl2sql.request.duration (histogram,
// seconds, by nl2sql.status), nl2sql.stage.duration (histogram, seconds,
// by nl2sql.stage, and error.type when the stage failed),
// nl2sql.model.tokens (counter, by model and gen_ai.token.type input or
// output), and the GenAI conventions' gen_ai.client.token.usage and
// gen_ai.client.operation.duration histograms. The scope is not a metric
// attribute (one series per tenant would grow without bound): filter
// spans by nl2sql.scope instead.
package otel
