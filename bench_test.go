package nl2sql_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// BenchmarkAsk measures a whole Ask with an instant loopback model that
// answers each exam question with its gold SQL: everything but the model
// (retrieval, linking, planning, prompt, HTTP round trip, validation,
// EXPLAIN, scoring, execution), over the easy and medium exam questions.
func BenchmarkAsk(b *testing.B) {
	exam, err := erp.Exam()
	if err != nil {
		b.Fatal(err)
	}
	var qs []erp.Question
	for _, q := range exam {
		if q.Difficulty != "hard" {
			qs = append(qs, q)
		}
	}
	for _, size := range []struct {
		name  string
		opts  erp.Options
		scope string
	}{
		{"tables=91", erp.Options{}, ""},
		{"tables=2502", erp.Options{Divisions: 30}, "div_07"},
		{"tables=10387", erp.Options{Divisions: 125}, "div_077"},
	} {
		b.Run(size.name, func(b *testing.B) {
			erptest.SkipLargeShort(b, size.opts)
			srv := llmfake.New(b, func(n int, r *llmfake.Request) llmfake.Reply {
				for _, q := range qs {
					if strings.Contains(r.Last(), "【Question】\n"+q.Question+"\n") {
						return llmfake.Reply{Content: "```sql\n" + q.GoldSQL + "\n```"}
					}
				}
				return llmfake.Reply{Content: "no"}
			})
			model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"))
			pool := pgtest.Pool(b, erptest.Load(b, size.opts))
			opts := []nl2sql.Option{nl2sql.WithLLM(model), nl2sql.WithK(1, 1, 1), nl2sql.WithModules(erp.Modules())}
			if size.scope != "" {
				opts = append(opts, nl2sql.WithScope(size.scope))
			}
			eng, err := nl2sql.New(pool, opts...)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			if err := eng.Prepare(ctx); err != nil {
				b.Fatal(err)
			}
			measureCalls(b, func(i int) {
				q := qs[i%len(qs)]
				if _, err := eng.Ask(ctx, q.Question, nl2sql.Evidence(q.Evidence)); err != nil {
					b.Fatalf("%s: %v", q.QID, err)
				}
			})
		})
	}
}

// BenchmarkPrepareMemory prepares an Engine (catalog, value index off,
// schema index, link and plan structures) on the schema-only demo ERP at
// three sizes and reports the live heap afterwards (heap-MiB), the
// process's resident set once freed memory is returned (rss-MiB, Linux),
// its peak so far (peak-rss-MiB: this and the smaller sizes' Prepare) and
// the size of the saved index (index-MiB: catalog and schema index, what
// SaveIndex writes).
func BenchmarkPrepareMemory(b *testing.B) {
	for _, size := range []struct {
		name string
		opts erp.Options
	}{
		{"tables=91", erp.Options{NoData: true}},
		{"tables=2502", erp.Options{Divisions: 30, NoData: true}},
		{"tables=10387", erp.Options{Divisions: 125, NoData: true}},
	} {
		b.Run(size.name, func(b *testing.B) {
			erptest.SkipLargeShort(b, size.opts)
			pool := pgtest.Pool(b, erptest.Load(b, size.opts))
			b.ResetTimer() // ns/op: Prepare alone
			for i := 0; i < b.N; i++ {
				eng, err := nl2sql.New(pool, nl2sql.WithValueIndex(false), nl2sql.WithModules(erp.Modules()))
				if err != nil {
					b.Fatal(err)
				}
				if err := eng.Prepare(context.Background()); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				// Return freed pages to the OS first, so that rss-MiB is what
				// the engine keeps, not what Prepare's garbage left mapped.
				debug.FreeOSMemory()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
				if rss, ok := procStatusMiB("VmRSS:"); ok {
					b.ReportMetric(rss, "rss-MiB")
				}
				if peak, ok := procStatusMiB("VmHWM:"); ok {
					b.ReportMetric(peak, "peak-rss-MiB")
				}
				var saved countingWriter
				if err := eng.SaveIndex(context.Background(), &saved); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(saved)/(1<<20), "index-MiB")
				runtime.KeepAlive(eng)
				b.StartTimer()
			}
		})
	}
}

type countingWriter int64

func (w *countingWriter) Write(p []byte) (int, error) {
	*w += countingWriter(len(p))
	return len(p), nil
}

// procStatusMiB reads a size field of /proc/self/status ("VmRSS:", the
// resident set; "VmHWM:", its peak over the process's life).
func procStatusMiB(field string) (float64, bool) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == field && f[2] == "kB" {
			kb, err := strconv.ParseFloat(f[1], 64)
			return kb / 1024, err == nil
		}
	}
	return 0, false
}

