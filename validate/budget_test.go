package validate_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// budgetAttacks hold, in several spellings, the red team's memory attacks
// on work_mem: a hash join on a key every row shares (the system column
// cmin, a constant expression), a hashed NOT IN (subquery) whose filter the
// planner guesses too selective, and a hashed INTERSECT / EXCEPT of tables
// without statistics. On the tables of pgtest.Large, each is over the
// default plan budget.
var budgetAttacks = []string{
	`SELECT count(*) FROM big_a a JOIN big_b b ON a.cmin = b.cmin`,
	`SELECT count(*) FROM big_a a JOIN big_b b ON a."cmin" = b."cmin"`,
	`SELECT COUNT(*) FROM BIG_A A JOIN BIG_B B ON A.CMIN = B.CMIN`,
	`SELECT count(*) FROM big_a a JOIN big_b b ON a.U&"\0063min" = b.U&"!0063min" UESCAPE '!'`,
	`SELECT pg_catalog.count(*) FROM public.big_a a, public.big_b b WHERE a.cmin OPERATOR(pg_catalog.=) b.cmin`,
	`WITH j AS (SELECT a.id FROM big_a a JOIN big_b b ON a.k * 0 = b.k * 0) SELECT count(*) FROM j`,
	`SELECT (SELECT count(*) FROM big_a a JOIN big_b b ON a.k - a.k = b.k - b.k)`,
	`SELECT x.n FROM (VALUES (1)) v(i), LATERAL (SELECT count(*) AS n FROM big_a a JOIN big_b b ON a.cmin = b.cmin) x`,
	`SELECT count(*) OVER (ORDER BY a.id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM big_a a JOIN big_b b ON a.cmin = b.cmin LIMIT 1`,
	// Filters the planner cannot estimate (a third each): the join's
	// estimates are small, the hash table it builds is the whole table
	// under one key.
	`SELECT count(*) FROM big_a a JOIN big_b b ON a.k * 0 = b.k * 0 WHERE a.id + 0 > 0 AND a.k + 0 >= 0 AND a.id - 1 < 1e9
		AND b.id + 0 > 0 AND b.k + 0 >= 0 AND b.id - 1 < 1e9 AND a.s > '' AND b.s > ''`,
	`SELECT count(*) FROM big_a WHERE s NOT IN (SELECT s FROM big_b WHERE id > 0 AND k >= 0)`,
	`SELECT count(*) FROM big_a WHERE NOT (s = ANY (SELECT b.s FROM big_b b WHERE b.id > 0 AND b.k >= 0))`,
	`SELECT count(*) FROM big_a WHERE "s" NOT IN (SELECT "s" FROM "big_b" WHERE id > $$0$$::int AND k >= 0)`,
	`SELECT s FROM big_b INTERSECT SELECT s FROM big_a`,
	`SELECT s FROM big_b EXCEPT SELECT s FROM big_a`,
	`WITH i AS (SELECT s FROM big_b INTERSECT ALL SELECT s FROM big_a) SELECT count(*) FROM i`,
}

// budgetSettings is the work_mem the executor runs with by default, so that
// the plans are those it checks.
var budgetSettings = []string{"work_mem", "32MB", "max_parallel_workers_per_gather", "2"}

// TestPlanBudgetRefusesAttacks: every attack is refused with V027, by
// CheckPlan on the plan the executor would get and by Explain, whether
// the tables have statistics or not; the message names a node and figures.
func TestPlanBudgetRefusesAttacks(t *testing.T) {
	for _, analysed := range []bool{false, true} {
		name := "never analysed"
		if analysed {
			name = "analysed"
		}
		t.Run(name, func(t *testing.T) {
			dsn := pgtest.Large(t)
			if analysed {
				pgtest.Exec(t, dsn, "ANALYZE big_a; ANALYZE big_b")
			}
			pool := pgtest.Pool(t, dsn)
			v := validate.New(validate.WithSystemColumns(true)) // cmin: the budget, not V026, is under test
			for _, sql := range budgetAttacks {
				plan, err := explainVerbose(t, pool, "public", sql, budgetSettings...)
				if err != nil {
					t.Errorf("EXPLAIN: %v\nSQL: %s", err, sql)
					continue
				}
				err = v.CheckPlan(plan)
				if f, ferr := validate.PlanFigures(plan); ferr == nil {
					t.Logf("%s\n\tfigures: %s", sql, f)
				}
				var ve *validate.Error
				if !errors.As(err, &ve) || !ve.Has(validate.CodeBudget) {
					f, _ := validate.PlanFigures(plan)
					if analysed && (strings.Contains(sql, "INTERSECT") || strings.Contains(sql, "EXCEPT") || strings.Contains(sql, "+ 0 >")) &&
						f.HashBytes <= validate.DefaultPlanHashBytes {
						// With statistics the planner counts the groups
						// right (a million, under the budget) or sorts
						// and merges (which spills); the executor's tests
						// measure that run bounded.
						continue
					}
					t.Errorf("not refused with V027 (%v); figures %+v\nSQL: %s", err, f, sql)
					continue
				}
				if msg := ve.Error(); !strings.Contains(msg, " node") || !strings.Contains(msg, "narrow the query") {
					t.Errorf("the message names no node or remedy: %s", msg)
				}
				if again := v.CheckPlan(plan); again.Error() != err.Error() {
					t.Errorf("two checks of one plan differ:\n%v\n%v", err, again)
				}
			}
			for i, r := range v.Explain(context.Background(), pool, budgetAttacks) {
				var ve *validate.Error
				if r.Err == nil || errors.As(r.Err, &ve) && !ve.Has(validate.CodeBudget) && !ve.Has(validate.CodeCrossJoin) {
					// Explain plans with the server's work_mem (4 MB):
					// hashed SetOps and SubPlans are rarer there.
					if r.Err == nil && r.Figures.Rows <= validate.DefaultPlanRows && r.Figures.HashBytes <= validate.DefaultPlanHashBytes {
						continue
					}
					t.Errorf("Explain: %v (figures %+v)\nSQL: %s", r.Err, r.Figures, budgetAttacks[i])
				}
			}
		})
	}
}

