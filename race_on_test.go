//go:build race

package nl2sql_test

// raceDetector reports that the tests run under the race detector, which
// slows CPU-bound work several times: time budgets that stand for a model's
// latency must allow for it.
const raceDetector = true