// BenchmarkPick measures Engine.Pick over five candidates per exam question
// of the demo ERP (91 tables): normalization, validation, EXPLAIN, repair,
// tie-breaking, the runs that compare results and the scoring.
func BenchmarkPick(b *testing.B) {
	exam, err := erp.Exam()
	if err != nil {
		b.Fatal(err)
	}
	eng, ctx := benchERP(b), context.Background()
	measureCalls(b, func(i int) {
		q := exam[i%len(exam)]
		_, err := eng.Pick(ctx, q.Question, []string{
			q.GoldSQL,
			"SELECT `status`, count(*) FROM employees GROUP BY 1 ORDER BY 2 DESC LIMIT 0,5", // MySQL dialect, ties broken
			"SELECT emp_nam FROM employees", // misspelt column: repaired
			"SELECT d.dept_name, count(e.emp_id) FROM departments d JOIN employees e ON e.dept_id = d.dept_id GROUP BY d.dept_name",
			q.GoldSQL,
		}, nl2sql.Evidence(q.Evidence))
		if err != nil {
			b.Fatalf("%s: %v", q.QID, err)
		}
	})
}

// measureCalls times b.N calls of call and reports the median and 95th
// percentile latency (the mean, ns/op, hides the tail).
// BenchmarkLongQuestion is the schema context (retrieval, linking with the
// value index, join planning) of questions of 100 to 4,000 characters (the
// default limit) on the demo ERP: linking tries every phrase of the
// question against the stored values of the candidate tables.
func BenchmarkLongQuestion(b *testing.B) {
	eng, ctx := benchERP(b), context.Background()
	words := strings.Fields("how many employees are active in the sales department of Closed Won deals invoices shipped late " +
		"by carrier region warehouse stock quantity supplier payment terms overdue amount budget project milestone contract " +
		"renewal customer churn ticket priority escalation asset depreciation ledger account journal entry")
	for _, n := range []int{100, 1000, nl2sql.DefaultMaxQuestionChars} {
		var sb strings.Builder
		for i := 0; sb.Len() < n; i++ {
			fmt.Fprintf(&sb, "%s%d ", words[(i*7919)%len(words)], i%13)
		}
		q := sb.String()[:n]
		b.Run(fmt.Sprintf("chars=%d", n), func(b *testing.B) {
			measureCalls(b, func(int) {
				if _, err := eng.SchemaContext(ctx, q); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkQuestionContext is what a question costs before the model: the
// reading of the question and the schema context built from it
// (retrieval, linking with the value index, join planning, examples,
// docs, difficulty, prompt), over the demo ERP exam's questions with their
// evidence, one question per iteration.
func BenchmarkQuestionContext(b *testing.B) {
	exam, err := erp.Exam()
	if err != nil {
		b.Fatal(err)
	}
	eng, ctx := benchERP(b), context.Background()
	b.ReportAllocs()
	measureCalls(b, func(i int) {
		q := exam[i%len(exam)]
		if _, err := eng.SchemaContext(ctx, q.Question, nl2sql.Evidence(q.Evidence)); err != nil {
			b.Fatalf("%s: %v", q.QID, err)
		}
	})
}

// benchERP is a prepared Engine over a fresh copy of the demo ERP, without
// a model.
func benchERP(b *testing.B) *nl2sql.Engine {
	eng, err := nl2sql.New(pgtest.Pool(b, erptest.Single(b)), nl2sql.WithModules(erp.Modules()))
	if err != nil {
		b.Fatal(err)
	}
	if err := eng.Prepare(context.Background()); err != nil {
		b.Fatal(err)
	}
	return eng
}

func measureCalls(b *testing.B, call func(i int)) {
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		call(i)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
}

// BenchmarkLearnIndexFile: a Learn (a doc) on an engine bound to its index
// file (LoadIndexFile: lock, re-read, merge, atomic rewrite, fsync) against
// one that only keeps it in memory, on the demo ERP (91 tables).
func BenchmarkLearnIndexFile(b *testing.B) {
	ctx := context.Background()
	mem, err := nl2sql.New(pgtest.Pool(b, erptest.Single(b)), nl2sql.WithValueIndex(false))
	if err != nil {
		b.Fatal(err)
	}
	path, open := indexFileEngines(b, b.TempDir(), "erp.idx")
	bound := open(path)
	for _, e := range []*nl2sql.Engine{mem, bound} {
		if err := e.Prepare(ctx); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		eng  *nl2sql.Engine
	}{{"memory", mem}, {"file", bound}} {
		name, eng := c.name, c.eng
		b.Run(name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if _, err := eng.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Text: fmt.Sprintf("Note %d of %s.", i, name)}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	if fi, err := os.Stat(path); err == nil {
		b.Logf("index file: %d bytes", fi.Size())
	}
}

// BenchmarkInputRefusal is the cost of refusing an over-long input (a 5 MB
// question, a 39 MB SQL): a length check before any stage, whatever the
// input's size (TestInputLimits checks that no stage runs).
func BenchmarkInputRefusal(b *testing.B) {
	eng, ctx := benchERP(b), context.Background()
	question := strings.Repeat("how many employees are active in the sales department ", 5<<20/55)
	sql := "SELECT 1 AS x -- " + strings.Repeat("y", 39<<20)
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"SchemaContext-5MB", func() error { _, err := eng.SchemaContext(ctx, question); return err }},
		{"Check-39MB", func() error { _, err := eng.Check(ctx, sql); return err }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := c.call(); !errors.Is(err, nl2sql.ErrTooLong) {
					b.Fatalf("err %v, want ErrTooLong", err)
				}
			}
		})
	}
}
