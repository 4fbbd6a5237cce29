package nl2sql_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sync/errgroup"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/internal/spider"
	"github.com/nl2sqlgo/nl2sql/score"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// spiderFigures are the benchmark's counts of correct answers.
type spiderFigures struct {
	Questions int
	// Unchanged candidates (as the systems wrote them).
	Oracle, Vote int
	// After deterministic repair (Engine.Repair) of every candidate.
	RepairedOracle, RepairedVote int
	Pick                         int
	PerSystem, RepairedPerSystem []int
	// Ties counts questions whose gold query orders and limits (the answer
	// can depend on how ties are broken).
	Ties int
}

// spiderOutcome is one question's evaluation.
type spiderOutcome struct {
	pool                 spider.Pool
	raw, repaired        []bool
	rawRes, repairedRes  []string // result keys ("" when it failed)
	vote, repairedVote   bool
	pick                 bool
	pickReordered        bool // wrong, but the gold rows with the columns in another order
	pickIndex            int
	pickSQL, pickErr     string
	repairedSQL, rawErrs []string
	repairErr            []string
	scoreInput           *score.Input
	// mutants are the pick's near misses (a condition dropped, a column
	// swapped, a limited sort flipped, an aggregate changed, DISTINCT
	// dropped): made-up negatives for the calibrator.
	mutants []mutant
}

// mutant is a made-up answer: the signals of its pick and whether it
// returns the gold rows all the same.
type mutant struct {
	kind  string // "dropped", "swapped", "flipped", "aggregate", "distinct"
	sig   confidence.Signals
	right bool
	sql   string // the SQL picked, for NL2SQL_CALIBRATION_DUMP
}

