package validate_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
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
	v := validate.New(validate.WithTables(tables...), validate.WithSearchPath("public"), validate.WithMaxLimit(1000))
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
		if r.Err != nil && (!errors.As(r.Err, &ve) || ve.Has(validate.CodePlan)) {
			t.Errorf("%s: EXPLAIN: %s %s\nSQL: %s", exam[i].QID, r.SQLState, r.Message, r.SQL)
		}
	}
	t.Logf("ERP exam: %d gold queries, %d rejected", len(exam), rejected)
}
