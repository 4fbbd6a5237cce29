// These tests of the fifth red team attack verified answers (findings 2
// and 3 of docs/redteam5.md); they ran on verified alone (branch
// redteam5-verified) and on this merge of identity, rls and verified.

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

// redteam5Tenants is a database whose table notes is split between
// tenants 1 and 2 by a row-level security policy on app.tenant_id, and a
// role that reads it under the policy; tenant 2's rows say "two-secret".
func redteam5Tenants(t *testing.T) (dsn, reader string) {
	t.Helper()
	pgtest.SkipShort(t)
	reader = pgtest.RoleName(t, "rt5_reader_")
	dsn = pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, fmt.Sprintf(`CREATE TABLE notes (id int PRIMARY KEY, tenant_id int NOT NULL, body text NOT NULL, year int NOT NULL);
ALTER TABLE notes ENABLE ROW LEVEL SECURITY;
CREATE POLICY by_tenant ON notes USING (tenant_id = current_setting('app.tenant_id', true)::int);
CREATE ROLE %[1]s;
GRANT SELECT ON notes TO %[1]s;
INSERT INTO notes VALUES (1, 1, 'one-alpha', 2024), (2, 1, 'one-beta', 2024), (3, 2, 'two-secret', 2024);`, reader))
	return dsn, reader
}

