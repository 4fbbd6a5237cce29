package nl2sql_test

import (
	"context"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestNilLoggers: every WithLogger accepts nil (silent), in every package,
// through work that logs.
func TestNilLoggers(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.Pool(t, erptest.Single(t))
	cat, err := schema.Introspect(ctx, pool, schema.WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := link.BuildValueIndex(ctx, pool, cat, link.WithLogger(nil)); err != nil {
		t.Fatal(err)
	}
	link.New(cat, link.WithLogger(nil)).Link(ctx, "active employees", "", []string{"public.employees"})
	g := plan.NewGraph(cat, plan.WithLogger(nil))
	r, err := retrieve.New(ctx, cat, retrieve.WithLogger(nil), retrieve.WithGraph(g))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Tables(ctx, "active employees"); err != nil {
		t.Fatal(err)
	}
	repair.New(cat, repair.WithLogger(nil)).Fix("SELECT nme FROM employees", repair.Failure{SQLState: "42703", Message: `column "nme" does not exist`})
	v := validate.New(validate.WithLogger(nil))
	v.Validate("SELECT 1")
	if _, err := execute.New(pool, execute.WithLogger(nil)).Query(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}

	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT count(*) FROM employees") })
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"),
		openai.WithTransport(llm.Transport{MaxAttempts: 1, Logger: nil}))
	if _, err := generate.New(model, generate.WithLogger(nil)).Generate(ctx, generate.Build(generate.PromptData{Question: "q", Schema: "t"}), 1); err != nil {
		t.Fatal(err)
	}
	eng, err := nl2sql.New(pool, nl2sql.WithLogger(nil), nl2sql.WithLLM(model))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Ask(ctx, "How many employees are there?"); err != nil {
		t.Fatal(err)
	}
}
