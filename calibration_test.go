package nl2sql_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/internal/calib"
	"github.com/nl2sqlgo/nl2sql/internal/gentest"
	"github.com/nl2sqlgo/nl2sql/score"
)

var updateCalibration = flag.Bool("update", false, "rewrite confidence/calibration.json from the spider-pools evaluation")

// calibRow is one answer of the calibration data: its database (the fold),
// its signals and whether it was right.
type calibRow struct {
	db        string // the fold: "spider:concert_singer", "defog:academic", "erp"
	sig       confidence.Signals
	right     bool
	reordered bool   // wrong only for the order of its columns (spider-pools picks)
	shuffled  bool   // a made-up negative: shuffled, or constant
	constant  bool   // the SELECT 1 variant
	single    bool   // the pick alone, as an Ask with one sample sees it
	mutant    string // a near miss: "dropped" (a condition), "swapped" (a column), "flipped" (a sort), "aggregate", "distinct" (dropped)
	exam      string // "" for spider-pools, "defog" or "erp"
	sql       string // the answer's SQL and its question, for NL2SQL_CALIBRATION_DUMP
	question  string
}

// madeUp reports whether the row answers another question (another
// question's candidates, SELECT 1): what the on-question model learns to
// tell from answers to this one. A near miss (a pick with a condition
// dropped, a column swapped...) is a wrong answer to this question,
// fitted as one.
func (r calibRow) madeUp() bool { return r.shuffled }

// real reports whether the row is a spider-pools pick of its own
// question's candidates: what the issue's figures are measured on.
func (r calibRow) real() bool {
	return r.exam == "" && r.mutant == "" && !r.single && !r.constant && !r.shuffled
}

// calibrationBars are figures of the calibrated confidence on
// spider-pools, cross-validated by database: the bars issue 27 set, and
// the floors this test enforces (the issue's bars, the shuffled share
// tighter: the figures are deterministic, so a drop is a regression).
// Every bar is reached since session 23 (see docs/benchmarks.md).
type calibrationBars struct {
	AUROC, ECE                  float64
	PrecisionAt90, CoverageAt90 float64 // answers with confidence >= 0.9: share right, share of the questions
	ShuffledAbove50             float64 // share of the wrong shuffled answers with confidence >= 0.5
}

var (
	issueBars = calibrationBars{AUROC: 0.85, ECE: 0.05, PrecisionAt90: 0.95, CoverageAt90: 0.5, ShuffledAbove50: 0.05}
	// Measured (session 23): AUROC 0.85147, ECE 0.027, >= 0.9 95.6% right
	// covering 53.7% (522 of 972), shuffled 19 of 958 (2.0%); session
	// 22: AUROC 0.84830, 95.6% covering 53.2%. Every figure meets the
	// issue's bars, which are its floors (the shuffled one tighter).
	floors = calibrationBars{AUROC: 0.85, ECE: 0.05, PrecisionAt90: 0.95, CoverageAt90: 0.5, ShuffledAbove50: 0.035}
	// examFloors are the exams' out-of-fold figures (AUROC, ECE; their
	// near misses included), less a margin: measured demo ERP 0.935 /
	// 0.135, defog 0.911 / 0.073 after session 23 (0.938 / 0.136 and
	// 0.912 / 0.075 after session 22, 0.930 / 0.156 and
	// 0.908 / 0.082 after session 21, 0.927 / 0.155 and
	// 0.907 / 0.082 after session 20, 0.921 / 0.162 and
	// 0.900 / 0.084 after session 19), whose near misses are since
	// session 19 the mistakes a model makes (a swapped column is not one the query
	// returns already; a range's two bounds are dropped together). They
	// are of five kinds since session 18 (a limited sort flipped, an
	// aggregate changed, DISTINCT dropped, besides a condition dropped and
	// a column swapped: 0.901 / 0.171 and 0.886 / 0.089 then; 0.900 /
	// 0.142 and 0.904 / 0.076 on two kinds after session 17, 0.900 / 0.141
	// and 0.882 / 0.095 after session 16, 0.890 / 0.154 and 0.872 / 0.087
	// after session 15; docs/benchmarks.md has each step).
	examFloors = map[string]calibrationBars{"erp": {AUROC: 0.90, ECE: 0.18}, "defog": {AUROC: 0.885, ECE: 0.095}}
)

