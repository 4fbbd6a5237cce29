package nl2sql

import (
	"context"
	"time"
)

// progress reports p to WithProgress's callback and to the request's own
// (Progress, carried by ctx).
func (e *Engine) progress(ctx context.Context, p Progress) {
	if e.cfg.progress != nil {
		e.cfg.progress(p)
	}
	if fn, _ := ctx.Value(progressKey{}).(func(Progress)); fn != nil {
		fn(p)
	}
}

// progressKey carries a request's Progress callback in its context.
type progressKey struct{}

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
