package nl2sql_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
)

// TestInputLimits: an over-long question, evidence or SQL is refused at
// once, before retrieval, linking or any tokenizer, with an *Error of class
// ClassInput wrapping ErrTooLong; nothing reaches the model.
func TestInputLimits(t *testing.T) {
	stages := &stageRecorder{}
	eng, srv := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT 1") }, nl2sql.WithTracer(stages))
	ctx := context.Background()
	huge := strings.Repeat("how many employees are active in the sales department ", 5<<20/55) // ~5 MB
	hugeSQL := "SELECT 1 AS x -- " + strings.Repeat("y", 39<<20)                               // 39 MB

	isTooLong := func(t *testing.T, what string, err error) {
		t.Helper()
		var ne *nl2sql.Error
		if !errors.As(err, &ne) || ne.Class != nl2sql.ClassInput || !errors.Is(err, nl2sql.ErrInput) || !errors.Is(err, nl2sql.ErrTooLong) {
			t.Errorf("%s: err %v, want an input error wrapping ErrTooLong", what, err)
		} else if !strings.Contains(ne.Message, "the limit is") {
			t.Errorf("%s: message %q does not name the limit", what, ne.Message)
		}
		// Nothing but a length check ran: no stage started (the cost of a
		// refusal is BenchmarkInputRefusal's).
		stages.mu.Lock()
		defer stages.mu.Unlock()
		if len(stages.stages) != 0 {
			t.Errorf("%s: stages %v ran before the refusal", what, stages.stages)
		}
		stages.stages = nil
	}

	_, err := eng.Ask(ctx, huge)
	isTooLong(t, "Ask 5 MB question", err)
	res, _ := eng.Ask(ctx, huge)
	if res == nil || res.Error == nil || res.Error.Class != nl2sql.ClassInput || res.Question != "" {
		t.Errorf("Ask result %+v: want the error recorded and the question not echoed", res)
	}
	_, err = eng.SchemaContext(ctx, huge)
	isTooLong(t, "Context 5 MB question", err)
	_, err = eng.Ask(ctx, "How many employees?", nl2sql.Evidence(huge))
	isTooLong(t, "Ask 5 MB evidence", err)
	_, err = eng.Pick(ctx, huge, []string{"SELECT 1"})
	isTooLong(t, "Pick 5 MB question", err)
	_, err = eng.Pick(ctx, "How many employees?", []string{"SELECT 1", hugeSQL})
	isTooLong(t, "Pick 39 MB candidate", err)
	_, err = eng.Check(ctx, hugeSQL)
	isTooLong(t, "Check 39 MB SQL", err)
	_, err = eng.Repair(ctx, hugeSQL)
	isTooLong(t, "Repair 39 MB SQL", err)
	_, err = eng.Run(ctx, hugeSQL)
	isTooLong(t, "Run 39 MB SQL", err)
	_, err = eng.Learn(ctx, nl2sql.Example(huge, "SELECT 1"))
	isTooLong(t, "Learn 5 MB question", err)
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the model was called %d times", n)
	}

	// At the limit: accepted. Multi-byte characters count as one.
	q := strings.Repeat("é", nl2sql.DefaultMaxQuestionChars-len("employees ")) + "employees "
	if _, err := eng.SchemaContext(ctx, q); err != nil {
		t.Errorf("a question of exactly %d characters: %v", nl2sql.DefaultMaxQuestionChars, err)
	}
	if !slices.Contains(stages.stages, string(nl2sql.StageRetrieve)) {
		t.Errorf("the tracer saw %v for an accepted question: it cannot tell a refusal's stages", stages.stages)
	}
	// Measured in the unit of its limit: characters, not the bytes of
	// the two-byte é.
	var ne *nl2sql.Error
	if _, err := eng.SchemaContext(ctx, q+"x"); !errors.Is(err, nl2sql.ErrTooLong) || !errors.As(err, &ne) ||
		ne.Message != fmt.Sprintf("the question is too long (%d characters; the limit is %d characters)", nl2sql.DefaultMaxQuestionChars+1, nl2sql.DefaultMaxQuestionChars) {
		t.Errorf("one character over: %v, want ErrTooLong counting characters", err)
	}
	if _, err := eng.SchemaContext(ctx, huge); !errors.As(err, &ne) || ne.Message != fmt.Sprintf("the question is too long (at least %d characters; the limit is %d characters)", (len(huge)+3)/4, nl2sql.DefaultMaxQuestionChars) {
		t.Errorf("a 5 MB question: %v, want a lower bound of its characters", err)
	}
	if _, err := eng.Check(ctx, hugeSQL); !errors.As(err, &ne) || ne.Message != fmt.Sprintf("the SQL is too long (%d bytes; the limit is %d bytes)", len(hugeSQL), nl2sql.MaxSQLBytes) {
		t.Errorf("SQL over its limit: %v, want its bytes counted", err)
	}

	// WithInputLimits lowers (or raises) the question limit.
	small, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT 1") }, nl2sql.WithInputLimits(10, 0))
	if _, err := small.SchemaContext(ctx, "How many employees are active?"); !errors.Is(err, nl2sql.ErrTooLong) {
		t.Errorf("WithInputLimits(10, 0): %v, want ErrTooLong", err)
	}
}
