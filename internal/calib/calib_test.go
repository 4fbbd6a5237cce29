package calib

import (
	"errors"
	"math"
	"testing"
)

func TestAUROC(t *testing.T) {
	for _, c := range []struct {
		p    []float64
		y    []bool
		want float64
	}{
		{[]float64{0.9, 0.8, 0.2, 0.1}, []bool{true, true, false, false}, 1},
		{[]float64{0.1, 0.2, 0.8, 0.9}, []bool{true, true, false, false}, 0},
		{[]float64{0.5, 0.5, 0.5, 0.5}, []bool{true, false, true, false}, 0.5}, // ties count half
		{[]float64{0.9, 0.4, 0.6, 0.1}, []bool{true, true, false, false}, 0.75},
		{[]float64{0.9, 0.1}, []bool{true, true}, 0.5}, // one outcome only
	} {
		if got := AUROC(c.p, c.y); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("AUROC(%v, %v) = %v, want %v", c.p, c.y, got, c.want)
		}
	}
}

func TestECEAndReliability(t *testing.T) {
	// Ten answers at 0.95, nine right: a gap of 0.05 in one bin.
	p := make([]float64, 10)
	y := make([]bool, 10)
	for i := range p {
		p[i], y[i] = 0.95, i > 0
	}
	if got := ECE(p, y); math.Abs(got-0.05) > 1e-9 {
		t.Errorf("ECE = %v, want 0.05", got)
	}
	bins := Reliability(p, y, 10)
	if b := bins[9]; b.Count != 10 || b.Right != 9 || math.Abs(b.Accuracy-0.9) > 1e-12 {
		t.Errorf("last bin = %+v", b)
	}
	// 1.0 falls in the last bin, not past it.
	if bins := Reliability([]float64{1}, []bool{true}, 10); bins[9].Count != 1 {
		t.Errorf("p = 1: %+v", bins)
	}
	th := AtThresholds(p, y, []float64{0.9, 0.99})
	if th[0].Answers != 10 || th[0].Right != 9 || th[0].Coverage != 1 || th[1].Answers != 0 {
		t.Errorf("thresholds = %+v", th)
	}
}

func TestLogLoss(t *testing.T) {
	if got := LogLoss(nil, nil); got != 0 {
		t.Errorf("LogLoss of nothing = %v", got)
	}
	if got, want := LogLoss([]float64{0.5, 0.5}, []bool{true, false}), math.Log(2); math.Abs(got-want) > 1e-12 {
		t.Errorf("LogLoss at 0.5 = %v, want ln 2", got)
	}
	if got, want := LogLoss([]float64{0.8, 0.1}, []bool{true, false}), -(math.Log(0.8)+math.Log(0.9))/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("LogLoss = %v, want %v", got, want)
	}
	// A certain mistake is bounded: p kept within [1e-6, 1-1e-6].
	if got, want := LogLoss([]float64{0}, []bool{true}), -math.Log(1e-6); math.Abs(got-want) > 1e-9 {
		t.Errorf("LogLoss of a certain mistake = %v, want %v", got, want)
	}
}

