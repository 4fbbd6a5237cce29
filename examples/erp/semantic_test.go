package erp_test

import (
	"context"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/semantic"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestERPSemanticModel checks the shipped semantic model against the ERP
// (every name resolves, every expression passes the policy), holds it to
// its promised size, and runs every verified question with each declared
// example bound as query parameters: each must return a row whose first
// value is not NULL.
func TestERPSemanticModel(t *testing.T) {
	m, err := semantic.Load("semantic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var measures, filters, parameterized int
	for _, e := range m.Entities {
		measures += len(e.Measures)
		filters += len(e.Filters)
	}
	for _, q := range m.VerifiedQuestions {
		if len(q.Parameters) > 0 {
			parameterized++
		}
	}
	if measures < 10 || filters < 5 || len(m.Metrics) < 3 || len(m.VerifiedQuestions) < 20 || 2*parameterized < len(m.VerifiedQuestions) {
		t.Errorf("model has %d measures, %d filters, %d metrics, %d verified questions (%d parameterized); want at least 10, 5, 3, 20 (half)",
			measures, filters, len(m.Metrics), len(m.VerifiedQuestions), parameterized)
	}

	ctx := context.Background()
	dsn := erptest.Single(t)
	pool := pgtest.Pool(t, dsn)
	cat, err := schema.Introspect(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Check(cat, validate.New(validate.WithTypes("deal_stage"))); err != nil {
		t.Fatalf("Check: %v", err)
	}
	defs, err := m.Definitions()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range defs {
		var v any
		if err := pool.QueryRow(ctx, d.Query).Scan(&v); err != nil {
			t.Errorf("%s %s: %s: %v", d.Kind, d.Name, d.Query, err)
		}
	}
	for _, q := range m.VerifiedQuestions {
		for _, values := range q.Examples() {
			sql, args, err := q.Bind(values)
			if err != nil {
				t.Errorf("%s %v: %v", q.Question, values, err)
				continue
			}
			rows, err := pool.Query(ctx, sql, args...)
			if err != nil {
				t.Errorf("%s %v: %v\n%s", q.Question, values, err, sql)
				continue
			}
			n, nonNull := 0, false
			for rows.Next() {
				vals, err := rows.Values()
				if err != nil {
					t.Fatal(err)
				}
				if n == 0 {
					nonNull = vals[0] != nil
				}
				n++
			}
			if err := rows.Err(); err != nil {
				t.Errorf("%s %v: %v", q.Question, values, err)
				continue
			}
			if n == 0 || !nonNull {
				t.Errorf("%s %v: %d rows (first value NULL: %t), want a row with a value", q.Question, values, n, !nonNull)
			}
		}
	}
}
