package nl2sql_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// silentModel is a model server that accepts every request and never
// answers (until the client hangs up).
func silentModel(t *testing.T) *llmfake.Server {
	return llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply { return llmfake.Reply{Delay: time.Hour} })
}

// budgetEngine is a prepared Engine over the demo ERP whose model is srv,
// reached with the client's default retries (2) and per-attempt timeout
// (2 minutes) unless tr says otherwise.
func budgetEngine(t *testing.T, srv *llmfake.Server, tr llm.Transport, opts ...nl2sql.Option) *nl2sql.Engine {
	t.Helper()
	hc := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(hc.CloseIdleConnections)
	tr.HTTPClient = hc
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(tr))
	pool := pgtest.Pool(t, erptest.Single(t))
	eng, err := nl2sql.New(pool, append([]nl2sql.Option{nl2sql.WithLLM(model), nl2sql.WithK(3, 3, 3)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	return eng
}

// askWithin runs Ask and fails when it takes longer than limit (generous:
// the bounds are checked, not the timing).
func askWithin(t *testing.T, eng *nl2sql.Engine, limit time.Duration, opts ...nl2sql.AskOption) (*nl2sql.Result, error, time.Duration) {
	t.Helper()
	start := time.Now()
	res, err := eng.Ask(context.Background(), "How many employees are currently active?", opts...)
	took := time.Since(start)
	if took > limit {
		t.Fatalf("Ask took %v, want under %v", took, limit)
	}
	return res, err, took
}

func wantTimeout(t *testing.T, res *nl2sql.Result, err error, msg string) {
	t.Helper()
	var ne *nl2sql.Error
	if !errors.Is(err, nl2sql.ErrLLM) || !errors.As(err, &ne) || !strings.Contains(ne.Message, msg) {
		t.Fatalf("err = %v, want ErrLLM saying %q", err, msg)
	}
	if res == nil || res.Error == nil || res.Error.Class != nl2sql.ClassLLM || !strings.Contains(res.Error.Message, msg) {
		t.Fatalf("partial result = %+v, want its error", res)
	}
	if ne.Code != "llm_timeout" || res.Error.Code != "llm_timeout" {
		t.Errorf("code %q / %q, want llm_timeout", ne.Code, res.Error.Code)
	}
	if _, ok := res.Timings["generate"]; !ok || res.Timings["total"] <= 0 {
		t.Errorf("timings = %v, want the generate stage and the total", res.Timings)
	}
}

// TestAskBudgetSilentModel: a model that never answers costs the question
// its budget, not the clients' 2-minute attempts times 3; the parallel
// samples are cancelled (no goroutine outlives Ask), and the waits are
// reported to the progress callback.
func TestAskBudgetSilentModel(t *testing.T) {
	srv := silentModel(t)
	var mu sync.Mutex
	var events []nl2sql.Progress
	eng := budgetEngine(t, srv, llm.Transport{}, nl2sql.WithTimeout(2*time.Second), nl2sql.WithProgress(func(p nl2sql.Progress) {
		mu.Lock()
		events = append(events, p)
		mu.Unlock()
	}))
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	res, err, _ := askWithin(t, eng, 2*time.Second+5*time.Second)
	wantTimeout(t, res, err, "the question's 2s budget ran out while waiting for the model")
	if res.Attempts != 3 || len(srv.Requests()) < 3 {
		t.Errorf("attempts %d, %d requests; want the 3 samples asked", res.Attempts, len(srv.Requests()))
	}
	mu.Lock()
	defer mu.Unlock()
	var gen []nl2sql.Progress
	for _, p := range events {
		if p.Stage == "generate" {
			gen = append(gen, p)
		}
	}
	if len(gen) != 2 || gen[0].Done != 0 || gen[0].Total != 3 || gen[1].Done != 3 || gen[1].Took < time.Second {
		t.Errorf("generate progress = %+v, want a start (0/3) and an end (3/3)", gen)
	}
}

// TestAskPerCallTimeout: Timeout overrides the engine's budget for one
// request.
func TestAskPerCallTimeout(t *testing.T) {
	eng := budgetEngine(t, silentModel(t), llm.Transport{}, nl2sql.WithTimeout(time.Hour), nl2sql.WithModelTimeout(time.Hour))
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	res, err, _ := askWithin(t, eng, time.Second+5*time.Second, nl2sql.Timeout(time.Second))
	wantTimeout(t, res, err, "the question's 1s budget ran out while waiting for the model")
}

// TestAskModelTimeout: each attempt is cut at the model timeout and
// retried by the client; when every attempt timed out inside the budget,
// the error names the model timeout.
func TestAskModelTimeout(t *testing.T) {
	srv := silentModel(t)
	eng := budgetEngine(t, srv, llm.Transport{BaseDelay: 10 * time.Millisecond, MaxDelay: 20 * time.Millisecond},
		nl2sql.WithK(1, 1, 1), nl2sql.WithTimeout(time.Minute), nl2sql.WithModelTimeout(300*time.Millisecond))
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	res, err, _ := askWithin(t, eng, 20*time.Second)
	wantTimeout(t, res, err, "the model did not answer within 300ms")
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3 (the first attempt and 2 retries)", n)
	}
}

// TestAskModelTimeoutRetriesStopAtBudget: attempts shorter than the budget
// are retried until the budget runs out, not beyond.
func TestAskModelTimeoutRetriesStopAtBudget(t *testing.T) {
	srv := silentModel(t)
	eng := budgetEngine(t, srv, llm.Transport{MaxAttempts: 101, BaseDelay: 10 * time.Millisecond, MaxDelay: 20 * time.Millisecond},
		nl2sql.WithK(1, 1, 1), nl2sql.WithTimeout(2*time.Second), nl2sql.WithModelTimeout(400*time.Millisecond))
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	res, err, took := askWithin(t, eng, 2*time.Second+5*time.Second)
	wantTimeout(t, res, err, "the question's 2s budget ran out while waiting for the model")
	if n := len(srv.Requests()); n < 2 || n > 6 {
		t.Errorf("%d requests in %v, want the 400ms attempts retried within the 2s budget (2 to 6)", n, took)
	}
}
