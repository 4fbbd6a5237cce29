package nl2sql_test

import (
	"context"
	"sort"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/defog"
	"github.com/nl2sqlgo/nl2sql/internal/defogtest"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// policyEngine returns a model-less Engine on pool (no value index).
func policyEngine(t *testing.T, pool *pgxpool.Pool, opts ...nl2sql.Option) *nl2sql.Engine {
	t.Helper()
	eng, err := nl2sql.New(pool, append([]nl2sql.Option{nl2sql.WithValueIndex(false), nl2sql.WithMaxRows(50)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	return eng
}

// goldThroughEntryPoints asserts that Check accepts and Run runs every
// query: no false rejection by the policy or the server-side check.
func goldThroughEntryPoints(t *testing.T, eng *nl2sql.Engine, label string, sqls []string) {
	t.Helper()
	ctx := context.Background()
	bad := 0
	for _, sql := range sqls {
		if r, err := eng.Check(ctx, sql); err != nil || !r.OK {
			bad++
			t.Errorf("%s Check refused a gold query: %+v %v\nSQL: %s", label, r, err, sql)
			continue
		}
		if _, err := eng.Run(ctx, sql); err != nil {
			bad++
			t.Errorf("%s Run refused a gold query: %v\nSQL: %s", label, err, sql)
		}
		if r, err := eng.Repair(ctx, sql); err != nil || !r.Executes {
			bad++
			t.Errorf("%s Repair: %+v %v\nSQL: %s", label, r, err, sql)
		}
		if p, err := eng.Pick(ctx, "gold", []string{sql}); err != nil || p.Chosen != 0 {
			bad++
			t.Errorf("%s Pick: %+v %v\nSQL: %s", label, p, err, sql)
		}
	}
	t.Logf("%s: %d gold queries through Check, Run, Repair and Pick, %d refused", label, len(sqls), bad)
}

// TestGoldQueriesPassEveryEntryPoint: the demo ERP exam's gold queries in
// both layouts (single schema; divisions, scoped to one) and defog's.
func TestGoldQueriesPassEveryEntryPoint(t *testing.T) {
	exam, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	var gold []string
	for _, q := range exam {
		gold = append(gold, q.GoldSQL)
	}
	t.Run("erp", func(t *testing.T) {
		goldThroughEntryPoints(t, policyEngine(t, pgtest.Pool(t, erptest.Single(t))), "ERP", gold)
	})
	t.Run("erp-divisions", func(t *testing.T) {
		eng := policyEngine(t, pgtest.Pool(t, erptest.Divisions(t, 2)), nl2sql.WithScope("div_02"))
		goldThroughEntryPoints(t, eng, "ERP div_02", gold)
	})
	t.Run("defog", func(t *testing.T) {
		if _, ok := defog.Dir(); !ok {
			t.Skip("defog dataset not available (../shared/datasets/defog)")
		}
		qs, err := defog.Questions()
		if err != nil {
			t.Fatal(err)
		}
		byDB := map[string][]string{}
		for _, q := range qs {
			byDB[q.DBName] = append(byDB[q.DBName], defog.Expand(q.Query)...)
		}
		dbs := make([]string, 0, len(byDB))
		for db := range byDB {
			dbs = append(dbs, db)
		}
		sort.Strings(dbs)
		for _, db := range dbs {
			var opts []nl2sql.Option
			if s := defog.Schema(db); s != "public" {
				opts = append(opts, nl2sql.WithScope(s))
			}
			eng := policyEngine(t, pgtest.Pool(t, defogtest.Database(t, db)), opts...)
			goldThroughEntryPoints(t, eng, "defog "+db, byDB[db])
		}
	})
}
