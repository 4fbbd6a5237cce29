package confidence_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/confidence"
)

func TestCalibratorFile(t *testing.T) {
	def := confidence.Default()
	if def.Source == "" || len(def.Weights) != len(confidence.Names()) {
		t.Errorf("default calibrator: source %q, %d weights for %d signals", def.Source, len(def.Weights), len(confidence.Names()))
	}
	for n := range def.Weights {
		if !slices.Contains(confidence.Names(), n) {
			t.Errorf("default calibrator weighs unknown signal %q", n)
		}
	}
	for _, bad := range []string{`{"weights":{"nope":1}}`, `not json`, `{"weights":{},"bias":0,"extra":1}`, `{"weights":{},"on_question":{"weights":{"nope":1}}}`} {
		if _, err := confidence.Load(strings.NewReader(bad)); !errors.Is(err, confidence.ErrCalibration) {
			t.Errorf("Load(%s): %v, want ErrCalibration", bad, err)
		}
	}
	good := confidence.Signals{Candidates: 3, Support: 1, Compared: true, Groups: 1, QuestionCovered: 1, QueryNamed: 1, TablesNamed: 1, ColumnsLinked: 1, ValuesUsed: 1}
	bad := confidence.Signals{Candidates: 3, Support: 1.0 / 3, Compared: true, Groups: 3, ReadsNoTable: true, ShapeAsked: 1, ShapeMissed: 1}
	if _, err := confidence.Fit([]confidence.Example{{Signals: good, Right: true}}, "x"); !errors.Is(err, confidence.ErrCalibration) {
		t.Errorf("one outcome: %v", err)
	}
	var ex []confidence.Example
	for i := 0; i < 20; i++ {
		ex = append(ex, confidence.Example{Signals: good, Right: i%10 != 0}, confidence.Example{Signals: bad, Right: i%10 == 0})
	}
	c, err := confidence.Fit(ex, "test")
	if err != nil {
		t.Fatal(err)
	}
	if pg, pb := c.Confidence(&good), c.Confidence(&bad); pg <= pb || pg < 0.5 || pb > 0.5 {
		t.Errorf("fitted: good %.3f, bad %.3f", pg, pb)
	}
	// The file form loads back to the same calibrator.
	roundTrip(t, c, good, bad)
}

