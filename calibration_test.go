package nl2sql_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/calib"
	"github.com/nl2sqlgo/nl2sql/internal/gentest"
)

var updateCalibration = flag.Bool("update", false, "rewrite calibration.json from the spider-pools evaluation")

// calibRow is one answer of the calibration data: its database (the fold),
// its signals and whether it was right.
type calibRow struct {
	db       string
	sig      nl2sql.Signals
	right    bool
	shuffled bool // a made-up negative: shuffled, or constant
	constant bool // the SELECT 1 variant
	single   bool // the pick alone, as an Ask with one sample sees it
}

// calibrationBars are figures of the calibrated confidence on
// spider-pools, cross-validated by database: the bars issue 27 set, and
// the floors this test enforces (the measured figures less a small margin:
// the figures are deterministic, so a drop is a regression). The issue's
// AUROC, ECE, accuracy and coverage bars are not reached yet (see
// docs/benchmarks.md): they are logged, not enforced.
type calibrationBars struct {
	AUROC, ECE                  float64
	PrecisionAt90, CoverageAt90 float64 // answers with confidence >= 0.9: share right, share of the questions
	ShuffledAbove50             float64 // share of the wrong shuffled answers with confidence >= 0.5
}

var (
	issueBars = calibrationBars{AUROC: 0.85, ECE: 0.05, PrecisionAt90: 0.95, CoverageAt90: 0.5, ShuffledAbove50: 0.05}
	// Measured: AUROC 0.740, ECE 0.081, >= 0.9 94.6% right covering 34.6%,
	// shuffled 35 of 958 (3.7%).
	floors = calibrationBars{AUROC: 0.73, ECE: 0.09, PrecisionAt90: 0.94, CoverageAt90: 0.33, ShuffledAbove50: 0.045}
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
			out = append(out, fmt.Sprintf("%s %.3f (bar %.3f)", c.name, c.got, c.bar))
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
		scores := nl2sql.DefaultScorer{}.Score(context.Background(), in)
		best := argmax(scores)
		real = append(real, calibRow{db: o.pool.DB, sig: nl2sql.SignalsOf(in, scores, best), right: o.pick})
		extra = append(extra, singleRow(calibRow{db: o.pool.DB, right: o.pick}, in, best))
		list := byDB[o.pool.DB]
		k := indexOf(list, i)
		p := outcomes[list[(k+len(list)/2)%len(list)]]
		if p.scoreInput == nil || len(p.scoreInput.Candidates) == 0 || len(list) < 2 {
			continue
		}
		cp := *in
		cp.Candidates = p.scoreInput.Candidates
		scores = nl2sql.DefaultScorer{}.Score(context.Background(), &cp)
		best = argmax(scores)
		right := false
		gold := resultKey(o.pool.GoldResult)
		for j, sql := range p.repairedSQL {
			if sql == cp.Candidates[best].SQL {
				right = p.repairedRes[j] != "" && p.repairedRes[j] == gold
				break
			}
		}
		shuffled = append(shuffled, calibRow{db: o.pool.DB, sig: nl2sql.SignalsOf(&cp, scores, best), right: right, shuffled: true})
		extra = append(extra, constantRow(o.pool.DB, in), singleRow(calibRow{db: o.pool.DB, right: right, shuffled: true}, &cp, best))
	}
	return real, shuffled, extra
}

// singleRow is row's answer (candidate best of in) as the only candidate:
// what an Ask that drew one sample measures (no votes, no comparison).
func singleRow(row calibRow, in *nl2sql.ScoreInput, best int) calibRow {
	cp := *in
	c := in.Candidates[best]
	c.Votes, c.Agreement, c.OrderedAgreement, c.ResultRows, c.ResultGroup, c.DuplicateRows = 1, -1, -1, -1, -1, false
	cp.Candidates = []nl2sql.ScoreCandidate{c}
	scores := nl2sql.DefaultScorer{}.Score(context.Background(), &cp)
	row.sig, row.single = nl2sql.SignalsOf(&cp, scores, 0), true
	return row
}

// constantRow is the question answered by a query that reads no table
// (SELECT 1), which every candidate wrote: a wrong answer all agree on.
func constantRow(db string, in *nl2sql.ScoreInput) calibRow {
	cp := *in
	cp.Candidates = nil
	for range in.Candidates {
		cp.Candidates = append(cp.Candidates, nl2sql.ScoreCandidate{SQL: "SELECT 1", Votes: 1, Cost: 0.01, Rows: 1,
			Agreement: 1, OrderedAgreement: 1, ResultRows: 1, ResultGroup: 0})
	}
	scores := nl2sql.DefaultScorer{}.Score(context.Background(), &cp)
	return calibRow{db: db, sig: nl2sql.SignalsOf(&cp, scores, 0), shuffled: true, constant: true}
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
	Bins                        []calib.Bin
	Thresholds                  []calib.Threshold
}

// crossValidate fits the calibrator on every database but one (real and
// shuffled answers) and predicts the one left out.
func crossValidate(rows []calibRow) []float64 { return crossValidateWithout(rows, nil, 1) }

