package nl2sql_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// TestAskFollowUp: a question that only makes sense as a follow-up ("and
// those hired before 2020?") is refused on its own, and answered with the
// previous turn: the prompt shows the conversation, the context holds the
// previous turn's tables, and the model's follow-up SQL runs.
func TestAskFollowUp(t *testing.T) {
	const first = "SELECT count(*) AS active FROM employees WHERE status = 'Active'"
	const second = "SELECT count(*) AS active FROM employees WHERE status = 'Active' AND hire_date < DATE '2020-01-01'"
	var mu sync.Mutex
	var prompts []string
	eng, _ := engine(t, func(_ int, r *llmfake.Request) llmfake.Reply {
		mu.Lock()
		prompts = append(prompts, r.Last())
		mu.Unlock()
		if strings.Contains(r.Last(), "Conversation so far") {
			return fenced(second)
		}
		return fenced(first)
	}, nl2sql.WithK(1, 1, 1))
	ctx := context.Background()
	res, err := eng.Ask(ctx, "How many employees are active?")
	if err != nil {
		t.Fatal(err)
	}
	const followUp = "And what about 2019?"
	if _, err := eng.Ask(ctx, followUp); !errors.Is(err, nl2sql.ErrRetrievalMiss) {
		t.Fatalf("the follow-up alone: %v, want a retrieval miss", err)
	}
	turn := nl2sql.Turn{Question: "How many employees are active?", SQL: res.SQL, Columns: []string{"active"}}
	res2, err := eng.Ask(ctx, followUp, nl2sql.History(turn))
	if err != nil {
		t.Fatalf("follow-up with history: %v", err)
	}
	if res2.SQL != second || !slices.Contains(res2.Context, "public.employees") {
		t.Errorf("follow-up answered %q from %v", res2.SQL, res2.Context)
	}
	last := prompts[len(prompts)-1]
	if !strings.Contains(last, "Q1: How many employees are active?\nSQL: "+first+"\nColumns: active") ||
		strings.Index(last, "Conversation so far") > strings.Index(last, "【Question】\n"+followUp) {
		t.Errorf("the follow-up's prompt lacks the first turn:\n%s", last)
	}
	c, err := eng.SchemaContext(ctx, followUp, nl2sql.History(turn))
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(c.Tables, func(h retrieve.TableHit) bool { return h.Name == "public.employees" }); i < 0 || !slices.Contains(c.Tables[i].Reasons, "history") {
		t.Errorf("context tables %+v, want public.employees for the history", c.Tables)
	}
	if !strings.Contains(c.Skeleton, "employees") && c.Skeleton != "" {
		t.Errorf("skeleton %q", c.Skeleton)
	}

	// A question of its own keeps the previous tables for reference only.
	c, err = eng.SchemaContext(ctx, "How many currencies are there?", nl2sql.History(turn))
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(c.Tables, func(h retrieve.TableHit) bool { return h.Name == "public.employees" }); i < 0 || !slices.Contains(c.Tables[i].Reasons, "previous") || strings.Contains(c.Skeleton, "employees") {
		t.Errorf("standalone question with history: tables %+v skeleton %q", c.Tables, c.Skeleton)
	}

	// Limits: too many turns, an over-long SQL.
	many := make([]nl2sql.Turn, nl2sql.MaxHistoryTurns+1)
	for i := range many {
		many[i] = turn
	}
	if _, err := eng.Ask(ctx, followUp, nl2sql.History(many...)); !errors.Is(err, nl2sql.ErrTooLong) {
		t.Errorf("%d turns: %v", len(many), err)
	}
	big := nl2sql.Turn{Question: "q", SQL: "SELECT " + strings.Repeat("1+", nl2sql.MaxSQLBytes) + "1"}
	if _, err := eng.Ask(ctx, followUp, nl2sql.History(big)); !errors.Is(err, nl2sql.ErrTooLong) {
		t.Errorf("huge SQL in history: %v", err)
	}
}
