package nl2sql_test

import (
	"context"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/internal/rlstest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

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
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no model call")
	}
	for _, r := range reqs {
		for _, m := range r.Messages {
			if w := rlstest.Leak(m.Content, "1"); w != "" {
				t.Fatalf("tenant one's prompt holds tenant two's %q:\n%s", w, m.Content)
			}
		}
	}
}
