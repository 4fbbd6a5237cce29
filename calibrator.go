package nl2sql

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/nl2sqlgo/nl2sql/internal/calib"
)

// Calibrator turns the signals of a chosen query into the probability that
// it answers the question right (Result.Confidence, PickResult.Confidence).
// The default is DefaultCalibrator; WithCalibrator sets another (one refit
// on a user's own exam with `nl2sql calibrate`, read with LoadCalibrator).
// It must be safe for concurrent use and deterministic.
type Calibrator interface {
	Confidence(s *Signals) float64
}

// LogisticCalibrator is a logistic regression on the signals: P(right) =
// 1 / (1 + exp(-(Bias + Σ Weights[name]·signal[name]))), with one weight per
// entry of SignalNames (tens of parameters: little to overfit). Its JSON
// form is what `nl2sql calibrate` writes and LoadCalibrator reads.
type LogisticCalibrator struct {
	// Source says what it was fitted on ("spider-pools and its shuffled
	// variant, 1944 answers").
	Source string `json:"source"`
	// Weights has one coefficient per signal, by name (SignalNames);
	// a missing name weighs 0.
	Weights map[string]float64 `json:"weights"`
	Bias    float64            `json:"bias"`

	once  sync.Once
	model calib.Model
}

// Confidence implements Calibrator.
func (c *LogisticCalibrator) Confidence(s *Signals) float64 {
	c.once.Do(func() {
		c.model.Bias = c.Bias
		for _, n := range signalNames {
			c.model.Weights = append(c.model.Weights, c.Weights[n])
		}
	})
	return c.model.Probability(s.vector())
}

// SignalNames are the names of the signals a LogisticCalibrator weighs, in
// a fixed order.
func SignalNames() []string { return slices.Clone(signalNames) }

// CalibrationExample is one answer with its signals and whether it was right: what a
// calibrator is fitted on.
type CalibrationExample struct {
	Signals Signals `json:"signals"`
	Right   bool    `json:"right"`
	// Weight is how much the example counts in the fit (0 counts 1): a
	// made-up negative may count less than a real answer.
	Weight float64 `json:"weight,omitempty"`
}

// ErrCalibration is the sentinel of a calibrator that cannot be fitted or
// read (no right or no wrong example, a malformed file).
var ErrCalibration = errors.New("nl2sql: calibration")

// calibrationL2 is the L2 penalty of FitCalibrator: enough to keep a
// signal that never varies in the examples at a weight near 0.
const calibrationL2 = 1.0

// FitCalibrator fits a LogisticCalibrator on examples (at least one right
// and one wrong answer). The same examples give the same calibrator.
func FitCalibrator(examples []CalibrationExample, source string) (*LogisticCalibrator, error) {
	x := make([][]float64, len(examples))
	y := make([]bool, len(examples))
	w := make([]float64, len(examples))
	for i := range examples {
		x[i], y[i], w[i] = examples[i].Signals.vector(), examples[i].Right, examples[i].Weight
		if w[i] <= 0 {
			w[i] = 1
		}
	}
	m, err := calib.FitWeighted(x, y, w, calibrationL2)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCalibration, err)
	}
	c := &LogisticCalibrator{Source: source, Bias: m.Bias, Weights: map[string]float64{}}
	for i, n := range signalNames {
		c.Weights[n] = m.Weights[i]
	}
	return c, nil
}

// LoadCalibrator reads a LogisticCalibrator in the JSON form `nl2sql
// calibrate` writes. Unknown signal names are refused (a file written for
// another version).
func LoadCalibrator(r io.Reader) (*LogisticCalibrator, error) {
	var c LogisticCalibrator
	dec := json.NewDecoder(io.LimitReader(r, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCalibration, err)
	}
	var unknown []string
	for n := range c.Weights {
		if !slices.Contains(signalNames, n) {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return nil, fmt.Errorf("%w: unknown signals %s", ErrCalibration, strings.Join(unknown, ", "))
	}
	return &c, nil
}

// calibration.json is written by TestSpiderPools -update (go generate:
// it needs the spider-pools dataset and a PostgreSQL, NL2SQL_TEST_DSN); the
// test fails when the file is not the fit it computes.
//
//go:generate go test -run TestSpiderPools -update
//go:embed calibration.json
var defaultCalibration string

var defaultCalibrator = sync.OnceValue(func() *LogisticCalibrator {
	c, err := LoadCalibrator(strings.NewReader(defaultCalibration))
	if err != nil {
		panic("nl2sql: the embedded calibration.json does not load: " + err.Error())
	}
	return c
})

// DefaultCalibrator is the calibrator fitted by `go generate` on the
// spider-pools benchmark and its negative variants (calibration.json; see
// docs/benchmarks.md for how it was fitted and how well it is calibrated).
func DefaultCalibrator() *LogisticCalibrator { return defaultCalibrator() }
