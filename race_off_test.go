//go:build !race

package nl2sql_test

// raceDetector reports that the tests run under the race detector.
const raceDetector = false
