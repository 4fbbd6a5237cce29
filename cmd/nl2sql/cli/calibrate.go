package cli

// The calibrate subcommand refits the engine's confidence on a user's own
// exam.
//
//	nl2sql exam --exam FILE.csv --out ANSWERS.jsonl [flags]
//	nl2sql calibrate --answers ANSWERS.jsonl --out CALIBRATOR.json
//	nl2sql ask --calibrator CALIBRATOR.json QUESTION
//
// It reads the --out lines of an exam (each answer's "signals" and
// "ex_match"), fits a logistic calibrator on them (confidence.Fit)
// and writes it as JSON, which --calibrator (ask, pick, exam) loads with
// confidence.Load. Only answered questions count (a line with
// signals); both right and wrong answers are needed. The summary on
// stdout is the calibration of the answers' recorded confidence (the
// calibrator that ran the exam) beside the new one's, measured on the same
// answers (in-sample: run the exam again, on other questions, to measure
// it fairly).

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/internal/calib"
)

// calibrationJSON is the calibration of a set of answers in the exam and
// calibrate summaries.
type calibrationJSON struct {
	Answers     int              `json:"answers"`
	Right       int              `json:"right"`
	AUROC       float64          `json:"auroc"`
	ECE         float64          `json:"ece"`
	Reliability []reliabilityRow `json:"reliability"`
	Thresholds  []thresholdRow   `json:"thresholds"`
}

// reliabilityRow is one confidence bin: its answers, how many were right,
// their mean confidence and their accuracy.
type reliabilityRow struct {
	Low        float64 `json:"low"`
	High       float64 `json:"high"`
	Answers    int     `json:"answers"`
	Right      int     `json:"right"`
	Confidence float64 `json:"confidence"`
	Accuracy   float64 `json:"accuracy"`
}

// thresholdRow is the answers with confidence at or above At: how many,
// their accuracy, and their share of the answers.
type thresholdRow struct {
	At       float64 `json:"at"`
	Answers  int     `json:"answers"`
	Accuracy float64 `json:"accuracy"`
	Coverage float64 `json:"coverage"`
}

// calibrationThresholds are the confidence thresholds a summary reports.
var calibrationThresholds = []float64{0.5, 0.7, 0.8, 0.9, 0.95}

// calibrationOf measures how well the confidences p tell the right answers.
func calibrationOf(p []float64, right []bool) *calibrationJSON {
	c := &calibrationJSON{Answers: len(p), AUROC: calib.AUROC(p, right), ECE: calib.ECE(p, right),
		Reliability: []reliabilityRow{}, Thresholds: []thresholdRow{}}
	for _, r := range right {
		c.Right += b2i(r)
	}
	for _, b := range calib.Reliability(p, right, 10) {
		if b.Count > 0 {
			c.Reliability = append(c.Reliability, reliabilityRow{Low: b.Low, High: b.High, Answers: b.Count, Right: b.Right, Confidence: b.Confidence, Accuracy: b.Accuracy})
		}
	}
	for _, t := range calib.AtThresholds(p, right, calibrationThresholds) {
		c.Thresholds = append(c.Thresholds, thresholdRow{At: t.At, Answers: t.Answers, Accuracy: t.Accuracy, Coverage: t.Coverage})
	}
	return c
}

// calibratorFlag adds --calibrator FILE to a command that opens an engine.
func (s *sub) calibratorFlag() {
	s.fs.StringVar(&s.calibrator, "calibrator", "", "compute confidence with the calibrator FILE written by 'nl2sql calibrate' (default: the built-in one)")
}

// calibratorOption is the engine option of --calibrator, nil without it.
func (s *sub) calibratorOption() (nl2sql.Option, error) {
	if s.calibrator == "" {
		return nil, nil
	}
	f, err := os.Open(s.calibrator)
	if err != nil {
		return nil, usageErr("--calibrator: %v", err)
	}
	defer f.Close()
	c, err := confidence.Load(f)
	if err != nil {
		return nil, usageErr("--calibrator %s: %v", s.calibrator, err)
	}
	return nl2sql.WithCalibrator(c), nil
}

// calibrateSummary is the stdout JSON of calibrate.
type calibrateSummary struct {
	Examples int              `json:"examples"`
	Before   *calibrationJSON `json:"before"` // the answers' recorded confidence
	After    *calibrationJSON `json:"after"`  // the new calibrator's, in-sample
}

// answerLine is what calibrate reads of an exam --out line.
type answerLine struct {
	QID        string              `json:"qid"`
	ExMatch    bool                `json:"ex_match"`
	Confidence float64             `json:"confidence"`
	Signals    *confidence.Signals `json:"signals"`
}

func runCalibrate(_ context.Context, args []string, stdout, stderr io.Writer) error {
	s := newSub("calibrate", "usage: nl2sql calibrate --answers FILE.jsonl --out FILE.json\n\nFits the confidence calibrator on the answers of an exam ('nl2sql exam --out FILE.jsonl') and writes it for --calibrator.", stdout, stderr)
	answers := s.fs.String("answers", "", "the --out file of 'nl2sql exam' (one JSON answer per line)")
	out := s.fs.String("out", "", "write the calibrator to FILE")
	pos, err := s.parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 || *answers == "" || *out == "" {
		return usageErr("calibrate needs --answers FILE.jsonl and --out FILE.json, and no arguments")
	}
	f, err := os.Open(*answers)
	if err != nil {
		return usageErr("--answers: %v", err)
	}
	defer f.Close()
	var ex []confidence.Example
	var before []float64
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		var l answerLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return usageErr("--answers line %d: %v", n, err)
		}
		if l.Signals == nil {
			continue // not answered
		}
		ex = append(ex, confidence.Example{Signals: *l.Signals, Right: l.ExMatch})
		before = append(before, l.Confidence)
	}
	if err := sc.Err(); err != nil {
		return usageErr("--answers: %v", err)
	}
	c, err := confidence.Fit(ex, fmt.Sprintf("nl2sql calibrate: %d answers of %s", len(ex), *answers))
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		return &exitError{code: 2, err: fmt.Errorf("--out: %w", err)}
	}
	right := make([]bool, len(ex))
	after := make([]float64, len(ex))
	for i := range ex {
		right[i], after[i] = ex[i].Right, c.Confidence(&ex[i].Signals)
	}
	return writeJSON(stdout, calibrateSummary{Examples: len(ex), Before: calibrationOf(before, right), After: calibrationOf(after, right)})
}
