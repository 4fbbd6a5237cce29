package confidence

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
// it answers the question right (nl2sql's Result.Confidence and
// PickResult.Confidence). The Engine's is Default unless
// nl2sql.WithCalibrator sets another (one refit on a user's own exam with
// `nl2sql calibrate`, read with Load). It must be safe for concurrent use
// and deterministic.
type Calibrator interface {
	Confidence(s *Signals) float64
}

// Logistic is a logistic regression on the signals: P(right) =
// 1 / (1 + exp(-(Bias + Σ Weights[name]·signal[name]))), with one weight per
// entry of Names (tens of parameters: little to overfit), times
// OnQuestion's probability when it is set. Its JSON form is what `nl2sql
// calibrate` writes and Load reads.
type Logistic struct {
	// Source says what it was fitted on ("spider-pools and its shuffled
	// variant, 1944 answers").
	Source string `json:"source"`
	// Weights has one coefficient per signal, by name (Names);
	// a missing name weighs 0.
	Weights map[string]float64 `json:"weights"`
	Bias    float64            `json:"bias"`
	// OnQuestion, when set, is a second logistic regression, on the
	// signals of how the query meets the question (OnQuestionInputs; Fit
	// weighs the others 0): the probability that the query is about the
	// question asked at all, fitted on answers to the question against answers made up
	// from other questions (another question's queries, SELECT 1). The
	// confidence is then P(right | about the question) · P(about the
	// question), and Weights and Bias are fitted on the answers to the
	// question only (right ones, wrong ones, and near misses such as a
	// condition dropped or a column swapped): as many answers to other
	// questions as real ones would otherwise make every real answer's
	// confidence pessimistic.
	OnQuestion *LogisticWeights `json:"on_question,omitempty"`

	once  sync.Once
	model calib.Product
}

// LogisticWeights are a logistic regression's coefficients by signal name
// (Names; a missing name weighs 0) and its bias.
type LogisticWeights struct {
	Weights map[string]float64 `json:"weights"`
	Bias    float64            `json:"bias"`
}

// Confidence implements Calibrator.
func (c *Logistic) Confidence(s *Signals) float64 {
	c.once.Do(func() {
		c.model.Answer = model(c.Weights, c.Bias)
		if c.OnQuestion != nil {
			c.model.OnQuestion = model(c.OnQuestion.Weights, c.OnQuestion.Bias)
		}
	})
	return c.model.Probability(s.Vector())
}

func model(weights map[string]float64, bias float64) *calib.Model {
	m := &calib.Model{Bias: bias}
	for _, n := range signalNames {
		m.Weights = append(m.Weights, weights[n])
	}
	return m
}

func named(m *calib.Model) map[string]float64 {
	out := map[string]float64{}
	for i, n := range signalNames {
		out[n] = m.Weights[i]
	}
	return out
}

// Names are the names of the signals a Logistic weighs, in a fixed order
// (the order of Signals.Vector).
func Names() []string { return slices.Clone(signalNames) }

// onQuestionSignals are what OnQuestion reads: how the query meets the
// question (its words both ways, the values, names and constants, the
// negation, the answer's shape, the tables retrieval ranked for it). Not
// how far the candidates agree, the Scorer's score or the run: samples
// that agree say what the model meant, not that it answers what was
// asked, and a fit that let them in learnt how the made-up answers were
// made (every system agreeing on another question's query) instead.
var onQuestionSignals = []string{
	"question_covered", "query_named", "tables_named", "columns_linked", "values_used", "values_missed", "names_missed",
	"constants_unasked", "negation_missed", "shape_missed", "shape_extra",
	"reads_no_table", "outside_context", "context_rank", "columns_unasked", "columns_missed", "columns_unreturned", "extreme_reversed", "aggregate_mismatched",
}

// OnQuestionInputs marks, in the order of Names, the signals a fitted
// OnQuestion reads (the others weigh 0): for a program that fits the same
// model on its own folds.
func OnQuestionInputs() []bool {
	out := make([]bool, len(signalNames))
	for i, n := range signalNames {
		out[i] = slices.Contains(onQuestionSignals, n)
	}
	return out
}

