package nl2sql

// SignalVector exposes the calibrator's inputs to the calibration test,
// which fits one calibrator per cross-validation fold.
func SignalVector(s *Signals) []float64 { return s.vector() }

// CalibrationL2 is FitCalibrator's penalty, for the folds' fits.
const CalibrationL2 = calibrationL2
