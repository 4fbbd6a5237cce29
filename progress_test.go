package nl2sql_test

import (
	"context"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestPrepareProgressMovesForward: every stage Prepare reports only moves
// forward (the index bar used to go 735/735 -> 256/735), and the index
// stage ends complete.
func TestPrepareProgressMovesForward(t *testing.T) {
	var got []nl2sql.Progress
	eng, err := nl2sql.New(pgtest.Pool(t, erptest.Single(t)), nl2sql.WithProgress(func(p nl2sql.Progress) { got = append(got, p) }))
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	last := map[nl2sql.Stage]nl2sql.Progress{}
	for _, p := range got {
		if prev, ok := last[p.Stage]; ok && (p.Done < prev.Done || p.Total != prev.Total) {
			t.Errorf("stage %s went from %d/%d to %d/%d", p.Stage, prev.Done, prev.Total, p.Done, p.Total)
		}
		last[p.Stage] = p
	}
	if ix, ok := last["index"]; !ok || ix.Done != ix.Total || ix.Total == 0 {
		t.Errorf("index progress: %+v (all: %+v)", ix, got)
	}
	if _, ok := last["ready"]; !ok {
		t.Errorf("no ready stage: %+v", got)
	}
}
