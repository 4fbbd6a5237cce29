package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql"
)

// openEngine connects and prepares an Engine for the common flags, drawing
// a progress line on stderr when it is a terminal. The caller closes the pool.
func openEngine(ctx context.Context, c *commonFlags, model nl2sql.LLM, stderr io.Writer, opts ...nl2sql.Option) (*nl2sql.Engine, *pgxpool.Pool, error) {
	pool, err := c.connect(ctx)
	if err != nil {
		return nil, nil, err
	}
	base := []nl2sql.Option{nl2sql.WithLLM(model)}
	if c.index != "" {
		f, err := os.Open(c.index)
		if err != nil {
			pool.Close()
			return nil, nil, usageErr("%v", err)
		}
		opts, err := nl2sql.LoadIndex(f)
		f.Close()
		if err != nil {
			pool.Close()
			return nil, nil, usageErr("--index %s: %v", c.index, err)
		}
		base = append(base, opts...)
	}
	if c.scope != "" {
		base = append(base, nl2sql.WithScope(c.scope))
	}
	if isTerminal(stderr) {
		// A bar only moves forward: a stage reported again with less done
		// keeps what it showed.
		shown := map[string]int{}
		base = append(base, nl2sql.WithProgress(func(p nl2sql.Progress) {
			if p.Done < shown[p.Stage] {
				return
			}
			shown[p.Stage] = p.Done
			if p.Total > 0 {
				fmt.Fprintf(stderr, "\r%-10s %s", p.Stage, bar(p.Done, p.Total, 30))
			} else {
				fmt.Fprintf(stderr, "\r%-10s ...", p.Stage)
			}
			if p.Stage == "ready" {
				fmt.Fprintln(stderr)
			}
		}))
	}
	eng, err := nl2sql.New(pool, append(base, opts...)...)
	if err != nil {
		pool.Close()
		return nil, nil, &exitError{code: 2, err: err}
	}
	if err := eng.Prepare(ctx); err != nil {
		pool.Close()
		return nil, nil, &exitError{code: 2, err: err}
	}
	return eng, pool, nil
}

func bar(done, total, width int) string {
	n := done * width / max(total, 1)
	b := make([]byte, width)
	for i := range b {
		if i < n {
			b[i] = '#'
		} else {
			b[i] = '.'
		}
	}
	return fmt.Sprintf("[%s] %d/%d", b, done, total)
}

// isTerminal reports whether w is a character device (a terminal): progress
// bars are drawn only there, never into files or pipes.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
