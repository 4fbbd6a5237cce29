package pgtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// PlanCost returns the planner's total cost of sql on pool (EXPLAIN), for
// tests that compare what two queries would cost without timing them.
func PlanCost(t testing.TB, pool *pgxpool.Pool, sql string) float64 {
	t.Helper()
	var plan []struct {
		Plan struct {
			Total float64 `json:"Total Cost"`
		}
	}
	if err := pool.QueryRow(context.Background(), "EXPLAIN (FORMAT JSON) "+sql).Scan(&plan); err != nil {
		t.Fatalf("pgtest: EXPLAIN %s: %v", sql, err)
	}
	if len(plan) == 0 {
		t.Fatalf("pgtest: EXPLAIN %s: no plan", sql)
	}
	return plan[0].Plan.Total
}
