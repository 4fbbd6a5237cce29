package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/nl2sqlgo/nl2sql"
)

// prepareBar draws Prepare's progress (introspection, indexing) as a bar;
// it ignores the model waits of Ask.
func prepareBar(stderr io.Writer) func(nl2sql.Progress) {
	// A bar only moves forward: a stage reported again with less done
	// keeps what it showed.
	shown := map[nl2sql.Stage]int{}
	return func(p nl2sql.Progress) {
		switch p.Stage {
		case nl2sql.StageGenerate, nl2sql.StageBackward, nl2sql.StageRepair:
			return
		}
		if p.Done < shown[p.Stage] {
			return
		}
		shown[p.Stage] = p.Done
		if p.Total > 0 {
			fmt.Fprintf(stderr, "\r%-10s %s", p.Stage, bar(p.Done, p.Total, 30))
		} else {
			fmt.Fprintf(stderr, "\r%-10s ...", p.Stage)
		}
		if p.Stage == nl2sql.StageReady {
			fmt.Fprintln(stderr)
		}
	}
}

// spinner draws, while Ask waits for the model, one line saying what for
// and for how long ("waiting for openai:gpt-4o-mini (3 candidates) 4.2s"),
// redrawn every tick and cleared when the wait ends. Other progress goes
// to next.
type spinner struct {
	w     io.Writer
	label string
	next  func(nl2sql.Progress)
	tick  time.Duration

	mu   sync.Mutex
	stop chan struct{}
	done chan struct{}
}

func newSpinner(w io.Writer, label string, next func(nl2sql.Progress)) *spinner {
	return &spinner{w: w, label: label, next: next, tick: 100 * time.Millisecond}
}

// progress is the Engine's progress callback.
func (s *spinner) progress(p nl2sql.Progress) {
	var what string
	switch p.Stage {
	case "generate", "backward":
		what = fmt.Sprintf("%s (%d candidate%s)", s.label, p.Total, map[bool]string{true: "s"}[p.Total != 1])
		if p.Stage == "backward" {
			what = fmt.Sprintf("%s (%d more candidate%s, backward recall)", s.label, p.Total, map[bool]string{true: "s"}[p.Total != 1])
		}
	case "repair":
		what = s.label + " (repair)"
	default:
		if s.next != nil {
			s.next(p)
		}
		return
	}
	s.end()
	if p.Done < p.Total {
		s.start(what)
	}
}

func (s *spinner) start(what string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go func(stop, done chan struct{}) {
		defer close(done)
		frames := `|/-\`
		t := time.NewTicker(s.tick)
		defer t.Stop()
		begin := time.Now()
		for i := 0; ; i++ {
			fmt.Fprintf(s.w, "\r\033[K%c waiting for %s %.1fs", frames[i%len(frames)], what, time.Since(begin).Seconds())
			select {
			case <-stop:
				fmt.Fprint(s.w, "\r\033[K")
				return
			case <-t.C:
			}
		}
	}(s.stop, s.done)
}

// end stops and clears the line being drawn, if any.
func (s *spinner) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		close(s.stop)
		<-s.done
		s.stop, s.done = nil, nil
	}
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
