package nl2sql_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/calib"
	"github.com/nl2sqlgo/nl2sql/internal/defog"
	"github.com/nl2sqlgo/nl2sql/internal/defogtest"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// examItem is a question with its gold SQL, in a database.
type examItem struct{ question, evidence, gold string }

// examRows are the calibration examples of the demo ERP exam and the
// defog exam (when its dataset is there): each question picked with its
// own gold query (a real, right answer), and as made-up negatives with the
// gold query of another question of the same database (the one half the
// list away), and its gold query's near misses (the last condition
// dropped, a column swapped, a limited sort flipped, an aggregate
// changed, DISTINCT dropped), one candidate each; a made-up answer that
// returns the gold rows all the same counts as right.
func examRows(t *testing.T) []calibRow {
	qs, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	var items []examItem
	for _, q := range qs {
		items = append(items, examItem{q.Question, q.Evidence, q.GoldSQL})
	}
	pool := pgtest.Pool(t, erptest.Single(t))
	eng, err := nl2sql.New(pool, nl2sql.WithModules(erp.Modules()))
	if err != nil {
		t.Fatal(err)
	}
	rows := examCalibration(t, eng, pool, items, "erp", "erp")
	if _, ok := defog.Dir(); !ok {
		t.Log("defog dataset not available: the calibrator is fitted without it")
		return rows
	}
	dbs, byDB := defogtest.Questions(t)
	for _, db := range dbs {
		var items []examItem
		for _, q := range byDB[db] {
			alts := defog.Expand(q.Query)
			if len(alts) == 0 {
				continue
			}
			items = append(items, examItem{q.Question, q.Instructions, alts[len(alts)-1]})
		}
		pool := pgtest.Pool(t, defogtest.Database(t, db))
		eng, err := nl2sql.New(pool)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, examCalibration(t, eng, pool, items, "defog", db)...)
	}
	return rows
}

// examCalibration picks each item's gold query and its made-up negatives
// for its question.
func examCalibration(t *testing.T, eng *nl2sql.Engine, pool *pgxpool.Pool, items []examItem, exam, db string) []calibRow {
	ctx := context.Background()
	cols := tableColumns(t, pool)
	keys := make([]string, len(items))
	for i, it := range items {
		keys[i], _ = spiderRun(ctx, pool, it.gold)
	}
	var rows []calibRow
	for i, it := range items {
		if keys[i] == "" {
			continue // the gold query does not run here
		}
		for _, j := range []int{i, (i + len(items)/2) % len(items)} {
			r, err := eng.Pick(ctx, it.question, []string{items[j].gold}, nl2sql.Evidence(it.evidence))
			if err != nil || r.Chosen < 0 || r.Signals == nil {
				continue
			}
			rows = append(rows, calibRow{db: db, exam: exam, sig: *r.Signals, right: j == i || keys[j] == keys[i], shuffled: j != i, sql: items[j].gold, question: it.question})
		}
		for _, m := range mutants(ctx, eng, pool, it.question, it.evidence, it.gold, keys[i], cols) {
			rows = append(rows, calibRow{db: db, exam: exam, sig: m.sig, right: m.right, mutant: m.kind, sql: m.sql, question: it.question})
		}
	}
	return rows
}

// examFigures are an exam's out-of-fold figures: its gold answers (right)
// against its made-up negatives.
func examFigures(rows []calibRow, p []float64, exam string) (f calibrationFigures, picks int) {
	var ep []float64
	var ey []bool
	for i, r := range rows {
		if r.exam != exam {
			continue
		}
		ep, ey = append(ep, p[i]), append(ey, r.right)
		if !r.right {
			f.ShuffledWrong++
			f.ShuffledHigh += b2i(p[i] >= 0.5)
		}
	}
	f.AUROC, f.ECE, f.Bins = calib.AUROC(ep, ey), calib.ECE(ep, ey), calib.Reliability(ep, ey, 10)
	f.Thresholds = calib.AtThresholds(ep, ey, []float64{0.5, 0.7, 0.8, 0.9, 0.95})
	return f, len(ep)
}
