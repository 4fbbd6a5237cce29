package validate_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestCheckPlanSystemColumns: the plan names a system column with the
// alias of the relation it reads (or unqualified, in the Output of a plan
// over one relation), whatever the query's spelling, views included; a
// CTE's or subquery's column named xmin is not one.
func TestCheckPlanSystemColumns(t *testing.T) {
	dsn := pgtest.FromTemplate(t, "validate-plan-syscols", func(ctx context.Context, conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, `CREATE TABLE nums (n int, t text);
			INSERT INTO nums SELECT g, 'v' || g FROM generate_series(1, 20) g;
			CREATE TABLE users (id int PRIMARY KEY, name text);
			CREATE VIEW nums_x AS SELECT n, xmin AS x FROM nums;
			ANALYZE;`)
		return err
	})
	pool := pgtest.Pool(t, dsn)
	plan := func(sql string) []byte {
		t.Helper()
		p, err := explainVerbose(t, pool, "public", sql)
		if err != nil {
			t.Fatalf("%s: does not plan: %v", sql, err)
		}
		return p
	}
	closed, open := validate.New(), validate.New(validate.WithSystemColumns(true))
	for _, sql := range []string{
		`SELECT age(xmin) FROM nums`,
		`SELECT n FROM nums ORDER BY tableoid`,
		`SELECT count(*) FROM nums WHERE xmin::text <> '0'`,
		`SELECT a.cmin, a.cmax FROM nums a JOIN users u ON u.id = a.n`,
		`SELECT xmax FROM nums UNION ALL SELECT xmax FROM users`,
		// the same alias for a CTE and a relation: EXPLAIN tells them apart (t_1)
		`WITH t AS MATERIALIZED (SELECT 1 AS xmin) SELECT t.xmin, (SELECT count(*) FROM nums AS t WHERE t.xmin::text = '1') FROM t`,
		// a view that selects xmin: the query names only the view's column
		`SELECT x FROM nums_x`,
		`SELECT n FROM nums_x WHERE x::text = '1'`,
	} {
		p := plan(sql)
		err := closed.CheckPlan(p)
		var ve *validate.Error
		if !errors.As(err, &ve) || !ve.Has(validate.CodePlan) || !strings.Contains(err.Error(), validate.CodeSystemColumn) {
			t.Errorf("%s: CheckPlan = %v, want a %s rejection naming %s\nplan: %s", sql, err, validate.CodePlan, validate.CodeSystemColumn, p)
		}
		if err := open.CheckPlan(p); err != nil {
			t.Errorf("%s: refused with WithSystemColumns(true): %v", sql, err)
		}
	}
	for _, sql := range []string{
		`WITH c AS MATERIALIZED (SELECT 1 AS xmin) SELECT xmin FROM c`,
		`WITH c AS MATERIALIZED (SELECT n AS xmin FROM nums) SELECT c.xmin FROM c, users`,
		`SELECT s.xmin FROM (SELECT n AS xmin FROM nums OFFSET 0) s`,
		`SELECT xmin FROM (VALUES (1), (2)) v(xmin)`,
		`SELECT ctid, n FROM nums`,
	} {
		if err := closed.CheckPlan(plan(sql)); err != nil {
			t.Errorf("%s: %v", sql, err)
		}
	}
}

// TestCheckPlanLookupValues: the plan shows pg_typeof where it is not
// converted to text, and accepts it where it is; it does not show the
// contents of a VALUES list, so there the static check is the only guard
// (Validate refuses what CheckPlan cannot see).
func TestCheckPlanLookupValues(t *testing.T) {
	pool := planPool(t)
	v := validate.New()
	for _, sql := range []string{
		`SELECT pg_typeof(n) FROM nums`,
		`SELECT n FROM nums WHERE pg_typeof(n) IN ('integer', 'nums')`,
		`SELECT coalesce(pg_typeof(n), 'nums') FROM nums`,
	} {
		p, err := explainVerbose(t, pool, "public", sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		if err := v.CheckPlan(p); err == nil || !strings.Contains(err.Error(), validate.CodeSystemCatalog) {
			t.Errorf("%s: CheckPlan = %v, want a refusal naming %s\nplan: %s", sql, err, validate.CodeSystemCatalog, p)
		}
	}
	ok := `SELECT pg_typeof(n)::text, pg_typeof(f)::varchar, format('%s', pg_typeof(t)), concat(pg_typeof(x)) FROM nums WHERE pg_typeof(n)::text = 'integer'`
	p, err := explainVerbose(t, pool, "public", ok)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.CheckPlan(p); err != nil {
		t.Errorf("%s: %v", ok, err)
	}
	mustValidate(t, v, ok)

	hidden := `SELECT t::text, t::oid FROM (VALUES (pg_typeof(1)), ('nums'), ('pg_catalog.pg_authid')) v(t)`
	p, err = explainVerbose(t, pool, "public", hidden)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.CheckPlan(p); err != nil {
		t.Logf("the plan now shows the VALUES list: %v", err)
	}
	rejectAll(t, v, validate.CodeSystemCatalog, hidden)
}