// unweighedSignals are measured and shown (Signals, the exam log) but
// Fit weighs them 0 in both models: the exams, which decide what the
// calibrator reads, are predicted better without them (their log-loss
// and each exam's AUROC; docs/benchmarks.md, session 22). The order a question names its
// columns in says nothing of whether the rows are right (fitted, it
// weighed a query returning them in another order as more likely right,
// a habit of one benchmark's gold queries), and how many shapes a
// question asks for is the question's, not the answer's (whether the
// answer misses one is ShapeMissed). A calibrator fitted before, which
// weighs them, still reads them.
var unweighedSignals = []string{"columns_out_of_order", "shape_asked"}

// Inputs marks, in the order of Names, the signals Fit weighs at all (the
// others it weighs 0 in both models): for a program that fits the same
// model on its own folds.
func Inputs() []bool {
	out := make([]bool, len(signalNames))
	for i, n := range signalNames {
		out[i] = !slices.Contains(unweighedSignals, n)
	}
	return out
}

// Example is one answer with its signals and whether it was right: what a
// calibrator is fitted on.
type Example struct {
	Signals Signals `json:"signals"`
	Right   bool    `json:"right"`
	// Weight is how much the example counts in the fit (0 counts 1): a
	// made-up negative may count less than a real answer.
	Weight float64 `json:"weight,omitempty"`
	// MadeUp marks an answer made up from another question (its query,
	// SELECT 1) rather than an answer to this one: with any,
	// Fit fits OnQuestion as well. A near miss made for the fit
	// (a condition dropped, a column swapped) is a wrong answer to the
	// question, not MadeUp.
	MadeUp bool `json:"made_up,omitempty"`
}

// ErrCalibration is the sentinel of a calibrator that cannot be fitted or
// read (no right or no wrong example, a malformed file).
var ErrCalibration = errors.New("confidence: calibration")

// Fit fits a Logistic on examples (at least one right and one wrong real
// answer), with OnQuestion when some are MadeUp. The same examples give
// the same calibrator.
func Fit(examples []Example, source string) (*Logistic, error) {
	x := make([][]float64, len(examples))
	y := make([]bool, len(examples))
	made := make([]bool, len(examples))
	w := make([]float64, len(examples))
	for i := range examples {
		x[i], y[i], made[i], w[i] = examples[i].Signals.Vector(), examples[i].Right, examples[i].MadeUp, examples[i].Weight
		if w[i] <= 0 {
			w[i] = 1
		}
	}
	m, err := calib.FitProduct(x, y, made, w, Inputs(), OnQuestionInputs(), calib.L2)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCalibration, err)
	}
	c := &Logistic{Source: source, Bias: m.Answer.Bias, Weights: named(m.Answer)}
	if m.OnQuestion != nil {
		c.OnQuestion = &LogisticWeights{Weights: named(m.OnQuestion), Bias: m.OnQuestion.Bias}
	}
	return c, nil
}

// Load reads a Logistic in the JSON form `nl2sql calibrate` writes.
// Unknown signal names are refused (a file written for another version).
func Load(r io.Reader) (*Logistic, error) {
	var c Logistic
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
	if c.OnQuestion != nil {
		for n := range c.OnQuestion.Weights {
			if !slices.Contains(signalNames, n) && !slices.Contains(unknown, n) {
				unknown = append(unknown, n)
			}
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return nil, fmt.Errorf("%w: unknown signals %s", ErrCalibration, strings.Join(unknown, ", "))
	}
	return &c, nil
}

// calibration.json is written by the root package's TestSpiderPools
// -update (go generate: it needs the spider-pools and defog datasets and a
// PostgreSQL, NL2SQL_TEST_DSN): the signals are measured on the Engine's
// picks. The test fails when the file is not the fit it computes.
//
//go:generate go test .. -run TestSpiderPools -update
//go:embed calibration.json
var defaultCalibration string

var defaultCalibrator = sync.OnceValue(func() *Logistic {
	c, err := Load(strings.NewReader(defaultCalibration))
	if err != nil {
		panic("confidence: the embedded calibration.json does not load: " + err.Error())
	}
	return c
})

// Default is the calibrator fitted by `go generate` on the spider-pools
// benchmark, the defog and demo ERP exams and the negatives made from them
// (calibration.json; see docs/benchmarks.md for how it was fitted and how
// well it is calibrated).
func Default() *Logistic { return defaultCalibrator() }
