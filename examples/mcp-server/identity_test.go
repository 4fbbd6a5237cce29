package main

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/identity"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/rlstest"
)

var mcpTokenOne, mcpTokenTwo = rlstest.Tokens["1"], rlstest.Tokens["2"]

// TestIdentityOverHTTP: the built server with --identity maps two callers
// to the reader role with their own tenant id (caller two also to its
// schema): over the streamable HTTP transport, with sessions and without,
// nl_query, run_sql and the resources answer each with its own rows only
// (with --stateless too);
// a scope argument naming another tenant's schema is refused, another
// caller's answer id is unknown to learn; an unknown token is 401 and no
// token reaches the log.
func TestIdentityOverHTTP(t *testing.T) {
	db := rlstest.New(t)
	fake := llmfake.New(t, func(_ int, r *llmfake.Request) llmfake.Reply {
		if strings.Contains(r.Last(), "sleep") {
			return llmfake.Reply{Content: "```sql\nSELECT pg_sleep(1)\n```"}
		}
		return llmfake.Reply{Content: "```sql\n" + rlstest.SQL + "\n```"}
	})
	cfg := filepath.Join(t.TempDir(), "ids.yaml")
	os.WriteFile(cfg, []byte(db.Callers("", map[string]string{"2": "scope: " + rlstest.T2})), 0o600)
	t.Setenv("OPENAI_API_KEY", "test")
	s := startRaw(t, buildBinary(t), "--dsn", db.DSN, "--llm", "openai:fake", "--llm-url", fake.BaseURL(), "--http", "127.0.0.1:0", "--identity", cfg)
	url := strings.TrimSuffix(s.url(), "/")

	answers := map[string]string{}
	for _, legacy := range []bool{true, false} {
		for tenant, tok := range map[string]string{"1": mcpTokenOne, "2": mcpTokenTwo} {
			cs, err := httpConnect(t, url, tok, legacy)
			if err != nil {
				t.Fatalf("tenant %s: connect: %v", tenant, err)
			}
			// The caller's own scope (or none) is fine; another is refused.
			for _, scope := range []string{"", rlstest.T1} {
				res := call(t, cs, "run_sql", map[string]any{"sql": rlstest.SQL, "scope": scope})
				if tenant == "2" && scope == rlstest.T1 {
					if !res.IsError || !strings.Contains(text(res), `limited to scope "tenant_two"`) {
						t.Errorf("tenant 2 asked for scope %s: %s", scope, text(res))
					}
					continue
				}
				out := decode[RunSQLOutput](t, res)
				if got := fmt.Sprint(out.Rows); got != fmt.Sprint(rowsOf(rlstest.Rows[tenant])) {
					t.Errorf("tenant %s, scope %q: run_sql rows %s, want %v", tenant, scope, got, rlstest.Rows[tenant])
				}
			}
			res := call(t, cs, "nl_query", map[string]any{"question": "what do the notes say?"})
			out := decode[NLQueryOutput](t, res)
			if got := fmt.Sprint(out.Rows); got != fmt.Sprint(rowsOf(rlstest.Rows[tenant])) || rlstest.Leak(text(res), tenant) != "" {
				t.Errorf("tenant %s: nl_query rows %s, leak %q", tenant, got, rlstest.Leak(text(res), tenant))
			}
			answers[tenant] = out.ID
			// Its own schema's plans, never the other's.
			res = call(t, cs, "run_sql", map[string]any{"sql": "SELECT name FROM plans"})
			if tenant == "2" && !strings.Contains(text(res), "plan-of-tenant_two") {
				t.Errorf("tenant 2: its plans: %s", text(res))
			}
			if tenant == "1" && !res.IsError {
				t.Errorf("tenant 1 (no scope) read plans unqualified: %s", text(res))
			}
			tables, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: tablesURI})
			if err != nil {
				t.Fatalf("tenant %s: %s: %v", tenant, tablesURI, err)
			}
			if tenant == "2" && strings.Contains(tables.Contents[0].Text, rlstest.T1) {
				t.Errorf("tenant 2 lists tenant one's schema: %s", tables.Contents[0].Text)
			}
		}
		// Caller one cannot confirm caller two's answer.
		cs, _ := httpConnect(t, url, mcpTokenOne, legacy)
		if res := call(t, cs, "learn", map[string]any{"id": answers["2"]}); !res.IsError || !strings.Contains(text(res), "unknown id") {
			t.Errorf("caller one learnt caller two's answer: %s", text(res))
		}
	}
	for _, tok := range []string{"", "not-a-caller", mcpTokenOne + "x"} {
		if _, err := httpConnect(t, url, tok, true); err == nil {
			t.Errorf("token %q connected", tok)
		}
		h := map[string]string{}
		if tok != "" {
			h["Authorization"] = "Bearer " + tok
		}
		if code, _, _ := post(t, url, strings.NewReader(initializeBody), h); code != http.StatusUnauthorized {
			t.Errorf("token %q: %d, want 401", tok, code)
		}
	}
	// The bearer the server passes on inside (the caller's name in hex)
	// is not a token.
	if code, _, _ := post(t, url, strings.NewReader(initializeBody), map[string]string{"Authorization": "Bearer " + hex.EncodeToString([]byte("two"))}); code != http.StatusUnauthorized {
		t.Errorf("a caller's name as the token: %d", code)
	}
	// A session belongs to the caller that opened it: caller two's token
	// on caller one's session is 403.
	code, hdr, body := post(t, url, strings.NewReader(initializeBody), map[string]string{"Authorization": "Bearer " + mcpTokenOne})
	sid := hdr.Get("Mcp-Session-Id")
	if code != http.StatusOK || sid == "" {
		t.Fatalf("initialize as one: %d %s", code, body)
	}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if code, _, body := post(t, url, strings.NewReader(list), map[string]string{"Authorization": "Bearer " + mcpTokenTwo, "Mcp-Session-Id": sid}); code != http.StatusForbidden {
		t.Errorf("caller two on caller one's session: %d %s", code, body)
	}
	// A failed question is logged with its caller's name.
	cs, _ := httpConnect(t, url, mcpTokenOne, false)
	if res := call(t, cs, "nl_query", map[string]any{"question": "sleep a while"}); !res.IsError {
		t.Errorf("pg_sleep answered: %s", text(res))
	}
	if !strings.Contains(s.stderr(), "caller=one") {
		t.Errorf("the failed question's log line does not name its caller:\n%s", s.stderr())
	}
	for _, tok := range []string{mcpTokenOne, mcpTokenTwo, "not-a-caller"} {
		if strings.Contains(s.stderr(), tok) {
			t.Errorf("the log holds a token:\n%s", s.stderr())
		}
	}
	// --stateless (replicas behind a load balancer): every request is
	// authenticated on its own, each caller still reads as itself.
	st := startRaw(t, buildBinary(t), "--dsn", db.DSN, "--llm", "none", "--http", "127.0.0.1:0", "--stateless", "--identity", cfg)
	for tenant, tok := range map[string]string{"1": mcpTokenOne, "2": mcpTokenTwo} {
		cs, err := httpConnect(t, strings.TrimSuffix(st.url(), "/"), tok, true)
		if err != nil {
			t.Fatalf("stateless, tenant %s: %v", tenant, err)
		}
		out := decode[RunSQLOutput](t, call(t, cs, "run_sql", map[string]any{"sql": rlstest.SQL}))
		if got := fmt.Sprint(out.Rows); got != fmt.Sprint(rowsOf(rlstest.Rows[tenant])) {
			t.Errorf("stateless, tenant %s: rows %s", tenant, got)
		}
	}
}

