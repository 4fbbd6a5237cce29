// Package scopetest gives tests of scoped servers a two-tenant database
// (erptest.Tenants) whose whole index, with knowledge taught about both
// tenants, is loaded into an engine scoped to div_01: what a server
// started with --scope div_01 --index FILE runs on. Leak reports where a
// page, a reply or a prompt names the other tenant.
package scopetest

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// Scope is the tenant the engine is scoped to.
const Scope = "div_01"

// Taught is what Engine teaches the whole database before saving its
// index: docs, a term and examples of div_02 in every spelling (quoted,
// upper case, nested in a sublink, a CTE, unqualified under Scope
// div_02), then one doc and one example of div_01. Scope is the scope
// each is taught under ("" none).
var Taught = []struct {
	K     nl2sql.Knowledge
	Scope string
}{
	{nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Table: "div_02.secret_plans", Text: "the plans"}, ""},
	{nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Table: "secret_plans", Column: "note", Text: "a note"}, "div_02"},
	{nl2sql.Knowledge{Kind: nl2sql.KnowledgeTerm, Term: "plan", Targets: []string{"div_01.employees", "div_02.secret_plans.kind"}}, ""},
	{nl2sql.Example("how many plans, take 1", `SELECT count(*) FROM div_02.secret_plans`), ""},
	{nl2sql.Example("how many plans, take 2", `SELECT count(*) FROM "div_02"."secret_plans"`), ""},
	{nl2sql.Example("how many plans, take 3", `SELECT count(*) FROM DIV_02.SECRET_PLANS`), ""},
	{nl2sql.Example("how many plans, take 4", `SELECT count(*) FROM div_01.employees WHERE EXISTS (SELECT 1 FROM div_02.secret_plans)`), ""},
	{nl2sql.Example("how many plans, take 5", `WITH p AS (SELECT id FROM div_02.secret_view) SELECT count(*) FROM p`), ""},
	{nl2sql.Example("how many secret plans", "SELECT count(*) FROM secret_plans"), "div_02"},
	{nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Table: "div_01.employees", Text: "everyone on the payroll"}, ""},
	{nl2sql.Example("how many employees", "SELECT count(*) FROM div_01.employees"), ""},
}

// Index returns the DSN of a fresh erptest.Tenants database and its
// whole index (both tenants, Taught learnt), as SaveIndex writes it.
func Index(t testing.TB) (dsn string, index []byte) {
	t.Helper()
	ctx := context.Background()
	dsn = erptest.Tenants(t)
	full, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithLLM(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Taught {
		var opts []nl2sql.AskOption
		if k.Scope != "" {
			opts = append(opts, nl2sql.Scope(k.Scope))
		}
		if _, err := full.Learn(ctx, k.K, opts...); err != nil {
			t.Fatalf("learn %+v: %v", k.K, err)
		}
	}
	var buf bytes.Buffer
	if err := full.SaveIndex(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	return dsn, buf.Bytes()
}

// Engine is an engine scoped to Scope on Index's database, loaded from
// its whole index, with opts; and the DSN.
func Engine(t testing.TB, opts ...nl2sql.Option) (*nl2sql.Engine, string) {
	t.Helper()
	dsn, index := Index(t)
	iopts, err := nl2sql.LoadIndex(bytes.NewReader(index))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), append(append(iopts, nl2sql.WithScope(Scope)), opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	return eng, dsn
}

// Leak is "" when text names nothing of the other tenant, else the text
// around the first thing it names (its schema, or a name only it has).
func Leak(text string) string {
	for _, s := range []string{erptest.OtherTenant, "secret_plans", "secret_view", "tenant_secret", "the plans"} {
		if i := strings.Index(strings.ToLower(text), s); i >= 0 {
			return fmt.Sprintf("%q in …%s…", s, text[max(0, i-100):min(len(text), i+100)])
		}
	}
	return ""
}
