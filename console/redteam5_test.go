package console_test

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/console"
	"github.com/nl2sqlgo/nl2sql/identity"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/internal/rlstest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// TestRedteam5KnowledgePageShowsOtherTenant (red team 5): tenant two
// teaches an example over the row-level security table notes whose SQL
// holds one of its own values; tenant one's knowledge page (the console's
// /knowledge, Engine.ScopeKnowledge with one's identity) lists it, with
// tenant two's value and its setting, and so offers it to Forget. The
// prompt's rule (offer.go) keeps the example from one's prompts, but
// ScopeKnowledge filters by scope only; tenant one then forgets it
// (POST /teach/forget). See docs/redteam5.md, finding 1.
func TestRedteam5KnowledgePageShowsOtherTenant(t *testing.T) {
	db := rlstest.New(t)
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\n" + rlstest.SQL + "\n```"}
	})
	ids, err := identity.Parse("ids.yaml", []byte(db.Callers("", nil)))
	if err != nil {
		t.Fatal(err)
	}
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	eng, err := nl2sql.New(pgtest.Pool(t, db.DSN), nl2sql.WithLLM(model), nl2sql.WithSettings(ids.Settings()...))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := eng.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	two := ids.Caller("two")
	secret := rlstest.Rows["2"][0]
	k, err := eng.Learn(ctx, nl2sql.Example("is there a note "+secret+"?", "SELECT count(*) FROM notes WHERE body = '"+secret+"'"), two.AskOptions()...)
	if err != nil {
		t.Fatalf("tenant two learns its example: %v", err)
	}
	h := console.New(eng, console.WithIdentities(ids))
	res := serve(h, "GET", "/knowledge", nil, "Authorization", "Bearer "+tokenOne)
	page := body(res)
	if res.StatusCode != 200 {
		t.Fatalf("knowledge page: %d\n%s", res.StatusCode, page)
	}
	if strings.Contains(page, secret) || strings.Contains(page, k.ID) {
		t.Errorf("tenant one's knowledge page lists tenant two's example (id %s, value %q)", k.ID, secret)
	}
	one := ids.Caller("one")
	ks, err := eng.ScopeKnowledge(ctx, one.AskOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range ks {
		if got.ID == k.ID {
			t.Errorf("ScopeKnowledge as tenant one returns tenant two's example %q (settings %v)", got.SQL, got.Settings)
		}
	}
	// Listed, it can be forgotten by tenant one.
	serve(h, "POST", "/teach/forget", url.Values{"id": {k.ID}}, "Authorization", "Bearer "+tokenOne)
	all, err := eng.Knowledge(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(all, func(x nl2sql.Knowledge) bool { return x.ID == k.ID }) {
		t.Errorf("tenant one forgot tenant two's example %s", k.ID)
	}
}
