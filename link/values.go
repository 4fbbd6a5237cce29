package link

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// ValueSource says where the values of a column came from.
type ValueSource string

// Value sources.
const (
	SourceStats  ValueSource = "pg_stats" // most_common_vals of a fully covered column
	SourceSample ValueSource = "sample"   // bounded SELECT DISTINCT
	SourceEnum   ValueSource = "enum"     // enum labels from the catalog
)

// ValueColumn holds the distinct values of one low-cardinality column.
type ValueColumn struct {
	Table  string      `json:"table"` // qualified
	Column string      `json:"column"`
	Values []string    `json:"values"` // in byte order; enum labels in label order
	Source ValueSource `json:"source"`
}

// BuildStats counts what BuildValueIndex did.
type BuildStats struct {
	Candidates             int `json:"candidates"` // text-like columns considered
	FromStats              int `json:"from_stats"`
	FromSample             int `json:"from_sample"`
	FromEnum               int `json:"from_enum"`
	SkippedHighCardinality int `json:"skipped_high_cardinality"`
	SkippedErrors          int `json:"skipped_errors"` // failed queries (permissions, timeouts...)
	SkippedBudget          int `json:"skipped_budget"`
	// TimedOut counts the failed queries that hit WithQueryTimeout: which
	// ones do depends on the server's speed, so an index with TimedOut > 0
	// may differ from one built at another time.
	TimedOut int `json:"timed_out,omitempty"`
	// BudgetExhausted is set when WithBudget ran out: the index then holds
	// no sampled column at all (only enum labels and pg_stats values), so
	// that it does not depend on how far the build got.
	BudgetExhausted bool `json:"budget_exhausted,omitempty"`
}

// ValueIndex is a small, serialisable index of the distinct values of
// low-cardinality text columns. It holds only short distinct values, never
// rows. Save it with encoding/json; it must not be modified once in use.
type ValueIndex struct {
	Columns []ValueColumn `json:"columns"`
	Stats   BuildStats    `json:"stats"`

	once sync.Once
	lk   *valueLookup
}

// NewValueIndex builds an index from values gathered elsewhere.
func NewValueIndex(cols []ValueColumn) *ValueIndex {
	return &ValueIndex{Columns: cols}
}

// ValueMatch is a stored value similar to a phrase.
type ValueMatch struct {
	Table  string  `json:"table"`
	Column string  `json:"column"`
	Value  string  `json:"value"`
	Score  float64 `json:"score"` // 1 for a case-insensitive exact match
}

// Examples returns up to maxPerColumn values per column keyed
// "schema.table.column", the form schema.WithExamples takes.
func (v *ValueIndex) Examples(maxPerColumn int) map[string][]string {
	if v == nil {
		return map[string][]string{}
	}
	out := make(map[string][]string, len(v.Columns))
	for _, c := range v.Columns {
		n := min(maxPerColumn, len(c.Values))
		if n > 0 {
			out[c.Table+"."+c.Column] = append([]string(nil), c.Values[:n]...)
		}
	}
	return out
}

type valueEntry struct {
	col   int32
	value string
	norm  string
	words []string
	grams []string
}

type valueLookup struct {
	entries []valueEntry
	postings
	colLo   []int32            // column index -> its first entry; entries are in column order
	byTable map[string][]int32 // qualified table -> its column indices
}

func (v *ValueIndex) lookup() *valueLookup {
	v.once.Do(func() {
		lk := &valueLookup{postings: newPostings(), colLo: make([]int32, len(v.Columns)+1), byTable: map[string][]int32{}}
		for ci, c := range v.Columns {
			lk.colLo[ci] = int32(len(lk.entries))
			lk.byTable[c.Table] = append(lk.byTable[c.Table], int32(ci))
			for _, val := range c.Values {
				norm := normValue(val)
				if norm == "" {
					continue
				}
				id := int32(len(lk.entries))
				e := valueEntry{col: int32(ci), value: val, norm: norm, words: valueWords(val), grams: trigrams(norm)}
				lk.entries = append(lk.entries, e)
				lk.add(id, &e)
			}
		}
		lk.colLo[len(v.Columns)] = int32(len(lk.entries))
		v.lk = lk
	})
	return v.lk
}

