package nl2sql_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
	"github.com/nl2sqlgo/nl2sql/score"
)

// avoidTables is a custom Scorer: it keeps score.Default's judgement and
// demotes candidates that read tables the application wants left alone (a
// schema of archived rows, a staging copy), so a query over them wins only
// when nothing else validated.
type avoidTables struct {
	avoid []string // qualified names, "schema.table"

	mu    sync.Mutex
	calls int // Score calls, for the test
}

func (s *avoidTables) Score(ctx context.Context, in *score.Input) []float64 {
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
	scores := score.Default{}.Score(ctx, in)
	for i, c := range in.Candidates {
		for _, t := range c.Tables {
			if slices.Contains(s.avoid, t) {
				scores[i] -= 1
				break
			}
		}
	}
	return scores
}

// bestOf returns the index of the highest score, ties going to the earlier
// candidate, as the Engine picks.
func bestOf(scores []float64) int {
	b := 0
	for i, s := range scores {
		if s > scores[b] {
			b = i
		}
	}
	return b
}

// A Scorer sees the candidates that validated and planned, with what the
// Engine learnt about them, and returns one score each; the Engine runs the
// best. Here two samples agreed on a query over the archive schema's copy
// of orders: score.Default follows the votes, the custom scorer does not.
func ExampleScorer() {
	in := &score.Input{
		Question:      "How many orders were placed in 2024?",
		ContextTables: []string{"sales.orders", "archive.orders"},
		Candidates: []score.Candidate{
			{SQL: "SELECT count(*) FROM archive.orders WHERE ordered_on >= DATE '2024-01-01' AND ordered_on < DATE '2025-01-01'",
				Votes: 2, Tables: []string{"archive.orders"}, Agreement: -1, ResultRows: -1},
			{SQL: "SELECT count(*) FROM sales.orders WHERE ordered_on >= DATE '2024-01-01' AND ordered_on < DATE '2025-01-01'",
				Votes: 1, Tables: []string{"sales.orders"}, Agreement: -1, ResultRows: -1},
		},
	}
	ctx := context.Background()
	def := score.Default{}.Score(ctx, in)
	fmt.Println("default:", in.Candidates[bestOf(def)].Tables)
	custom := (&avoidTables{avoid: []string{"archive.orders"}}).Score(ctx, in)
	fmt.Println("custom: ", in.Candidates[bestOf(custom)].Tables)
	// Output:
	// default: [archive.orders]
	// custom:  [sales.orders]
}

// WithScorer installs a custom Scorer in an Engine. This example needs a
// database (DATABASE_URL) and a model, so go test compiles it without
// running it; TestExampleScorerInEngine runs the same scorer against the
// test database.
func ExampleWithScorer() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()
	model, err := openai.FromEnv(openai.WithModel("gpt-4.1-mini"))
	if err != nil {
		fmt.Println(err)
		return
	}
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model),
		nl2sql.WithScorer(&avoidTables{avoid: []string{"archive.orders"}}))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := eng.Ask(ctx, "How many orders were placed in 2024?")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range res.Candidates {
		fmt.Println(c.Chosen, c.Score, c.SQL)
	}
}

// stageLog is a Tracer that keeps, per stage, how often it ran and how
// often it failed: what a metrics exporter would count. The Engine calls
// Stage from the goroutine of the Ask, once per stage that ran.
type stageLog struct {
	mu     sync.Mutex
	order  []nl2sql.Stage
	runs   map[nl2sql.Stage]int
	errors map[nl2sql.Stage]int
	took   time.Duration
}

func (l *stageLog) Stage(_ context.Context, stage nl2sql.Stage, took time.Duration, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.runs == nil {
		l.runs, l.errors = map[nl2sql.Stage]int{}, map[nl2sql.Stage]int{}
	}
	if l.runs[stage] == 0 {
		l.order = append(l.order, stage)
	}
	l.runs[stage]++
	if err != nil {
		l.errors[stage]++
	}
	l.took += took
}

// String lists the stages in the order they first ran, with their counts.
func (l *stageLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b strings.Builder
	for _, s := range l.order {
		fmt.Fprintf(&b, "%s:%d/%d ", s, l.runs[s], l.errors[s])
	}
	return strings.TrimSpace(b.String())
}

// WithTracer observes every stage of every Ask ("retrieve", "link", "plan",
// "prompt", "generate", "validate", "repair", "score", "execute", ...), for
// metrics and tracing. This example needs a database and a model, so go
// test compiles it without running it; TestExampleTracerInEngine runs the
// same tracer against the test database.
func ExampleWithTracer() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()
	model, err := openai.FromEnv(openai.WithModel("gpt-4.1-mini"))
	if err != nil {
		fmt.Println(err)
		return
	}
	trace := &stageLog{}
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithTracer(trace))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := eng.Ask(ctx, "How many employees are currently active?"); err != nil {
		fmt.Println(err)
	}
	fmt.Println(trace) // e.g. retrieve:1/0 link:1/0 plan:1/0 prompt:1/0 generate:1/0 ...
}

// TestExampleScorerInEngine runs ExampleWithScorer's scorer in an Engine
// over the demo ERP: two samples agree on a query over the table to avoid,
// one reads another table; the Engine calls the scorer and runs the latter.
func TestExampleScorerInEngine(t *testing.T) {
	const avoided = "SELECT count(DISTINCT emp_id) FROM salary_history"
	const wanted = "SELECT count(*) FROM employees"
	script := func(n int, r *llmfake.Request) llmfake.Reply {
		if *r.Temperature == 0.5 {
			return fenced(wanted)
		}
		return fenced(avoided)
	}
	scorer := &avoidTables{avoid: []string{"public.salary_history"}}
	eng, _ := engine(t, script, nl2sql.WithK(3, 3, 3), nl2sql.WithScorer(scorer))
	res, err := eng.Ask(context.Background(), "How many employees are there?")
	if err != nil {
		t.Fatalf("%v\n%+v", err, res.Candidates)
	}
	if scorer.calls != 1 {
		t.Errorf("scorer called %d times, want 1", scorer.calls)
	}
	if res.SQL != wanted {
		t.Errorf("ran %q, want %q\n%+v", res.SQL, wanted, res.Candidates)
	}
	var votes []int
	for _, c := range res.Candidates {
		votes = append(votes, c.Votes)
	}
	if !slices.Equal(votes, []int{2, 1}) {
		t.Errorf("votes %v, want the avoided query first with 2", votes)
	}
}

// TestExampleTracerInEngine runs ExampleWithTracer's tracer in an Engine
// over the demo ERP.
func TestExampleTracerInEngine(t *testing.T) {
	trace := &stageLog{}
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply {
		return fenced("SELECT count(*) FROM employees WHERE status = 'Active'")
	}, nl2sql.WithK(1, 1, 1), nl2sql.WithTracer(trace))
	if _, err := eng.Ask(context.Background(), "How many employees are currently active?"); err != nil {
		t.Fatal(err)
	}
	got := trace.String()
	for _, stage := range []string{"retrieve:1/0", "link:1/0", "plan:1/0", "prompt:1/0", "generate:1/0", "validate:1/0", "score:1/0", "execute:1/0"} {
		if !strings.Contains(got, stage) {
			t.Errorf("trace %q lacks %s", got, stage)
		}
	}
	if !strings.HasPrefix(got, "retrieve:1/0 link:1/0 plan:1/0 prompt:1/0 generate:1/0") || !strings.HasSuffix(got, "execute:1/0") {
		t.Errorf("stages out of order: %s", got)
	}
}
