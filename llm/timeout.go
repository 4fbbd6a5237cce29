package llm

import (
	"context"
	"time"
)

type callTimeoutKey struct{}

// WithCallTimeout returns a context asking the model clients to give up on
// one attempt at a call after d (d <= 0: no such bound). A client that
// retries then starts another attempt, while the context's own deadline,
// which covers every attempt and the waits between them, allows it. The
// built-in clients (openai, ollama, anthropic) honour it, taking the
// shorter of d and their own per-attempt timeout; other Model
// implementations may read it with CallTimeout.
func WithCallTimeout(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, callTimeoutKey{}, d)
}

// CallTimeout is the per-attempt bound WithCallTimeout set on ctx, 0 when
// none.
func CallTimeout(ctx context.Context) time.Duration {
	d, _ := ctx.Value(callTimeoutKey{}).(time.Duration)
	return max(d, 0)
}
