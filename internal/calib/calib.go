// Package calib fits and measures the calibrator that turns an answer's
// signals into the probability that it is right: an L2-regularised
// logistic regression fitted by Newton's method (deterministic: the same
// examples give the same coefficients, bit for bit), and the figures that
// say how well a probability is calibrated (AUROC, expected calibration
// error, a reliability table, accuracy at thresholds).
package calib

import (
	"errors"
	"math"
	"slices"
	"sort"
)

// L2 is the penalty the confidence calibrator is fitted with
// (confidence.Fit, and the calibration test's fit of each fold): enough to
// keep a signal that never varies in the examples at a weight near 0.
const L2 = 1.0

// ErrNoExamples is returned by Fit without examples of both outcomes.
var ErrNoExamples = errors.New("calib: need right and wrong examples to fit")

// Model is a logistic regression: P(right) = 1 / (1 + exp(-(Bias + Σ
// Weights[i]·x[i]))).
type Model struct {
	Weights []float64 `json:"weights"`
	Bias    float64   `json:"bias"`
}

// Probability is the model's P(right) for x.
func (m *Model) Probability(x []float64) float64 {
	z := m.Bias
	for i, w := range m.Weights {
		if i < len(x) {
			z += w * x[i]
		}
	}
	return 1 / (1 + math.Exp(-z))
}

// Fit fits a logistic regression of y on x with an L2 penalty lambda on
// the weights (not the bias), by Newton's method from zero.
func Fit(x [][]float64, y []bool, lambda float64) (*Model, error) {
	return FitWeighted(x, y, nil, lambda)
}

// FitWeighted is Fit with a weight per example (nil: all 1).
func FitWeighted(x [][]float64, y []bool, weight []float64, lambda float64) (*Model, error) {
	pos := 0
	for _, v := range y {
		if v {
			pos++
		}
	}
	if len(x) == 0 || len(x) != len(y) || pos == 0 || pos == len(y) {
		return nil, ErrNoExamples
	}
	d := len(x[0]) + 1 // bias last
	beta := make([]float64, d)
	row := func(i int) []float64 { return append(append([]float64(nil), x[i]...), 1) }
	for iter := 0; iter < 100; iter++ {
		grad := make([]float64, d)
		hess := make([][]float64, d)
		for k := range hess {
			hess[k] = make([]float64, d)
		}
		for i := range x {
			r := row(i)
			z := 0.0
			for k := range r {
				z += beta[k] * r[k]
			}
			p := 1 / (1 + math.Exp(-z))
			t := 0.0
			if y[i] {
				t = 1
			}
			ew := 1.0
			if weight != nil {
				ew = weight[i]
			}
			w := ew * max(p*(1-p), 1e-9)
			for a := range r {
				grad[a] += ew * (p - t) * r[a]
				for b := range r {
					hess[a][b] += w * r[a] * r[b]
				}
			}
		}
		for k := 0; k < d-1; k++ {
			grad[k] += lambda * beta[k]
			hess[k][k] += lambda
		}
		hess[d-1][d-1] += 1e-9
		step, ok := solve(hess, grad)
		if !ok {
			break
		}
		change := 0.0
		for k := range beta {
			beta[k] -= step[k]
			change = max(change, math.Abs(step[k]))
		}
		if change < 1e-10 {
			break
		}
	}
	m := &Model{Weights: beta[:d-1], Bias: beta[d-1]}
	for k, w := range m.Weights {
		m.Weights[k] = round(w)
	}
	m.Bias = round(m.Bias)
	return m, nil
}

