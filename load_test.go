package nl2sql_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/goleak"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// TestLoadWithFaults runs 200 concurrent Ask calls over the demo ERP against
// a loopback model server that answers with the gold SQL after a random
// delay, while a share of model calls hang, fail with 500 or return garbage,
// a query hits the statement timeout and server backends are terminated
// mid-run. Every failed Ask must carry a typed error with a class, every
// successful one the gold answer's rows, and the engine must answer
// correctly afterwards; no goroutine may leak.
func TestLoadWithFaults(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreTopFunction("github.com/jackc/pgx/v5/pgxpool.(*Pool).backgroundHealthCheck"),
		goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"), goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"))
	exam, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	// Easy questions only: each is asked once (K=1) and its gold SQL is
	// the model's answer, so a success can be checked against the gold rows.
	var qs []erp.Question
	for _, q := range exam {
		if q.Difficulty == "easy" {
			qs = append(qs, q)
		}
	}
	gold := map[string]string{}
	for _, q := range qs {
		gold[q.Question] = q.GoldSQL
	}
	srv := llmfake.New(t, func(n int, r *llmfake.Request) llmfake.Reply {
		delay := time.Duration(rand.IntN(40)) * time.Millisecond
		switch n % 20 {
		case 3:
			return llmfake.Reply{Delay: 30 * time.Second} // hangs past the budget
		case 7:
			return llmfake.Reply{Status: 500, Body: `{"error":{"message":"overloaded","type":"server_error"}}`, Delay: delay}
		case 11:
			return llmfake.Reply{Body: `{"choices": [garbage`, Delay: delay}
		}
		for q, sql := range gold {
			if strings.Contains(r.Last(), "【Question】\n"+q+"\n") {
				return llmfake.Reply{Content: "```sql\n" + sql + "\n```", Delay: delay}
			}
		}
		return llmfake.Reply{Content: "no idea"}
	})
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithMaxRetries(0))
	dsn := erptest.Single(t)
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 16
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithK(1, 1, 1), nl2sql.WithRepairAttempts(0),
		nl2sql.WithGenerateBudget(2*time.Second), nl2sql.WithModules(erp.Modules()), nl2sql.WithStatementTimeout(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := eng.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{} // question -> gold row count
	for _, q := range qs {
		r, err := eng.Run(ctx, q.GoldSQL)
		if err != nil {
			t.Fatalf("%s gold: %v", q.QID, err)
		}
		want[q.Question] = len(r.Rows)
	}

	// Terminate engine backends a few times while the load runs.
	stop := make(chan struct{})
	var killer sync.WaitGroup
	killer.Add(1)
	go func() {
		defer killer.Done()
		admin := pgtest.Pool(t, pgtest.AdminDSN(t))
		for i := 0; i < 3; i++ {
			select {
			case <-stop:
				return
			case <-time.After(150 * time.Millisecond):
			}
			_, _ = admin.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'")
		}
	}()

	const n = 200
	type outcome struct {
		q        string
		res      *nl2sql.Result
		err      error
		overhead time.Duration
	}
	outs := make([]outcome, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			q := qs[i%len(qs)].Question
			start := time.Now()
			res, err := eng.Ask(ctx, q)
			o := outcome{q: q, res: res, err: err}
			if res != nil {
				o.overhead = time.Since(start) - res.Timings["generate"]
			}
			outs[i] = o
		}(i)
	}
	wg.Wait()
	close(stop)
	killer.Wait()

	ok, failed := 0, map[nl2sql.Class]int{}
	var overheads []time.Duration
	for _, o := range outs {
		if o.err != nil {
			var ne *nl2sql.Error
			if !errors.As(o.err, &ne) || ne.Class == "" || o.res == nil || o.res.Error == nil {
				t.Errorf("untyped failure for %q: %v", o.q, o.err)
				continue
			}
			failed[ne.Class]++
			continue
		}
		ok++
		overheads = append(overheads, o.overhead)
		if len(o.res.Rows) != want[o.q] {
			t.Errorf("%q: %d rows, gold has %d", o.q, len(o.res.Rows), want[o.q])
		}
	}
	sort.Slice(overheads, func(i, j int) bool { return overheads[i] < overheads[j] })
	if len(overheads) > 0 {
		t.Logf("%d ok, failures %v; overhead (everything but the model) p50 %v, p99 %v", ok, failed,
			overheads[len(overheads)/2], overheads[len(overheads)*99/100])
	}
	// 3 of every 20 model calls fail by design; each backend kill may fail
	// the requests in flight on the killed connections (up to the pool size).
	if ok < n/2 {
		t.Errorf("only %d of %d answered", ok, n)
	}
	if failed[nl2sql.ClassLLM] == 0 {
		t.Errorf("injected model faults were not reported as llm_error: %v", failed)
	}

	// A query that hits the statement timeout is a typed execution error.
	slow := "SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b"
	short, _ := nl2sql.New(pool, nl2sql.WithStatementTimeout(200*time.Millisecond), nl2sql.WithValueIndex(false))
	if _, err := short.Run(ctx, slow); !errors.Is(err, nl2sql.ErrExecution) {
		t.Errorf("statement timeout: %v", err)
	}

	// Afterwards the engine answers correctly again.
	for _, q := range qs[:3] {
		var res *nl2sql.Result
		for try := 0; try < 3; try++ { // the fake's fault schedule may hit this call
			if res, err = eng.Ask(ctx, q.Question); err == nil {
				break
			}
		}
		if err != nil || len(res.Rows) != want[q.Question] {
			t.Errorf("after load %s: %v", q.QID, err)
		}
	}
}
