package validate_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestERPExamNoFalseRejections: every gold query of the demo ERP exam is
// accepted with the loaded ERP relations as the allowed set, and plans.
func TestERPExamNoFalseRejections(t *testing.T) {
	exam, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	dsn := pgtest.FromTemplate(t, "validate-erp-"+erp.Version(), func(ctx context.Context, conn *pgx.Conn) error {
		return erp.Load(ctx, conn, erp.Options{NoData: true})
	})
	pool := pgtest.Pool(t, dsn)
	tables := catalogTables(t, pool)
	v := validate.New(validate.WithTables(tables...), validate.WithSearchPath("public"), validate.WithMaxRows(1000))
	var sqls []string
	rejected := 0
	for _, q := range exam {
		if _, err := v.Validate(q.GoldSQL); err != nil {
			rejected++
			t.Errorf("%s: false rejection: %v\nSQL: %s", q.QID, err, q.GoldSQL)
		}
		sqls = append(sqls, q.GoldSQL)
	}
	for i, r := range v.Explain(context.Background(), pool, sqls) {
		var ve *validate.Error
		if r.Err != nil && (!errors.As(r.Err, &ve) || ve.Has(validate.CodePlan) || ve.Has(validate.CodeBudget)) {
			t.Errorf("%s: EXPLAIN: %s %s\nSQL: %s", exam[i].QID, r.SQLState, r.Message, r.SQL)
		}
	}
	t.Logf("ERP exam: %d gold queries, %d rejected", len(exam), rejected)
}

// catalogKeyedTables converts a catalog to allowed tables with their keys, as the
// Engine does.
func catalogKeyedTables(t testing.TB, pool *pgxpool.Pool) []validate.Table {
	t.Helper()
	cat, err := schema.Introspect(context.Background(), pool)
	if err != nil {
		t.Fatal(err)
	}
	var out []validate.Table
	for _, tb := range cat.Tables {
		vt := validate.Table{Schema: tb.Schema, Name: tb.Name, Columns: tb.ColumnNames(), PrimaryKey: tb.PrimaryKey, Unique: tb.Unique}
		for _, fk := range tb.ForeignKeys {
			vt.ForeignKeys = append(vt.ForeignKeys, validate.ForeignKey{Columns: fk.Columns, RefSchema: fk.RefSchema, RefTable: fk.RefTable, RefColumns: fk.RefColumns})
		}
		out = append(out, vt)
	}
	return out
}

// TestERPExamFanTraps: with the ERP's keys (introspected), lint finds no
// fan trap in the exam's gold queries, and finds the classic one.
func TestERPExamFanTraps(t *testing.T) {
	exam, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	dsn := pgtest.FromTemplate(t, "validate-erp-"+erp.Version(), func(ctx context.Context, conn *pgx.Conn) error {
		return erp.Load(ctx, conn, erp.Options{NoData: true})
	})
	v := validate.New(validate.WithTables(catalogKeyedTables(t, pgtest.Pool(t, dsn))...), validate.WithSearchPath("public"))
	for _, q := range exam {
		res, err := v.Validate(q.GoldSQL)
		if err != nil {
			t.Errorf("%s: %v", q.QID, err)
			continue
		}
		for _, is := range res.Issues {
			if is.Code == validate.CodeFanTrap {
				t.Errorf("%s: %v\nSQL: %s", q.QID, is, q.GoldSQL)
			}
		}
	}
	for sql, want := range map[string]bool{
		"SELECT sum(so.total_amount) FROM sales_orders so JOIN sales_order_lines sol USING (so_id) WHERE sol.product_id = 5":            true,
		"SELECT c.customer_id, sum(so.total_amount) FROM customers c JOIN sales_orders so ON so.customer_id = c.customer_id GROUP BY 1": false,
		"SELECT sum(so.total_amount) FROM sales_orders so JOIN sales_order_lines sol ON sol.so_id = so.so_id AND sol.line_no = 1":       false,
	} {
		res, err := v.Validate(sql)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(res.Issues) == 1 && res.Issues[0].Code == validate.CodeFanTrap; got != want {
			t.Errorf("%s: issues %v, want a fan trap: %v", sql, res.Issues, want)
		}
	}
}
