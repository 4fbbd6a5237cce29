package nl2sql_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/score"
)

// TestMovedScoringNames: a program written against the root's scoring
// and confidence names still compiles and gets what the new packages
// give: the same default calibrator, signal names, scores, signals, fit,
// file form and sentinel.
func TestMovedScoringNames(t *testing.T) {
	var s nl2sql.Scorer = nl2sql.DefaultScorer{}
	in := &nl2sql.ScoreInput{Question: "How many orders?", Candidates: []nl2sql.ScoreCandidate{
		{SQL: "SELECT id FROM orders", Votes: 1, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1},
		{SQL: "SELECT count(*) FROM orders", Votes: 1, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1},
	}}
	old, now := s.Score(context.Background(), in), score.Default{}.Score(context.Background(), in)
	if !slices.Equal(old, now) {
		t.Errorf("DefaultScorer %v, score.Default %v", old, now)
	}
	sig := nl2sql.SignalsOf(in, old, 1)
	if want := confidence.Of(in, now, 1); !slices.Equal(sig.Vector(), want.Vector()) || !slices.Equal(sig.Reasons(), want.Reasons()) {
		t.Errorf("SignalsOf %+v, confidence.Of %+v", sig, want)
	}
	var c nl2sql.Calibrator = nl2sql.DefaultCalibrator()
	if c != confidence.Default() || c.Confidence(&sig) != confidence.Default().Confidence(&sig) {
		t.Error("DefaultCalibrator is not confidence.Default")
	}
	if !slices.Equal(nl2sql.SignalNames(), confidence.Names()) {
		t.Errorf("SignalNames %v, confidence.Names %v", nl2sql.SignalNames(), confidence.Names())
	}
	bad := confidence.Of(in, now, 0)
	var ex []nl2sql.CalibrationExample
	for i := range 10 {
		ex = append(ex, nl2sql.CalibrationExample{Signals: sig, Right: i%5 != 0}, nl2sql.CalibrationExample{Signals: bad, Right: i%5 == 0})
	}
	fit, err := nl2sql.FitCalibrator(ex, "moved")
	if err != nil {
		t.Fatal(err)
	}
	var lc *nl2sql.LogisticCalibrator = fit
	want, err := confidence.Fit(ex, "moved")
	if err != nil || lc.Bias != want.Bias || lc.Confidence(&sig) != want.Confidence(&sig) {
		t.Errorf("FitCalibrator %+v, confidence.Fit %+v (%v)", lc, want, err)
	}
	if _, err := nl2sql.LoadCalibrator(strings.NewReader(`{"weights":{"nope":1}}`)); !errors.Is(err, nl2sql.ErrCalibration) || !errors.Is(err, confidence.ErrCalibration) {
		t.Errorf("LoadCalibrator of an unknown signal: %v, want ErrCalibration", err)
	}
}
