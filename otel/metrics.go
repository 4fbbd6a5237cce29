package otel

import (
	"go.opentelemetry.io/otel/metric"
)

// The metrics' names.
const (
	MetricAnswers         = "nl2sql.answers"                   // counter, by nl2sql.status (and error.type)
	MetricAbstentions     = "nl2sql.abstentions"               // counter
	MetricRepairs         = "nl2sql.repairs"                   // counter, by nl2sql.repair.kind
	MetricRequestDuration = "nl2sql.request.duration"          // histogram, s, by nl2sql.status
	MetricStageDuration   = "nl2sql.stage.duration"            // histogram, s, by nl2sql.stage (and error.type)
	MetricModelTokens     = "nl2sql.model.tokens"              // counter, by model and gen_ai.token.type
	MetricTokenUsage      = "gen_ai.client.token.usage"        // histogram, the semantic convention's
	MetricModelDuration   = "gen_ai.client.operation.duration" // histogram, s, the semantic convention's
)

// instruments are the Tracer's metrics.
type instruments struct {
	answers, abstentions, repairs, tokens metric.Int64Counter
	request, stage, model                 metric.Float64Histogram
	usage                                 metric.Int64Histogram
}

// latencyBuckets suit requests and stages: a few ms to a couple of minutes.
var latencyBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120}

// tokenBuckets are the semantic convention's for gen_ai.client.token.usage.
var tokenBuckets = []float64{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864}

func newInstruments(m metric.Meter) (*instruments, error) {
	var in instruments
	var err error
	counter := func(name, unit, desc string) metric.Int64Counter {
		c, e := m.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		if err == nil {
			err = e
		}
		return c
	}
	seconds := func(name, desc string) metric.Float64Histogram {
		h, e := m.Float64Histogram(name, metric.WithUnit("s"), metric.WithDescription(desc), metric.WithExplicitBucketBoundaries(latencyBuckets...))
		if err == nil {
			err = e
		}
		return h
	}
	in.answers = counter(MetricAnswers, "{answer}", "Questions asked, by status: answered, uncertain, abstained, error")
	in.abstentions = counter(MetricAbstentions, "{answer}", "Questions the engine abstained on (confidence below the minimum)")
	in.repairs = counter(MetricRepairs, "{repair}", "Repairs: deterministic rules applied to candidates, and repair turns of the model")
	in.tokens = counter(MetricModelTokens, "{token}", "Model tokens, by model and direction (input, output)")
	in.request = seconds(MetricRequestDuration, "Wall time of a question, by status")
	in.stage = seconds(MetricStageDuration, "Wall time of a stage of a question")
	in.model = seconds(MetricModelDuration, "Wall time of a model call (GenAI semantic conventions)")
	u, e := m.Int64Histogram(MetricTokenUsage, metric.WithUnit("{token}"),
		metric.WithDescription("Tokens of a model call (GenAI semantic conventions)"), metric.WithExplicitBucketBoundaries(tokenBuckets...))
	if in.usage = u; err == nil {
		err = e
	}
	return &in, err
}