// rowsOf is the rows of a one-column result of vs.
func rowsOf(vs []string) [][]any {
	out := make([][]any, len(vs))
	for i, v := range vs {
		out[i] = []any{v}
	}
	return out
}

// TestIdentityConfigErrors: a mistake in --identity's file (a caller's
// scope outside --scope too) stops the server at start with the file and
// the line; --identity without --http,
// or with --auth-token, --role or --set, is refused.
func TestIdentityConfigErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("callers:\n  - name: a\n    token_sha256: "+rlstest.TokenHash("x")+"\n    settings:\n      work_mem: 1GB\n"), 0o600)
	good := filepath.Join(dir, "good.yaml")
	os.WriteFile(good, []byte("callers:\n  - name: a\n    token_sha256: "+rlstest.TokenHash("x")+"\n"), 0o600)
	scoped := filepath.Join(dir, "scoped.yaml")
	os.WriteFile(scoped, []byte("callers:\n  - name: a\n    scope: div_02\n    token_sha256: "+rlstest.TokenHash("x")+"\n"), 0o600)
	bin := buildBinary(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--http", "127.0.0.1:0", "--identity", bad}, bad + `:5: invalid setting "work_mem"`},
		{[]string{"--identity", good}, "--identity maps HTTP callers: it needs --http"},
		{[]string{"--http", "127.0.0.1:0", "--identity", good, "--auth-token", "t"}, "leave out --auth-token"},
		{[]string{"--http", "127.0.0.1:0", "--identity", good, "--set", "app.t=1"}, "leave out --role and --set"},
		{[]string{"--set", "work_mem=1"}, `--set: invalid setting "work_mem"`},
		{[]string{"--http", "127.0.0.1:0", "--identity", scoped, "--scope", "div_01"}, `caller "a": scope "div_02" is outside the server's --scope "div_01"`},
	} {
		out, err := exec.Command(bin, append([]string{"--dsn", "postgres://nobody@127.0.0.1:1/none"}, c.args...)...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%q: %v\n%s", c.args, err, out)
		}
	}
}

// TestStaticIdentity: a server with one identity (--role, --set; here on
// the in-memory transport, as on stdio) runs every call as it; a call
// naming a role or a setting is refused.
func TestStaticIdentity(t *testing.T) {
	db := rlstest.New(t)
	for _, tenant := range []string{"1", "2"} {
		who := identity.Identity{Role: db.Reader, Settings: []identity.Setting{{Name: rlstest.Setting, Value: tenant}}}
		eng := mustEngine(t, db.DSN, nl2sql.WithLLM(fakeModel(t, rlstest.SQL, 0)), nl2sql.WithSettings(who.Names()...))
		cs := connect(t, NewServer(eng, Config{HasLLM: true, Identity: who}))
		for tool, args := range map[string]map[string]any{"run_sql": {"sql": rlstest.SQL}, "nl_query": {"question": "what do the notes say?"}} {
			res := call(t, cs, tool, args)
			if got := fmt.Sprint(decode[RunSQLOutput](t, res).Rows); got != fmt.Sprint(rowsOf(rlstest.Rows[tenant])) {
				t.Errorf("tenant %s: %s: %s", tenant, tool, got)
			}
			// No argument chooses a role or a setting: the SDK refuses
			// what the tool's schema does not name.
			for _, extra := range []map[string]any{{"role": "postgres"}, {"settings": map[string]string{rlstest.Setting: "1"}}, {rlstest.Setting: "1"}} {
				with := map[string]any{}
				for k, v := range args {
					with[k] = v
				}
				for k, v := range extra {
					with[k] = v
				}
				if res := call(t, cs, tool, with); !res.IsError || !strings.Contains(text(res), "unexpected additional properties") {
					t.Errorf("tenant %s: %s with %v: %s", tenant, tool, extra, text(res))
				}
			}
		}
	}
}
