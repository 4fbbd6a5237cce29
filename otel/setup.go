package otel

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	gootel "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// envNames are the OTEL_ variables that ask for export: an exporter, an
// endpoint or a service name.
var envNames = []string{
	"OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER",
	"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
	"OTEL_SERVICE_NAME",
}

// Enabled reports whether a server should export telemetry: its --otel
// flag (flag) is set, or one of the standard variables that name an
// exporter, an endpoint or a service is (OTEL_TRACES_EXPORTER,
// OTEL_METRICS_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT and its per-signal
// forms, OTEL_SERVICE_NAME); never when OTEL_SDK_DISABLED is true.
func Enabled(flag bool) bool {
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return false
	}
	if flag {
		return true
	}
	for _, n := range envNames {
		if os.Getenv(n) != "" {
			return true
		}
	}
	return false
}

// Setup starts the OpenTelemetry SDK as the standard environment
// variables describe it (exporters: OTEL_TRACES_EXPORTER and
// OTEL_METRICS_EXPORTER, default otlp, also console, prometheus, none;
// OTLP's OTEL_EXPORTER_OTLP_ENDPOINT, _PROTOCOL, _HEADERS...; the resource:
// OTEL_SERVICE_NAME, default service, and OTEL_RESOURCE_ATTRIBUTES),
// installs its providers as the global ones (with W3C trace context
// propagation) and returns a Tracer on them, with opts, and shutdown,
// which flushes and stops the SDK: call it before the process exits.
func Setup(ctx context.Context, service string, opts ...Option) (_ *Tracer, shutdown func(context.Context) error, err error) {
	env, err := resource.New(ctx, resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil && env == nil {
		return nil, nil, fmt.Errorf("otel: resource: %w", err)
	}
	// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over service.
	res, err := resource.Merge(resource.NewSchemaless(attribute.String("service.name", service)), env)
	if err != nil {
		return nil, nil, fmt.Errorf("otel: resource: %w", err)
	}
	spans, err := autoexport.NewSpanExporter(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("otel: traces exporter: %w", err)
	}
	reader, err := autoexport.NewMetricReader(ctx)
	if err != nil {
		_ = spans.Shutdown(ctx)
		return nil, nil, fmt.Errorf("otel: metrics exporter: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(spans), sdktrace.WithResource(res))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithResource(res))
	shutdown = func(ctx context.Context) error {
		return errors.Join(tp.Shutdown(ctx), mp.Shutdown(ctx))
	}
	t, err := New(append([]Option{WithTracerProvider(tp), WithMeterProvider(mp)}, opts...)...)
	if err != nil {
		_ = shutdown(ctx)
		return nil, nil, err
	}
	gootel.SetTracerProvider(tp)
	gootel.SetMeterProvider(mp)
	gootel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return t, shutdown, nil
}