// TestPlanBudgetOption: the same plan passes a budget that allows it, a
// budget with the bound removed (negative) and fails the bound it exceeds
// only; small tables pass the default.
func TestPlanBudgetOption(t *testing.T) {
	pool := pgtest.Pool(t, pgtest.Large(t))
	plan, err := explainVerbose(t, pool, "public", `SELECT count(*) FROM big_a a JOIN big_b b ON a.cmin = b.cmin`, budgetSettings...)
	if err != nil {
		t.Fatal(err)
	}
	f, err := validate.PlanFigures(plan)
	if err != nil {
		t.Fatal(err)
	}
	if f.Rows <= validate.DefaultPlanRows || f.HashBytes <= 0 || f.Cost <= 0 {
		t.Fatalf("figures %+v: want over a billion rows and a hash table", f)
	}
	if err := validate.New(validate.WithSystemColumns(true), validate.WithPlanBudget(validate.PlanBudget{Rows: f.Rows * 1.01, Bytes: f.Bytes + 1,
		HashBytes: f.HashBytes + 1, Cost: f.Cost * 1.01})).CheckPlan(plan); err != nil {
		t.Errorf("a budget just above the figures: %v", err)
	}
	if err := validate.New(validate.WithSystemColumns(true), validate.WithPlanBudget(validate.PlanBudget{Rows: -1, HashBytes: -1, Cost: -1})).CheckPlan(plan); err != nil {
		t.Errorf("rows, hash table and cost unbounded: %v", err)
	}
	err = validate.New(validate.WithSystemColumns(true), validate.WithPlanBudget(validate.PlanBudget{Rows: -1, Cost: -1, HashBytes: f.HashBytes / 2})).CheckPlan(plan)
	var ve *validate.Error
	if !errors.As(err, &ve) || len(ve.Issues) != 1 || ve.Issues[0].Code != validate.CodeBudget ||
		!strings.Contains(ve.Issues[0].Message, "hash table") {
		t.Errorf("half the hash figure: %v", err)
	}
	if !validate.Unsafe(validate.CodeBudget) {
		t.Error("V027 is not a policy refusal")
	}
	for _, sql := range []string{
		`SELECT count(*) FROM big_a a JOIN big_b b ON a.id = b.id WHERE a.id = 5 AND b.id = 5`,
		// A hash join on plain columns of a million rows: its estimate
		// (44 MiB) is what counts, not the scan under it.
		`SELECT a.s, b.s FROM big_a a JOIN big_b b ON a.id = b.id AND a.k = b.k`,
	} {
		ok, err := explainVerbose(t, pool, "public", sql, budgetSettings...)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate.New().CheckPlan(ok); err != nil {
			t.Errorf("%v\nSQL: %s", err, sql)
		}
	}
	catalog, err := explainVerbose(t, pool, "public", `SELECT count(*) FROM pg_catalog.pg_class`, budgetSettings...)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := validate.PlanFigures(catalog); err != nil || f.Rows <= 0 {
		t.Errorf("the figures of a plan the default validator refuses: %+v, %v", f, err)
	}
	if _, err := validate.PlanFigures([]byte(`[{"Plan": {"Plan Rows": -1}}]`)); err == nil {
		t.Error("a negative row count read as a figure")
	}
	if b := validate.DefaultPlanBudget(); math.IsInf(b.Rows, 0) || b.Cost != validate.DefaultPlanCost {
		t.Errorf("default budget %+v", b)
	}
}
