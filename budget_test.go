package nl2sql_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestEntryPointsRefusePlanBudget: the red team's work_mem attacks, on
// tables of a million and two million rows (pgtest.Large), are refused
// with V027 by every entry point (Check, Run, Repair, Pick, Ask and the
// executor), in several spellings; WithPlanBudget reaches the Engine's
// checks (a budget without those bounds lets Check accept them).
func TestEntryPointsRefusePlanBudget(t *testing.T) {
	pool := pgtest.Pool(t, pgtest.Large(t))
	var answer string
	eng := answerEngine(t, pool, &answer)
	ex := execute.New(pool)
	ctx := context.Background()
	// A key every row shares through a system column (cmin) is refused
	// before any plan (V026); the k * 0 joins below are the same hash.
	if _, err := ex.Query(ctx, `SELECT count(*) FROM big_a a JOIN big_b b ON a.cmin = b.cmin`); !hasCode(err, validate.CodeSystemColumn) {
		t.Errorf("executor, cmin: err=%v, want V026", err)
	}
	attacks := []string{
		`SELECT count(*) FROM big_a a JOIN big_b b ON a.k * 0 = b.k * 0`,
		`SELECT COUNT(*) FROM BIG_A A JOIN BIG_B B ON A.U&"\006B" * 0 = B."k" * 0`,
		`SELECT pg_catalog.count(*) FROM public.big_a a, public.big_b b WHERE a.k * 0 OPERATOR(pg_catalog.=) b.k * 0`,
		`WITH j AS (SELECT a.id FROM big_a a JOIN big_b b ON a.k * 0 = b.k * 0) SELECT count(*) FROM j`,
		`SELECT x.n FROM (VALUES (1)) v(i), LATERAL (SELECT count(*) AS n FROM big_a a JOIN big_b b ON a.k - a.k = b.k - b.k) x`,
		`SELECT count(*) FROM big_a WHERE s NOT IN (SELECT s FROM big_b WHERE id > 0 AND k >= 0)`,
		`SELECT count(*) FROM (SELECT s FROM big_b INTERSECT SELECT s FROM big_a) x`,
	}
	for _, sql := range attacks {
		if chk, err := eng.Check(ctx, sql); err != nil || chk.OK || !hasViolation(chk.Issues, validate.CodeBudget) {
			t.Errorf("Check: err=%v issues=%v, want V027\nSQL: %s", err, issuesOf(chk), sql)
		}
		if _, err := eng.Run(ctx, sql); !errors.Is(err, nl2sql.ErrUnsafe) || !hasCode(err, validate.CodeBudget) {
			t.Errorf("Run: err=%v, want V027\nSQL: %s", err, sql)
		}
		if rr, err := eng.Repair(ctx, sql); err != nil || rr.Executes {
			t.Errorf("Repair: err=%v executes=%v\nSQL: %s", err, rr != nil && rr.Executes, sql)
		}
		if pr, _ := eng.Pick(ctx, "attack", []string{sql}); pr == nil || pr.Chosen >= 0 {
			t.Errorf("Pick chose it: %+v\nSQL: %s", pr, sql)
		}
		answer = sql
		if ar, err := eng.Ask(ctx, "how many"); err == nil {
			t.Errorf("Ask answered: %+v\nSQL: %s", ar, sql)
		}
		if _, err := ex.Query(ctx, sql); !hasCode(err, validate.CodeBudget) {
			t.Errorf("executor: err=%v, want V027\nSQL: %s", err, sql)
		}
	}
	relaxed := answerEngine(t, pool, &answer, nl2sql.WithPlanBudget(validate.PlanBudget{Rows: -1, Bytes: -1, HashBytes: -1, Cost: -1}))
	if chk, err := relaxed.Check(ctx, attacks[0]); err != nil || !chk.OK {
		t.Errorf("Check with no budget: err=%v issues=%v, want it accepted", err, issuesOf(chk))
	}
}

// hasCode reports an error holding a *validate.Error with code.
func hasCode(err error, code string) bool {
	var ve *validate.Error
	return errors.As(err, &ve) && ve.Has(code)
}