// round keeps 6 decimals: the embedded file stays readable and the same on
// every platform (the last bits of a Newton step may differ between FMA
// and non-FMA builds).
func round(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// solve solves a·x = b by Gaussian elimination with partial pivoting.
func solve(a [][]float64, b []float64) ([]float64, bool) {
	n := len(b)
	m := make([][]float64, n)
	for i := range a {
		m[i] = append(append([]float64(nil), a[i]...), b[i])
	}
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if math.Abs(m[p][c]) < 1e-12 {
			return nil, false
		}
		m[c], m[p] = m[p], m[c]
		for r := c + 1; r < n; r++ {
			f := m[r][c] / m[c][c]
			for k := c; k <= n; k++ {
				m[r][k] -= f * m[c][k]
			}
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := m[r][n]
		for k := r + 1; k < n; k++ {
			s -= m[r][k] * x[k]
		}
		x[r] = s / m[r][r]
	}
	return x, true
}

// AUROC is the probability that a right answer gets a higher p than a
// wrong one (ties count half); 0.5 when one outcome is missing.
func AUROC(p []float64, y []bool) float64 {
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	// Mann-Whitney U with mid-ranks for ties.
	rankSum, pos := 0.0, 0
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && p[idx[j]] == p[idx[i]] {
			j++
		}
		mid := float64(i+j+1) / 2
		for k := i; k < j; k++ {
			if y[idx[k]] {
				rankSum += mid
				pos++
			}
		}
		i = j
	}
	neg := len(p) - pos
	if pos == 0 || neg == 0 {
		return 0.5
	}
	return (rankSum - float64(pos)*float64(pos+1)/2) / (float64(pos) * float64(neg))
}

// Bin is one row of a reliability table: the answers whose p fell in
// [Low, High).
type Bin struct {
	Low, High  float64
	Count      int
	Right      int
	Confidence float64 // mean p
	Accuracy   float64 // Right / Count
}

// Reliability bins p in n equal-width bins (the last one includes 1).
func Reliability(p []float64, y []bool, n int) []Bin {
	bins := make([]Bin, n)
	for i := range bins {
		bins[i].Low, bins[i].High = float64(i)/float64(n), float64(i+1)/float64(n)
	}
	for i, v := range p {
		k := min(int(v*float64(n)), n-1)
		bins[k].Count++
		bins[k].Confidence += v
		if y[i] {
			bins[k].Right++
		}
	}
	for i := range bins {
		if bins[i].Count > 0 {
			bins[i].Confidence /= float64(bins[i].Count)
			bins[i].Accuracy = float64(bins[i].Right) / float64(bins[i].Count)
		}
	}
	return bins
}

// ECE is the expected calibration error over 10 equal-width bins: the
// count-weighted mean gap between confidence and accuracy.
func ECE(p []float64, y []bool) float64 {
	if len(p) == 0 {
		return 0
	}
	e := 0.0
	for _, b := range Reliability(p, y, 10) {
		e += float64(b.Count) * math.Abs(b.Confidence-b.Accuracy)
	}
	return e / float64(len(p))
}

// LogLoss is the mean negative log-likelihood of the outcomes y under the
// probabilities p, each kept within [1e-6, 1-1e-6] so that one certain
// mistake does not make it infinite; 0 without answers.
func LogLoss(p []float64, y []bool) float64 {
	if len(p) == 0 {
		return 0
	}
	loss := 0.0
	for i, v := range p {
		v = min(max(v, 1e-6), 1-1e-6)
		if !y[i] {
			v = 1 - v
		}
		loss -= math.Log(v)
	}
	return loss / float64(len(p))
}

// Threshold is the accuracy of the answers with p at or above At, and the
// share of all answers they are.
type Threshold struct {
	At       float64
	Answers  int
	Right    int
	Accuracy float64
	Coverage float64
}

// AtThresholds measures accuracy and coverage at each threshold.
func AtThresholds(p []float64, y []bool, at []float64) []Threshold {
	out := make([]Threshold, len(at))
	for k, t := range at {
		out[k].At = t
		for i, v := range p {
			if v >= t {
				out[k].Answers++
				if y[i] {
					out[k].Right++
				}
			}
		}
		if out[k].Answers > 0 {
			out[k].Accuracy = float64(out[k].Right) / float64(out[k].Answers)
		}
		if len(p) > 0 {
			out[k].Coverage = float64(out[k].Answers) / float64(len(p))
		}
	}
	return out
}