// roundTrip checks that c's file form loads back to a calibrator giving
// the same confidence to each of signals.
func roundTrip(t *testing.T, c *confidence.Logistic, signals ...confidence.Signals) {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	back, err := confidence.Load(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range signals {
		if back.Confidence(&signals[i]) != c.Confidence(&signals[i]) {
			t.Errorf("round trip changed the confidence of %+v", signals[i])
		}
	}
}

// TestCalibratorMadeUp: with made-up negatives (another question's query
// every candidate agrees on), Fit fits the on-question model too:
// the made-up answers get a low confidence, the real ones the confidence
// of the real answers alone, and the file form keeps both models.
func TestCalibratorMadeUp(t *testing.T) {
	onTopic := confidence.Signals{Candidates: 3, Support: 1, Compared: true, Groups: 1, QuestionCovered: 1, QueryNamed: 1, TablesNamed: 1, ColumnsLinked: 1, ValuesUsed: 1}
	split := onTopic
	split.Support, split.Groups = 1.0/3, 3
	offTopic := onTopic
	offTopic.QuestionCovered, offTopic.QueryNamed, offTopic.ColumnsLinked = 0.2, 0.1, 0
	var ex []confidence.Example
	for i := 0; i < 20; i++ {
		ex = append(ex, confidence.Example{Signals: onTopic, Right: i%10 != 0}, confidence.Example{Signals: split, Right: i%2 == 0},
			confidence.Example{Signals: offTopic, MadeUp: true})
	}
	c, err := confidence.Fit(ex, "test")
	if err != nil {
		t.Fatal(err)
	}
	if c.OnQuestion == nil {
		t.Fatal("no on-question model despite made-up negatives")
	}
	pOn, pSplit, pOff := c.Confidence(&onTopic), c.Confidence(&split), c.Confidence(&offTopic)
	if pOn < 0.75 || pOff > 0.2 || pSplit >= pOn || pSplit <= pOff {
		t.Errorf("agreeing real answer %.3f, split real answer %.3f, made-up answer %.3f", pOn, pSplit, pOff)
	}
	// The on-question model reads how the query meets the question, not
	// how far the candidates agree.
	for _, n := range []string{"support", "groups", "unanimous", "score", "repaired"} {
		if w := c.OnQuestion.Weights[n]; w != 0 {
			t.Errorf("on-question weight of %s = %v, want 0", n, w)
		}
	}
	if c.OnQuestion.Weights["question_covered"] <= 0 {
		t.Errorf("on-question weight of question_covered = %v, want > 0", c.OnQuestion.Weights["question_covered"])
	}
	roundTrip(t, c, onTopic, split, offTopic)
}

// TestUnweighedSignals: Fit weighs the signals Inputs leaves out 0 in both
// models, even where they tell the examples apart, and the shipped
// calibrator weighs them 0; a calibrator fitted before, which weighs
// them, still reads them.
func TestUnweighedSignals(t *testing.T) {
	inputs := confidence.Inputs()
	var out []string
	for k, n := range confidence.Names() {
		if !inputs[k] {
			out = append(out, n)
		}
	}
	if !slices.Equal(out, []string{"shape_asked", "columns_out_of_order"}) {
		t.Fatalf("signals Fit leaves out: %v", out)
	}
	for k, on := range confidence.OnQuestionInputs() {
		if on && !inputs[k] {
			t.Errorf("the on-question model reads %s, which Fit leaves out", confidence.Names()[k])
		}
	}
	base := confidence.Signals{Candidates: 3, Support: 1, Compared: true, Groups: 1, QuestionCovered: 1, QueryNamed: 1, TablesNamed: 1, ColumnsLinked: 1, ValuesUsed: 1}
	ordered, asked := base, base
	ordered.ColumnsOutOfOrder = true
	asked.ShapeAsked = 2
	offTopic := base
	offTopic.QuestionCovered, offTopic.QueryNamed = 0.1, 0.1
	offTopic.ShapeAsked = 2
	var ex []confidence.Example
	for i := 0; i < 20; i++ {
		// Out of order and two shapes asked are always wrong, in order
		// and one asked always right: a fit that read them would weigh
		// them heavily.
		ex = append(ex, confidence.Example{Signals: base, Right: true}, confidence.Example{Signals: ordered}, confidence.Example{Signals: asked},
			confidence.Example{Signals: offTopic, MadeUp: true}, confidence.Example{Signals: base, MadeUp: true, Right: true})
	}
	c, err := confidence.Fit(ex, "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range out {
		if c.Weights[n] != 0 || c.OnQuestion == nil || c.OnQuestion.Weights[n] != 0 {
			t.Errorf("Fit weighs %s: %v, %v", n, c.Weights[n], c.OnQuestion)
		}
		if w := confidence.Default().Weights[n]; w != 0 {
			t.Errorf("the shipped calibrator weighs %s %v", n, w)
		}
	}
	if pb, po, pa := c.Confidence(&base), c.Confidence(&ordered), c.Confidence(&asked); pb != po || pb != pa {
		t.Errorf("confidence moved with a signal Fit leaves out: %.4f, out of order %.4f, two shapes %.4f", pb, po, pa)
	}
	old, err := confidence.Load(strings.NewReader(`{"source":"before","weights":{"columns_out_of_order":2,"shape_asked":-1},"bias":0}`))
	if err != nil {
		t.Fatal(err)
	}
	if old.Confidence(&ordered) <= old.Confidence(&base) || old.Confidence(&asked) >= old.Confidence(&base) {
		t.Errorf("a calibrator that weighs them no longer reads them: %.3f %.3f %.3f", old.Confidence(&base), old.Confidence(&ordered), old.Confidence(&asked))
	}
}
