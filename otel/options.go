package otel

import (
	"strings"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// Option configures a Tracer (New).
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	tracerProvider trace.TracerProvider
	meterProvider  metric.MeterProvider
	question       bool
	queryText      bool
	provider       string // gen_ai.provider.name
	model          string // gen_ai.request.model
}

// WithTracerProvider sets where spans go (default: the global provider,
// otel.GetTracerProvider, at New).
func WithTracerProvider(tp trace.TracerProvider) Option {
	return optionFunc(func(c *config) {
		if tp != nil {
			c.tracerProvider = tp
		}
	})
}

// WithMeterProvider sets where metrics go (default: the global provider,
// otel.GetMeterProvider, at New).
func WithMeterProvider(mp metric.MeterProvider) Option {
	return optionFunc(func(c *config) {
		if mp != nil {
			c.meterProvider = mp
		}
	})
}

// WithQuestion records the question's text on the request span
// (nl2sql.question). Off by default: a question may name a customer or
// hold another value the trace store should not keep.
func WithQuestion(on bool) Option { return optionFunc(func(c *config) { c.question = on }) }

// WithQueryText records the answer's SQL on the request span
// (db.query.text). Off by default: the SQL holds the question's literals
// (WHERE name = 'Acme').
func WithQueryText(on bool) Option { return optionFunc(func(c *config) { c.queryText = on }) }

// WithModel names the model the engine asks, as the semantic conventions
// want it on each model call: provider is gen_ai.provider.name ("openai",
// "anthropic", "ollama"), model is gen_ai.request.model. The model the
// server says answered (gen_ai.response.model) is recorded without it.
func WithModel(provider, model string) Option {
	return optionFunc(func(c *config) { c.provider, c.model = provider, model })
}

// WithModelSpec is WithModel from a model spec of the command line
// ("openai:gpt-4o-mini": provider, then model); a spec without a provider
// ("none", "") names nothing.
func WithModelSpec(spec string) Option {
	provider, model, ok := strings.Cut(spec, ":")
	if !ok {
		return nil
	}
	return WithModel(provider, model)
}