// check reports the figures of f that miss the bars b.
func (b calibrationBars) check(f calibrationFigures) []string {
	var out []string
	shuffled := float64(f.ShuffledHigh) / float64(max(f.ShuffledWrong, 1))
	for _, c := range []struct {
		name     string
		ok       bool
		got, bar float64
	}{
		{"AUROC", f.AUROC >= b.AUROC, f.AUROC, b.AUROC},
		{"ECE", f.ECE <= b.ECE, f.ECE, b.ECE},
		{"accuracy at >= 0.9", f.At90.Accuracy >= b.PrecisionAt90, f.At90.Accuracy, b.PrecisionAt90},
		{"coverage at >= 0.9", f.Covered90 >= b.CoverageAt90, f.Covered90, b.CoverageAt90},
		{"shuffled wrong answers at >= 0.5", shuffled <= b.ShuffledAbove50, shuffled, b.ShuffledAbove50},
	} {
		if !c.ok {
			// Five places: a figure just under its bar (0.84996) must not
			// print as the bar.
			out = append(out, fmt.Sprintf("%s %.5f (bar %.3f)", c.name, c.got, c.bar))
		}
	}
	return out
}

// calibrationRows builds the calibration data from the spider-pools
// outcomes: each question's pick (right or not), and its shuffled variant:
// the question given the candidates of another question of the same
// database (the one half the database's list away), which every system
// then answers alike, for the wrong question. The shuffled picks are
// replayed from the recorded score inputs: a candidate's evidence (its
// run, agreement, tables, columns) depends on the SQL and the database,
// not on the question, so the replay is what Pick computes.
func calibrationRows(outcomes []spiderOutcome) (real, shuffled, extra []calibRow) {
	byDB := map[string][]int{}
	var dbs []string
	for i, o := range outcomes {
		if _, ok := byDB[o.pool.DB]; !ok {
			dbs = append(dbs, o.pool.DB)
		}
		byDB[o.pool.DB] = append(byDB[o.pool.DB], i)
	}
	for i, o := range outcomes {
		in := o.scoreInput
		if in == nil || len(in.Candidates) == 0 || o.pickIndex < 0 {
			continue
		}
		scores := score.Default{}.Score(context.Background(), in)
		best := argmax(scores)
		real = append(real, calibRow{db: o.pool.DB, sig: confidence.Of(in, scores, best), right: o.pick, reordered: o.pickReordered, sql: in.Candidates[best].SQL, question: o.pool.Question})
		extra = append(extra, singleRow(calibRow{db: o.pool.DB, right: o.pick}, in, best))
		list := byDB[o.pool.DB]
		k := indexOf(list, i)
		p := outcomes[list[(k+len(list)/2)%len(list)]]
		if p.scoreInput == nil || len(p.scoreInput.Candidates) == 0 || len(list) < 2 {
			continue
		}
		cp := *in
		cp.Candidates = p.scoreInput.Candidates
		scores = score.Default{}.Score(context.Background(), &cp)
		best = argmax(scores)
		right := false
		gold := resultKey(o.pool.GoldResult)
		for j, sql := range p.repairedSQL {
			if sql == cp.Candidates[best].SQL {
				right = p.repairedRes[j] != "" && p.repairedRes[j] == gold
				break
			}
		}
		shuffled = append(shuffled, calibRow{db: o.pool.DB, sig: confidence.Of(&cp, scores, best), right: right, shuffled: true, sql: cp.Candidates[best].SQL, question: o.pool.Question})
		for _, m := range o.mutants {
			extra = append(extra, calibRow{db: o.pool.DB, sig: m.sig, right: m.right, mutant: m.kind, sql: m.sql, question: o.pool.Question})
		}
		extra = append(extra, constantRow(o.pool.DB, in), singleRow(calibRow{db: o.pool.DB, right: right, shuffled: true}, &cp, best))
	}
	return real, shuffled, extra
}

// singleRow is row's answer (candidate best of in) as the only candidate:
// what an Ask that drew one sample measures (no votes, no comparison; its
// own run, the rows and repeats it returned, which are the same alone).
func singleRow(row calibRow, in *score.Input, best int) calibRow {
	cp := *in
	c := in.Candidates[best]
	c.Votes, c.Agreement, c.OrderedAgreement, c.ResultGroup, c.CountsDisputed = 1, -1, -1, -1, false
	cp.Candidates = []score.Candidate{c}
	scores := score.Default{}.Score(context.Background(), &cp)
	row.sig, row.single = confidence.Of(&cp, scores, 0), true
	return row
}

