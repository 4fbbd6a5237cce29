package nl2sql_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/internal/rlstest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// promptHolds returns the first non-empty find of a message the fake
// model was sent, and the message; the test fails without a model call.
func promptHolds(t *testing.T, srv *llmfake.Server, find func(string) string) (string, string) {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no model call")
	}
	for _, r := range reqs {
		for _, m := range r.Messages {
			if w := find(m.Content); w != "" {
				return w, m.Content
			}
		}
	}
	return "", ""
}

// TestRedteam5ExampleThroughViewReachesOtherTenant (red team 5): the
// notes of rlstest are read through a view (security_invoker, the demo
// ERP's layout for its views); tenant two teaches an example over the
// view whose SQL holds its own value. The offer rule (offer.go) shows an
// example to other identities when it "reads no table with row-level
// security", judged by grants.go's view.reads on the relations the SQL
// names: the view has no row-level security of its own, the table behind
// it does. Tenant one's prompt, captured at the fake model, holds tenant
// two's value. See docs/redteam5.md, finding 4.
func TestRedteam5ExampleThroughViewReachesOtherTenant(t *testing.T) {
	db := rlstest.New(t)
	pgtest.Exec(t, db.DSN, `CREATE VIEW note_texts WITH (security_invoker = true) AS SELECT id, body FROM notes;
COMMENT ON VIEW note_texts IS 'the text of each note';
GRANT SELECT ON note_texts TO `+db.Reader)
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT count(*) FROM note_texts\n```"}
	})
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	eng, err := nl2sql.New(pgtest.Pool(t, db.DSN), nl2sql.WithLLM(model), nl2sql.WithSettings(rlstest.Setting))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	as := func(tenant string) []nl2sql.AskOption {
		return []nl2sql.AskOption{nl2sql.AsRole(db.Reader), nl2sql.Setting(rlstest.Setting, tenant)}
	}
	secret := rlstest.Rows["2"][0]
	if _, err := eng.Learn(ctx, nl2sql.Example("How many note texts say "+secret+"?", "SELECT count(*) FROM note_texts WHERE body = '"+secret+"'"), as("2")...); err != nil {
		t.Fatalf("tenant two learns: %v", err)
	}
	// Tenant two's own rows through the view: the test's setup works.
	res, err := eng.Run(ctx, "SELECT body FROM note_texts", as("2")...)
	if err != nil || len(res.Rows) != 1 {
		t.Fatalf("tenant two reads the view: %v %v", res, err)
	}
	if _, err := eng.Ask(ctx, "How many note texts are there?", as("1")...); err != nil {
		t.Fatalf("tenant one asks: %v", err)
	}
	if w, msg := promptHolds(t, srv, func(text string) string { return rlstest.Leak(text, "1") }); w != "" {
		t.Fatalf("tenant one's prompt holds tenant two's %q:\n%s", w, msg)
	}
}

// TestRedteam5ERPOpportunitiesOfOtherTenant (red team 5): the demo ERP's
// row-level layout (erptest.RLS, examples/erp/sql/rls.sql) puts policies
// on customers, products, orders and invoices, but the tables that name
// a tenant's customers beside them have none: opportunities (whose
// opp_name starts with the customer's name), quotes, customer_payments,
// shipments, sales_returns, leads... Tenant Aurora, through the engine as
// erp_app with its app.tenant_id, reads Borealis's opportunities, their
// names spelling Borealis's customers. The layout's tests look for the tenant's
// prefix ("Borealis ..."), which these copies do not carry. See
// docs/redteam5.md, finding 5.
func TestRedteam5ERPOpportunitiesOfOtherTenant(t *testing.T) {
	pgtest.SkipShort(t)
	owner, app := erptest.RLS(t)
	ctx := context.Background()
	// Borealis's customers without the tenant's prefix, read as the owner
	// (a superuser here, so every row).
	var theirs []string
	rows, err := pgtest.Pool(t, owner).Query(ctx, "SELECT substr(customer_name, length('Borealis ') + 1) FROM customers WHERE tenant_id = 2")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		theirs = append(theirs, s)
	}
	if rows.Close(); rows.Err() != nil || len(theirs) == 0 {
		t.Fatalf("Borealis's customers: %d, %v", len(theirs), rows.Err())
	}
	leak := func(text string) string {
		for _, s := range theirs {
			if strings.Contains(text, s) {
				return s
			}
		}
		return ""
	}
	eng, err := nl2sql.New(pgtest.Pool(t, app), nl2sql.WithSettings(erp.TenantSetting))
	if err != nil {
		t.Fatal(err)
	}
	aurora := nl2sql.Setting(erp.TenantSetting, "1")
	// Aurora's own customers: the policy holds (the test is not vacuous).
	if res, err := eng.Run(ctx, "SELECT customer_name FROM customers", aurora); err != nil || len(res.Rows) == 0 {
		t.Fatalf("Aurora's customers: %v", err)
	} else {
		for _, r := range res.Rows {
			if !strings.HasPrefix(fmt.Sprint(r...), "Aurora ") {
				t.Fatalf("the policy lets Aurora read %q", r)
			}
		}
	}
	// Opportunities of customers Aurora cannot read: Borealis's.
	res, err := eng.Run(ctx, `SELECT o.opp_name FROM opportunities o
WHERE NOT EXISTS (SELECT FROM customers c WHERE c.customer_id = o.customer_id) ORDER BY o.opp_id LIMIT 5`, aurora)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) > 0 {
		t.Errorf("Aurora reads %d of Borealis's opportunities, such as %q (customer %q)", len(res.Rows), res.Rows[0][0], leak(fmt.Sprint(res.Rows[0]...)))
	}
}

// TestRedteam5ExampleOfOtherScopeInPrompt (red team 5): tenancy by
// schema. Division div_01 (Scope div_01) teaches an example whose SQL
// names employees unqualified and holds one of its own employees' names;
// a div_02 request's prompt, captured at the fake model, shows it as a
// few-shot example. offer.go offers an example to every identity when it
// reads no table with row-level security, and the scope's validator
// accepts it (employees resolves to div_02.employees): the example's
// literal is div_01's all the same. See docs/redteam5.md, finding 6.
func TestRedteam5ExampleOfOtherScopeInPrompt(t *testing.T) {
	pgtest.SkipShort(t)
	pool := pgtest.Pool(t, erptest.Divisions(t, 2))
	ctx := context.Background()
	var mine string
	if err := pool.QueryRow(ctx, `SELECT last_name FROM div_01.employees WHERE last_name NOT IN (SELECT last_name FROM div_02.employees) ORDER BY 1 LIMIT 1`).Scan(&mine); err != nil {
		t.Fatal(err)
	}
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT count(*) FROM employees\n```"}
	})
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	sql := "SELECT count(*) FROM employees WHERE last_name = '" + strings.ReplaceAll(mine, "'", "''") + "'"
	if _, err := eng.Learn(ctx, nl2sql.Example("How many employees are in the audit team?", sql), nl2sql.Scope("div_01")); err != nil {
		t.Fatalf("div_01 learns: %v", err)
	}
	if _, err := eng.Ask(ctx, "How many employees are in the audit team?", nl2sql.Scope("div_02")); err != nil {
		t.Fatalf("div_02 asks: %v", err)
	}
	has := func(text string) string {
		if strings.Contains(text, "'"+mine+"'") {
			return mine
		}
		return ""
	}
	if w, msg := promptHolds(t, srv, has); w != "" {
		t.Fatalf("div_02's prompt holds div_01's example with %q:\n%s", w, msg)
	}
}

