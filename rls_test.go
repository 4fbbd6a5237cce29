package nl2sql_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/corpus"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// everything is what a test saw of one caller's requests: every message
// the model was sent, every answer, context, error, trace event and log
// line, as text.
type everything struct {
	mu    sync.Mutex
	texts []string
}

func (ev *everything) add(format string, a ...any) {
	ev.mu.Lock()
	ev.texts = append(ev.texts, fmt.Sprintf(format, a...))
	ev.mu.Unlock()
}

func (ev *everything) json(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		ev.add("%+v", v)
		return
	}
	ev.add("%s", b)
}

// Write is the log handler's output.
func (ev *everything) Write(p []byte) (int, error) {
	ev.add("%s", p)
	return len(p), nil
}

// Stage, StageStart and TraceProgress record every trace event.
func (ev *everything) Stage(_ context.Context, stage nl2sql.Stage, _ time.Duration, err error) {
	ev.add("stage %s err %v", stage, err)
}

func (ev *everything) StageStart(ctx context.Context, stage nl2sql.Stage) context.Context {
	ev.add("start %s", stage)
	return ctx
}

func (ev *everything) TraceProgress(_ context.Context, p nl2sql.Progress) { ev.add("progress %+v", p) }

// find returns the first of values found in a text, and where.
func (ev *everything) find(values []string) (string, string) {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	for _, text := range ev.texts {
		for _, v := range values {
			if strings.Contains(text, v) {
				return v, text
			}
		}
	}
	return "", ""
}

func (ev *everything) contains(s string) bool {
	v, _ := ev.find([]string{s})
	return v != ""
}

// tenantNames reads, as the owner (a superuser reads past the policies),
// each tenant's customer and product names.
func tenantNames(t *testing.T, owner string) map[string][]string {
	t.Helper()
	pool := pgtest.Pool(t, owner)
	out := map[string][]string{}
	rows, err := pool.Query(context.Background(), `SELECT tenant_id::text, customer_name FROM customers
UNION SELECT tenant_id::text, product_name FROM products`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			t.Fatal(err)
		}
		out[id] = append(out[id], name)
	}
	if len(out["1"]) < 100 || len(out["2"]) < 100 {
		t.Fatalf("tenant names: %d and %d", len(out["1"]), len(out["2"]))
	}
	return out
}

// rlsQuestion is a question a tenant asks and the SQL the fake model
// writes for it (first a query the server refuses, so that a repair prompt
// is sent too, when bad is set).
type rlsQuestion struct {
	q, sql, bad string
}

// TestRowLevelTenantsSeeOnlyTheirOwn asks the same questions as the two
// tenants of the demo ERP's row-level layout, through the engine's login
// role (not the owner, no BYPASSRLS) with the tenant in app.tenant_id, and
// finds no value of the other tenant anywhere: in what the model was sent
// (every message of every request, repair turns included), the answers,
// the schema contexts (hints, examples, prompt), errors, trace events or
// log lines. What a tenant taught (an example and a doc naming its
// customers) reaches its own prompts, never the other's; what the
// operator taught reaches both, and so does a tenant's example over a table
// without row-level security.
//
// It runs twice: the pool connects as the login role and a request only
// sets the tenant; the pool connects as the owner (a superuser, who reads
// every tenant's rows: the engine's own reads, the value index, see them
// all) and a request also runs as the login role (AsRole).
func TestRowLevelTenantsSeeOnlyTheirOwn(t *testing.T) {
	pgtest.SkipShort(t)
	owner, app := erptest.RLS(t)
	names := tenantNames(t, owner)
	t.Run("login role", func(t *testing.T) { tenantsSeeTheirOwn(t, app, names) })
	t.Run("owner pool, AsRole", func(t *testing.T) { tenantsSeeTheirOwn(t, owner, names, nl2sql.AsRole(erp.AppRole)) })
}