// constantRow is the question answered by a query that reads no table
// (SELECT 1), which every candidate wrote: a wrong answer all agree on.
func constantRow(db string, in *score.Input) calibRow {
	cp := *in
	cp.Candidates = nil
	for range in.Candidates {
		cp.Candidates = append(cp.Candidates, score.Candidate{SQL: "SELECT 1", Votes: 1, Cost: 0.01, Rows: 1,
			Agreement: 1, OrderedAgreement: 1, ResultRows: 1, ResultGroup: 0})
	}
	scores := score.Default{}.Score(context.Background(), &cp)
	return calibRow{db: db, sig: confidence.Of(&cp, scores, 0), shuffled: true, constant: true}
}

func argmax(v []float64) int {
	best := 0
	for i := range v {
		if v[i] > v[best] {
			best = i
		}
	}
	return best
}

func indexOf(list []int, v int) int {
	for k, x := range list {
		if x == v {
			return k
		}
	}
	return -1
}

// calibrationFigures are the out-of-fold figures of the calibrated
// confidence.
type calibrationFigures struct {
	AUROC, ECE                  float64
	At90                        calib.Threshold
	Covered90                   float64 // answers >= 0.9 / questions
	ShuffledWrong, ShuffledHigh int     // wrong shuffled answers, and those with p >= 0.5
	Constant, ConstantHigh      int     // SELECT 1 answers, and those with p >= 0.5
	Single, SingleRight         int     // one-candidate variants, and the right ones
	MutantWrong, MutantHigh     int     // wrong near misses, and those with p >= 0.5
	Bins                        []calib.Bin
	Thresholds                  []calib.Threshold
}

// crossValidate fits the calibrator on every database but one (real and
// made-up answers of spider-pools and the exams) and predicts the one left
// out.
func crossValidate(rows []calibRow) []float64 { return crossValidateVariant(rows, cvVariant{}) }

// cvVariant is a change to the fit, for the ablations: signals left out
// (set to 0), rows that count (almost) nothing, one logistic regression
// instead of the product with the on-question model.
type cvVariant struct {
	drop     []string
	without  func(calibRow) bool
	oneModel bool
	madeUp   float64 // weight of the made-up negatives and one-candidate variants (0: 1)
	// nearMissOff fits the near misses as answers to another question.
	nearMissOff bool
	// onEvery lets the on-question model read every signal (agreement,
	// the score, the run), as before session 13.
	onEvery bool
}

func crossValidateVariant(rows []calibRow, v cvVariant) []float64 {
	x := make([][]float64, len(rows))
	y := make([]bool, len(rows))
	g := make([]string, len(rows))
	w := make([]float64, len(rows))
	made := make([]bool, len(rows))
	names := confidence.Names()
	for i, r := range rows {
		x[i], y[i], g[i], w[i], made[i] = rows[i].sig.Vector(), r.right, r.exam+":"+r.db, weightOf(r), r.madeUp() || v.nearMissOff && r.mutant != ""
		for k, n := range names {
			if slices.Contains(v.drop, n) {
				x[i][k] = 0
			}
		}
		if v.madeUp > 0 && (r.madeUp() || r.single) {
			w[i] *= v.madeUp
		}
		if v.without != nil && v.without(r) {
			w[i] *= 1e-6
		}
	}
	if v.oneModel {
		made = nil
	}
	on := confidence.OnQuestionInputs()
	if v.onEvery {
		on = nil
	}
	return calib.CrossValidate(x, y, made, w, confidence.Inputs(), on, g, calib.L2)
}