// TestRedteam5SettingsInjection (red team 5, held): per-request settings
// whose names are not custom dotted names (role, session_authorization,
// search_path, unicode look-alikes, a quote or semicolon in the name, 64
// bytes) are refused before any read, also when the engine declares them;
// values holding quotes, semicolons, backslashes, dollar quotes, unicode
// escapes and E-string syntax reach the policy as the same text (parameters,
// not SQL); NUL and over 4 KiB are refused.
func TestRedteam5SettingsInjection(t *testing.T) {
	db := rlstest.New(t)
	names := []string{"role", "session_authorization", "search_path", "ＡＰＰ.tenant_id", "app.tenant_id;", "app.tenant_id'", `app."x"`,
		"app.tenant_id ", "app." + strings.Repeat("x", 60), "U&\"app\".x", "transaction_read_only", "default_transaction_read_only"}
	eng, err := nl2sql.New(pgtest.Pool(t, db.DSN), nl2sql.WithSettings(append([]string{rlstest.Setting}, names...)...), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, n := range names {
		res, err := eng.Run(ctx, rlstest.SQL, nl2sql.AsRole(db.Reader), nl2sql.Setting(rlstest.Setting, "1"), nl2sql.Setting(n, "2"))
		if err == nil {
			t.Errorf("setting %q was accepted: rows %v", n, res.Rows)
		}
	}
	for _, v := range []string{"1'; RESET ROLE; SELECT '", "1; SET ROLE postgres", `1\'`, "$$2$$", `U&'\0032'`, "E'\\x32'", "1 OR true", strings.Repeat("9", 4096)} {
		res, err := eng.Run(ctx, "SELECT current_setting('app.tenant_id') AS v", nl2sql.AsRole(db.Reader), nl2sql.Setting(rlstest.Setting, v))
		if err != nil {
			t.Errorf("value %.40q: %v", v, err)
			continue
		}
		if got := fmt.Sprint(res.Rows[0][0]); got != v {
			t.Errorf("value %.40q reads back as %.40q", v, got)
		}
		// And the policy, reading it as an int, fails closed or shows nothing.
		if res, err := eng.Run(ctx, rlstest.SQL, nl2sql.AsRole(db.Reader), nl2sql.Setting(rlstest.Setting, v)); err == nil && len(res.Rows) > 0 {
			t.Errorf("value %.40q shows %v", v, res.Rows)
		}
	}
	for _, v := range []string{"1\x002", strings.Repeat("1", 4097), "\xff"} {
		if _, err := eng.Run(ctx, rlstest.SQL, nl2sql.AsRole(db.Reader), nl2sql.Setting(rlstest.Setting, v)); err == nil {
			t.Errorf("value %.20q was accepted", v)
		}
	}
}

// TestRedteam5ExampleSpellingsOfRowSecurity (red team 5): tenant two's
// examples read the row-level security table notes in every spelling
// (quoted, U&"..", schema-qualified, in a CTE, a sublink, LATERAL, a
// VALUES join, a window, a set operation), each with a marker value of
// its own; tenant one's context for the same question must offer none of
// them (offer.go: an example that reads row-level security is the
// teacher's own).
func TestRedteam5ExampleSpellingsOfRowSecurity(t *testing.T) {
	db := rlstest.New(t)
	eng, err := nl2sql.New(pgtest.Pool(t, db.DSN), nl2sql.WithSettings(rlstest.Setting), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	two := []nl2sql.AskOption{nl2sql.AsRole(db.Reader), nl2sql.Setting(rlstest.Setting, "2")}
	one := []nl2sql.AskOption{nl2sql.AsRole(db.Reader), nl2sql.Setting(rlstest.Setting, "1")}
	spellings := []string{
		`SELECT count(*) FROM "notes" WHERE body = '%s'`,
		`SELECT count(*) FROM U&"\006Eotes" WHERE body = '%s'`,
		`SELECT count(*) FROM public.notes WHERE body = '%s'`,
		`WITH n AS (SELECT body FROM notes) SELECT count(*) FROM n WHERE body = '%s'`,
		`SELECT '%s' AS v WHERE EXISTS (SELECT 1 FROM notes)`,
		`SELECT v.x FROM (VALUES ('%s')) AS v(x) CROSS JOIN LATERAL (SELECT count(*) FROM notes) AS c`,
		`SELECT count(*) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM notes WHERE body <> '%s'`,
		`SELECT '%s' AS v UNION ALL SELECT body FROM notes`,
		`SELECT x FROM (SELECT '%s' AS x) s WHERE x IN (SELECT body FROM notes)`,
	}
	var markers []string
	for i, f := range spellings {
		marker := fmt.Sprintf("marker-two-%d", i)
		sql := fmt.Sprintf(f, marker)
		if _, err := eng.Learn(ctx, nl2sql.Example(fmt.Sprintf("How many notes say %s?", marker), sql), two...); err != nil {
			t.Logf("not learnt (so not offered): %s: %v", sql, err)
			continue
		}
		markers = append(markers, marker)
	}
	if len(markers) < len(spellings)/2 {
		t.Fatalf("only %d of %d examples learnt: the test proves little", len(markers), len(spellings))
	}
	// Tenant two is offered its own (the test is not vacuous).
	own, err := eng.SchemaContext(ctx, "How many notes say marker-two?", two...)
	if err != nil || !strings.Contains(own.Prompt.User, "marker-two-") {
		t.Fatalf("tenant two's own examples are not in its prompt: %v", err)
	}
	cx, err := eng.SchemaContext(ctx, "How many notes say marker-two?", one...)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range markers {
		if strings.Contains(cx.Prompt.User, m) {
			t.Errorf("tenant one's prompt offers tenant two's example %s:\n%s", m, cx.Prompt.User)
		}
	}
}

// TestRedteam5ErrorsEchoNoOtherTenant (red team 5, held): casts that
// fail with the value in the message (integer, json, date, enum-like
// checks), in the select list, WHERE, ORDER BY, a join, an aggregate and
// a sublink, run as tenant one: the error, if any, holds tenant one's
// values only (the policy's quals run before any non-leakproof
// expression of the query).
func TestRedteam5ErrorsEchoNoOtherTenant(t *testing.T) {
	db := rlstest.New(t)
	eng, err := nl2sql.New(pgtest.Pool(t, db.DSN), nl2sql.WithSettings(rlstest.Setting), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	one := []nl2sql.AskOption{nl2sql.AsRole(db.Reader), nl2sql.Setting(rlstest.Setting, "1")}
	failed := 0
	for _, sql := range []string{
		"SELECT body::int FROM notes",
		"SELECT id FROM notes WHERE body::int > 0",
		"SELECT id FROM notes WHERE body::jsonb IS NOT NULL",
		"SELECT id FROM notes WHERE body::date > DATE '2020-01-01'",
		"SELECT id FROM notes ORDER BY body::numeric",
		"SELECT max(body::int) FROM notes",
		"SELECT a.id FROM notes a JOIN notes b ON a.body::int = b.id",
		"SELECT id FROM notes WHERE id IN (SELECT body::int FROM notes)",
		"SELECT id FROM notes WHERE body LIKE 'two%' AND body::int > 0",
		"SELECT id FROM notes WHERE to_number(body, '999') > 0",
		"SELECT id FROM notes WHERE body::inet IS NOT NULL",
	} {
		_, err := eng.Run(ctx, sql, one...)
		if err == nil {
			continue
		}
		failed++
		if w := rlstest.Leak(err.Error(), "1"); w != "" {
			t.Errorf("%s: the error holds tenant two's %q: %v", sql, w, err)
		}
	}
	if failed == 0 {
		t.Fatal("no query failed: the test proves nothing")
	}
}

// TestRedteam5PlannerEstimatesOfOtherTenant (red team 5): the planner's
// statistics cover every row of a table, whatever its policies, and
// PostgreSQL uses them under row-level security for leakproof operators
// (text = is one). Check returns the planner's cost, which follows the
// estimated rows: tenant one learns whether a value is frequent in
// tenant two's rows, which it cannot read, by comparing the cost of the
// same query for that value and for a value no row has. See
// docs/redteam5.md, finding 7.
func TestRedteam5PlannerEstimatesOfOtherTenant(t *testing.T) {
	db := rlstest.New(t)
	// Tenant two's rows: one value many times; ANALYZE as the owner (or
	// autovacuum) records it as a most common value.
	pgtest.Exec(t, db.DSN, `INSERT INTO notes SELECT 100 + i, 2, 'two-secret' FROM generate_series(1, 500) i;
INSERT INTO notes SELECT 1000 + i, 1, 'one-' || i FROM generate_series(1, 500) i;
ANALYZE notes`)
	eng, err := nl2sql.New(pgtest.Pool(t, db.DSN), nl2sql.WithSettings(rlstest.Setting), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	one := []nl2sql.AskOption{nl2sql.AsRole(db.Reader), nl2sql.Setting(rlstest.Setting, "1")}
	cost := func(value string) float64 {
		sql := "SELECT n.body, count(*) FROM notes n JOIN notes m ON m.body = n.body WHERE n.body = '" + value + "' GROUP BY n.body ORDER BY 2"
		chk, err := eng.Check(ctx, sql, one...)
		if err != nil || !chk.OK {
			t.Fatalf("check %q: %+v %v", value, chk, err)
		}
		return chk.Cost
	}
	// Tenant one sees none of the value: its own answer says so.
	res, err := eng.Run(ctx, "SELECT count(*) FROM notes WHERE body = 'two-secret'", one...)
	if err != nil || fmt.Sprint(res.Rows) != "[[0]]" {
		t.Fatalf("tenant one counts %v, %v", res.Rows, err)
	}
	secret, none := cost(rlstest.Rows["2"][0]), cost("never-written")
	if secret > 2*none {
		t.Errorf("tenant one's cost for tenant two's value is %.0f, for a value no row has %.0f: the plan tells the value is tenant two's", secret, none)
	}
}
