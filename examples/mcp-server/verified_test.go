package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// TestVerifiedWithoutModel: a server without a model but with the demo
// ERP's semantic model answers a question a verified question fits, with
// origin verified and the bindings, and refuses another with ErrNoLLM;
// learn with parameters auto makes an example a template that answers
// the same question with another value.
func TestVerifiedWithoutModel(t *testing.T) {
	dsn := erptest.Single(t)
	m, err := semantic.Load(filepath.Join("..", "erp", "semantic.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	eng := mustEngine(t, dsn, nl2sql.WithSemantic(m))
	cs := connect(t, NewServer(eng, Config{Verified: true}))
	out := decode[NLQueryOutput](t, call(t, cs, "nl_query", map[string]any{"question": "Top 3 customers by revenue"}))
	if out.Origin != "verified" || out.Verified == nil || fmt.Sprint(out.Verified.Bindings) != "map[n:3]" || len(out.Rows) != 3 {
		t.Errorf("a verified question: %+v", out)
	}
	if res := call(t, cs, "nl_query", map[string]any{"question": "Which warehouse ships the most?"}); !res.IsError || !strings.Contains(text(res), "needs a language model") {
		t.Errorf("no template fits: %v %s", res.IsError, text(res))
	}
	learnt := decode[LearnOutput](t, call(t, cs, "learn", map[string]any{"parameters": "auto", "question": "How many employees joined in 2021?",
		"sql": "SELECT count(*) AS hires FROM employees WHERE extract(year FROM hire_date) = 2021"}))
	if learnt.Question != "How many employees joined in {year}?" || len(learnt.Parameters) != 1 || learnt.Parameters[0].Kind != "year" {
		t.Fatalf("learn parameters auto: %+v", learnt)
	}
	out = decode[NLQueryOutput](t, call(t, cs, "nl_query", map[string]any{"question": "How many employees joined in 2023?"}))
	if out.Origin != "verified" || out.Verified == nil || out.Verified.Source != learnt.ID || out.Verified.Bindings["year"] != "2023" {
		t.Errorf("the learnt template: %+v", out)
	}
}