// redteam5Engine is an engine over dsn whose fake model answers a count of
// notes, declaring app.tenant_id, without a value index.
func redteam5Engine(t *testing.T, dsn string) *nl2sql.Engine {
	t.Helper()
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT count(*) FROM notes") })
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithLLM(model), nl2sql.WithSettings("app.tenant_id"), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// TestRedteam5VerifiedTemplateOtherTenant (red team 5): tenant 2 (same
// role, same scope, its own app.tenant_id) teaches a template whose SQL
// holds one of its values; tenant 1 asks the template's words and is
// answered from tenant 2's template, without the model: its Result
// (SQL, Verified.SQL) carries tenant 2's value, and the answer is
// tenant 2's question, not its own. Templates are matched against every
// learnt example (verified.go, Engine.templates), whatever identity
// taught it; the rls branch's offer rule (offer.go) is not applied to
// them. See docs/redteam5.md, finding 2.
func TestRedteam5VerifiedTemplateOtherTenant(t *testing.T) {
	dsn, reader := redteam5Tenants(t)
	eng := redteam5Engine(t, dsn)
	ctx := context.Background()
	two := []nl2sql.AskOption{nl2sql.AsRole(reader), nl2sql.Setting("app.tenant_id", "2")}
	one := []nl2sql.AskOption{nl2sql.AsRole(reader), nl2sql.Setting("app.tenant_id", "1")}
	k := nl2sql.Example("how many flagged notes were written in {year}?", "SELECT count(*) FROM notes WHERE body = 'two-secret' AND year = {year}")
	k.Parameters = []semantic.Parameter{{Name: "year", Kind: semantic.ParamYear, Examples: []string{"2024"}}}
	if _, err := eng.Learn(ctx, k, two...); err != nil {
		t.Fatalf("tenant 2 learns its template: %v", err)
	}
	res, err := eng.Ask(ctx, "How many flagged notes were written in 2024?", one...)
	b, _ := json.Marshal(res)
	if strings.Contains(string(b), "two-secret") || (err != nil && strings.Contains(err.Error(), "two-secret")) {
		t.Errorf("tenant 1's answer (origin %q) holds tenant 2's value: %s", res.Origin, b)
	}
	if res != nil && res.Origin == nl2sql.OriginVerified {
		t.Errorf("tenant 1 is answered from tenant 2's template %s", res.Verified.Source)
	}
}

// TestRedteam5VerifiedMatchIgnoresSigns (red team 5): Match drops the
// punctuation around a word (semantic.words trims every non-letter,
// non-digit rune), so a sign that changes the question's meaning is
// lost: "top 10% notes" is answered as the top 10 rows, "written in
// >2024" or "in 2024+" or "≠2024" as written in 2024, all from the
// template, without the model and with confidence 1. See
// docs/redteam5.md, finding 3.
func TestRedteam5VerifiedMatchIgnoresSigns(t *testing.T) {
	dsn, _ := redteam5Tenants(t)
	eng := redteam5Engine(t, dsn)
	ctx := context.Background()
	year := nl2sql.Example("how many notes were written in {year}?", "SELECT count(*) FROM notes WHERE year = {year}")
	year.Parameters = []semantic.Parameter{{Name: "year", Kind: semantic.ParamYear, Examples: []string{"2024"}}}
	top := nl2sql.Example("top {n} notes by id", "SELECT id, body FROM notes ORDER BY id LIMIT {n}")
	top.Parameters = []semantic.Parameter{{Name: "n", Kind: semantic.ParamTopN, Examples: []string{"2"}}}
	for _, k := range []nl2sql.Knowledge{year, top} {
		if _, err := eng.Learn(ctx, k); err != nil {
			t.Fatalf("learn %q: %v", k.Question, err)
		}
	}
	// The templates' own words still answer (the test is not vacuous).
	if res, err := eng.Ask(ctx, "How many notes were written in 2023?"); err != nil || res.Origin != nl2sql.OriginVerified {
		t.Fatalf("the template's own question: origin %q, %v", res.Origin, err)
	}
	for _, q := range []string{
		"top 10% notes by id",
		"top -5 notes by id",
		"how many notes were written in >2024?",
		"how many notes were written in 2024+?",
		"how many notes were written in ≠2024?",
		"how many notes were written in <2024?",
	} {
		res, _ := eng.Ask(ctx, q)
		if res != nil && res.Origin == nl2sql.OriginVerified {
			t.Errorf("%q is answered from the template %q with %v (confidence %v)", q, res.Verified.Question, res.Verified.Bindings, res.Confidence)
		}
	}
}

// TestRedteam5VerifiedTemplateOtherScope (red team 5): the scope form of
// finding 2. Division div_01 (scope div_01) teaches a template over its
// employees whose SQL names the table unqualified and holds one of its
// own values; div_02 asks the same words and is answered from div_01's
// template (the scope's validator accepts it: employees resolves to
// div_02.employees), its Result showing div_01's value. The check that
// keeps a template to its scope (TestVerifiedTemplateOtherTenant) holds
// only for a template that qualifies its tables. See docs/redteam5.md,
// finding 2.
func TestRedteam5VerifiedTemplateOtherScope(t *testing.T) {
	pgtest.SkipShort(t)
	dsn := erptest.Divisions(t, 2)
	pool := pgtest.Pool(t, dsn)
	ctx := context.Background()
	var mine string
	if err := pool.QueryRow(ctx, `SELECT last_name FROM div_01.employees WHERE last_name NOT IN (SELECT last_name FROM div_02.employees) ORDER BY 1 LIMIT 1`).Scan(&mine); err != nil {
		t.Fatal(err)
	}
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT count(*) FROM employees") })
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	k := nl2sql.Example("how many employees of the audit team were hired in {year}?",
		"SELECT count(*) FROM employees WHERE last_name = '"+strings.ReplaceAll(mine, "'", "''")+"' AND extract(year FROM hire_date) = {year}")
	k.Parameters = []semantic.Parameter{{Name: "year", Kind: semantic.ParamYear, Examples: []string{"2021"}}}
	if _, err := eng.Learn(ctx, k, nl2sql.Scope("div_01")); err != nil {
		t.Fatalf("div_01 learns: %v", err)
	}
	res, err := eng.Ask(ctx, "How many employees of the audit team were hired in 2022?", nl2sql.Scope("div_02"))
	b, _ := json.Marshal(res)
	if strings.Contains(string(b), mine) || (err != nil && strings.Contains(err.Error(), mine)) {
		t.Errorf("div_02's answer (origin %q) holds div_01's value %q: %s", res.Origin, mine, b)
	}
}
