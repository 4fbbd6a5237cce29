package validate_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestCheckPlanERPExam: the verbose plan of every gold query of the demo
// ERP exam passes CheckPlan, in both layouts, with data (so the planner
// picks the joins, memoize and hash nodes it would in use).
func TestCheckPlanERPExam(t *testing.T) {
	exam, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	sqls := make([]string, len(exam))
	for i, q := range exam {
		sqls[i] = q.GoldSQL
	}
	for _, l := range []struct {
		name string
		dsn  func(testing.TB) string
		path []string
	}{
		{"single", erptest.Single, []string{"public"}},
		{"divisions", func(t testing.TB) string { return erptest.Divisions(t, 3) }, []string{"div_01", "public"}},
	} {
		t.Run(l.name, func(t *testing.T) {
			pool := pgtest.Pool(t, l.dsn(t))
			v := validate.New(validate.WithTables(catalogTables(t, pool)...), validate.WithSearchPath(l.path...),
				validate.WithMaxRows(1000))
			checked := 0
			var figures validate.PlanBudget
			for i, r := range v.Explain(context.Background(), pool, sqls) {
				figures = peak(figures, r.Figures)
				if r.Err != nil {
					t.Errorf("%s: %s %s\nSQL: %s\nplan: %s", exam[i].QID, r.SQLState, r.Message, sqls[i], r.Plan)
					continue
				}
				// The plan check alone, on the plan Explain accepted.
				if err := v.CheckPlan(r.Plan); err != nil {
					t.Errorf("%s: %v", exam[i].QID, err)
					continue
				}
				checked++
			}
			if checked != len(exam) {
				t.Errorf("%d of %d gold plans passed", checked, len(exam))
			}
			t.Logf("ERP exam, %s layout: %d gold plans checked, %d refused; largest figures: %s", l.name, checked, len(exam)-checked, figures)
		})
	}
}

// TestCheckPlanLegitCorpus: the legitimate corpus, explained on the shop
// schema: every query that plans there passes CheckPlan.
func TestCheckPlanLegitCorpus(t *testing.T) {
	pool := shopPool(t)
	v := shopValidator()
	cases := readCorpus(t, "legit")
	sqls := make([]string, len(cases))
	for i, c := range cases {
		sqls[i] = c.SQL
	}
	checked, serverErr := 0, 0
	for i, r := range v.Explain(context.Background(), pool, sqls) {
		var ve *validate.Error
		switch {
		case r.Err == nil:
			checked++
		case errors.As(r.Err, &ve):
			t.Errorf("%s:%d: refused: %v\nplan: %s", cases[i].File, cases[i].Line, r.Err, r.Plan)
		case r.SQLState != "":
			serverErr++ // written for another schema
		default:
			t.Errorf("%s:%d: %v", cases[i].File, cases[i].Line, r.Err)
		}
	}
	if checked < len(cases)/2 {
		t.Errorf("only %d of %d legit queries plan on the shop schema", checked, len(cases))
	}
	t.Logf("legit corpus: %d plans checked, %d do not plan on the shop schema", checked, serverErr)
}
