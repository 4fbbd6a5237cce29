package cli

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/rlstest"
)

// TestIdentityFlagsRowLevelSecurity: with --role and --set, ask (and its
// dry run), retrieve, check and exam read as that role with that tenant's
// setting: a real row-level security policy gives each tenant its own
// rows only, in the answer and in the exam's gold.
func TestIdentityFlagsRowLevelSecurity(t *testing.T) {
	db := rlstest.New(t)
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\n" + rlstest.SQL + "\n```"}
	})
	t.Setenv("OPENAI_API_KEY", "test")
	exam := filepath.Join(t.TempDir(), "exam.csv")
	os.WriteFile(exam, []byte("qid,question,gold_sql\nq1,what do the notes say?,"+rlstest.SQL+"\n"), 0o644)
	for _, tenant := range []string{"1", "2"} {
		who := []string{"--dsn", db.DSN, "--role", db.Reader, "--set", rlstest.Setting + "=" + tenant}
		model := []string{"--llm", "openai:fake", "--llm-url", srv.BaseURL()}
		code, out, errs := cli(t, append(append(append([]string{"ask"}, who...), model...), "--json", "what do the notes say?")...)
		if code != 0 {
			t.Fatalf("tenant %s: ask: exit %d: %s\n%s", tenant, code, errs, out)
		}
		var got []string
		for _, row := range decode(t, out)["rows"].([]any) {
			got = append(got, row.([]any)[0].(string))
		}
		if fmt.Sprint(got) != fmt.Sprint(rlstest.Rows[tenant]) {
			t.Errorf("tenant %s: ask: rows %v, want %v", tenant, got, rlstest.Rows[tenant])
		}
		if leak := rlstest.Leak(out+errs, tenant); leak != "" {
			t.Errorf("tenant %s: ask shows %q", tenant, leak)
		}
		for _, cmd := range [][]string{
			append(append([]string{"ask", "--dry-run"}, who...), "what do the notes say?"),
			append(append([]string{"retrieve"}, who...), "what do the notes say?"),
			append(append([]string{"check"}, who...), rlstest.SQL),
		} {
			if code, out, errs := cli(t, cmd...); code != 0 {
				t.Errorf("tenant %s: %s: exit %d: %s\n%s", tenant, cmd[0], code, errs, out)
			}
		}
		answers := filepath.Join(t.TempDir(), "answers.jsonl")
		code, out, errs = cli(t, append(append([]string{"exam", "--exam", exam, "--out", answers}, who...), model...)...)
		line, _ := os.ReadFile(answers)
		if code != 0 || !strings.Contains(string(line), `"ex_match_strict":true`) {
			t.Errorf("tenant %s: exam: exit %d, the gold and the answer differ: %s\n%s\n%s", tenant, code, line, out, errs)
		}
	}
	// Without the setting the reader sees no note: the policy's
	// current_setting is NULL.
	code, out, errs := cli(t, "ask", "--dsn", db.DSN, "--role", db.Reader, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "--json", "what do the notes say?")
	if code == 0 && len(decode(t, out)["rows"].([]any)) != 0 {
		t.Errorf("no --set: exit %d, rows %s %s", code, out, errs)
	}
}

// TestIdentityFlagsRefused: a --set that is not NAME=VALUE with a custom
// dotted name is a usage error (exit 2) naming it, on every command that
// takes it, before any I/O: the database named cannot be reached.
func TestIdentityFlagsRefused(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "test")
	t.Setenv("NL2SQL_DSN", "")
	t.Setenv("DATABASE_URL", "")
	exam := filepath.Join(t.TempDir(), "exam.csv")
	os.WriteFile(exam, []byte("qid,question,gold_sql\nq1,x,SELECT 1\n"), 0o644)
	down := "postgres://nobody@127.0.0.1:1/none?connect_timeout=1"
	for _, set := range []struct{ flag, want string }{
		{"work_mem=1GB", `--set: invalid setting "work_mem": only custom dotted names`},
		{"app.tenant_id", `--set: invalid setting "app.tenant_id": want NAME=VALUE`},
		{"search_path=evil", `--set: invalid setting "search_path"`},
	} {
		for _, cmd := range [][]string{
			{"ask", "--llm", "openai:fake", "--llm-url", "http://127.0.0.1:1", "q"},
			{"ask", "--dry-run", "q"},
			{"retrieve", "q"},
			{"check", "SELECT 1"},
			{"exam", "--exam", exam, "--llm", "none"},
			{"serve", "--addr", "127.0.0.1:0"},
		} {
			args := append(append([]string{}, cmd...), "--dsn", down, "--set", set.flag)
			code, out, errs := cli(t, args...)
			if code != 2 || !strings.Contains(errs, set.want) || strings.Contains(errs, "127.0.0.1:1") {
				t.Errorf("%q: exit %d, stderr %q, stdout %q", args, code, errs, out)
			}
		}
	}
	if code, _, errs := cli(t, "check", "--role", "r", "SELECT 1"); code != 2 || !strings.Contains(errs, "--role and --set need a database") {
		t.Errorf("check --role without a database: exit %d %q", code, errs)
	}
}

// TestServeIdentity: serve --identity gives each caller of the console its
// own tenant over a real RLS policy; serve --role --set gives every page
// one; a mistake in the file, or --identity with --auth-token, stops it
// at start (exit 2, the file and the line).
func TestServeIdentity(t *testing.T) {
	db := rlstest.New(t)
	t.Setenv("OPENAI_API_KEY", "test")
	t.Setenv("NL2SQL_AUTH_TOKEN", "")
	fake := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\n" + rlstest.SQL + "\n```"}
	})
	tokens := rlstest.Tokens
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ids.yaml")
	os.WriteFile(cfg, []byte(db.Callers("", nil)), 0o600)
	model := []string{"--dsn", db.DSN, "--llm", "openai:fake", "--llm-url", fake.BaseURL()}
	q := "/?q=" + url.QueryEscape("what do the notes say?")

	base, stop := serveInProcess(t, append(model, "--identity", cfg)...)
	for tenant, tok := range tokens {
		req, _ := http.NewRequest("GET", base+q, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(page), rlstest.Rows[tenant][0]) || rlstest.Leak(string(page), tenant) != "" {
			t.Errorf("tenant %s: %d, leak %q", tenant, resp.StatusCode, rlstest.Leak(string(page), tenant))
		}
	}
	// Without a token: the login page, not the schema.
	if _, page := getPage(t, base+"/schema"); strings.Contains(page, "public.notes") || !strings.Contains(page, `name="token"`) {
		t.Errorf("no token: the schema page was served")
	}
	stop()

	base, stop = serveInProcess(t, append(model, "--role", db.Reader, "--set", rlstest.Setting+"=2")...)
	if code, page := getPage(t, base+q); code != 200 || !strings.Contains(page, "two-secret") || rlstest.Leak(page, "2") != "" {
		t.Errorf("--role --set: %d, leak %q", code, rlstest.Leak(page, "2"))
	}
	stop()

	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("callers:\n  - name: x\n    token_sha256: my-token\n"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--identity", bad}, bad + ":3: token_sha256: want the 64 hex digits"},
		{[]string{"--identity", cfg, "--auth-token", "t"}, "leave out --auth-token"},
		{[]string{"--identity", cfg, "--role", "r"}, "leave out --auth-token ($NL2SQL_AUTH_TOKEN), --role and --set"},
	} {
		code, _, errs := cli(t, append(append([]string{"serve", "--addr", "127.0.0.1:0"}, model...), c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Contains(errs, "my-token\n") {
			t.Errorf("%q: exit %d %q", c.args, code, errs)
		}
	}
}
