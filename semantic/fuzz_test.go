package semantic_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/semantic"
)

// FuzzRead: any input gives a model or Errors, never a panic; a model read
// renders its definitions and binds its examples without panicking.
func FuzzRead(f *testing.F) {
	erpModel, err := os.ReadFile("../examples/erp/semantic.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{base, string(erpModel), "", "- 1\n", "entities: [1, {a: b}]\n", "entities:\n  - *x\n", "a: &a [*a]\n",
		"verified_questions:\n  - {question: '{y}', sql: '{y.from}', parameters: [{name: y, kind: date_range, examples: ['x/y']}]}\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := semantic.Read(strings.NewReader(s), "f.yaml")
		if err != nil {
			var es semantic.Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("error is not Errors: %v", err)
			}
			return
		}
		_, _ = m.Definitions()
		for _, q := range m.VerifiedQuestions {
			for _, v := range q.Examples() {
				_, _, _ = q.Bind(v)
				_, _ = q.Inline(v)
			}
		}
	})
}

// BenchmarkCheckERPModel reads and checks the demo ERP's semantic model
// (21 verified questions, 19 measures) against its catalog.
func BenchmarkCheckERPModel(b *testing.B) {
	cat := erpCatalogB(b)
	data, err := os.ReadFile("../examples/erp/semantic.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		m, err := semantic.Read(strings.NewReader(string(data)), "semantic.yaml")
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Check(cat, nil); err != nil {
			b.Fatal(err)
		}
	}
}