func TestFit(t *testing.T) {
	// y is true when x > 0.5, with noise at the boundary: the weight is
	// positive and the probability rises with x.
	var x [][]float64
	var y []bool
	for i := 0; i < 200; i++ {
		v := float64(i) / 200
		x = append(x, []float64{v, 1 - v})
		y = append(y, v > 0.5 || i%17 == 0)
	}
	m, err := Fit(x, y, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.Weights[0] <= 0 || m.Probability([]float64{0.9, 0.1}) <= m.Probability([]float64{0.1, 0.9}) {
		t.Errorf("model %+v does not rise with x", m)
	}
	again, _ := Fit(x, y, 1)
	if again.Bias != m.Bias || again.Weights[0] != m.Weights[0] || again.Weights[1] != m.Weights[1] {
		t.Errorf("two fits differ: %+v %+v", m, again)
	}
	// Without both outcomes there is nothing to fit.
	if _, err := Fit(x[1:10], y[1:10], 1); !errors.Is(err, ErrNoExamples) {
		t.Errorf("one outcome: %v", err)
	}
	if _, err := Fit(nil, nil, 1); !errors.Is(err, ErrNoExamples) {
		t.Errorf("no examples: %v", err)
	}
}

func TestCrossValidateByGroup(t *testing.T) {
	// Group "b" has the opposite relation: predicted from "a" and "c"
	// only, its out-of-fold probabilities are wrong-way round.
	var x [][]float64
	var y []bool
	var g []string
	for _, grp := range []string{"a", "b", "c"} {
		for i := 0; i < 40; i++ {
			v := float64(i) / 40
			x = append(x, []float64{v})
			y = append(y, (v > 0.5) != (grp == "b"))
			g = append(g, grp)
		}
	}
	p := CrossValidate(x, y, nil, nil, nil, nil, g, 0.1)
	var pb []float64
	var yb []bool
	for i := range p {
		if g[i] == "b" {
			pb, yb = append(pb, p[i]), append(yb, y[i])
		}
	}
	if a := AUROC(pb, yb); a > 0.1 {
		t.Errorf("group b out of fold: AUROC %v, want near 0 (never fitted on itself)", a)
	}
	if f := Folds(g); len(f) != 3 || f[0] != "a" || f[2] != "c" {
		t.Errorf("folds = %v", f)
	}
}

func TestFitProduct(t *testing.T) {
	// Real answers: right when v > 0.5. Made-up negatives: all wrong, with
	// v spread alike but off = 1. The answer model sees only the real ones;
	// the product sends the made-up ones low without making the real ones
	// less confident than the answer model alone.
	var x [][]float64
	var y, made []bool
	for i := 0; i < 100; i++ {
		v := float64(i) / 100
		x, y, made = append(x, []float64{v, 0}), append(y, v > 0.5), append(made, false)
		x, y, made = append(x, []float64{v, 1}), append(y, false), append(made, true)
	}
	p, err := FitProduct(x, y, made, nil, nil, nil, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if p.OnQuestion == nil {
		t.Fatal("no on-question model despite made-up negatives")
	}
	if got := p.Probability([]float64{0.95, 0}); got < 0.8 {
		t.Errorf("a real answer with v 0.95: %v, want >= 0.8", got)
	}
	if got := p.Probability([]float64{0.95, 1}); got > 0.2 {
		t.Errorf("a made-up negative with v 0.95: %v, want <= 0.2", got)
	}
	if got := p.Answer.Probability([]float64{0.95, 1}); got < 0.8 {
		t.Errorf("the answer model learnt from the made-up negatives: %v", got)
	}
	only, err := FitProduct(x[:0:0], nil, nil, nil, nil, nil, 0.1)
	if err == nil || only != nil {
		t.Errorf("no examples: %v, %v", only, err)
	}
	noMade, err := FitProduct(x, y, nil, nil, nil, nil, 0.1)
	if err != nil || noMade.OnQuestion != nil {
		t.Errorf("without made-up negatives: %+v, %v; want the answer model alone", noMade, err)
	}
}

// TestFitProductOnInputs: the on-question model reads only the inputs it
// is given; the others weigh exactly 0, and the answer model reads all.
func TestFitProductOnInputs(t *testing.T) {
	var x [][]float64
	var y, made []bool
	for i := 0; i < 100; i++ {
		v := float64(i) / 100
		// Entry 2 tells made-up answers apart as well as entry 1 does.
		x, y, made = append(x, []float64{v, 0, 0}), append(y, v > 0.5), append(made, false)
		x, y, made = append(x, []float64{v, 1, 1}), append(y, false), append(made, true)
	}
	p, err := FitProduct(x, y, made, nil, nil, []bool{false, true, false}, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if w := p.OnQuestion.Weights; w[0] != 0 || w[2] != 0 || w[1] >= 0 {
		t.Errorf("on-question weights %v: want 0 for the inputs left out, < 0 for entry 1", w)
	}
	if got := p.Probability([]float64{0.95, 1, 0}); got > 0.2 {
		t.Errorf("a made-up answer seen by entry 1: %v, want <= 0.2", got)
	}
	if got := p.Probability([]float64{0.95, 0, 1}); got < 0.5 {
		t.Errorf("entry 2 moved the on-question model: %v", got)
	}
	if all, _ := FitProduct(x, y, made, nil, nil, nil, 0.1); all.OnQuestion.Weights[2] == 0 {
		t.Errorf("without a mask the on-question model ignores entry 2: %v", all.OnQuestion.Weights)
	}
}

// TestFitProductInputs: the answer model reads only the inputs it is
// given; the others weigh exactly 0 in it and in the on-question model.
func TestFitProductInputs(t *testing.T) {
	var x [][]float64
	var y, made []bool
	for i := 0; i < 100; i++ {
		v := float64(i) / 100
		// Entry 1 tells right answers apart as well as entry 0 does.
		x, y, made = append(x, []float64{v, v, 0}), append(y, v > 0.5), append(made, false)
		x, y, made = append(x, []float64{v, v, 1}), append(y, false), append(made, true)
	}
	p, err := FitProduct(x, y, made, nil, []bool{true, false, true}, []bool{false, false, true}, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if w := p.Answer.Weights; w[1] != 0 || w[0] <= 0 {
		t.Errorf("answer weights %v: want 0 for entry 1, > 0 for entry 0", w)
	}
	if w := p.OnQuestion.Weights; w[0] != 0 || w[1] != 0 {
		t.Errorf("on-question weights %v: want 0 for the inputs left out", w)
	}
	if all, _ := FitProduct(x, y, made, nil, nil, nil, 0.1); all.Answer.Weights[1] == 0 {
		t.Errorf("without a mask the answer model ignores entry 1: %v", all.Answer.Weights)
	}
}