// crossValidateWithout is crossValidate with the signals named in drop
// left out (set to 0) and the made-up negatives weighted madeUp.
func crossValidateWithout(rows []calibRow, drop []string, madeUp float64) []float64 {
	x := make([][]float64, len(rows))
	y := make([]bool, len(rows))
	g := make([]string, len(rows))
	w := make([]float64, len(rows))
	names := nl2sql.SignalNames()
	for i, r := range rows {
		x[i], y[i], g[i], w[i] = nl2sql.SignalVector(&rows[i].sig), r.right, r.db, weightOf(r)
		for k, n := range names {
			if slices.Contains(drop, n) {
				x[i][k] = 0
			}
		}
		if r.shuffled || r.single {
			w[i] *= madeUp
		}
	}
	return calib.CrossValidate(x, y, w, g, nl2sql.CalibrationL2)
}

// signalGroups are the signals by kind, for the ablations.
var signalGroups = []struct {
	name    string
	signals []string
}{
	{"agreement among candidates", []string{"support", "compared", "support_compared", "groups", "margin", "unanimous", "single"}},
	{"the Scorer's score", []string{"score"}},
	{"question-to-SQL words (both ways, values, names)", []string{"question_covered", "query_named", "tables_named", "columns_linked", "values_used", "names_missed"}},
	{"answer shape", []string{"shape_asked", "shape_missed", "columns_out_of_order", "top_rows", "top_groups"}},
	{"retrieval rank and context", []string{"context_rank", "outside_context", "reads_no_table"}},
	{"run and lint", []string{"empty", "unknown_value", "duplicates", "defect", "warnings", "repaired"}},
}

// logAblations logs the out-of-fold figures without each signal group,
// and with the made-up negatives counting less or not at all.
func logAblations(t *testing.T, rows []calibRow, questions int) {
	line := func(what string, p []float64) {
		f := measureCalibration(rows, p, questions)
		t.Logf("| %s | %.3f | %.3f | %.1f%% | %.1f%% | %d of %d |", what, f.AUROC, f.ECE, 100*f.At90.Accuracy, 100*f.Covered90, f.ShuffledHigh, f.ShuffledWrong)
	}
	t.Log("| calibrator | AUROC | ECE | right at >= 0.9 | questions at >= 0.9 | shuffled wrong >= 0.5 |")
	// Before issue 27: a linear map of the DefaultScorer's score.
	linear := make([]float64, len(rows))
	for i := range rows {
		linear[i] = max(0, min(1, (rows[i].sig.Score-0.5)/1.2))
	}
	line("before: linear map of the score", linear)
	line("all signals", crossValidate(rows))
	for _, g := range signalGroups {
		line("without "+g.name, crossValidateWithout(rows, g.signals, 1))
	}
	line("made-up negatives weighted 0.3", crossValidateWithout(rows, nil, 0.3))
	line("real picks only (no made-up negatives)", crossValidateWithout(rows, nil, 1e-6))
}

func measureCalibration(rows []calibRow, p []float64, questions int) calibrationFigures {
	var rp []float64
	var ry []bool
	var f calibrationFigures
	for i, r := range rows {
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
		rp, ry = append(rp, p[i]), append(ry, r.right)
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
	rows := append(append(append([]calibRow(nil), real...), shuffled...), extra...)
	p := crossValidate(rows)
	f := measureCalibration(rows, p, len(outcomes))
	t.Logf("calibrated confidence, out of fold by database (%d answers, %d shuffled): AUROC %.3f, ECE %.3f; >= 0.9: %d answers, %.1f%% right, %.1f%% of the questions; shuffled: %d of %d wrong answers >= 0.5; SELECT 1: %d of %d >= 0.5",
		len(real), len(shuffled), f.AUROC, f.ECE, f.At90.Answers, 100*f.At90.Accuracy, 100*f.Covered90, f.ShuffledHigh, f.ShuffledWrong, f.ConstantHigh, f.Constant)
	t.Log(reliabilityTable(f))
	if miss := issueBars.check(f); len(miss) > 0 {
		t.Logf("issue 27's bars not reached: %s", strings.Join(miss, "; "))
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
	var ex []nl2sql.CalibrationExample
	for _, r := range rows {
		ex = append(ex, nl2sql.CalibrationExample{Signals: r.sig, Right: r.right, Weight: weightOf(r)})
	}
	c, err := nl2sql.FitCalibrator(ex, fmt.Sprintf("spider-pools: %d picks, %d shuffled picks (another question's candidates, same database), %d SELECT 1 answers and %d of these answers alone (one candidate)", len(real), len(shuffled), f.Constant, f.Single))
	if err != nil {
		t.Fatal(err)
	}
	src, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	gentest.UpToDate(t, "calibration.json", append(src, '\n'), *updateCalibration, "go generate .")
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
		line, _ := json.Marshal(map[string]any{"db": r.db, "right": r.right, "shuffled": r.shuffled, "p": p[i], "signals": r.sig, "reasons": rows[i].sig.Reasons()})
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

func weightOf(r calibRow) float64 {
	if r.shuffled {
		return shuffledWeight
	}
	return 1
}