// signalGroups are the signals by kind, for the ablations.
var signalGroups = []struct {
	name    string
	signals []string
}{
	{"agreement among candidates", []string{"support", "compared", "support_compared", "groups", "margin", "unanimous", "single"}},
	{"the Scorer's score", []string{"score"}},
	{"question-to-SQL words (both ways, values, names)", []string{"question_covered", "query_named", "tables_named", "columns_linked", "values_used", "values_missed", "names_missed"}},
	{"answer shape", []string{"shape_asked", "shape_missed", "columns_out_of_order", "top_rows", "top_groups"}},
	{"retrieval rank and context", []string{"context_rank", "outside_context", "reads_no_table"}},
	{"run and lint", []string{"empty", "unknown_value", "duplicates", "defect", "warnings", "repaired"}},
	{"the tie at the cut (session 12)", []string{"tied"}},
	{"the disputed column order and counts (session 12)", []string{"columns_disputed", "counts_disputed"}},
	{"the missed negation (session 12)", []string{"negation_missed"}},
	{"the unasked constants (session 12)", []string{"constants_unasked"}},
	{"all five of session 12", []string{"tied", "columns_disputed", "counts_disputed", "negation_missed", "constants_unasked"}},
	{"the unasked columns (session 14)", []string{"columns_unasked"}},
	{"the missed columns (session 15)", []string{"columns_missed"}},
	{"the columns asked to be shown (session 17)", []string{"columns_unreturned"}},
	{"the reversed extreme (session 18)", []string{"extreme_reversed"}},
	{"the mismatched aggregate (session 18)", []string{"aggregate_mismatched"}},
}

// logAblations logs the out-of-fold figures without each signal group,
// and with the made-up negatives counting less or not at all.
func logAblations(t *testing.T, rows []calibRow, questions int) {
	line := func(what string, p []float64) {
		f := measureCalibration(rows, p, questions)
		erp, _ := examFigures(rows, p, "erp")
		defog, _ := examFigures(rows, p, "defog")
		ll, _ := examLogLoss(rows, p)
		t.Logf("| %s | %.3f | %.3f | %.1f%% | %.1f%% | %d of %d | %d of %d | %.4f | %.3f / %.3f |", what, f.AUROC, f.ECE, 100*f.At90.Accuracy, 100*f.Covered90, f.ShuffledHigh, f.ShuffledWrong, f.MutantHigh, f.MutantWrong, ll, erp.AUROC, defog.AUROC)
	}
	t.Log("| calibrator | AUROC | ECE | right at >= 0.9 | questions at >= 0.9 | shuffled wrong >= 0.5 | near misses wrong >= 0.5 | exams' log-loss | AUROC ERP / defog |")
	// Before issue 27: a linear map of the default scorer's score.
	linear := make([]float64, len(rows))
	for i := range rows {
		linear[i] = max(0, min(1, (rows[i].sig.Score-0.5)/1.2))
	}
	line("before: linear map of the score", linear)
	line("all signals", crossValidate(rows))
	line("one logistic regression on every example (no on-question model)", crossValidateVariant(rows, cvVariant{oneModel: true}))
	line("near misses fitted as answers to another question", crossValidateVariant(rows, cvVariant{nearMissOff: true}))
	line("the on-question model on every signal (agreement, score, run too)", crossValidateVariant(rows, cvVariant{onEvery: true}))
	line("without the near misses of spider-pools", crossValidateVariant(rows, cvVariant{without: func(r calibRow) bool { return r.mutant != "" && r.exam == "" }}))
	line("without the exams (defog, demo ERP)", crossValidateVariant(rows, cvVariant{without: func(r calibRow) bool { return r.exam != "" }}))
	for _, g := range signalGroups {
		line("without "+g.name, crossValidateVariant(rows, cvVariant{drop: g.signals}))
	}
	line("made-up negatives weighted 0.3", crossValidateVariant(rows, cvVariant{madeUp: 0.3}))
	line("real answers only (no made-up negatives)", crossValidateVariant(rows, cvVariant{without: calibRow.madeUp}))
	if os.Getenv("NL2SQL_CALIBRATION_ABLATIONS") == "signals" {
		for _, n := range confidence.Names() {
			line("without "+n, crossValidateVariant(rows, cvVariant{drop: []string{n}}))
		}
	}
}

// examLogLoss is the exams' out-of-fold log-loss (their picks pooled:
// gold, another question's gold, near misses): the measure that decides
// which signals stay; and how many picks it pools (0: NaN).
func examLogLoss(rows []calibRow, p []float64) (float64, int) {
	var ep []float64
	var ey []bool
	for i, r := range rows {
		if r.exam != "" {
			ep, ey = append(ep, p[i]), append(ey, r.right)
		}
	}
	if len(ep) == 0 {
		return math.NaN(), 0
	}
	return calib.LogLoss(ep, ey), len(ep)
}