// evaluateSpider runs every pool through the engine: each candidate
// unchanged, each candidate after Engine.Repair, and Engine.Pick.
func evaluateSpider(t testing.TB, pools []spider.Pool) (spiderFigures, []spiderOutcome) {
	t.Helper()
	byDB := map[string][]int{}
	for i, p := range pools {
		byDB[p.Database()] = append(byDB[p.Database()], i)
	}
	dbs := make([]string, 0, len(byDB))
	for db := range byDB {
		dbs = append(dbs, db)
	}
	sort.Strings(dbs)
	outcomes := make([]spiderOutcome, len(pools))
	for _, db := range dbs {
		dsn := pgtest.FromTemplate(t, "spider-"+db+"-v2", func(ctx context.Context, conn *pgx.Conn) error {
			return spider.LoadDatabase(ctx, conn, db)
		})
		pool := pgtest.Pool(t, dsn)
		cols := tableColumns(t, pool)
		rec := &recordingScorer{inputs: map[string]*score.Input{}}
		eng, err := nl2sql.New(pool, nl2sql.WithScorer(rec))
		if err != nil {
			t.Fatal(err)
		}
		g, ctx := errgroup.WithContext(context.Background())
		g.SetLimit(4)
		var mu sync.Mutex
		for _, i := range byDB[db] {
			g.Go(func() error {
				o := evaluatePool(ctx, t, eng, pool, pools[i])
				o.scoreInput = rec.input(pools[i].Question)
				if o.pickIndex >= 0 {
					o.mutants = mutants(ctx, eng, pool, pools[i].Question, "", o.pickSQL, resultKey(pools[i].GoldResult), cols)
				}
				mu.Lock()
				outcomes[i] = o
				mu.Unlock()
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	f := spiderFigures{Questions: len(pools)}
	for _, o := range outcomes {
		n := len(o.pool.Candidates)
		if f.PerSystem == nil {
			f.PerSystem, f.RepairedPerSystem = make([]int, n), make([]int, n)
		}
		for j := 0; j < n && j < len(f.PerSystem); j++ {
			f.PerSystem[j] += b2i(o.raw[j])
			f.RepairedPerSystem[j] += b2i(o.repaired[j])
		}
		f.Oracle += b2i(anyTrue(o.raw))
		f.RepairedOracle += b2i(anyTrue(o.repaired))
		f.Vote += b2i(o.vote)
		f.RepairedVote += b2i(o.repairedVote)
		f.Pick += b2i(o.pick)
		up := strings.ToUpper(o.pool.GoldSQL)
		f.Ties += b2i(strings.Contains(up, "ORDER BY") && strings.Contains(up, "LIMIT"))
	}
	return f, outcomes
}

func evaluatePool(ctx context.Context, t testing.TB, eng *nl2sql.Engine, pool *pgxpool.Pool, p spider.Pool) spiderOutcome {
	n := len(p.Candidates)
	o := spiderOutcome{pool: p, raw: make([]bool, n), repaired: make([]bool, n),
		rawRes: make([]string, n), repairedRes: make([]string, n), repairedSQL: make([]string, n), rawErrs: make([]string, n), repairErr: make([]string, n)}
	gold := resultKey(p.GoldResult)
	for i, sql := range p.Candidates {
		if res, err := spiderRun(ctx, pool, sql); err == nil {
			o.rawRes[i], o.raw[i] = res, res == gold
		} else {
			o.rawErrs[i] = err.Error()
		}
		r, err := eng.Repair(ctx, sql)
		if err != nil {
			t.Errorf("%s: Repair: %v", p.ID, err)
			continue
		}
		o.repairedSQL[i] = r.SQLOut
		if !r.Executes {
			o.repairErr[i] = r.SQLState + " " + r.Message
			continue
		}
		if res, err := spiderRun(ctx, pool, r.SQLOut); err == nil {
			o.repairedRes[i], o.repaired[i] = res, res == gold
		}
	}
	o.vote = majority(o.rawRes) == gold
	o.repairedVote = majority(o.repairedRes) == gold
	pr, err := eng.Pick(ctx, p.Question, p.Candidates)
	o.pickIndex = -1
	if err != nil {
		o.pickErr = err.Error()
		return o
	}
	o.pickIndex, o.pickSQL = pr.Chosen, pr.SQL
	if res, err := spiderRun(ctx, pool, pr.SQL); err == nil {
		o.pick = res == gold
		o.pickReordered = !o.pick && sameRowsReordered(res, gold)
	}
	return o
}

// sameRowsReordered reports whether two result keys hold the same rows
// once the columns of a are put in another order (up to 6 columns): an
// answer the benchmark counts wrong for its column order alone.
func sameRowsReordered(a, b string) bool {
	rows := func(key string) [][]string {
		_, body, _ := strings.Cut(key, "\x1e")
		if body == "" {
			return nil
		}
		var out [][]string
		for _, r := range strings.Split(body, "\x1e") {
			out = append(out, strings.Split(r, "\x1f"))
		}
		return out
	}
	ra, rb := rows(a), rows(b)
	if len(ra) == 0 || len(ra) != len(rb) || len(ra[0]) != len(rb[0]) || len(ra[0]) > 6 {
		return false
	}
	n := len(ra[0]) - 1 // the last field is the multiplicity
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	var try func(k int) bool
	try = func(k int) bool {
		if k == n {
			moved := make([][]string, len(ra))
			for i, r := range ra {
				m := make([]string, 0, n+1)
				for _, c := range perm {
					m = append(m, r[c])
				}
				moved[i] = append(m, r[n])
			}
			return resultKey(moved) == b
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			if try(k + 1) {
				return true
			}
			perm[k], perm[i] = perm[i], perm[k]
		}
		return false
	}
	return try(0)
}

// majority is the most frequent non-empty result key, ties going to the
// earliest candidate.
func majority(res []string) string {
	count := map[string]int{}
	best := ""
	for _, r := range res {
		if r == "" {
			continue
		}
		count[r]++
		if count[r] > count[best] {
			best = r
		}
	}
	return best
}

// spiderRun runs sql read-only with a timeout and returns its normalised
// result as a key.
func spiderRun(ctx context.Context, pool *pgxpool.Pool, sql string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	tx, err := pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return "", err
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck
	if _, err := tx.Exec(ctx, "SET LOCAL statement_timeout = '5s'"); err != nil {
		return "", err
	}
	rows, err := tx.Query(ctx, sql, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var all [][]any
	for rows.Next() {
		v, err := rows.Values()
		if err != nil {
			return "", err
		}
		all = append(all, v)
		if len(all) > 100000 {
			return "", fmt.Errorf("more than 100000 rows")
		}
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	return resultKey(spider.Normalize(all)), nil
}

func resultKey(rows [][]string) string {
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = strings.Join(r, "\x1f")
	}
	sort.Strings(keys)
	return fmt.Sprintf("%d\x1e%s", len(rows), strings.Join(keys, "\x1e"))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

// minPick is the lowest spider-pools Pick figure accepted: issue 27's
// "must not fall below today's 801" (issue 13 set 800). The figure is
// deterministic (measured 802 since session 13, in every run, alone and
// beside other packages' tests).
const minPick = 801

// TestSpiderPools measures repair and selection on the spider-pools
// benchmark (skipped when the dataset is absent): the figures are logged,
// and Pick must reach the bar the project set for it.
func TestSpiderPools(t *testing.T) {
	if _, ok := spider.Dir(); !ok {
		t.Skip("spider-pools dataset not available (../shared/datasets/spider-pools)")
	}
	if testing.Short() || raceDetector {
		t.Skip("the spider-pools evaluation takes a minute; it measures quality, not concurrency")
	}
	pools, err := spider.Pools()
	if err != nil {
		t.Fatal(err)
	}
	f, outcomes := evaluateSpider(t, pools)
	t.Logf("spider-pools, %d questions: unchanged oracle %d, vote %d; repaired oracle %d, vote %d; Pick %d (ORDER BY+LIMIT gold: %d)",
		f.Questions, f.Oracle, f.Vote, f.RepairedOracle, f.RepairedVote, f.Pick, f.Ties)
	t.Logf("per system unchanged %v, repaired %v", f.PerSystem, f.RepairedPerSystem)
	// Repair must lift every system, and the pick must beat the plain vote
	// over the same repaired candidates; minPick guards the measured figure
	// (docs/benchmarks.md) against regressions.
	for i := range f.PerSystem {
		if f.RepairedPerSystem[i] < f.PerSystem[i] {
			t.Errorf("system %d: %d correct after repair, %d before", i, f.RepairedPerSystem[i], f.PerSystem[i])
		}
	}
	if f.Pick <= f.RepairedVote || f.Pick < minPick {
		t.Errorf("Pick %d: want more than the repaired vote (%d) and at least %d", f.Pick, f.RepairedVote, minPick)
	}
	checkCalibration(t, outcomes)
	for _, a := range spiderAblations {
		t.Logf("Pick without %s: %d", a.name, rescore(outcomes, a.change))
	}
	if path := os.Getenv("NL2SQL_SPIDER_REPORT"); path != "" {
		writeSpiderReport(t, path, outcomes)
		writeSpiderJSON(t, path+".jsonl", outcomes)
	}
}

// writeSpiderReport writes one line per question that Pick got wrong while
// some repaired candidate was right: what to look at next.
func writeSpiderReport(t testing.TB, path string, outcomes []spiderOutcome) {
	var b strings.Builder
	for _, o := range outcomes {
		if o.pick || !anyTrue(o.repaired) {
			continue
		}
		fmt.Fprintf(&b, "## %s %s: %s\ngold: %s\npick %d: %s %s\n", o.pool.ID, o.pool.DB, o.pool.Question, o.pool.GoldSQL, o.pickIndex, o.pickSQL, o.pickErr)
		for i := range o.pool.Candidates {
			fmt.Fprintf(&b, "  [%d %v] %s\n", i, o.repaired[i], o.repairedSQL[i])
		}
	}
	b.WriteString("\n# candidates that still fail after repair\n")
	for _, o := range outcomes {
		for i, e := range o.repairErr {
			if e != "" {
				fmt.Fprintf(&b, "FAIL %s | %s | %s\n", e, o.pool.Candidates[i], o.repairedSQL[i])
			}
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Error(err)
	}
}

func writeSpiderJSON(t testing.TB, path string, outcomes []spiderOutcome) {
	var b strings.Builder
	for _, o := range outcomes {
		line, _ := json.Marshal(map[string]any{"id": o.pool.ID, "db": o.pool.DB, "question": o.pool.Question, "gold": o.pool.GoldSQL,
			"candidates": o.pool.Candidates, "repaired_sql": o.repairedSQL, "raw_res": o.rawRes, "res": o.repairedRes,
			"raw_ok": o.raw, "score_input": o.scoreInput, "ok": o.repaired, "repair_err": o.repairErr, "pick": o.pickIndex, "pick_ok": o.pick, "pick_sql": o.pickSQL})
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Error(err)
	}
}

// recordingScorer is score.Default, keeping what it was given (for the
// report).
type recordingScorer struct {
	mu     sync.Mutex
	inputs map[string]*score.Input
}

func (r *recordingScorer) Score(ctx context.Context, in *score.Input) []float64 {
	r.mu.Lock()
	r.inputs[in.Question] = in
	r.mu.Unlock()
	return score.Default{}.Score(ctx, in)
}

func (r *recordingScorer) input(question string) *score.Input {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.inputs[question]
}

// spiderAblations switch one signal of score.Default off through its
// input, to show what each one is worth.
var spiderAblations = []struct {
	name   string
	change func(*score.Candidate)
}{
	{"result agreement", func(c *score.Candidate) { c.Agreement, c.OrderedAgreement = -1, -1 }},
	{"empty-result penalty", func(c *score.Candidate) {
		if c.ResultRows == 0 {
			c.ResultRows = -1
		}
	}},
	{"unknown-value penalty", func(c *score.Candidate) { c.UnknownValues = 0 }},
	{"repeated-rows penalty", func(c *score.Candidate) { c.DuplicateRows = false }},
	{"column-order agreement", func(c *score.Candidate) { c.OrderedAgreement = -1 }},
	{"groups exempt from the repeated-rows penalty", func(c *score.Candidate) { c.Grouped = false }},
	{"all result signals", func(c *score.Candidate) {
		c.Agreement, c.OrderedAgreement, c.ResultRows, c.UnknownValues, c.DuplicateRows = -1, -1, -1, 0, false
	}},
}

// rescore picks again from the recorded score inputs with change applied
// to every candidate, and counts the right picks.
func rescore(outcomes []spiderOutcome, change func(*score.Candidate)) int {
	right := 0
	for _, o := range outcomes {
		in := o.scoreInput
		if in == nil || len(in.Candidates) == 0 {
			continue
		}
		cp := *in
		cp.Candidates = append([]score.Candidate(nil), in.Candidates...)
		for i := range cp.Candidates {
			change(&cp.Candidates[i])
		}
		scores := score.Default{}.Score(context.Background(), &cp)
		best := 0
		for i := range scores {
			if scores[i] > scores[best] {
				best = i
			}
		}
		// The recorded candidates are the inputs that validated, in order.
		for i, sql := range o.repairedSQL {
			if sql == cp.Candidates[best].SQL {
				right += b2i(o.repaired[i])
				break
			}
		}
	}
	return right
}

// TestSpiderGoldWithinPlanBudget: the plan of every spider-pools gold query
// (as Repair makes it run on PostgreSQL) passes the default plan budget
// (validate.DefaultPlanBudget) and the operand guard (V028); the largest
// figures are logged for docs/benchmarks.md.
func TestSpiderGoldWithinPlanBudget(t *testing.T) {
	if _, ok := spider.Dir(); !ok {
		t.Skip("spider-pools dataset not available (../shared/datasets/spider-pools)")
	}
	pools, err := spider.Pools()
	if err != nil {
		t.Fatal(err)
	}
	byDB := map[string][]string{}
	for _, p := range pools {
		byDB[p.Database()] = append(byDB[p.Database()], p.GoldSQL)
	}
	dbs := slices.Sorted(maps.Keys(byDB))
	var figures validate.PlanBudget
	planned := 0
	for _, db := range dbs {
		dsn := pgtest.FromTemplate(t, "spider-"+db+"-v2", func(ctx context.Context, conn *pgx.Conn) error {
			return spider.LoadDatabase(ctx, conn, db)
		})
		pool := pgtest.Pool(t, dsn)
		// The gold is SQLite's dialect: what Repair makes of it runs here.
		eng, err := nl2sql.New(pool, nl2sql.WithValueIndex(false))
		if err != nil {
			t.Fatal(err)
		}
		sqls := make([]string, len(byDB[db]))
		for i, sql := range byDB[db] {
			sqls[i] = sql
			if rr, err := eng.Repair(context.Background(), sql); err == nil && rr.Executes {
				sqls[i] = rr.SQLOut
			}
		}
		v := validate.New()
		for i, r := range v.Explain(context.Background(), pool, sqls) {
			var ve *validate.Error
			if errors.As(r.Err, &ve) && (ve.Has(validate.CodeBudget) || ve.Has(validate.CodeOperand)) {
				t.Errorf("%s: gold query refused: %v\nSQL: %s", db, r.Err, sqls[i])
			}
			if r.Err == nil {
				planned++
				figures = validate.PlanBudget{Rows: max(figures.Rows, r.Figures.Rows), Bytes: max(figures.Bytes, r.Figures.Bytes),
					HashBytes: max(figures.HashBytes, r.Figures.HashBytes), Cost: max(figures.Cost, r.Figures.Cost)}
			}
		}
	}
	if planned == 0 {
		t.Fatal("no gold query planned")
	}
	t.Logf("spider-pools gold: %d of %d planned; largest figures: %s", planned, len(pools), figures)
}

func TestSameRowsReordered(t *testing.T) {
	gold := resultKey([][]string{{"9.0", "5.0", "1"}, {"Asia", "3.0", "2"}})
	for _, c := range []struct {
		rows [][]string
		want bool
	}{
		{[][]string{{"5.0", "9.0", "1"}, {"3.0", "Asia", "2"}}, true},
		{[][]string{{"9.0", "5.0", "1"}, {"Asia", "3.0", "2"}}, true},  // the same order is a reordering too
		{[][]string{{"5.0", "9.0", "1"}, {"3.0", "Asia", "1"}}, false}, // another multiplicity
		{[][]string{{"5.0", "9.0", "1"}}, false},
		{[][]string{{"5.0", "1"}, {"Asia", "2"}}, false},
	} {
		if got := sameRowsReordered(resultKey(c.rows), gold); got != c.want {
			t.Errorf("sameRowsReordered(%v) = %v, want %v", c.rows, got, c.want)
		}
	}
	if sameRowsReordered(resultKey(nil), resultKey(nil)) {
		t.Error("two empty results read as reordered")
	}
}