// Folds returns the distinct groups of groups in sorted order: one fold
// per group (a database), for cross-validation that never fits and scores
// on the same group.
func Folds(groups []string) []string {
	out := slices.Clone(groups)
	slices.Sort(out)
	return slices.Compact(out)
}

// Product is the calibrator fitted on answers to the questions and
// answers made up from other questions: P(right) = Answer(x) ·
// OnQuestion(x). OnQuestion is the probability that the query is about
// the question asked at all, fitted on every example (a made-up answer
// counts as off the question unless it is right all the same); Answer is
// the probability that it is right given that it is, fitted on the
// answers to the questions only, so that the made-up ones, as many as the
// real ones, do not drag down the confidence of every real answer.
// Without made-up answers OnQuestion is nil and Answer alone is the
// model.
type Product struct {
	Answer     *Model
	OnQuestion *Model
}

// Probability is the product's P(right) for x.
func (p *Product) Probability(x []float64) float64 {
	v := p.Answer.Probability(x)
	if p.OnQuestion != nil {
		v *= p.OnQuestion.Probability(x)
	}
	return v
}

// FitProduct fits a Product: madeUp marks the made-up negatives (nil:
// none), weight is each example's weight (nil: all 1), inputs the
// entries of x Answer reads and onInputs those OnQuestion reads (nil:
// all; the others weigh 0).
func FitProduct(x [][]float64, y, madeUp []bool, weight []float64, inputs, onInputs []bool, lambda float64) (*Product, error) {
	var ax [][]float64
	var ay []bool
	var aw []float64
	on := make([]bool, len(x))
	any := false
	for i := range x {
		on[i] = y[i] || madeUp == nil || !madeUp[i]
		if madeUp != nil && madeUp[i] {
			any = true
			continue
		}
		ax, ay = append(ax, x[i]), append(ay, y[i])
		if weight != nil {
			aw = append(aw, weight[i])
		}
	}
	a, err := FitWeighted(masked(ax, inputs), ay, aw, lambda)
	if err != nil {
		return nil, err
	}
	p := &Product{Answer: a}
	if any {
		if p.OnQuestion, err = FitWeighted(masked(x, onInputs), on, weight, lambda); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// masked is x with the entries inputs leaves out set to 0 (x itself when
// inputs is nil): a regression fitted on it weighs them 0.
func masked(x [][]float64, inputs []bool) [][]float64 {
	if inputs == nil {
		return x
	}
	out := make([][]float64, len(x))
	for i, row := range x {
		out[i] = make([]float64, len(row))
		for k, v := range row {
			if k < len(inputs) && inputs[k] {
				out[i][k] = v
			}
		}
	}
	return out
}

// CrossValidate fits a Product on every fold but one and predicts the one
// left out, for each fold: out-of-fold probabilities, one per example. A
// fold whose training part cannot be fitted predicts the training base
// rate.
func CrossValidate(x [][]float64, y, madeUp []bool, weight []float64, inputs, onInputs []bool, groups []string, lambda float64) []float64 {
	p := make([]float64, len(x))
	for _, g := range Folds(groups) {
		var tx [][]float64
		var ty, tm []bool
		var tw []float64
		for i := range x {
			if groups[i] != g {
				tx, ty = append(tx, x[i]), append(ty, y[i])
				if madeUp != nil {
					tm = append(tm, madeUp[i])
				}
				if weight != nil {
					tw = append(tw, weight[i])
				}
			}
		}
		m, err := FitProduct(tx, ty, tm, tw, inputs, onInputs, lambda)
		for i := range x {
			if groups[i] != g {
				continue
			}
			if err != nil {
				p[i] = baseRate(ty)
				continue
			}
			p[i] = m.Probability(x[i])
		}
	}
	return p
}

func baseRate(y []bool) float64 {
	if len(y) == 0 {
		return 0.5
	}
	n := 0
	for _, v := range y {
		if v {
			n++
		}
	}
	return float64(n) / float64(len(y))
}
