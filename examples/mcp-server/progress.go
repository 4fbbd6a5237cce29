package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql"
)

// progressReporter turns one request's engine progress (nl2sql.OnProgress)
// into notifications/progress for the request's progress token.
//
// The engine reports each wait for the model twice: at its start (Done 0 of
// Total) and at its end (Done == Total). Stages follow each other
// (generate, maybe backward, maybe repair turns) and their totals are not
// known in advance, so progress counts the steps of all stages so far and
// total is what is known now: finished stages plus the current one. Neither
// ever goes backwards.
type progressReporter struct {
	ctx     context.Context
	session *mcp.ServerSession
	token   any

	mu    sync.Mutex
	base  float64 // steps of finished stages
	last  float64 // last progress sent
	total float64 // last total sent
}

// newProgressReporter returns nil when the request carries no progress
// token (the client did not ask for progress).
func newProgressReporter(ctx context.Context, req *mcp.CallToolRequest) *progressReporter {
	if req == nil || req.Session == nil || req.Params == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	return &progressReporter{ctx: ctx, session: req.Session, token: token}
}

func (r *progressReporter) report(p nl2sql.Progress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	total := max(r.base+float64(p.Total), r.total)
	progress := min(max(r.base+float64(p.Done), r.last), total)
	msg := progressMessage(p)
	if p.Total > 0 && p.Done >= p.Total {
		r.base += float64(p.Total)
	}
	r.last, r.total = progress, total
	// Sent while holding the lock so notifications leave in order; a
	// failure (the client went away) only loses the notification.
	_ = r.session.NotifyProgress(r.ctx, &mcp.ProgressNotificationParams{
		ProgressToken: r.token, Progress: progress, Total: total, Message: msg})
}

// progressMessage says in words what the engine is waiting for.
func progressMessage(p nl2sql.Progress) string {
	done := p.Total > 0 && p.Done >= p.Total
	took := ""
	if done && p.Took > 0 {
		took = " in " + p.Took.Round(10*time.Millisecond).String()
	}
	switch p.Stage {
	case "generate":
		if done {
			return fmt.Sprintf("the model wrote %s%s", plural(p.Total, "candidate"), took)
		}
		return fmt.Sprintf("waiting for the model (%s)", plural(p.Total, "candidate"))
	case "backward":
		if done {
			return fmt.Sprintf("the model wrote %s from the recalled tables%s", plural(p.Total, "more candidate"), took)
		}
		return fmt.Sprintf("waiting for the model (%s from the recalled tables)", plural(p.Total, "more candidate"))
	case "repair":
		if done {
			return "the model answered the repair request" + took
		}
		return "waiting for the model to repair the query"
	}
	if done {
		return string(p.Stage) + " done" + took
	}
	return string(p.Stage)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