func tenantsSeeTheirOwn(t *testing.T, dsn string, names map[string][]string, identity ...nl2sql.AskOption) {
	marker := erp.Tenants()
	ctx := context.Background()

	// The model: the SQL of the question the prompt holds; a repair turn
	// gets the good SQL.
	var questions map[string]rlsQuestion
	var qmu sync.Mutex
	var seen *everything
	srv := llmfake.New(t, func(_ int, req *llmfake.Request) llmfake.Reply {
		qmu.Lock()
		defer qmu.Unlock()
		all := ""
		for _, m := range req.Messages {
			seen.add("model %s: %s", m.Role, m.Content)
			all += m.Content + "\n"
		}
		last := req.Last()
		for _, q := range questions {
			if strings.Contains(all, "【Question】\n"+q.q+"\n") {
				if q.bad != "" && !strings.Contains(last, "failed") && !strings.Contains(all, q.bad) {
					return fenced(q.bad)
				}
				return fenced(q.sql)
			}
		}
		return fenced("SELECT 1")
	})
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	rec := &everything{}
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithLLM(model), nl2sql.WithSettings(erp.TenantSetting),
		nl2sql.WithK(1, 1, 1), nl2sql.WithRepairAttempts(1), nl2sql.WithTracer(rec),
		nl2sql.WithLogger(slog.New(slog.NewJSONHandler(rec, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	as := func(id string) []nl2sql.AskOption {
		return append([]nl2sql.AskOption{nl2sql.Setting(erp.TenantSetting, id)}, identity...)
	}

	// Each tenant teaches an example and a doc naming one of its
	// customers; the operator (no identity) teaches one example.
	first := map[string]string{}
	for id := range marker {
		for _, n := range names[id] {
			if strings.Contains(n, " Retail ") && (first[id] == "" || n < first[id]) {
				first[id] = n
			}
		}
		ex := nl2sql.Example("How many sales orders did "+first[id]+" place?",
			"SELECT count(*) FROM sales_orders o JOIN customers c ON c.customer_id = o.customer_id WHERE c.customer_name = '"+first[id]+"'")
		if _, err := eng.Learn(ctx, ex, as(id)...); err != nil {
			t.Fatalf("tenant %s learns: %v", id, err)
		}
		doc := nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Table: "customers", Text: first[id] + " is our key account."}
		if _, err := eng.Learn(ctx, doc, as(id)...); err != nil {
			t.Fatalf("tenant %s learns: %v", id, err)
		}
	}
	// Tenant 1's example over a table without row-level security is still
	// tenant 1's (its question and literals are its words): tenant 2 is
	// not offered it.
	const sharedSQL = "SELECT count(*) FROM warehouses"
	if _, err := eng.Learn(ctx, nl2sql.Example("How many warehouses do we run?", sharedSQL), as("1")...); err != nil {
		t.Fatal(err)
	}
	// (Over a table without row-level security: without a tenant, the
	// policies' current_setting fails the plan.)
	const operatorSQL = "SELECT count(*) FROM sales_reps r JOIN sales_territories t ON t.territory_id = r.territory_id"
	if _, err := eng.Learn(ctx, nl2sql.Example("How many sales reps work in each territory?", operatorSQL)); err != nil {
		t.Fatal(err)
	}

	for id, name := range marker {
		other := "1"
		if id == "1" {
			other = "2"
		}
		seen = &everything{}
		qmu.Lock()
		questions = map[string]rlsQuestion{
			"names": {q: "List the names of our customers", sql: "SELECT customer_name FROM customers ORDER BY customer_name LIMIT 10",
				bad: "SELECT customer_name FROM customers WHERE customer_id = 'first' LIMIT 10"},
			"products": {q: "Which products were ordered the most?", sql: `SELECT p.product_name, sum(l.qty) AS qty
FROM sales_order_lines l JOIN products p ON p.product_id = l.product_id GROUP BY p.product_name ORDER BY qty DESC, p.product_name LIMIT 5`},
			"revenue": {q: "Which customers bring the most revenue?", sql: "SELECT customer_name, revenue FROM v_customer_revenue ORDER BY revenue DESC, customer_name LIMIT 5"},
			"orders":  {q: "How many sales orders did " + first[id] + " place?", sql: "SELECT count(*) FROM sales_orders o JOIN customers c ON c.customer_id = o.customer_id WHERE c.customer_name = '" + first[id] + "'"},
			"active":  {q: "How many sales reps are there per territory?", sql: operatorSQL},
			"shared":  {q: "How many warehouses are there?", sql: sharedSQL},
		}
		qs := questions
		qmu.Unlock()
		rec.mu.Lock()
		rec.texts = nil
		rec.mu.Unlock()
		for _, key := range []string{"names", "products", "revenue", "orders", "active", "shared"} {
			q := qs[key]
			res, err := eng.Ask(ctx, q.q, as(id)...)
			if err != nil {
				seen.add("ask error %v", err)
				t.Errorf("tenant %s: %q: %v", id, q.q, err)
				continue
			}
			seen.json(res)
			if (key == "names" || key == "products" || key == "revenue") && !strings.Contains(fmt.Sprint(res.Rows), name) {
				t.Errorf("tenant %s (%s): %q answered %v", id, name, q.q, res.Rows)
			}
			sc, err := eng.SchemaContext(ctx, q.q, as(id)...)
			if err != nil {
				t.Fatal(err)
			}
			seen.json(sc)
		}
		if _, err := eng.Run(ctx, "SELECT customer_name FROM customers WHERE customer_id = 'x'", as(id)...); err != nil {
			seen.add("run error %v", err)
		}
		seen.mu.Lock()
		seen.texts = append(seen.texts, rec.texts...)
		seen.mu.Unlock()
		if v, text := seen.find(append([]string{marker[other]}, names[other]...)); v != "" {
			t.Errorf("tenant %s saw tenant %s's %q in:\n%.2000s", id, other, v, text)
		}
		// The controls: its own example and doc, the operator's example,
		// a repair turn, all sent to the model.
		for _, want := range []string{"WHERE c.customer_name = '" + first[id] + "'", first[id] + " is our key account", operatorSQL,
			"The following PostgreSQL query failed"} {
			if !seen.contains(want) {
				t.Errorf("tenant %s: %q was not sent to the model", id, want)
			}
		}
		if got := seen.contains("How many warehouses do we run?"); got != (id == "1") {
			t.Errorf("tenant %s: tenant 1's example over warehouses sent to the model: %v", id, got)
		}
	}
}

// TestPromptShowsOnlyWhatTheRoleReads: a role without SELECT on a table
// never sees it (retrieval, links, prompt, an example reading it), and of a
// table it may read some columns of, only those (and their docs); the pool
// role, reading everything, sees it all.
func TestPromptShowsOnlyWhatTheRoleReads(t *testing.T) {
	pgtest.SkipShort(t)
	role := pgtest.RoleName(t, "prompt_reader_")
	dsn := pgtest.NewDatabase(t)
	ident := `"` + role + `"`
	pgtest.Exec(t, dsn, `
CREATE TABLE staff (id int PRIMARY KEY, full_name text, home_address text);
CREATE TABLE payroll_ledger (id int PRIMARY KEY, staff_id int REFERENCES staff, salary_amount numeric, paid_on date);
INSERT INTO staff VALUES (1, 'Ada', 'Hidden Lane 1'), (2, 'Bob', 'Hidden Lane 2');
INSERT INTO payroll_ledger VALUES (1, 1, 5000, '2025-01-31'), (2, 2, 4000, '2025-01-31');
COMMENT ON TABLE payroll_ledger IS 'Salary payments per staff member';
CREATE ROLE `+ident+`;
GRANT SELECT (id, full_name) ON staff TO `+ident)
	t.Cleanup(func() { pgtest.Exec(t, dsn, "DROP OWNED BY "+ident) })
	eng, err := nl2sql.New(pgtest.Pool(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const q = "What is the salary amount of each staff member and their home address?"
	for _, k := range []nl2sql.Knowledge{
		nl2sql.Example("What is the salary amount of each staff member?", "SELECT staff_id, salary_amount FROM payroll_ledger"),
		{Kind: nl2sql.KnowledgeDoc, Table: "staff", Column: "home_address", Text: "Hidden Lane is the old office."},
		{Kind: nl2sql.KnowledgeDoc, Table: "staff", Column: "full_name", Text: "Names are given first, then family."},
	} {
		if _, err := eng.Learn(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	all, err := eng.SchemaContext(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"payroll_ledger", "salary_amount", "home_address", "Hidden Lane", "SELECT staff_id, salary_amount", "Hidden Lane is the old office"} {
		if !strings.Contains(all.Prompt.User, want) {
			t.Errorf("the pool role's prompt lacks %q:\n%s", want, all.Prompt.User)
		}
	}
	sc, err := eng.SchemaContext(ctx, q, nl2sql.AsRole(role))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(sc)
	for _, banned := range []string{"payroll_ledger", "salary_amount", "home_address", "Hidden Lane"} {
		if bytes.Contains(b, []byte(banned)) {
			t.Errorf("%s may not read %q, but its context shows it:\n%s", role, banned, b)
		}
	}
	if !strings.Contains(sc.Prompt.User, "full_name") || !strings.Contains(sc.Prompt.User, "Names are given first") {
		t.Errorf("the role's prompt lacks the column it may read:\n%s", sc.Prompt.User)
	}
	// The listings a server shows the caller (schema pages, MCP tables) are
	// cut alike.
	cat, err := eng.ScopeCatalog(ctx, nl2sql.AsRole(role))
	if err != nil {
		t.Fatal(err)
	}
	if cat.Table("payroll_ledger") != nil || cat.Table("staff") == nil || cat.Table("staff").Column("home_address") != nil || cat.Table("staff").Column("full_name") == nil {
		t.Errorf("ScopeCatalog as %s lists what it may not read, or not what it may: %d tables", role, len(cat.Tables))
	}
	if _, err := eng.SchemaContext(ctx, q, nl2sql.AsRole("no such role "+role)); err == nil {
		t.Error("an unknown role built a context")
	}
}

// rlsShopSchema is the attack corpus's shop (users, orders, products) kept
// apart by tenant_id under row-level security: tenant 1's rows are
// "alpha", tenant 2's carry betaSecret in every text.
const rlsShopSchema = `
CREATE TABLE users (id serial PRIMARY KEY, name text NOT NULL, email text, created_at timestamptz DEFAULT now(), tenant_id int NOT NULL);
CREATE TABLE orders (id serial PRIMARY KEY, user_id int REFERENCES users(id), amount numeric(10,2), status text,
	created_at timestamptz DEFAULT now(), tenant_id int NOT NULL);
CREATE TABLE products (id serial PRIMARY KEY, name text, price numeric(10,2), tenant_id int NOT NULL);
INSERT INTO users (name, email, tenant_id)
	SELECT CASE i % 2 WHEN 1 THEN 'alpha' ELSE 'BETASECRET' END || i, CASE i % 2 WHEN 1 THEN 'alpha' ELSE 'BETASECRET' END || i || '@example.com', 2 - i % 2
	FROM generate_series(1, 20) i;
INSERT INTO orders (user_id, amount, status, tenant_id)
	SELECT u.id, u.id * 10 + k, CASE WHEN u.tenant_id = 1 THEN 'open' ELSE 'BETASECRET' END, u.tenant_id FROM users u, generate_series(1, 3) k;
INSERT INTO products (name, price, tenant_id) SELECT CASE i % 2 WHEN 1 THEN 'alpha' ELSE 'BETASECRET' END || i, i, 2 - i % 2 FROM generate_series(1, 10) i;
CREATE SCHEMA other_schema;
CREATE TABLE other_schema.t (id int, secret text);
INSERT INTO other_schema.t VALUES (1, 'BETASECRET other schema');
DO $$
DECLARE t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['users', 'orders', 'products'] LOOP
		EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
		EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
		EXECUTE format('CREATE POLICY by_tenant ON %I USING (tenant_id = current_setting(''app.tenant_id'')::int)', t);
	END LOOP;
END $$;
`

const betaSecret = "BETASECRET"

// TestAttacksUnderRowLevelSecurity runs the validator's attack corpus, and
// attacks on the policies themselves, as tenant 1 of a shop kept apart by
// row-level security, through Check, Run, Repair, Pick and Ask of an
// engine whose login role obeys the policies: whatever an entry point
// answers, refuses or says, no row or value of tenant 2 is in it, and the
// queries that may run see tenant 1's rows only (their counts are tenant
// 1's).
func TestAttacksUnderRowLevelSecurity(t *testing.T) {
	pgtest.SkipShort(t)
	cases, err := corpus.Read("validate/testdata/attacks")
	if err != nil {
		t.Fatal(err)
	}
	role := pgtest.RoleName(t, "rls_attack_")
	dsn := pgtest.NewDatabase(t)
	ident := `"` + role + `"`
	pgtest.Exec(t, dsn, rlsShopSchema+"CREATE ROLE "+ident+" LOGIN NOBYPASSRLS; GRANT SELECT ON ALL TABLES IN SCHEMA public TO "+ident)
	t.Cleanup(func() { pgtest.Exec(t, dsn, "DROP OWNED BY "+ident) })
	var answer string
	eng := answerEngine(t, pgtest.PoolAs(t, dsn, role), &answer, nl2sql.WithSettings("app.tenant_id"), nl2sql.WithValueIndex(true))
	ctx := context.Background()
	tenant := nl2sql.Setting("app.tenant_id", "1")
	leak := func(name, where string, v any) {
		t.Helper()
		b, _ := json.Marshal(v)
		if s := fmt.Sprintf("%s %+v", b, v); strings.Contains(s, betaSecret) {
			t.Errorf("%s: %s shows tenant 2's rows: %.500s", name, where, s)
		}
	}
	// Attacks on the policies: each is refused, or runs and sees tenant
	// 1's rows only.
	policyAttacks := []string{
		"SELECT set_config('app.tenant_id', '2', true), name FROM users",
		"SELECT name FROM users WHERE set_config('app.tenant_id', '2', false) IS NOT NULL",
		"SELECT pg_catalog.set_config(U&'app.tenant\\005fid', '2', true)",
		"WITH x AS (SELECT set_config('app.tenant_id', '2', true)) SELECT name FROM users, x",
		"SELECT name FROM users, LATERAL (SELECT set_config('app.tenant_id', '2', true)) s",
		"SELECT * FROM (VALUES ((SELECT set_config('row_security', 'off', true)))) v, users",
		"SET LOCAL app.tenant_id = '2'",
		"SET row_security = off",
		"RESET app.tenant_id",
		`SELECT "name" FROM "public"."users" WHERE tenant_id = 2`,
		"SELECT name FROM ONLY public.users WHERE tenant_id <> 1",
		"SELECT u.name FROM users u WHERE EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.id AND o.tenant_id = 2)",
		"SELECT name, count(*) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM users",
		"SELECT name FROM products WHERE name LIKE $$BETA%$$",
		"SELECT * FROM other_schema.t",
	}
	for _, c := range cases {
		policyAttacks = append(policyAttacks, c.SQL)
	}
	ran := 0
	for i, sql := range policyAttacks {
		name := fmt.Sprintf("attack %d", i)
		if i >= len(policyAttacks)-len(cases) {
			name = cases[i-(len(policyAttacks)-len(cases))].String()
		}
		chk, err := eng.Check(ctx, sql, tenant)
		leak(name, "Check", chk)
		leak(name, "Check's error", fmt.Sprint(err))
		res, err := eng.Run(ctx, sql, tenant)
		leak(name, "Run", res)
		leak(name, "Run's error", fmt.Sprint(err))
		if err == nil && res != nil {
			ran++
		}
		rr, err := eng.Repair(ctx, sql, tenant)
		leak(name, "Repair", rr)
		leak(name, "Repair's error", fmt.Sprint(err))
		pr, err := eng.Pick(ctx, "attack", []string{sql}, tenant)
		leak(name, "Pick", pr)
		leak(name, "Pick's error", fmt.Sprint(err))
		answer = sql
		ar, err := eng.Ask(ctx, "attack", tenant)
		leak(name, "Ask", ar)
		leak(name, "Ask's error", fmt.Sprint(err))
	}
	// The controls: what may run, runs, and counts tenant 1's rows only.
	for sql, want := range map[string]string{
		"SELECT count(*) FROM users":    "[[10]]",
		"SELECT count(*) FROM orders":   "[[30]]",
		"SELECT count(*) FROM products": "[[5]]",
		"SELECT count(*) FROM users u JOIN orders o ON o.user_id = u.id, LATERAL (SELECT 1) AS one":           "[[30]]",
		"SELECT DISTINCT count(*) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM users": "[[10]]",
		"SELECT current_setting('app.tenant_id')":                                                             "[[1]]",
	} {
		res, err := eng.Run(ctx, sql, tenant)
		if err != nil || fmt.Sprint(res.Rows) != want {
			t.Errorf("%s as tenant 1: %v, %v, want %s", sql, res, err, want)
		}
	}
	t.Logf("%d attacks (%d of the corpus) through Check, Run, Repair, Pick and Ask as tenant 1; %d ran", len(policyAttacks), len(cases), ran)
}
