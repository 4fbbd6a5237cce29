package nl2sql_test

import (
	"context"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestScopeKnowledgeByIdentity: what a tenant taught is listed to that
// tenant only (a server lists and forgets a caller's knowledge through
// ScopeKnowledge); the operator's knowledge is listed to every tenant.
func TestScopeKnowledgeByIdentity(t *testing.T) {
	pgtest.SkipShort(t)
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT 1") }, nl2sql.WithSettings("app.tenant_id"))
	ctx := context.Background()
	tenant := func(id string) nl2sql.AskOption { return nl2sql.Setting("app.tenant_id", id) }
	op, err := eng.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeExample, Question: "How many employees are there?", SQL: "SELECT count(*) FROM employees"})
	if err != nil {
		t.Fatal(err)
	}
	one, err := eng.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeExample, Question: "How many departments are there?", SQL: "SELECT count(*) FROM departments"}, tenant("1"))
	if err != nil {
		t.Fatal(err)
	}
	ids := func(opts ...nl2sql.AskOption) []string {
		ks, err := eng.ScopeKnowledge(ctx, opts...)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, k := range ks {
			out = append(out, k.ID)
		}
		return out
	}
	for _, c := range []struct {
		name      string
		opts      []nl2sql.AskOption
		sees, not []string
	}{
		{"tenant 1", []nl2sql.AskOption{tenant("1")}, []string{op.ID, one.ID}, nil},
		{"tenant 2", []nl2sql.AskOption{tenant("2")}, []string{op.ID}, []string{one.ID}},
		{"no identity", nil, []string{op.ID}, []string{one.ID}},
	} {
		got := ids(c.opts...)
		for _, id := range c.sees {
			if !slices.Contains(got, id) {
				t.Errorf("%s: %s not listed (%v)", c.name, id, got)
			}
		}
		for _, id := range c.not {
			if slices.Contains(got, id) {
				t.Errorf("%s: lists another identity's knowledge %s", c.name, id)
			}
		}
	}
}
