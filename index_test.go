package nl2sql_test

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

func TestSaveAndLoadIndex(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.Pool(t, erptest.Single(t))
	a, err := nl2sql.New(pool)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := a.SaveIndex(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	opts, err := nl2sql.LoadIndex(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var stages []string
	b, err := nl2sql.New(pool, append(opts, nl2sql.WithProgress(func(p nl2sql.Progress) { stages = append(stages, string(p.Stage)) }))...)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	for _, s := range stages {
		if s == "introspect" || s == "values" {
			t.Errorf("a loaded index must not read the catalog or values again: %v", stages)
		}
	}
	for _, q := range []string{"Which sales rep has won the most deals?", "Total payroll cost per department in 2024"} {
		ca, err := a.SchemaContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		cb, err := b.SchemaContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ca.Tables, cb.Tables) || ca.Prompt != cb.Prompt {
			t.Errorf("%q: loaded index answers differently", q)
		}
	}
	if _, err := nl2sql.LoadIndex(bytes.NewReader([]byte("not an index"))); !errors.Is(err, nl2sql.ErrBadIndex) {
		t.Errorf("garbage: %v", err)
	}
	trunc := buf.Bytes()[:buf.Len()/2]
	if _, err := nl2sql.LoadIndex(bytes.NewReader(trunc)); !errors.Is(err, nl2sql.ErrBadIndex) {
		t.Errorf("truncated: %v", err)
	}
}