func measureCalibration(rows []calibRow, p []float64, questions int) calibrationFigures {
	var rp []float64
	var ry []bool
	var f calibrationFigures
	for i, r := range rows {
		if r.exam != "" {
			continue
		}
		if r.mutant != "" {
			if !r.right {
				f.MutantWrong++
				f.MutantHigh += b2i(p[i] >= 0.5)
			}
			continue
		}
		if r.single {
			f.Single++
			f.SingleRight += b2i(r.right)
			continue
		}
		if r.constant {
			f.Constant++
			if p[i] >= 0.5 {
				f.ConstantHigh++
			}
			continue
		}
		if r.shuffled {
			if !r.right {
				f.ShuffledWrong++
				if p[i] >= 0.5 {
					f.ShuffledHigh++
				}
			}
			continue
		}
		if r.real() {
			rp, ry = append(rp, p[i]), append(ry, r.right)
		}
	}
	f.AUROC, f.ECE = calib.AUROC(rp, ry), calib.ECE(rp, ry)
	f.Thresholds = calib.AtThresholds(rp, ry, []float64{0.5, 0.7, 0.8, 0.9, 0.95})
	f.At90 = f.Thresholds[3]
	f.Covered90 = float64(f.At90.Answers) / float64(questions)
	f.Bins = calib.Reliability(rp, ry, 10)
	return f
}

// checkCalibration measures the calibrated confidence on spider-pools out
// of fold, enforces the bars, and checks that calibration.json is the
// calibrator fitted on all of it (go generate rewrites it).
func checkCalibration(t *testing.T, outcomes []spiderOutcome) {
	real, shuffled, extra := calibrationRows(outcomes)
	exams := examRows(t)
	rows := append(append(append(append([]calibRow(nil), real...), shuffled...), extra...), exams...)
	chooseNearMiss(t, rows)
	p := crossValidate(rows)
	f := measureCalibration(rows, p, len(outcomes))
	t.Logf("calibrated confidence, out of fold by database (%d answers, %d shuffled): AUROC %.5f, ECE %.3f; >= 0.9: %d answers, %.1f%% right, %.1f%% of the questions; shuffled: %d of %d wrong answers >= 0.5; SELECT 1: %d of %d >= 0.5; near misses: %d of %d wrong answers >= 0.5",
		len(real), len(shuffled), f.AUROC, f.ECE, f.At90.Answers, 100*f.At90.Accuracy, 100*f.Covered90, f.ShuffledHigh, f.ShuffledWrong, f.ConstantHigh, f.Constant, f.MutantHigh, f.MutantWrong)
	t.Log(reliabilityTable(f))
	// What the column order costs: the wrong picks that return the gold
	// rows with the columns in another order (mostly the question's
	// order where the gold lists the grouping key first, or the reverse),
	// and the AUROC were they counted right. Not the issue's measure.
	var rp []float64
	var ry []bool
	reordered := 0
	for i, r := range rows {
		if r.real() {
			rp, ry = append(rp, p[i]), append(ry, r.right || r.reordered)
			reordered += b2i(r.reordered)
		}
	}
	t.Logf("wrong picks returning the gold rows with the columns in another order: %d; AUROC with them counted right %.3f", reordered, calib.AUROC(rp, ry))
	// The measure that decides what stays: the exams' out-of-fold
	// log-loss, their picks pooled (gold, another question's gold, near
	// misses).
	if ll, n := examLogLoss(rows, p); n > 0 {
		t.Logf("exams (defog, demo ERP), out of fold: log-loss %.4f over %d picks", ll, n)
	}
	for _, exam := range []string{"erp", "defog"} {
		ef, n := examFigures(rows, p, exam)
		if n == 0 {
			continue
		}
		t.Logf("%s exam, out of fold: %d picks (gold, another question's gold, near misses), AUROC %.3f, ECE %.3f; %d of %d wrong picks >= 0.5%s",
			exam, n, ef.AUROC, ef.ECE, ef.ShuffledHigh, ef.ShuffledWrong, reliabilityTable(ef))
		if fl := examFloors[exam]; ef.AUROC < fl.AUROC || ef.ECE > fl.ECE {
			t.Errorf("%s exam: AUROC %.3f, ECE %.3f: below the floors %.3f, %.3f", exam, ef.AUROC, ef.ECE, fl.AUROC, fl.ECE)
		}
	}
	if miss := issueBars.check(f); len(miss) > 0 {
		t.Errorf("issue 27's bars not reached: %s", strings.Join(miss, "; "))
	}
	if miss := floors.check(f); len(miss) > 0 {
		t.Errorf("calibration regressed below its floors: %s", strings.Join(miss, "; "))
	}
	if f.ConstantHigh > 0 {
		t.Errorf("%d of %d SELECT 1 answers got confidence >= 0.5", f.ConstantHigh, f.Constant)
	}
	if os.Getenv("NL2SQL_CALIBRATION_ABLATIONS") != "" {
		logAblations(t, rows, len(outcomes))
	}
	if path := os.Getenv("NL2SQL_CALIBRATION_DUMP"); path != "" {
		dumpCalibration(t, path, rows, p)
	}
	var ex []confidence.Example
	for _, r := range rows {
		ex = append(ex, confidence.Example{Signals: r.sig, Right: r.right, Weight: weightOf(r), MadeUp: r.madeUp()})
	}
	c, err := confidence.Fit(ex, fmt.Sprintf("spider-pools: %d picks, %d shuffled picks (another question's candidates, same database), %d SELECT 1 answers, %d of these answers alone (one candidate), %d near misses (a condition dropped, a column swapped, a limited sort flipped, an aggregate changed, DISTINCT dropped); exams: %d picks of the demo ERP and defog gold queries and their made-up negatives", len(real), len(shuffled), f.Constant, f.Single, len(extra)-f.Single-f.Constant, len(exams)))
	if err != nil {
		t.Fatal(err)
	}
	src, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if *updateCalibration {
		gentest.UpToDate(t, "confidence/calibration.json", append(src, '\n'), true, "")
		return
	}
	checkCalibrationFile(t, c, rows)
}

