package nl2sql

import (
	"context"
	"time"
)

// Tracer observes the stages of Ask calls, for metrics and tracing systems:
// Stage is called when a stage ends ("retrieve", "link", "plan", "prompt",
// "generate", "validate", "backward" (only when backward recall ran),
// "repair", "score", "execute"), from the calling goroutine.
type Tracer interface {
	Stage(ctx context.Context, stage string, took time.Duration, err error)
}

func (e *Engine) mark(ctx context.Context, res *Result, stage string, start time.Time, err error) {
	d := time.Since(start)
	res.Timings[stage] = d
	if e.cfg.tracer != nil {
		e.cfg.tracer.Stage(ctx, stage, d, err)
	}
}
