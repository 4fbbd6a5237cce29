package nl2sql_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// TestVerifiedTemplateWithoutModel: one instance of a question shape is
// taught (ProposeTemplate, then Learn); five others (another year,
// another stored value, another scope, both) are answered from its SQL
// with the values as parameters, without a model call, with the rows of
// a hand-written query; a question the template does not fit goes to the
// model.
func TestVerifiedTemplateWithoutModel(t *testing.T) {
	pgtest.SkipShort(t)
	dsn := erptest.Divisions(t, 2)
	pool := pgtest.Pool(t, dsn)
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT count(*) FROM customers") })
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithK(1, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	div1 := nl2sql.Scope("div_01")
	k, err := eng.ProposeTemplate(ctx, "How many Enterprise customers placed orders in 2024?",
		"SELECT count(DISTINCT o.customer_id) FROM sales_orders o JOIN customers c ON c.customer_id = o.customer_id "+
			"WHERE c.segment = 'Enterprise' AND extract(year FROM o.order_date) = 2024", div1)
	if err != nil {
		t.Fatal(err)
	}
	if k.Question != "How many {segment} customers placed orders in {year}?" || !strings.Contains(k.SQL, "c.segment = {segment}") ||
		!strings.Contains(k.SQL, "= {year}") || len(k.Parameters) != 2 || k.Parameters[0].Column != "customers.segment" {
		t.Fatalf("proposal %+v", k)
	}
	learnt, err := eng.Learn(ctx, k, div1)
	if err != nil {
		t.Fatal(err)
	}
	hand := func(schema, segment string, year int) string {
		var n int64
		err := pool.QueryRow(ctx, fmt.Sprintf(`SELECT count(*) FROM %[1]s.customers c WHERE c.segment = $1
			AND EXISTS (SELECT FROM %[1]s.sales_orders o WHERE o.customer_id = c.customer_id
			AND o.order_date >= make_date($2, 1, 1) AND o.order_date < make_date($2 + 1, 1, 1))`, schema), segment, year).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(n)
	}
	nonzero := 0
	for _, c := range []struct {
		question, scope, segment string
		year                     int
	}{
		{"How many Enterprise customers placed orders in 2023?", "div_01", "Enterprise", 2023},
		{"How many SMB customers placed orders in 2024?", "div_01", "SMB", 2024},
		{"How many Enterprise customers placed orders in 2024?", "div_02", "Enterprise", 2024},
		{"how many smb customers placed orders in 2025", "div_02", "SMB", 2025},
		{"How many Mid-Market customers placed orders in 2024?", "div_02", "Mid-Market", 2024},
	} {
		res, err := eng.Ask(ctx, c.question, nl2sql.Scope(c.scope))
		if err != nil {
			t.Errorf("%s (%s): %v", c.question, c.scope, err)
			continue
		}
		want := hand(c.scope, c.segment, c.year)
		if res.Origin != nl2sql.OriginVerified || res.Verified == nil || res.Attempts != 0 || fmt.Sprint(res.Rows) != "[["+want+"]]" {
			t.Errorf("%s (%s): origin %q rows %v attempts %d, want verified [[%s]]", c.question, c.scope, res.Origin, res.Rows, res.Attempts, want)
			continue
		}
		if want != "0" {
			nonzero++
		}
		b, _ := json.Marshal(res)
		if !strings.Contains(string(b), `"origin":"verified"`) || !strings.Contains(string(b), fmt.Sprintf(`{"name":"year","kind":"year","value":"%d"}`, c.year)) ||
			!strings.Contains(string(b), `"name":"segment","kind":"value","column":"customers.segment","value":"`+c.segment+`"`) {
			t.Errorf("%s: JSON %s", c.question, b)
		}
		if res.Confidence != 1 || res.Verdict != nl2sql.VerdictAnswered {
			t.Errorf("%s: confidence %v verdict %s", c.question, res.Confidence, res.Verdict)
		}
	}
	if nonzero < 2 {
		t.Errorf("only %d answers are non-zero: the comparison proves little", nonzero)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d model calls, want none", n)
	}
	// Not the template's words, or not a stored value: the model is asked.
	for _, q := range []string{"How many customers placed orders in 2024?", "How many Retail customers placed orders in 2024?"} {
		res, _ := eng.Ask(ctx, q, div1)
		if res.Origin == nl2sql.OriginVerified {
			t.Errorf("%s: answered from the template", q)
		}
	}
	if n := len(srv.Requests()); n == 0 {
		t.Error("no model call for questions the template does not fit")
	}
	// Forgotten, it answers no more.
	if err := eng.Forget(ctx, learnt.ID); err != nil {
		t.Fatal(err)
	}
	if res, _ := eng.Ask(ctx, "How many SMB customers placed orders in 2023?", div1); res.Origin == nl2sql.OriginVerified {
		t.Error("a forgotten template answered")
	}
}

// TestVerifiedTemplateOtherTenant: a template learnt in div_01 that names
// div_01's table is not used for a div_02 request (whose validator
// refuses another tenant's table): the question goes to the model, and
// nothing of div_01 is in the error.
func TestVerifiedTemplateOtherTenant(t *testing.T) {
	pgtest.SkipShort(t)
	eng, err := nl2sql.New(pgtest.Pool(t, erptest.Divisions(t, 2)), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	k, err := eng.ProposeTemplate(ctx, "How many employees were hired in 2021?",
		"SELECT count(*) FROM div_01.employees WHERE extract(year FROM hire_date) = 2021", nl2sql.Scope("div_01"))
	if err != nil || len(k.Parameters) != 1 {
		t.Fatalf("proposal %+v, %v", k, err)
	}
	if _, err := eng.Learn(ctx, k, nl2sql.Scope("div_01")); err != nil {
		t.Fatal(err)
	}
	if res, err := eng.Ask(ctx, "How many employees were hired in 2022?", nl2sql.Scope("div_01")); err != nil || res.Origin != nl2sql.OriginVerified {
		t.Fatalf("div_01: origin %q, %v", res.Origin, err)
	}
	res, err := eng.Ask(ctx, "How many employees were hired in 2022?", nl2sql.Scope("div_02"))
	if res.Origin == nl2sql.OriginVerified || err == nil || strings.Contains(err.Error(), "div_01") {
		t.Errorf("div_02: origin %q, %v", res.Origin, err)
	}
}
