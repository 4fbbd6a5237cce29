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
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// TestVerifiedTemplateWithoutModel: one instance of a question shape is
// taught (ProposeTemplate, then Learn in div_01; another scope is not
// answered from it until it learns it too); five others (another year,
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
	// A template learnt in div_01 is div_01's (its words and literals are
	// that scope's): div_02 is not answered from it until div_02 learns it.
	if res, _ := eng.Ask(ctx, "How many SMB customers placed orders in 2024?", nl2sql.Scope("div_02")); res.Origin == nl2sql.OriginVerified {
		t.Errorf("div_02 is answered from div_01's template %s", res.Verified.Source)
	}
	if _, err := eng.Learn(ctx, k, nl2sql.Scope("div_02")); err != nil {
		t.Fatal(err)
	}
	calls := len(srv.Requests())
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
	if n := len(srv.Requests()) - calls; n != 0 {
		t.Fatalf("%d model calls, want none", n)
	}
	// Not the template's words, or not a stored value: the model is asked.
	for _, q := range []string{"How many customers placed orders in 2024?", "How many Retail customers placed orders in 2024?"} {
		res, _ := eng.Ask(ctx, q, div1)
		if res.Origin == nl2sql.OriginVerified {
			t.Errorf("%s: answered from the template", q)
		}
	}
	if n := len(srv.Requests()) - calls; n == 0 {
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

// TestVerifiedTemplateByIdentity: a template learnt under an identity
// answers that identity only, and the "fits N readings" note of another
// names none of it; the operator's template (learnt under none) answers
// every identity, each reading its own rows under the policy.
func TestVerifiedTemplateByIdentity(t *testing.T) {
	dsn, reader := redteam5Tenants(t)
	eng := redteam5Engine(t, dsn)
	ctx := context.Background()
	one := []nl2sql.AskOption{nl2sql.AsRole(reader), nl2sql.Setting("app.tenant_id", "1")}
	two := []nl2sql.AskOption{nl2sql.AsRole(reader), nl2sql.Setting("app.tenant_id", "2")}
	template := func(question, sql string) nl2sql.Knowledge {
		k := nl2sql.Example(question, sql)
		k.Parameters = []semantic.Parameter{{Name: "year", Kind: semantic.ParamYear, Examples: []string{"2024"}}}
		return k
	}
	learn := func(k nl2sql.Knowledge, opts ...nl2sql.AskOption) nl2sql.Knowledge {
		t.Helper()
		learnt, err := eng.Learn(ctx, k, opts...)
		if err != nil {
			t.Fatalf("learn %q: %v", k.Question, err)
		}
		return learnt
	}
	k1 := learn(template("how many flagged notes were written in {year}?", "SELECT count(*) FROM notes WHERE body LIKE 'one%' AND year = {year}"), one...)
	k2 := learn(template("how many flagged notes were written in {year}?", "SELECT count(*) FROM notes WHERE body = 'two-secret' AND year = {year}"), two...)
	for _, c := range []struct {
		who        []nl2sql.AskOption
		mine, not  string
		wantRows   string
		otherValue string
	}{
		{one, k1.ID, k2.ID, "[[2]]", "two-secret"},
		{two, k2.ID, k1.ID, "[[1]]", "one%"},
	} {
		res, err := eng.Ask(ctx, "How many flagged notes were written in 2024?", c.who...)
		if err != nil || res.Origin != nl2sql.OriginVerified || res.Verified.Source != c.mine || fmt.Sprint(res.Rows) != c.wantRows {
			t.Fatalf("want the caller's own template %s and rows %s: %+v, %v", c.mine, c.wantRows, res, err)
		}
		b, _ := json.Marshal(res)
		if strings.Contains(string(b), c.not) || strings.Contains(string(b), c.otherValue) {
			t.Errorf("the answer names the other identity's template %s or value %q: %s", c.not, c.otherValue, b)
		}
	}
	op := learn(template("how many notes were written in {year}?", "SELECT count(*) FROM notes WHERE year = {year}"))
	for who, want := range map[string]string{"1": "[[2]]", "2": "[[1]]"} {
		res, err := eng.Ask(ctx, "How many notes were written in 2024?", nl2sql.AsRole(reader), nl2sql.Setting("app.tenant_id", who))
		if err != nil || res.Origin != nl2sql.OriginVerified || res.Verified.Source != op.ID || fmt.Sprint(res.Rows) != want {
			t.Errorf("tenant %s, the operator's template: want %s from %s, got %+v, %v", who, want, op.ID, res, err)
		}
	}
}
