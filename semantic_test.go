package nl2sql_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// TestWithSemanticChecksAtPrepare: the demo ERP's model fits its catalog;
// a model naming a column the catalog lacks fails Prepare with ErrConfig
// and its file and line, and one the safety policy refuses fails too.
func TestWithSemanticChecksAtPrepare(t *testing.T) {
	pgtest.SkipShort(t)
	pool := pgtest.Pool(t, erptest.Load(t, erp.Options{NoData: true}))
	good, err := semantic.Load("examples/erp/semantic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := nl2sql.New(pool, nl2sql.WithSemantic(good))
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(context.Background()); err != nil {
		t.Fatalf("the demo ERP's model does not fit its catalog: %v", err)
	}
	for name, measure := range map[string]string{
		"unknown column": "sum(no_such_column)",
		"unsafe call":    "sum(pg_sleep(1)::int)",
	} {
		t.Run(name, func(t *testing.T) {
			src := "version: 1\nentities:\n  - name: sales_orders\n    measures:\n      - name: broken\n        agg: sum\n        expr: " +
				strings.TrimSuffix(strings.TrimPrefix(measure, "sum("), ")") + "\n"
			bad, err := semantic.Read(strings.NewReader(src), "bad.yaml")
			if err != nil {
				t.Fatal(err)
			}
			eng, err := nl2sql.New(pool, nl2sql.WithSemantic(bad))
			if err != nil {
				t.Fatal(err)
			}
			err = eng.Prepare(context.Background())
			if !errors.Is(err, nl2sql.ErrConfig) || !strings.Contains(err.Error(), "bad.yaml:5") {
				t.Fatalf("Prepare = %v, want ErrConfig naming bad.yaml:5", err)
			}
		})
	}
}
