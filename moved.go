package nl2sql

import (
	"io"

	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/provision"
	"github.com/nl2sqlgo/nl2sql/rewrite"
	"github.com/nl2sqlgo/nl2sql/score"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// Identifiers that moved out of the root into the packages named for what
// they are; each name here is the same value or type as its new home's.

// RuleTieOrder is rewrite.RuleTieOrder.
//
// Deprecated: use rewrite.RuleTieOrder.
const RuleTieOrder = rewrite.RuleTieOrder

// RuleStoredValue is rewrite.RuleStoredValue.
//
// Deprecated: use rewrite.RuleStoredValue.
const RuleStoredValue = rewrite.RuleStoredValue

// ReaderRole is provision.ReaderRole.
//
// Deprecated: use provision.ReaderRole.
type ReaderRole = provision.ReaderRole

// Beginner is provision.Beginner.
//
// Deprecated: use provision.Beginner.
type Beginner = provision.Beginner

// Defaults of ReaderRole, provision's.
//
// Deprecated: use provision.DefaultReaderName and the others.
const (
	DefaultReaderName              = provision.DefaultReaderName
	DefaultReaderConnectionLimit   = provision.DefaultReaderConnectionLimit
	DefaultReaderStatementTimeout  = provision.DefaultReaderStatementTimeout
	DefaultReaderIdleInTransaction = provision.DefaultReaderIdleInTransaction
	DefaultReaderWorkMem           = provision.DefaultReaderWorkMem
	DefaultReaderTempFileLimit     = provision.DefaultReaderTempFileLimit
)

// SemanticLink is semantic.Link.
//
// Deprecated: use semantic.Link.
type SemanticLink = semantic.Link

// Scorer is score.Scorer.
//
// Deprecated: use score.Scorer.
type Scorer = score.Scorer

// ScoreInput is score.Input.
//
// Deprecated: use score.Input.
type ScoreInput = score.Input

// ScoreCandidate is score.Candidate.
//
// Deprecated: use score.Candidate.
type ScoreCandidate = score.Candidate

// DefaultScorer is score.Default.
//
// Deprecated: use score.Default.
type DefaultScorer = score.Default

// Signals is confidence.Signals.
//
// Deprecated: use confidence.Signals.
type Signals = confidence.Signals

// SignalsOf is confidence.Of.
//
// Deprecated: use confidence.Of.
func SignalsOf(in *score.Input, scores []float64, i int) confidence.Signals {
	return confidence.Of(in, scores, i)
}

// Calibrator is confidence.Calibrator.
//
// Deprecated: use confidence.Calibrator.
type Calibrator = confidence.Calibrator

// LogisticCalibrator is confidence.Logistic.
//
// Deprecated: use confidence.Logistic.
type LogisticCalibrator = confidence.Logistic

// LogisticWeights is confidence.LogisticWeights.
//
// Deprecated: use confidence.LogisticWeights.
type LogisticWeights = confidence.LogisticWeights

// CalibrationExample is confidence.Example.
//
// Deprecated: use confidence.Example.
type CalibrationExample = confidence.Example

// ErrCalibration is confidence.ErrCalibration.
//
// Deprecated: use confidence.ErrCalibration.
var ErrCalibration = confidence.ErrCalibration

// SignalNames is confidence.Names.
//
// Deprecated: use confidence.Names.
func SignalNames() []string { return confidence.Names() }

// FitCalibrator is confidence.Fit.
//
// Deprecated: use confidence.Fit.
func FitCalibrator(examples []confidence.Example, source string) (*confidence.Logistic, error) {
	return confidence.Fit(examples, source)
}

// LoadCalibrator is confidence.Load.
//
// Deprecated: use confidence.Load.
func LoadCalibrator(r io.Reader) (*confidence.Logistic, error) { return confidence.Load(r) }

// DefaultCalibrator is confidence.Default.
//
// Deprecated: use confidence.Default.
func DefaultCalibrator() *confidence.Logistic { return confidence.Default() }
