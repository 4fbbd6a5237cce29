package nl2sql

import (
	"context"
	"time"
)

// progressFunc is a callback of WithProgress or OnProgress as a Tracer:
// it hears of long work and of no stage.
type progressFunc func(Progress)

func (progressFunc) Stage(context.Context, Stage, time.Duration, error) {}

// TraceProgress implements ProgressTracer.
func (f progressFunc) TraceProgress(_ context.Context, p Progress) { f(p) }

// progressTracer is fn as a Tracer, nil when fn is.
func progressTracer(fn func(Progress)) Tracer {
	if fn == nil {
		return nil
	}
	return progressFunc(fn)
}

// Progress reports long work: introspection and indexing ("introspect",
// "values", "index", "ready"), and the waits of Ask for the model
// ("generate": Total samples; "backward": samples after backward recall;
// "repair": one repair turn). A wait is reported when it starts (Done 0)
// and when it ends (Done == Total, Took its wall time).
type Progress struct {
	Stage Stage
	Done  int
	Total int
	Took  time.Duration
}
