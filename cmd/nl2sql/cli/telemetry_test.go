package cli

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
)

// TestServeOTelHook: serve --otel in a build without the Telemetry hook
// (cmd/nl2sql) is a usage error naming the build that has it, before any
// database is opened; with a hook, serve asks it with the flag and the
// model spec, and a hook that fails is a usage error with its reason.
func TestServeOTelHook(t *testing.T) {
	defer func(h Hooks) { hooks = h }(hooks)
	var errs strings.Builder
	code := Main(context.Background(), []string{"serve", "--llm", "none", "--otel"}, io.Discard, &errs, Hooks{})
	if code != 2 || !strings.Contains(errs.String(), "nl2sql-otel") {
		t.Errorf("--otel without the hook: exit %d, %q", code, errs.String())
	}

	var gotFlag bool
	var gotModel string
	hook := func(_ context.Context, flag bool, model string) (nl2sql.Tracer, func(context.Context) error, error) {
		gotFlag, gotModel = flag, model
		return nil, nil, errors.New("no exporter named bogus")
	}
	errs.Reset()
	code = Main(context.Background(), []string{"serve", "--llm", "none", "--otel"}, io.Discard, &errs, Hooks{Telemetry: hook})
	if code != 2 || !gotFlag || gotModel != "none" || !strings.Contains(errs.String(), "--otel: no exporter named bogus") {
		t.Errorf("failing hook: exit %d, flag %v, model %q, %q", code, gotFlag, gotModel, errs.String())
	}
}