// calibrationDrift is how far the embedded calibrator's probabilities may
// be from a fit made on today's examples. defog's data is dated relative
// to the day it is loaded (CURRENT_DATE - INTERVAL '2 years') and 37 of
// its gold queries read the clock ("in the past 7 days", "this month"), so
// a few of its examples' outcomes and signals change from one day to the
// next: on 2026-11-28 one near miss and one defog answer of 7147 examples
// changed, from a file fitted the day before. A file further off than
// this is stale.
const calibrationDrift = 0.02

// checkCalibrationFile checks that confidence/calibration.json is the
// calibrator fitted on these examples, but for the day's drift: its
// probabilities within calibrationDrift of fit's on every example.
func checkCalibrationFile(t *testing.T, fit *confidence.Logistic, rows []calibRow) {
	t.Helper()
	f, err := os.Open("confidence/calibration.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	embedded, err := confidence.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range rows {
		worst = max(worst, math.Abs(embedded.Confidence(&rows[i].sig)-fit.Confidence(&rows[i].sig)))
	}
	if worst > calibrationDrift {
		t.Errorf("confidence/calibration.json is stale: its probabilities differ by up to %.4f from a fit on today's examples (more than %.2f): run go test -run 'TestSpiderPools$' -update .", worst, calibrationDrift)
		return
	}
	t.Logf("confidence/calibration.json: within %.4f of a fit on today's examples (defog's data is dated relative to the day it is loaded)", worst)
}

func reliabilityTable(f calibrationFigures) string {
	var b strings.Builder
	b.WriteString("\n| confidence | answers | right | mean confidence | accuracy |\n|---|---|---|---|---|\n")
	for _, bin := range f.Bins {
		if bin.Count == 0 {
			continue
		}
		fmt.Fprintf(&b, "| %.1f-%.1f | %d | %d | %.3f | %.3f |\n", bin.Low, bin.High, bin.Count, bin.Right, bin.Confidence, bin.Accuracy)
	}
	b.WriteString("\n| threshold | answers | accuracy | coverage |\n|---|---|---|---|\n")
	for _, th := range f.Thresholds {
		fmt.Fprintf(&b, "| >= %.2f | %d | %.3f | %.3f |\n", th.At, th.Answers, th.Accuracy, th.Coverage)
	}
	return b.String()
}

func dumpCalibration(t *testing.T, path string, rows []calibRow, p []float64) {
	var b strings.Builder
	for i, r := range rows {
		line, _ := json.Marshal(map[string]any{"db": r.db, "exam": r.exam, "right": r.right, "shuffled": r.shuffled, "constant": r.constant, "single": r.single,
			"mutant": r.mutant, "p": p[i], "sql": r.sql, "question": r.question, "signals": r.sig, "reasons": rows[i].sig.Reasons()})
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Error(err)
	}
}

