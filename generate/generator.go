package generate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/nl2sqlgo/nl2sql/llm"
)

// Option configures a Generator.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	k           map[Difficulty]int
	temps       []float64
	maxTokens   int
	budget      time.Duration
	concurrency int
	logger      *slog.Logger
}

// WithK sets how many candidates to sample per difficulty (default 1, 3, 5).
func WithK(easy, medium, hard int) Option {
	return optionFunc(func(c *config) { c.k = map[Difficulty]int{Easy: easy, Medium: medium, Hard: hard} })
}

// WithTemperatures sets the temperature of each sample in order; samples
// beyond the list reuse its last value (default 0, 0.3, 0.5, 0.7, 0.9).
func WithTemperatures(t ...float64) Option { return optionFunc(func(c *config) { c.temps = t }) }

// WithMaxTokens caps each reply (default 1024).
func WithMaxTokens(n int) Option { return optionFunc(func(c *config) { c.maxTokens = n }) }

// WithBudget bounds the wall time of one Generate call: samples that have not
// answered by then are abandoned and the ones that did are used (default: no
// bound beyond the caller's context). Which ones did depends on the model's
// speed: without a budget, the same replies always give the same Output.
func WithBudget(d time.Duration) Option { return optionFunc(func(c *config) { c.budget = d }) }

// WithConcurrency bounds parallel model calls per Generate (default 8).
func WithConcurrency(n int) Option { return optionFunc(func(c *config) { c.concurrency = n }) }

// WithLogger sets the logger (silent by default).
func WithLogger(l *slog.Logger) Option {
	return optionFunc(func(c *config) {
		if l != nil {
			c.logger = l
		}
	})
}

// Generator samples candidate queries from a model.
type Generator struct {
	model llm.Model
	cfg   config
}

// New returns a Generator over model.
func New(model llm.Model, opts ...Option) *Generator {
	cfg := config{
		k:     map[Difficulty]int{Easy: 1, Medium: 3, Hard: 5},
		temps: []float64{0, 0.3, 0.5, 0.7, 0.9}, maxTokens: 1024, concurrency: 8,
		logger: slog.New(slog.DiscardHandler),
	}
	for _, o := range opts {
		o.apply(&cfg)
	}
	return &Generator{model: model, cfg: cfg}
}

// K returns the number of samples for a difficulty.
func (g *Generator) K(d Difficulty) int {
	if k := g.cfg.k[d]; k > 0 {
		return k
	}
	return 1
}

// Candidate is one distinct query the model proposed.
type Candidate struct {
	SQL         string // as extracted from the first reply that proposed it
	Canonical   string // deparsed form; the dedup key
	Fingerprint string // pg_query fingerprint: equal for queries differing only in constants
	// Votes counts the samples that produced this query; agreement between
	// samples is evidence for it.
	Votes        int
	Temperatures []float64
	Latency      time.Duration // of the first sample that produced it
	Usage        llm.Usage     // summed over its samples
}

// Sample is the outcome of one model call.
type Sample struct {
	Temperature float64
	Reply       string
	Err         error // model error or ErrNoSQL
	Latency     time.Duration
}

// Output is what Generate produced.
type Output struct {
	Candidates []Candidate // distinct queries, most votes first, then first produced
	Samples    []Sample    // every call, in sample order
}

// ErrNoCandidates is returned when no sample produced a query; it wraps the
// first sample's error.
var ErrNoCandidates = errors.New("generate: no candidate query")

// Generate asks the model k times in parallel (temperatures spread per
// WithTemperatures), extracts a query from each reply and merges duplicates
// (same canonical text). It fails only when no sample produced a query.
func (g *Generator) Generate(ctx context.Context, p Prompt, k int) (*Output, error) {
	if k <= 0 {
		k = 1
	}
	if g.cfg.budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, g.cfg.budget)
		defer cancel()
	}
	msgs := []llm.Message{llm.System(p.System), llm.User(p.User)}
	samples := make([]Sample, k)
	sqls := make([]string, k)
	usage := make([]llm.Usage, k)
	var eg errgroup.Group
	eg.SetLimit(max(1, g.cfg.concurrency))
	for i := 0; i < k; i++ {
		t := g.cfg.temps[min(i, len(g.cfg.temps)-1)]
		eg.Go(func() error {
			start := time.Now()
			resp, err := g.model.Complete(ctx, &llm.Request{Messages: msgs, Temperature: llm.Temperature(t), MaxTokens: g.cfg.maxTokens})
			s := Sample{Temperature: t, Latency: time.Since(start), Err: err}
			if err == nil {
				s.Reply = resp.Content
				usage[i] = resp.Usage
				sqls[i], s.Err = ExtractSQL(resp.Content)
			}
			samples[i] = s
			return nil // one failed sample must not cancel the others
		})
	}
	_ = eg.Wait()
	out := &Output{Samples: samples}
	byKey := map[string]int{}
	for i, s := range samples {
		if s.Err != nil {
			g.cfg.logger.LogAttrs(ctx, slog.LevelDebug, "sample failed", slog.Int("sample", i), slog.String("error", s.Err.Error()))
			continue
		}
		canon, err := Canonical(sqls[i])
		if err != nil { // another dialect: dedup on the text as written
			canon = strings.Join(strings.Fields(sqls[i]), " ")
		}
		if j, ok := byKey[canon]; ok {
			c := &out.Candidates[j]
			c.Votes++
			c.Temperatures = append(c.Temperatures, s.Temperature)
			c.Usage.PromptTokens += usage[i].PromptTokens
			c.Usage.CompletionTokens += usage[i].CompletionTokens
			continue
		}
		fp, _ := Fingerprint(sqls[i])
		byKey[canon] = len(out.Candidates)
		out.Candidates = append(out.Candidates, Candidate{
			SQL: sqls[i], Canonical: canon, Fingerprint: fp, Votes: 1,
			Temperatures: []float64{s.Temperature}, Latency: s.Latency, Usage: usage[i],
		})
	}
	sort.SliceStable(out.Candidates, func(a, b int) bool { return out.Candidates[a].Votes > out.Candidates[b].Votes })
	if len(out.Candidates) == 0 {
		var first error
		for _, s := range samples {
			if s.Err != nil {
				first = s.Err
				break
			}
		}
		return out, fmt.Errorf("%w: %w", ErrNoCandidates, first)
	}
	return out, nil
}

// Repair asks the model, at temperature 0, to fix a failed query: the base
// prompt, the failed query as the model's own previous answer, then the
// delta describing the failure.
func (g *Generator) Repair(ctx context.Context, base Prompt, d RepairDelta) (string, error) {
	msgs := []llm.Message{llm.System(base.System), llm.User(base.User), llm.Assistant("```sql\n" + d.SQL + "\n```"), llm.User(d.Text())}
	resp, err := g.model.Complete(ctx, &llm.Request{Messages: msgs, Temperature: llm.Temperature(0), MaxTokens: g.cfg.maxTokens})
	if err != nil {
		return "", err
	}
	return ExtractSQL(resp.Content)
}