// columnsOf returns the index's columns of the named tables, in index order.
func (v *ValueIndex) columnsOf(tables []string) []int32 {
	lk := v.lookup()
	var out []int32
	for _, t := range tables {
		out = append(out, lk.byTable[t]...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// valueWords are the stems of a value's words, with words containing an
// apostrophe also split ("O'Reilly" gives "o'reilly" and "reilly").
func valueWords(v string) []string {
	ws := gloss.ContentStems(v)
	if strings.ContainsAny(v, "'’") {
		ws = append(ws, gloss.ContentStems(strings.NewReplacer("'", " ", "’", " ").Replace(v))...)
	}
	return compact(sortedCopy(ws))
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// normValue lower-cases and collapses white space.
func normValue(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// trigrams returns the distinct trigrams of s padded like pg_trgm, sorted.
func trigrams(s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		r := []rune("  " + w + " ")
		for i := 0; i+3 <= len(r); i++ {
			out = append(out, string(r[i:i+3]))
		}
	}
	sort.Strings(out)
	return compact(out)
}

func (v *ValueIndex) match(id int32, score float64) ValueMatch {
	e := &v.lk.entries[id]
	c := &v.Columns[e.col]
	return ValueMatch{Table: c.Table, Column: c.Column, Value: e.value, Score: score}
}

// exact returns the values equal to s ignoring case and spacing, in the
// columns marked in keep (all when keep is nil; indexed by column).
func (v *ValueIndex) exact(s string, keep []bool) []ValueMatch {
	lk := v.lookup()
	var out []ValueMatch
	for _, id := range lk.exact[normValue(s)] {
		if keep == nil || keep[lk.entries[id].col] {
			out = append(out, v.match(id, 1))
		}
	}
	return out
}

// Match returns stored values similar to phrase, best first (at most 20,
// score >= 0.5): 1 for a case-insensitive exact match, 0.6-0.9 when the
// phrase's words are among the value's words ("leave" for "On leave"), and
// up to 0.9 for similar spellings (trigram or edit-distance similarity).
func (v *ValueIndex) Match(phrase string) []ValueMatch { return v.matchIn(phrase, nil) }

// matchIn is Match over the given columns (all when cols is nil). With
// columns it scores their entries directly instead of walking the postings
// of the whole index, and it keeps the best 20 among those columns: a value
// repeated in every tenant's copy of a table would otherwise crowd out the
// tenant asked about.
func (v *ValueIndex) matchIn(phrase string, cols []int32) []ValueMatch {
	return v.matchWith(phrase, cols, nil)
}

// matchIndexed is matchIn over the columns ix was built for, walking ix's
// postings: what a question's many phrases use, so that each costs the
// entries sharing a trigram or word with it rather than every entry of
// the columns.
func (v *ValueIndex) matchIndexed(phrase string, ix *postings) []ValueMatch {
	return v.matchWith(phrase, nil, ix)
}

// postings map a normalised value, a word or a trigram to the entries that
// hold it.
type postings struct {
	exact, words, grams map[string][]int32
}

func newPostings() postings {
	return postings{exact: map[string][]int32{}, words: map[string][]int32{}, grams: map[string][]int32{}}
}

// add posts entry id, e.
func (p postings) add(id int32, e *valueEntry) {
	p.exact[e.norm] = append(p.exact[e.norm], id)
	addPostings(p.words, id, e.words)
	addPostings(p.grams, id, e.grams)
}

// indexColumns builds the postings of the entries of cols only: a value
// repeated in every tenant's copy of a table makes the whole index's
// postings long, and only the question's tables are wanted.
func (v *ValueIndex) indexColumns(cols []int32) *postings {
	lk := v.lookup()
	ix := newPostings()
	for _, ci := range cols {
		for id := lk.colLo[ci]; id < lk.colLo[ci+1]; id++ {
			ix.add(id, &lk.entries[id])
		}
	}
	return &ix
}

// matchWith is matchIn (scanning the entries of cols, or walking the whole
// index's postings when cols is nil) or, with ix, matchIndexed.
func (v *ValueIndex) matchWith(phrase string, cols []int32, ix *postings) []ValueMatch {
	if v == nil {
		return nil
	}
	lk := v.lookup()
	norm := normValue(phrase)
	if norm == "" {
		return nil
	}
	pw := compact(sortedCopy(gloss.ContentStems(phrase)))
	grams := trigrams(norm)
	scores := map[int32]float64{}
	// score rates entry id given the number of trigrams it shares with the
	// phrase (> 0) and whether it contains every word of the phrase.
	score := func(id int32, sharedGrams int, hasWords bool) {
		e := &lk.entries[id]
		best := 0.0
		if e.norm == norm {
			best = 1
		}
		if hasWords {
			best = max(best, 0.6+0.3*float64(len(pw))/float64(max(len(e.words), len(pw))))
		}
		if sharedGrams > 0 {
			jac := float64(sharedGrams) / float64(len(grams)+len(e.grams)-sharedGrams)
			sim := jac
			if jac >= 0.3 && abs(runeLen(norm)-runeLen(e.norm)) <= 3 {
				sim = max(sim, similarity(norm, e.norm))
			}
			if sim >= 0.6 {
				best = max(best, 0.9*sim)
			}
		}
		if best > scores[id] {
			scores[id] = best
		}
	}
	if cols != nil && ix == nil {
		// Trigram similarity counts only from a Jaccard of 0.3 (below, sim
		// is the Jaccard, under 0.6), which two gram sets whose sizes
		// differ more than 0.3 to 1 cannot reach: such entries are not
		// compared (a long question has hundreds of phrases).
		lo, hi := 0.3*float64(len(grams)), float64(len(grams))/0.3
		for _, ci := range cols {
			for id := lk.colLo[ci]; id < lk.colLo[ci+1]; id++ {
				e := &lk.entries[id]
				shared := 0
				if n := float64(len(e.grams)); n >= lo && n <= hi {
					shared = countCommon(grams, e.grams)
				}
				score(id, shared, len(pw) > 0 && len(pw) <= len(e.words) && containsAll(e.words, pw))
			}
		}
	} else {
		post := lk.postings
		if ix != nil {
			post = *ix
		}
		for _, id := range post.exact[norm] {
			score(id, 0, false)
		}
		if len(pw) > 0 {
			for _, id := range intersect(post.words, pw) {
				score(id, 0, true)
			}
		}
		shared := map[int32]int{}
		for _, g := range grams {
			for _, id := range post.grams[g] {
				shared[id]++
			}
		}
		for id, n := range shared {
			score(id, n, false)
		}
	}
	out := make([]ValueMatch, 0, len(scores))
	for id, s := range scores {
		if s >= 0.5 {
			out = append(out, v.match(id, s))
		}
	}
	return rankValues(out, func(m ValueMatch) ValueMatch { return m })
}

// countCommon counts the strings two sorted, duplicate-free lists share.
func countCommon(a, b []string) int {
	n := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			n++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return n
}

// containsAll reports whether the sorted list have holds every string of
// the sorted list want.
func containsAll(have, want []string) bool {
	return countCommon(have, want) == len(want)
}

// rankValues sorts value matches (or hints) by decreasing score, then
// table, column and value, and keeps the best 20.
func rankValues[T any](out []T, key func(T) ValueMatch) []T {
	sort.Slice(out, func(i, j int) bool {
		a, b := key(out[i]), key(out[j])
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.Table != b.Table {
			return a.Table < b.Table
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Value < b.Value
	})
	if len(out) > 20 {
		out = out[:20]
	}
	return out
}

// intersect returns the ids present in the postings of every word.
func intersect(m map[string][]int32, words []string) []int32 {
	var cur []int32
	for i, w := range words {
		p := m[w]
		if len(p) == 0 {
			return nil
		}
		if i == 0 {
			cur = append([]int32(nil), p...)
			continue
		}
		in := make(map[int32]bool, len(p))
		for _, id := range p {
			in[id] = true
		}
		next := cur[:0]
		for _, id := range cur {
			if in[id] {
				next = append(next, id)
			}
		}
		cur = next
	}
	return cur
}

// mergeValues returns idx plus the enum columns it lacks.
func mergeValues(idx *ValueIndex, enums []ValueColumn) *ValueIndex {
	if idx == nil {
		if len(enums) == 0 {
			return nil
		}
		return NewValueIndex(enums)
	}
	have := map[string]bool{}
	for _, c := range idx.Columns {
		have[c.Table+"."+c.Column] = true
	}
	var extra []ValueColumn
	for _, c := range enums {
		if !have[c.Table+"."+c.Column] {
			extra = append(extra, c)
		}
	}
	if len(extra) == 0 {
		return idx
	}
	return NewValueIndex(append(append([]ValueColumn(nil), idx.Columns...), extra...))
}

// ValueOption configures BuildValueIndex.
type ValueOption interface{ applyValue(*valueConfig) }

type valueOptionFunc func(*valueConfig)

func (f valueOptionFunc) applyValue(c *valueConfig) { f(c) }

type valueConfig struct {
	maxValues    int
	maxValueLen  int
	maxColumns   int
	budget       time.Duration
	queryTimeout time.Duration
	concurrency  int
	sampleRows   int64
	tables       map[string]bool
	views        bool
	logger       *slog.Logger
}

// WithMaxValues sets the most distinct values kept per column (default 50);
// columns with more are skipped as high-cardinality.
func WithMaxValues(n int) ValueOption {
	return valueOptionFunc(func(c *valueConfig) { c.maxValues = n })
}

// WithMaxValueLen drops values longer than n characters (default 80).
func WithMaxValueLen(n int) ValueOption {
	return valueOptionFunc(func(c *valueConfig) { c.maxValueLen = n })
}

// WithMaxQueries caps the columns read with SELECT DISTINCT (default 2000);
// columns covered by pg_stats or enum labels cost no query.
func WithMaxQueries(n int) ValueOption {
	return valueOptionFunc(func(c *valueConfig) { c.maxColumns = n })
}

// WithBudget bounds the whole build (default 60s). It is a failure guard,
// not a work budget (that is WithMaxQueries and WithSampleAbove): when it
// runs out, the sampled columns are all left out, whatever part of them was
// read, and Stats.BudgetExhausted is set.
func WithBudget(d time.Duration) ValueOption {
	return valueOptionFunc(func(c *valueConfig) { c.budget = d })
}

// WithQueryTimeout bounds each sampling query (default 3s); a column whose
// query times out is skipped and counted in Stats.SkippedErrors and
// Stats.TimedOut.
func WithQueryTimeout(d time.Duration) ValueOption {
	return valueOptionFunc(func(c *valueConfig) { c.queryTimeout = d })
}

// WithConcurrency sets how many queries run at once when db is a
// *pgxpool.Pool (default 4); other Queriers are used one query at a time.
func WithConcurrency(n int) ValueOption {
	return valueOptionFunc(func(c *valueConfig) { c.concurrency = n })
}

// WithSampleAbove reads tables estimated above n rows through a repeatable
// block sample, TABLESAMPLE SYSTEM (p) REPEATABLE (0), with p the largest
// of 100/2, 100/4, ... percent (at least 0.01) expected to read at most n
// rows (default 100000). The same table gives the same sample on every run.
func WithSampleAbove(n int64) ValueOption {
	return valueOptionFunc(func(c *valueConfig) { c.sampleRows = n })
}

// WithValueTables restricts the index to these tables (qualified names).
func WithValueTables(names ...string) ValueOption {
	return valueOptionFunc(func(c *valueConfig) {
		if c.tables == nil {
			c.tables = map[string]bool{}
		}
		for _, n := range names {
			c.tables[n] = true
		}
	})
}

// WithViews includes plain views (default false: a view may hide an
// expensive query, and its values usually come from tables indexed anyway).
// Materialized views are always included.
func WithViews(on bool) ValueOption { return valueOptionFunc(func(c *valueConfig) { c.views = on }) }

// ErrNilCatalog is returned by BuildValueIndex without a catalog.
var ErrNilCatalog = errors.New("link: nil catalog")

type statRow struct {
	nullFrac  float64
	nDistinct float64
	mcv       []string
	// sampleRows is the fewest rows ANALYZE samples from the table (300 x
	// the largest statistics target of its columns): a table with no more
	// rows was read whole, and its statistics are exact.
	sampleRows int64
}

type valueJob struct {
	t   *schema.Table
	col *schema.Column
	out ValueColumn
	ok  bool
	err error
}

// BuildValueIndex reads the distinct values of the low-cardinality text
// columns (text, varchar, char, citext, enums) of the tables and
// materialized views of cat (plain views with WithViews; foreign tables
// never). Enum labels come from the catalog. pg_stats rules out columns
// with more distinct values than WithMaxValues (when its sample is large
// enough to prove it), and answers for columns of tables ANALYZE read whole
// (at most 300 x the statistics target rows, so the statistics are exact)
// whose most common values cover every distinct value; the rest get one
// bounded query each:
//
//	SELECT DISTINCT left(col::text, maxLen+1) FROM t
//	[TABLESAMPLE SYSTEM (p) REPEATABLE (0)] WHERE col IS NOT NULL
//	LIMIT maxValues+1
//
// under a per-query timeout, a column cap, an overall budget and bounded
// concurrency. Failing columns (permissions, timeouts) are skipped and
// counted; only the cancellation of ctx is an error.
//
// The index is deterministic: the same data and statistics give the same
// index on every run, at any speed and concurrency. Values are sorted in
// byte order on both paths (exact statistics and a query give the same
// list, so ANALYZE running between two builds changes nothing for tables
// it reads whole); samples are repeatable; the work is bounded by counts
// (WithMaxQueries, WithSampleAbove, WithMaxValues), and the wall-clock
// limits are failure guards whose firing is reported (Stats.TimedOut,
// Stats.BudgetExhausted).
func BuildValueIndex(ctx context.Context, db schema.Querier, cat *schema.Catalog, opts ...ValueOption) (*ValueIndex, error) {
	cfg := valueConfig{maxValues: 50, maxValueLen: 80, maxColumns: 2000, budget: 60 * time.Second,
		queryTimeout: 3 * time.Second, concurrency: 4, sampleRows: 100_000}
	for _, o := range opts {
		o.applyValue(&cfg)
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.DiscardHandler)
	}
	if cat == nil {
		return nil, ErrNilCatalog
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("link: value index: %w", err)
	}
	idx := &ValueIndex{}
	var jobs []*valueJob
	schemas := map[string]bool{}
	for _, t := range cat.Tables {
		if cfg.tables != nil && !cfg.tables[t.QualifiedName()] || t.Kind == schema.KindView && !cfg.views || t.Kind == schema.KindForeignTable {
			continue
		}
		for i := range t.Columns {
			c := &t.Columns[i]
			if len(c.EnumLabels) > 0 && !strings.HasSuffix(c.Type, "[]") {
				idx.Stats.Candidates++
				idx.Stats.FromEnum++
				idx.Columns = append(idx.Columns, ValueColumn{Table: t.QualifiedName(), Column: c.Name,
					Values: append([]string(nil), c.EnumLabels...), Source: SourceEnum})
				continue
			}
			if tc := classify(c.Type); tc != tcText && tc != tcShortChar {
				continue
			}
			idx.Stats.Candidates++
			jobs = append(jobs, &valueJob{t: t, col: c})
			schemas[t.Schema] = true
		}
	}

	budgetCtx, cancel := context.WithTimeout(ctx, cfg.budget)
	defer cancel()
	stats, err := readStats(budgetCtx, db, sortedKeys(schemas))
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("link: value index: %w", ctx.Err())
		}
		cfg.logger.Warn("link: pg_stats unavailable, sampling every column", "err", err)
	}
	var queries []*valueJob
	for _, j := range jobs {
		// A partitioned table's statistics are its partitions' (inherited).
		inherited := j.t.Kind == schema.KindPartitionedTable
		row, ok := stats[j.t.QualifiedName()+"."+j.col.Name+"\x00"+strconv.FormatBool(inherited)]
		if !ok {
			queries = append(queries, j)
			continue
		}
		nd := row.nDistinct
		if nd < 0 {
			if j.t.EstimatedRows <= 0 {
				queries = append(queries, j)
				continue
			}
			nd = -nd * float64(j.t.EstimatedRows)
		}
		// Read whole: not a partitioned table (its partitions are sampled
		// in proportion to their sizes), and no more rows than ANALYZE
		// samples. Otherwise most_common_vals and n_distinct come from
		// ANALYZE's random sample and change with every ANALYZE.
		exact := !inherited && j.t.EstimatedRows >= 0 && j.t.EstimatedRows <= row.sampleRows
		switch {
		case nd > float64(cfg.maxValues) && (exact || provesHighCardinality(row, j.t.EstimatedRows, cfg.maxValues)):
			idx.Stats.SkippedHighCardinality++
		case !exact:
			queries = append(queries, j)
		case row.nullFrac >= 1:
			// Only NULLs: nothing to index.
		case float64(len(row.mcv)) >= math.Round(nd):
			if isBPChar(j.col.Type) {
				// The array text keeps char(n) padding; col::text (the
				// sampling path) and comparisons do not.
				for i, v := range row.mcv {
					row.mcv[i] = strings.TrimRight(v, " ")
				}
			}
			// Sorted like the query's values: the order of most_common_vals
			// is ANALYZE's (frequency, ties in the column's collation).
			if vals := cfg.keep(sortedCopy(row.mcv)); len(vals) > 0 {
				idx.Columns = append(idx.Columns, ValueColumn{Table: j.t.QualifiedName(), Column: j.col.Name, Values: vals, Source: SourceStats})
				idx.Stats.FromStats++
			}
		default:
			queries = append(queries, j)
		}
	}
	if len(queries) > cfg.maxColumns {
		idx.Stats.SkippedBudget += len(queries) - cfg.maxColumns
		queries = queries[:cfg.maxColumns]
	}

	workers := 1
	if _, ok := db.(*pgxpool.Pool); ok && cfg.concurrency > 1 {
		workers = cfg.concurrency
	}
	ch := make(chan *valueJob)
	var wg sync.WaitGroup
	for range min(workers, max(len(queries), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				j.err = cfg.sample(budgetCtx, db, j)
			}
		}()
	}
feed:
	for _, j := range queries {
		select {
		case ch <- j:
		case <-budgetCtx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("link: value index: %w", err)
	}
	cut := false
	for _, j := range queries {
		if !j.ok && (j.err == nil || errors.Is(j.err, errBudget)) {
			cut = true // not read, or stopped by the budget
		}
	}
	if cut {
		// What was read depends on the server's speed: keep none of it.
		idx.Stats.SkippedBudget += len(queries)
		idx.Stats.BudgetExhausted = true
		cfg.logger.Warn("link: value index budget exhausted: no sampled column kept", "budget", cfg.budget, "queries", len(queries))
		queries = nil
	}
	for _, j := range queries {
		switch {
		case j.ok:
			if len(j.out.Values) > 0 {
				idx.Columns = append(idx.Columns, j.out)
				idx.Stats.FromSample++
			}
		case errors.Is(j.err, errHighCardinality):
			idx.Stats.SkippedHighCardinality++
		default:
			idx.Stats.SkippedErrors++
			if errors.Is(j.err, errQueryTimeout) {
				idx.Stats.TimedOut++
			}
			cfg.logger.Warn("link: value query failed", "table", j.t.QualifiedName(), "column", j.col.Name, "err", j.err)
		}
	}
	sort.Slice(idx.Columns, func(i, j int) bool {
		a, b := idx.Columns[i], idx.Columns[j]
		if a.Table != b.Table {
			return a.Table < b.Table
		}
		return a.Column < b.Column
	})
	cfg.logger.Debug("link: value index built", "columns", len(idx.Columns), "stats", idx.Stats)
	return idx, nil
}

// provesHighCardinality reports whether an n_distinct estimate above m,
// drawn from a sample of the table, proves the column has more than m
// distinct values, whatever rows ANALYZE happened to draw. ANALYZE
// estimates n*d / (n - f1 + f1*n/N) (n non-NULL sampled rows, d distinct
// values among them, f1 of them seen once, N non-NULL rows), rounded. With
// at most m distinct values d, f1 <= m, so the estimate is at most
// n*m / (n - m), which rounds to m or less when n > 2m^2 + m. With fewer
// sampled rows (a low statistics target, mostly NULLs) a few rare values
// can push the estimate anywhere, differently after every ANALYZE: the
// column is then read by a query.
func provesHighCardinality(row statRow, estimatedRows int64, m int) bool {
	sampled := min(row.sampleRows, max(estimatedRows, 0)) // ANALYZE samples at least this many
	nonNull := (1 - row.nullFrac) * float64(sampled)
	return nonNull > float64(2*m*m+m)
}

var (
	errHighCardinality = errors.New("more distinct values than the cap")
	errBudget          = errors.New("the value index budget ran out")
	errQueryTimeout    = errors.New("query timeout")
)

// keep drops empty and over-long values and caps the count.
func (cfg *valueConfig) keep(vals []string) []string {
	var out []string
	for _, v := range vals {
		if strings.TrimSpace(v) == "" || runeLen(v) > cfg.maxValueLen {
			continue
		}
		out = append(out, v)
		if len(out) == cfg.maxValues {
			break
		}
	}
	return out
}

// readStats reads pg_stats for the schemas, keyed "schema.table.column\x00inherited",
// with the number of rows ANALYZE samples from each table at least.
func readStats(ctx context.Context, db schema.Querier, schemas []string) (map[string]statRow, error) {
	out := map[string]statRow{}
	if len(schemas) == 0 {
		return out, nil
	}
	// attstattarget: -1 (PostgreSQL 16 and older) or NULL (17) for the default.
	rows, err := db.Query(ctx, `WITH target AS (
	SELECT n.nspname, c.relname, 300 * max(CASE WHEN coalesce(a.attstattarget::int, -1) < 0
		THEN current_setting('default_statistics_target')::int ELSE a.attstattarget::int END)::int8 AS sample_rows
	FROM pg_catalog.pg_attribute a
	JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
	JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
	WHERE n.nspname = ANY($1) AND a.attnum > 0 AND NOT a.attisdropped
	GROUP BY 1, 2)
SELECT s.schemaname::text, s.tablename::text, s.attname::text, s.inherited,
	coalesce(s.null_frac, 0)::float8, coalesce(s.n_distinct, 0)::float8,
	s.most_common_vals::text::text[], coalesce(t.sample_rows, 0)
FROM pg_catalog.pg_stats s
LEFT JOIN target t ON t.nspname = s.schemaname AND t.relname = s.tablename
WHERE s.schemaname = ANY($1)`, schemas)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var s, t, c string
		var inherited bool
		var r statRow
		if err := rows.Scan(&s, &t, &c, &inherited, &r.nullFrac, &r.nDistinct, &r.mcv, &r.sampleRows); err != nil {
			return nil, err
		}
		out[s+"."+t+"."+c+"\x00"+strconv.FormatBool(inherited)] = r
	}
	return out, rows.Err()
}

// samplePercent returns the TABLESAMPLE SYSTEM percentage for a table of
// about rows rows: the largest of 50, 25, 12.5, ... (not below 0.01)
// expected to read at most target rows; ok is false when the whole table
// is read. Halving steps keep the sample, and so the values, the same when
// the row estimate moves a little.
func samplePercent(rows, target int64) (pct float64, ok bool) {
	if target <= 0 || rows <= target {
		return 0, false
	}
	pct = 100
	for pct/2 >= 0.01 && float64(rows)*pct/100 > float64(target) {
		pct /= 2
	}
	return pct, true
}

// sampleSeed is the TABLESAMPLE REPEATABLE seed: a fixed seed picks the
// same blocks of an unchanged table on every run.
const sampleSeed = 0

// sample reads the distinct values of one column with a bounded query. It
// returns errBudget when ctx (the build's budget) ran out, and an error
// wrapping errQueryTimeout when the query's own timeout did.
func (cfg *valueConfig) sample(ctx context.Context, db schema.Querier, j *valueJob) error {
	if ctx.Err() != nil {
		return errBudget // budget or caller ended: not this column's fault
	}
	qctx, cancel := context.WithTimeout(ctx, cfg.queryTimeout)
	defer cancel()
	fail := func(err error) error {
		switch {
		case ctx.Err() != nil:
			return errBudget
		case qctx.Err() != nil:
			return fmt.Errorf("%w after %v: %w", errQueryTimeout, cfg.queryTimeout, err)
		}
		return err
	}
	col := schema.QuoteIdent(j.col.Name)
	from := j.t.QuoteQualified()
	if pct, ok := samplePercent(j.t.EstimatedRows, cfg.sampleRows); ok {
		from += " TABLESAMPLE SYSTEM (" + strconv.FormatFloat(pct, 'f', -1, 64) + ") REPEATABLE (" + strconv.Itoa(sampleSeed) + ")"
	}
	// No ORDER BY: when more than maxValues values come back, which ones
	// does not matter (the column is skipped); otherwise all of them do.
	sql := fmt.Sprintf("SELECT DISTINCT left(%s::text, %d) FROM %s WHERE %s IS NOT NULL LIMIT %d",
		col, cfg.maxValueLen+1, from, col, cfg.maxValues+1)
	rows, err := db.Query(qctx, sql)
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	var vals []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return fail(err)
		}
		vals = append(vals, v)
	}
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	if len(vals) > cfg.maxValues {
		return errHighCardinality
	}
	sort.Strings(vals)
	j.out = ValueColumn{Table: j.t.QualifiedName(), Column: j.col.Name, Values: cfg.keep(vals), Source: SourceSample}
	j.ok = true
	return nil
}

func isBPChar(t string) bool {
	return strings.HasPrefix(t, "character(") || t == "character" || strings.HasPrefix(t, "bpchar")
}
