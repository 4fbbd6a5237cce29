package retrieve_test

import (
	"context"
	"errors"
	"slices"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/schema"
)

var benchSizes = []struct {
	name  string
	opts  erp.Options
	scope string
}{
	{"tables=91", erp.Options{NoData: true}, ""},
	{"tables=2502", erp.Options{Divisions: 30, NoData: true}, "div_07"},
	{"tables=10387", erp.Options{Divisions: 125, NoData: true}, "div_077"},
}

func benchCatalog(b testing.TB, opts erp.Options) *schema.Catalog {
	b.Helper()
	cat, err := schema.Introspect(context.Background(), pgtest.Pool(b, erptest.Load(b, opts)))
	if err != nil {
		b.Fatal(err)
	}
	return cat
}

// BenchmarkIndexBuild builds the in-memory index (documents, hashed
// embeddings, BM25 postings, FK communities, join graph) of the demo ERP at
// three catalog sizes.
func BenchmarkIndexBuild(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(size.name, func(b *testing.B) {
			erptest.SkipLargeShort(b, size.opts)
			cat := benchCatalog(b, size.opts)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := retrieve.New(context.Background(), cat, retrieve.WithModules(erp.Modules())); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkContext measures what a question costs before the LLM: table
// retrieval, linking over the retrieved tables and join planning of the best
// ones, over the exam questions, reporting p50 and p95 per question.
func BenchmarkContext(b *testing.B) {
	exam, err := erp.Exam()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, size := range benchSizes {
		b.Run(size.name, func(b *testing.B) {
			erptest.SkipLargeShort(b, size.opts)
			cat := benchCatalog(b, size.opts)
			graph := plan.NewGraph(cat, plan.WithInferredEdges(true))
			r, err := retrieve.New(ctx, cat, retrieve.WithModules(erp.Modules()), retrieve.WithGraph(graph))
			if err != nil {
				b.Fatal(err)
			}
			linker := link.New(cat)
			var qopts []retrieve.QueryOption
			if size.scope != "" {
				qopts = append(qopts, retrieve.Scope(size.scope))
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				q := exam[i%len(exam)]
				start := time.Now()
				res, err := r.Tables(ctx, q.Question, append(qopts, retrieve.Evidence(q.Evidence))...)
				if err != nil {
					b.Fatal(err)
				}
				names := res.Names()
				linker.Link(ctx, q.Question, q.Evidence, names)
				popts := []plan.SearchOption{plan.MaxHops(3)}
				if size.scope != "" { // as the Engine plans a scoped request
					popts = append(popts, plan.Within(size.scope, "public"))
				}
				if _, err := graph.Connect(names[:min(4, len(names))], popts...); err != nil && !isNoPath(err) {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds()), "p95-µs")
		})
	}
}

func isNoPath(err error) bool { return errors.Is(err, plan.ErrNoPath) }

// BenchmarkPGVector indexes the demo ERP into a PGVectorStore on the test
// cluster (a regular PostgreSQL with pgvector: HNSW, m=16,
// ef_construction=64) and measures what a question's table retrieval costs
// against it, serially (p50/p95) and with 16 concurrent callers (ns/op is
// then the time per question at that concurrency). index-s is the time to
// embed (hashed), upsert and index every document once. Skipped when the
// cluster has no pgvector (scripts/pg install-pgvector). agree-top12 is the
// share of the exact memory store's top 12 tables per exam question that the
// pgvector retriever also returns.
func BenchmarkPGVector(b *testing.B) {
	exam, err := erp.Exam()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, size := range benchSizes[1:] {
		b.Run(size.name, func(b *testing.B) {
			erptest.SkipLargeShort(b, size.opts)
			dsn, ok := pgtest.ClusterPGVector(b)
			if !ok {
				b.Skip("pgvector is not installed on the test cluster")
			}
			cat := benchCatalog(b, size.opts)
			pool := pgtest.Pool(b, dsn)
			store, err := retrieve.NewPGVectorStore(ctx, pool, retrieve.NewHashEmbedder(0).Dimension())
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			r, err := retrieve.New(ctx, cat, retrieve.WithModules(erp.Modules()), retrieve.WithStore(store))
			if err != nil {
				b.Fatal(err)
			}
			indexed := time.Since(start)
			// Agreement with the exact memory store: the share of the
			// memory retriever's top 12 tables the pgvector one also returns.
			mem, err := retrieve.New(ctx, cat, retrieve.WithModules(erp.Modules()))
			if err != nil {
				b.Fatal(err)
			}
			shared, total := 0, 0
			for _, q := range exam {
				qo := []retrieve.QueryOption{retrieve.Scope(size.scope), retrieve.Evidence(q.Evidence), retrieve.MaxTables(12)}
				a, err := mem.Tables(ctx, q.Question, qo...)
				if err != nil {
					b.Fatal(err)
				}
				p, err := r.Tables(ctx, q.Question, qo...)
				if err != nil {
					b.Fatal(err)
				}
				for _, n := range a.Names() {
					total++
					if slices.Contains(p.Names(), n) {
						shared++
					}
				}
			}
			agree := float64(shared) / float64(max(total, 1))
			ask := func(i int) {
				q := exam[i%len(exam)]
				if _, err := r.Tables(ctx, q.Question, retrieve.Scope(size.scope), retrieve.Evidence(q.Evidence)); err != nil {
					b.Error(err)
				}
			}
			b.Run("serial", func(b *testing.B) {
				lat := make([]time.Duration, 0, b.N)
				for i := 0; b.Loop(); i++ {
					t := time.Now()
					ask(i)
					lat = append(lat, time.Since(t))
				}
				sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
				b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
				b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds()), "p95-µs")
				b.ReportMetric(indexed.Seconds(), "index-s")
				b.ReportMetric(agree, "agree-top12")
			})
			b.Run("parallel16", func(b *testing.B) {
				b.SetParallelism(8) // 8 x GOMAXPROCS(2) = 16 callers
				var n atomic.Int64
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						ask(int(n.Add(1)))
					}
				})
			})
		})
	}
}
