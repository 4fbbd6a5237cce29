package nl2sql_test

import (
	"context"
	"fmt"
	"strings"
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

// TestCalibrationExams measures the built-in calibrator (fitted on
// spider-pools only) on the defog and demo ERP exams, which it never saw:
// each question is picked twice, once with its own gold query (right) and
// once with the gold query of another question of the same database (the
// one half the list away: wrong, unless it returns the same rows). The
// figures are logged for docs/benchmarks.md; the test requires that the
// right answers rank above the wrong ones more often than not, and that
// no SQL written for another question is confidently answered more often
// than a tenth of the time.
func TestCalibrationExams(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("the exams' calibration takes minutes; it measures quality, not concurrency")
	}
	t.Run("erp", func(t *testing.T) {
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
		p, right := examCalibration(t, eng, pool, items)
		reportExamCalibration(t, "demo ERP exam", p, right)
	})
	t.Run("defog", func(t *testing.T) {
		dbs, byDB := defogtest.Questions(t)
		var p []float64
		var right []bool
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
			dp, dr := examCalibration(t, eng, pool, items)
			p, right = append(p, dp...), append(right, dr...)
		}
		reportExamCalibration(t, "defog", p, right)
	})
}

// examCalibration picks each item's gold query, and the gold query of the
// item half the list away, for its question, and returns the confidences
// and whether each pick returns the item's gold rows.
func examCalibration(t *testing.T, eng *nl2sql.Engine, pool *pgxpool.Pool, items []examItem) ([]float64, []bool) {
	ctx := context.Background()
	keys := make([]string, len(items))
	for i, it := range items {
		keys[i], _ = spiderRun(ctx, pool, it.gold)
	}
	var p []float64
	var right []bool
	for i, it := range items {
		if keys[i] == "" {
			continue // the gold query does not run here
		}
		for _, j := range []int{i, (i + len(items)/2) % len(items)} {
			r, err := eng.Pick(ctx, it.question, []string{items[j].gold}, nl2sql.Evidence(it.evidence))
			if err != nil || r.Chosen < 0 {
				continue
			}
			p = append(p, r.Confidence)
			right = append(right, j == i || keys[j] == keys[i])
		}
	}
	return p, right
}

func reportExamCalibration(t *testing.T, name string, p []float64, right []bool) {
	t.Helper()
	f := calibrationFigures{AUROC: calib.AUROC(p, right), ECE: calib.ECE(p, right), Bins: calib.Reliability(p, right, 10),
		Thresholds: calib.AtThresholds(p, right, []float64{0.5, 0.7, 0.8, 0.9, 0.95})}
	wrong, high := 0, 0
	for i := range p {
		if !right[i] {
			wrong++
			high += b2i(p[i] >= 0.5)
		}
	}
	t.Logf("%s: %d picks (own gold or another question's), AUROC %.3f, ECE %.3f; %d of %d wrong picks >= 0.5%s",
		name, len(p), f.AUROC, f.ECE, high, wrong, reliabilityTable(f))
	if f.AUROC < 0.5 {
		t.Errorf("%s: AUROC %.3f: right answers do not rank above wrong ones", name, f.AUROC)
	}
	if wrong > 0 && float64(high)/float64(wrong) > 0.1 {
		t.Errorf("%s: %s", name, strings.TrimSpace(fmt.Sprintf("%d of %d picks of another question's SQL got confidence >= 0.5", high, wrong)))
	}
}
