package nl2sql

import (
	"testing"

	"github.com/nl2sqlgo/nl2sql/execute"
)

// TestReusedRun: the chosen candidate's run to compare results is the
// answer only when it read every row and fewer than the answer's cap;
// the Result gets its own slice of the rows.
func TestReusedRun(t *testing.T) {
	complete := &execute.Result{SQL: "SELECT 1", Rows: [][]any{{1}, {2}}, RowCount: 2}
	cut := &execute.Result{SQL: "SELECT 1", Rows: [][]any{{1}, {2}}, RowCount: 2, Truncated: true, TruncatedBy: execute.CapRows}
	for _, c := range []struct {
		name    string
		sc      *scoring
		maxRows int
		reused  bool
	}{
		{"complete, under the cap", &scoring{best: 1, runs: []runOutcome{{}, {result: complete}}}, 3, true},
		{"as many rows as the cap: more may follow", &scoring{best: 1, runs: []runOutcome{{}, {result: complete}}}, 2, false},
		{"cut by a cap", &scoring{best: 0, runs: []runOutcome{{result: cut}}}, 1000, false},
		{"not run", &scoring{best: 0, runs: []runOutcome{{}}}, 1000, false},
		{"no runs", &scoring{best: 0}, 1000, false},
	} {
		got := c.sc.reusedRun(c.maxRows)
		if (got != nil) != c.reused {
			t.Errorf("%s: reused %v, want %v", c.name, got != nil, c.reused)
			continue
		}
		if got == nil {
			continue
		}
		if got.SQL != complete.SQL || len(got.Rows) != 2 || got.Rows[1][0] != 2 {
			t.Errorf("%s: %+v, want the run's rows", c.name, got)
		}
		got.Rows[0] = []any{"changed"}
		if complete.Rows[0][0] != 1 {
			t.Errorf("%s: the Result shares the run's slice of rows", c.name)
		}
	}
}