// shuffledWeight is how much a shuffled answer counts in the fit beside a
// real one: as much, fixed before measuring (docs/benchmarks.md lists the
// other weights tried, and what they cost).
const shuffledWeight = 1.0

// nearMissWeight is how much a near miss (a condition dropped, a column
// swapped, a limited sort flipped, an aggregate changed, DISTINCT
// dropped) counts in the fit beside a real answer. How many near misses
// there are is our choice (up to five per question), and it sets how often a
// one-candidate answer is wrong in the fit, so it is chosen among
// nearMissWeights by the out-of-fold ECE of the exams' answers other
// than the near misses (each gold query, and another question's; defog
// and demo ERP pooled): never by the spider-pools figures it reports, nor
// on a set whose share of near misses is the choice itself
// (chooseNearMiss).
var nearMissWeight = 1.0

var nearMissWeights = []float64{1, 0.5, 0.25, 0.1, 0.05}

// chooseNearMiss sets nearMissWeight to the weight whose out-of-fold
// figures on the exams' answers are best calibrated, and logs each.
func chooseNearMiss(t *testing.T, rows []calibRow) {
	best, bestECE := nearMissWeights[0], 2.0
	for _, w := range nearMissWeights {
		nearMissWeight = w
		p := crossValidate(rows)
		var ep []float64
		var ey []bool
		for i, r := range rows {
			if r.exam != "" && r.mutant == "" {
				ep, ey = append(ep, p[i]), append(ey, r.right)
			}
		}
		if len(ep) == 0 {
			break // no exam: keep 1
		}
		e := calib.ECE(ep, ey)
		t.Logf("near misses weighted %.2f: out-of-fold ECE of the exams' gold and other questions' gold %.3f", w, e)
		if e < bestECE {
			best, bestECE = w, e
		}
	}
	nearMissWeight = best
}

func weightOf(r calibRow) float64 {
	if r.shuffled {
		return shuffledWeight
	}
	if r.mutant != "" {
		return nearMissWeight
	}
	return 1
}

// tableColumns reads the columns of the database's tables, by table name
// (and schema-qualified name), for calib.SwapColumn.
func tableColumns(t testing.TB, pool *pgxpool.Pool) func(string) []calib.Column {
	rows, err := pool.Query(context.Background(), `SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns
		WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY table_schema, table_name, ordinal_position`)
	if err != nil {
		t.Fatal(err)
	}
	byTable := map[string][]calib.Column{}
	for rows.Next() {
		var schema, table, col, typ string
		if err := rows.Scan(&schema, &table, &col, &typ); err != nil {
			t.Fatal(err)
		}
		c := calib.Column{Name: col, Type: typ}
		byTable[schema+"."+table] = append(byTable[schema+"."+table], c)
		byTable[table] = append(byTable[table], c)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return func(table string) []calib.Column { return byTable[strings.ToLower(table)] }
}

// mutants picks sql's near misses (a condition dropped, a column swapped,
// a limited sort flipped, an aggregate changed, DISTINCT dropped), each as
// the only candidate, and says whether each returns the gold rows (key)
// all the same.
func mutants(ctx context.Context, eng *nl2sql.Engine, pool *pgxpool.Pool, question, evidence, sql, key string, cols func(string) []calib.Column) []mutant {
	var out []mutant
	for _, m := range []struct {
		kind string
		make func() (string, bool)
	}{
		{"dropped", func() (string, bool) { return calib.DropCondition(sql) }},
		{"swapped", func() (string, bool) { return calib.SwapColumn(sql, cols) }},
		{"flipped", func() (string, bool) { return calib.FlipOrder(sql) }},
		{"aggregate", func() (string, bool) { return calib.ChangeAggregate(sql) }},
		{"distinct", func() (string, bool) { return calib.DropDistinct(sql) }},
	} {
		ms, ok := m.make()
		if !ok {
			continue
		}
		r, err := eng.Pick(ctx, question, []string{ms}, nl2sql.Evidence(evidence))
		if err != nil || r.Chosen < 0 || r.Signals == nil {
			continue
		}
		res, err := spiderRun(ctx, pool, r.SQL)
		out = append(out, mutant{kind: m.kind, sig: *r.Signals, right: err == nil && res == key, sql: r.SQL})
	}
	return out
}
