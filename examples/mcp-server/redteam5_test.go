package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/rlstest"
)

// TestRedteam5KnowledgeResourceShowsOtherTenant (red team 5): the MCP
// form of finding 1 (docs/redteam5.md). Caller two teaches, with the
// learn tool, an example over the row-level security table notes whose
// SQL holds its own value; caller one reads the knowledge resource and
// gets it, with caller two's setting: readKnowledge lists
// Engine.ScopeKnowledge(who.AskOptions()), which filters by scope only.
func TestRedteam5KnowledgeResourceShowsOtherTenant(t *testing.T) {
	db := rlstest.New(t)
	fake := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\n" + rlstest.SQL + "\n```"}
	})
	cfg := filepath.Join(t.TempDir(), "ids.yaml")
	os.WriteFile(cfg, []byte(db.Callers("", nil)), 0o600)
	t.Setenv("OPENAI_API_KEY", "test")
	s := startRaw(t, buildBinary(t), "--dsn", db.DSN, "--llm", "openai:fake", "--llm-url", fake.BaseURL(), "--http", "127.0.0.1:0", "--identity", cfg)
	url := strings.TrimSuffix(s.url(), "/")
	secret := rlstest.Rows["2"][0]
	two, err := httpConnect(t, url, mcpTokenTwo, false)
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, two, "learn", map[string]any{"question": "is there a note " + secret + "?", "sql": "SELECT count(*) FROM notes WHERE body = '" + secret + "'"})
	if res.IsError {
		t.Fatalf("caller two learns: %s", text(res))
	}
	one, err := httpConnect(t, url, mcpTokenOne, false)
	if err != nil {
		t.Fatal(err)
	}
	ks, err := one.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: knowledgeURI})
	if err != nil {
		t.Fatal(err)
	}
	if w := rlstest.Leak(ks.Contents[0].Text, "1"); w != "" {
		t.Errorf("caller one's knowledge resource holds caller two's %q:\n%s", w, ks.Contents[0].Text)
	}
}
