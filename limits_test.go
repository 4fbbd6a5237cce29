package nl2sql_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
)

// TestInputLimits: an over-long question, evidence or SQL is refused at
// once, before retrieval, linking or any tokenizer, with an *Error of class
// ClassInput wrapping ErrTooLong; nothing reaches the model.
func TestInputLimits(t *testing.T) {
	eng, srv := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT 1") })
	ctx := context.Background()
	huge := strings.Repeat("how many employees are active in the sales department ", 5<<20/55) // ~5 MB
	hugeSQL := "SELECT 1 AS x -- " + strings.Repeat("y", 39<<20)                               // 39 MB

	isTooLong := func(t *testing.T, what string, err error, took time.Duration) {
		t.Helper()
		var ne *nl2sql.Error
		if !errors.As(err, &ne) || ne.Class != nl2sql.ClassInput || !errors.Is(err, nl2sql.ErrInput) || !errors.Is(err, nl2sql.ErrTooLong) {
			t.Errorf("%s: err %v, want an input error wrapping ErrTooLong", what, err)
		} else if !strings.Contains(ne.Message, "the limit is") {
			t.Errorf("%s: message %q does not name the limit", what, ne.Message)
		}
		// Generous: the point is that nothing but a length check ran.
		if took > 100*time.Millisecond {
			t.Errorf("%s: refused in %v, want under 100ms", what, took)
		}
		t.Logf("%s: refused in %v: %v", what, took, err)
	}
	timed := func(f func() error) (error, time.Duration) {
		start := time.Now()
		err := f()
		return err, time.Since(start)
	}

	err, took := timed(func() error { _, err := eng.Ask(ctx, huge); return err })
	isTooLong(t, "Ask 5 MB question", err, took)
	res, _ := eng.Ask(ctx, huge)
	if res == nil || res.Error == nil || res.Error.Class != nl2sql.ClassInput || res.Question != "" {
		t.Errorf("Ask result %+v: want the error recorded and the question not echoed", res)
	}
	err, took = timed(func() error { _, err := eng.SchemaContext(ctx, huge); return err })
	isTooLong(t, "Context 5 MB question", err, took)
	err, took = timed(func() error {
		_, err := eng.Ask(ctx, "How many employees?", nl2sql.Evidence(huge))
		return err
	})
	isTooLong(t, "Ask 5 MB evidence", err, took)
	err, took = timed(func() error { _, err := eng.Pick(ctx, huge, []string{"SELECT 1"}); return err })
	isTooLong(t, "Pick 5 MB question", err, took)
	err, took = timed(func() error {
		_, err := eng.Pick(ctx, "How many employees?", []string{"SELECT 1", hugeSQL})
		return err
	})
	isTooLong(t, "Pick 39 MB candidate", err, took)
	err, took = timed(func() error { _, err := eng.Check(ctx, hugeSQL); return err })
	isTooLong(t, "Check 39 MB SQL", err, took)
	err, took = timed(func() error { _, err := eng.Repair(ctx, hugeSQL); return err })
	isTooLong(t, "Repair 39 MB SQL", err, took)
	err, took = timed(func() error { _, err := eng.Run(ctx, hugeSQL); return err })
	isTooLong(t, "Run 39 MB SQL", err, took)
	err, took = timed(func() error { _, err := eng.Learn(ctx, nl2sql.Example(huge, "SELECT 1")); return err })
	isTooLong(t, "Learn 5 MB question", err, took)
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the model was called %d times", n)
	}

	// At the limit: accepted. Multi-byte characters count as one.
	q := strings.Repeat("é", nl2sql.DefaultMaxQuestionChars-len("employees ")) + "employees "
	if _, err := eng.SchemaContext(ctx, q); err != nil {
		t.Errorf("a question of exactly %d characters: %v", nl2sql.DefaultMaxQuestionChars, err)
	}
	if _, err := eng.SchemaContext(ctx, q+"x"); !errors.Is(err, nl2sql.ErrTooLong) {
		t.Errorf("one character over: %v, want ErrTooLong", err)
	}

	// WithInputLimits lowers (or raises) the question limit.
	small, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT 1") }, nl2sql.WithInputLimits(10, 0))
	if _, err := small.SchemaContext(ctx, "How many employees are active?"); !errors.Is(err, nl2sql.ErrTooLong) {
		t.Errorf("WithInputLimits(10, 0): %v, want ErrTooLong", err)
	}
}

// TestMaxLengthQuestionIsCheap: a question at the length limit costs
// retrieval and linking milliseconds, and the cost grows about linearly.
func TestMaxLengthQuestionIsCheap(t *testing.T) {
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT 1") })
	const sentence = "Which sales reps in the German division won the most deals with active customers, and what was the total invoice amount per quarter in 2023? "
	question := func(chars int) string {
		q := strings.Repeat(sentence, chars/len(sentence)+1)
		return q[:chars]
	}
	contextOf(t, eng, sentence) // warm up
	var took [2]time.Duration
	for i, n := range []int{nl2sql.DefaultMaxQuestionChars / 4, nl2sql.DefaultMaxQuestionChars} {
		q := question(n)
		best := time.Hour
		for range 3 {
			start := time.Now()
			c := contextOf(t, eng, q)
			if d := time.Since(start); d < best {
				best = d
				t.Logf("%d chars: %v", n, c.Timings)
			}
		}
		took[i] = best
		t.Logf("Context of a %d-character question: %v", n, best)
	}
	if took[1] > 2*time.Second {
		t.Errorf("a max-length question took %v", took[1])
	}
	if took[1] > 12*took[0]+50*time.Millisecond {
		t.Errorf("4x the length took %v vs %v: worse than linear", took[1], took[0])
	}
}
