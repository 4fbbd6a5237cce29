package nl2sql_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
)

func TestCalibratorFile(t *testing.T) {
	def := nl2sql.DefaultCalibrator()
	if def.Source == "" || len(def.Weights) != len(nl2sql.SignalNames()) {
		t.Errorf("default calibrator: source %q, %d weights for %d signals", def.Source, len(def.Weights), len(nl2sql.SignalNames()))
	}
	for n := range def.Weights {
		if !slices.Contains(nl2sql.SignalNames(), n) {
			t.Errorf("default calibrator weighs unknown signal %q", n)
		}
	}
	for _, bad := range []string{`{"weights":{"nope":1}}`, `not json`, `{"weights":{},"bias":0,"extra":1}`, `{"weights":{},"on_question":{"weights":{"nope":1}}}`} {
		if _, err := nl2sql.LoadCalibrator(strings.NewReader(bad)); !errors.Is(err, nl2sql.ErrCalibration) {
			t.Errorf("LoadCalibrator(%s): %v, want ErrCalibration", bad, err)
		}
	}
	good := nl2sql.Signals{Candidates: 3, Support: 1, Compared: true, Groups: 1, QuestionCovered: 1, QueryNamed: 1, TablesNamed: 1, ColumnsLinked: 1, ValuesUsed: 1}
	bad := nl2sql.Signals{Candidates: 3, Support: 1.0 / 3, Compared: true, Groups: 3, ReadsNoTable: true, ShapeAsked: 1, ShapeMissed: 1}
	if _, err := nl2sql.FitCalibrator([]nl2sql.CalibrationExample{{Signals: good, Right: true}}, "x"); !errors.Is(err, nl2sql.ErrCalibration) {
		t.Errorf("one outcome: %v", err)
	}
	var ex []nl2sql.CalibrationExample
	for i := 0; i < 20; i++ {
		ex = append(ex, nl2sql.CalibrationExample{Signals: good, Right: i%10 != 0}, nl2sql.CalibrationExample{Signals: bad, Right: i%10 == 0})
	}
	c, err := nl2sql.FitCalibrator(ex, "test")
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
func roundTrip(t *testing.T, c *nl2sql.LogisticCalibrator, signals ...nl2sql.Signals) {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	back, err := nl2sql.LoadCalibrator(strings.NewReader(string(b)))
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
// every candidate agrees on), FitCalibrator fits the on-question model too:
// the made-up answers get a low confidence, the real ones the confidence
// of the real answers alone, and the file form keeps both models.
func TestCalibratorMadeUp(t *testing.T) {
	onTopic := nl2sql.Signals{Candidates: 3, Support: 1, Compared: true, Groups: 1, QuestionCovered: 1, QueryNamed: 1, TablesNamed: 1, ColumnsLinked: 1, ValuesUsed: 1}
	split := onTopic
	split.Support, split.Groups = 1.0/3, 3
	offTopic := onTopic
	offTopic.QuestionCovered, offTopic.QueryNamed, offTopic.ColumnsLinked = 0.2, 0.1, 0
	var ex []nl2sql.CalibrationExample
	for i := 0; i < 20; i++ {
		ex = append(ex, nl2sql.CalibrationExample{Signals: onTopic, Right: i%10 != 0}, nl2sql.CalibrationExample{Signals: split, Right: i%2 == 0},
			nl2sql.CalibrationExample{Signals: offTopic, MadeUp: true})
	}
	c, err := nl2sql.FitCalibrator(ex, "test")
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
	roundTrip(t, c, onTopic, split, offTopic)
}
