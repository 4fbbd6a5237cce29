package validate_test

import (
	"context"
	"errors"
	"sort"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nl2sqlgo/nl2sql/internal/defog"
	"github.com/nl2sqlgo/nl2sql/internal/defogtest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// defogDB loads a defog database (once per cluster, as a template) and
// returns a pool on a fresh copy and its tables with their columns, read
// from the catalog.
func defogDB(t *testing.T, db string) (*pgxpool.Pool, []validate.Table) {
	t.Helper()
	pool := pgtest.Pool(t, defogtest.Database(t, db))
	return pool, catalogTables(t, pool)
}

// catalogTables reads the relations (tables and views) outside the system
// schemas with their columns.
func catalogTables(t testing.TB, pool *pgxpool.Pool) []validate.Table {
	t.Helper()
	rows, err := pool.Query(context.Background(), `
		SELECT c.table_schema, c.table_name, array_agg(c.column_name::text ORDER BY c.ordinal_position)
		FROM information_schema.columns c
		WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema') AND c.table_schema NOT LIKE 'pg\_%'
		GROUP BY 1, 2 ORDER BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []validate.Table
	for rows.Next() {
		var tb validate.Table
		if err := rows.Scan(&tb.Schema, &tb.Name, &tb.Columns); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, tb)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(tables) == 0 {
		t.Fatal("no tables in the database")
	}
	return tables
}

// goldByDB groups the expanded gold queries of the dataset by database.
func goldByDB(t *testing.T) map[string][]string {
	t.Helper()
	if _, ok := defog.Dir(); !ok {
		t.Skip("defog dataset not available")
	}
	qs, err := defog.Questions()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, q := range qs {
		out[q.DBName] = append(out[q.DBName], defog.Expand(q.Query)...)
	}
	return out
}

// TestDefogGoldNoFalseRejections: every expanded gold query of the defog
// dataset is a legitimate read-only query, so it must validate with its
// database's tables as the allowed set, and PostgreSQL must plan the
// validated SQL through Explain, with a verbose plan CheckPlan accepts.
func TestDefogGoldNoFalseRejections(t *testing.T) {
	gold := goldByDB(t)
	dbs := make([]string, 0, len(gold))
	for db := range gold {
		dbs = append(dbs, db)
	}
	sort.Strings(dbs)
	total, rejected, warnings := 0, 0, map[string]int{}
	plans, planRefused := 0, 0
	var figures validate.PlanBudget // the largest of the gold plans
	for _, db := range dbs {
		t.Run(db, func(t *testing.T) {
			pool, tables := defogDB(t, db)
			v := validate.New(validate.WithTables(tables...), validate.WithSearchPath(defog.Schema(db), "public"))
			for _, sql := range gold[db] {
				total++
				res, err := v.Validate(sql)
				if err != nil {
					rejected++
					t.Errorf("false rejection: %v\nSQL: %s", err, sql)
					continue
				}
				for _, is := range res.Issues {
					warnings[is.Code]++
				}
				if len(res.Tables) == 0 && len(tables) > 0 {
					t.Errorf("no tables reported for %s", sql)
				}
			}
			for i, r := range v.Explain(context.Background(), pool, gold[db]) {
				if r.Err != nil {
					var ve *validate.Error
					switch {
					case errors.As(r.Err, &ve) && (ve.Has(validate.CodePlan) || ve.Has(validate.CodeBudget) || ve.Has(validate.CodeLookalike)):
						planRefused++
						t.Errorf("plan refused: %v\nSQL: %s\nplan: %s", r.Err, gold[db][i], r.Plan)
					case !errors.As(r.Err, &ve): // rejections are reported above
						t.Errorf("EXPLAIN failed: %s %s (at %d)\nSQL: %s", r.SQLState, r.Message, r.Location, gold[db][i])
					}
					continue
				}
				plans++
				figures = peak(figures, r.Figures)
				if r.TotalCost <= 0 || len(r.Plan) == 0 {
					t.Errorf("no planner estimate for %s: %+v", gold[db][i], r)
				}
			}
		})
	}
	t.Logf("defog gold: %d expanded queries, %d rejected; %d verbose plans passed CheckPlan, %d refused; lint findings by code: %v",
		total, rejected, plans, planRefused, warnings)
	t.Logf("defog gold plans, largest figures: %s (default budget %s)", figures, validate.DefaultPlanBudget())
}

// peak returns the larger of each figure of a and b.
func peak(a, b validate.PlanBudget) validate.PlanBudget {
	return validate.PlanBudget{Rows: max(a.Rows, b.Rows), Bytes: max(a.Bytes, b.Bytes),
		HashBytes: max(a.HashBytes, b.HashBytes), Cost: max(a.Cost, b.Cost)}
}
