package nl2sql_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/goleak"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// TestLoadWithFaults runs 200 concurrent Ask calls over the demo ERP against
// a loopback model server that answers with the gold SQL after a random
// delay, while a share of model calls hang, fail with 500 or return garbage,
// some questions get queries that run into the statement timeout, others
// queries whose backends an admin terminates mid-query, and random active
// backends are terminated. Every failed Ask must carry a typed error with
// its class (a timeout and a terminated query each with the executor's
// class), every successful one the gold answer's rows, and the engine must
// answer correctly afterwards; no goroutine may leak.
func TestLoadWithFaults(t *testing.T) {
	defer goleak.VerifyNone(t, loadLeakOptions...)
	// Easy questions only: each is asked once (K=1) and its gold SQL is
	// the model's answer, so a success can be checked against the gold rows.
	qs := examQuestions(t, "easy")
	gold := map[string]string{}
	for _, q := range qs {
		gold[q.Question] = q.GoldSQL
	}
	// Two questions outside the exam get slow queries: one runs into the
	// statement timeout, the other is terminated by an admin while it runs.
	// The literal 29999 marks the second in pg_stat_activity. (Under 10^9
	// rows: within the plan budget.)
	const (
		timeoutQ   = "How many pairs of numbers up to thirty thousand are there?"
		killedQ    = "How many pairs of numbers below thirty thousand are there?"
		timeoutSQL = "SELECT count(*) FROM generate_series(1, 30000) a, generate_series(1, 30000) b"
		killedSQL  = "SELECT count(*) FROM generate_series(1, 29999) a, generate_series(1, 29999) b"
	)
	gold[timeoutQ], gold[killedQ] = timeoutSQL, killedSQL
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
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	pool := loadPool(t)
	// The generate budget covers waiting for the CPU as well as the model:
	// under the race detector, 200 Asks on two cores need more of it.
	budget := 2 * time.Second
	if raceDetector {
		budget = 6 * time.Second
	}
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithK(1, 1, 1), nl2sql.WithRepairAttempts(0),
		nl2sql.WithGenerateBudget(budget), nl2sql.WithModules(erp.Modules()), nl2sql.WithStatementTimeout(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want := goldRowCounts(t, eng, qs)

	// While the load runs, terminate every backend running the marked
	// query (not its EXPLAIN), and three times every active backend but
	// the slow ones.
	stop := make(chan struct{})
	// The timeout question starts once the mass kills are over: caught in
	// the executor's setup by one, it would end terminated, not timed out,
	// and the two faults are tested apart.
	massDone := make(chan struct{})
	var killer sync.WaitGroup
	var killed atomic.Int64
	killer.Add(1)
	go func() {
		defer killer.Done()
		admin := pgtest.Pool(t, pgtest.AdminDSN(t))
		db := pool.Config().ConnConfig.Database
		killedPIDs := map[int32]bool{}
		defer func() {
			select {
			case <-massDone:
			default:
				close(massDone)
			}
		}()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
			if i == 50 {
				close(massDone)
			}
			// OFFSET 0 keeps the filter below the terminate call.
			var pids []int32
			rows, err := admin.Query(ctx, `SELECT pid FROM (SELECT pid FROM pg_stat_activity
				WHERE datname = $1 AND state = 'active' AND query LIKE '%29999%' AND query NOT LIKE 'EXPLAIN%'
				OFFSET 0) s WHERE pg_terminate_backend(pid)`, db)
			if err == nil {
				pids, err = pgx.CollectRows(rows, pgx.RowTo[int32])
			}
			if err != nil {
				t.Logf("killer: %v", err)
			}
			for _, pid := range pids {
				if !killedPIDs[pid] {
					killedPIDs[pid] = true
					killed.Add(1)
				}
			}
			if i%15 == 14 && i < 50 {
				_, _ = admin.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
					WHERE datname = $1 AND state = 'active' AND query NOT LIKE '%generate_series%'`, db)
			}
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
			switch i % 25 {
			case 5:
				q = timeoutQ
				<-massDone
			case 17:
				q = killedQ
			}
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
	timeouts, kills := 0, 0
	for _, o := range outs {
		switch {
		case o.q == timeoutQ && o.res != nil && o.res.SQL != "": // the model answered; then it must time out
			if !errors.Is(o.err, nl2sql.ErrExecution) || !errors.Is(o.err, execute.ErrTimeout) {
				t.Errorf("timeout question: %v, want an execution error of class timeout", o.err)
			}
			timeouts++
			continue
		case o.q == killedQ && o.res != nil && o.res.SQL != "":
			// The backend was terminated under the query: the database, not
			// the query, failed.
			if !errors.Is(o.err, nl2sql.ErrConnection) || !errors.Is(o.err, execute.ErrConnection) {
				t.Errorf("terminated question: %v, want a connection error (execute class connection)", o.err)
			}
			kills++
			continue
		}
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
	if len(overheads) > 0 {
		t.Logf("%d ok, failures %v, %d statement timeouts, %d terminated mid-query (%d backends killed); overhead (everything but the model) p50 %v, p99 %v",
			ok, failed, timeouts, kills, killed.Load(), percentile(overheads, 50), percentile(overheads, 99))
	}
	if timeouts == 0 || kills == 0 || killed.Load() == 0 {
		t.Errorf("faults not exercised: %d timeouts, %d terminated Asks, %d backends killed", timeouts, kills, killed.Load())
	}
	// 3 of every 20 model calls fail by design; each backend kill may fail
	// the requests in flight on the killed connections (up to the pool size).
	// Under the race detector, with other packages' tests on the same two
	// cores, the model's time budget runs out more often (llm_error): half
	// as many answers are required there.
	minOK := n / 2
	if raceDetector {
		minOK = n / 4
	}
	if ok < minOK {
		t.Errorf("only %d of %d answered (want %d)", ok, n, minOK)
	}
	if failed[nl2sql.ClassLLM] == 0 {
		t.Errorf("injected model faults were not reported as llm_error: %v", failed)
	}

	// A query that hits the statement timeout is a typed execution error.
	// (10^8 rows: within the plan budget, which refuses 10^10.)
	slow := "SELECT count(*) FROM generate_series(1, 10000) a, generate_series(1, 10000) b"
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

// TestLoad runs 200 concurrent Ask calls over the demo ERP (easy and medium
// exam questions, the Engine's default K per difficulty) against a loopback
// model that answers each sample with the gold SQL after a random delay of
// 20-200 ms. With no fault injected, every Ask must succeed with the gold
// rows (under the race detector, three quarters may run out of time
// waiting for the CPU), and no goroutine may leak. It reports the overhead besides the
// model (p50, p99), the wall time and the pool's acquire waits.
func TestLoad(t *testing.T) {
	defer goleak.VerifyNone(t, loadLeakOptions...)
	qs := append(examQuestions(t, "easy"), examQuestions(t, "medium")...)
	srv := llmfake.New(t, func(n int, r *llmfake.Request) llmfake.Reply {
		delay := time.Duration(20+rand.IntN(180)) * time.Millisecond
		for _, q := range qs {
			if strings.Contains(r.Last(), "【Question】\n"+q.Question+"\n") {
				return llmfake.Reply{Content: "```sql\n" + q.GoldSQL + "\n```", Delay: delay}
			}
		}
		return llmfake.Reply{Content: "no idea", Delay: delay}
	})
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	pool := loadPool(t)
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithModules(erp.Modules()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want := goldRowCounts(t, eng, qs)
	before := pool.Stat()

	const n = 200
	type outcome struct {
		q        erp.Question
		res      *nl2sql.Result
		err      error
		overhead time.Duration
	}
	outs := make([]outcome, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			q := qs[i%len(qs)]
			t0 := time.Now()
			res, err := eng.Ask(ctx, q.Question, nl2sql.Evidence(q.Evidence))
			o := outcome{q: q, res: res, err: err}
			if res != nil {
				o.overhead = time.Since(t0) - res.Timings["generate"]
			}
			outs[i] = o
		}(i)
	}
	wg.Wait()
	wall := time.Since(start)

	var overheads []time.Duration
	timedOut := 0
	for _, o := range outs {
		// Under the race detector on two shared cores, a candidate's
		// EXPLAIN (2 s) or the question (60 s) can run out of time waiting
		// for the CPU and a connection: such an Ask fails with the
		// deadline, which is the budget working, not a fault of the
		// concurrency this checks. Up to three quarters may (as in
		// TestLoadWithFaults, a quarter must answer); any other failure,
		// or wrong rows, may not.
		if raceDetector && errors.Is(o.err, context.DeadlineExceeded) && timedOut < n*3/4 {
			timedOut++
			t.Logf("%s (tolerated under the race detector): %v", o.q.QID, o.err)
			continue
		}
		if o.err != nil {
			t.Errorf("%s: %v", o.q.QID, o.err)
			continue
		}
		if len(o.res.Rows) != want[o.q.Question] {
			t.Errorf("%s: %d rows, gold has %d", o.q.QID, len(o.res.Rows), want[o.q.Question])
		}
		overheads = append(overheads, o.overhead)
	}
	if len(overheads) == 0 {
		t.Fatal("no Ask succeeded")
	}
	after := pool.Stat()
	acquires := after.AcquireCount() - before.AcquireCount()
	waited := after.EmptyAcquireCount() - before.EmptyAcquireCount()
	var meanWait time.Duration
	if acquires > 0 {
		meanWait = (after.AcquireDuration() - before.AcquireDuration()) / time.Duration(acquires)
	}
	t.Logf("%d/%d answered in %v (%.0f Ask/s); overhead (everything but the model) p50 %v, p95 %v, p99 %v; "+
		"pool of %d: %d acquires, %d waited, mean wait %v",
		len(overheads), n, wall.Round(time.Millisecond), float64(n)/wall.Seconds(),
		percentile(overheads, 50), percentile(overheads, 95), percentile(overheads, 99),
		after.MaxConns(), acquires, waited, meanWait)
}

// loadLeakOptions ignore the goroutines that outlive a test by design: the
// pool's health check, idle keep-alive connections of the HTTP client, and
// the CPU profiler's reader (go test -cpuprofile).
var loadLeakOptions = []goleak.Option{
	goleak.IgnoreTopFunction("runtime/pprof.readProfile"),
	goleak.IgnoreTopFunction("github.com/jackc/pgx/v5/pgxpool.(*Pool).backgroundHealthCheck"),
	goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"), goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
	goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
}

// examQuestions returns the demo ERP exam questions of one difficulty.
func examQuestions(t *testing.T, difficulty string) []erp.Question {
	t.Helper()
	exam, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	var qs []erp.Question
	for _, q := range exam {
		if q.Difficulty == difficulty {
			qs = append(qs, q)
		}
	}
	return qs
}

// loadPool opens a pool of 16 connections on a copy of the demo ERP: on 2
// cores, more connections only queue inside the server.
func loadPool(t *testing.T) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(erptest.Single(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 16
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// goldRowCounts prepares eng and runs each question's gold SQL through it,
// returning the row count per question.
func goldRowCounts(t *testing.T, eng *nl2sql.Engine, qs []erp.Question) map[string]int {
	t.Helper()
	ctx := context.Background()
	if err := eng.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, q := range qs {
		r, err := eng.Run(ctx, q.GoldSQL)
		if err != nil {
			t.Fatalf("%s gold: %v", q.QID, err)
		}
		want[q.Question] = len(r.Rows)
	}
	return want
}

// percentile returns the p-th percentile of ds (sorted in place).
func percentile(ds []time.Duration, p int) time.Duration {
	slices.Sort(ds)
	return ds[(len(ds)-1)*p/100]
}
