package console_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
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

var tokenOne, tokenTwo = rlstest.Tokens["1"], rlstest.Tokens["2"]

// rlsConsole is a console over the row-level security database whose
// callers one (token) and two (token, or user bob behind the trusted
// proxies) read as the reader role with their own tenant id; logs go to
// logs.
func rlsConsole(t *testing.T, proxies string, logs *bytes.Buffer) (http.Handler, rlstest.DB) {
	t.Helper()
	db := rlstest.New(t)
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\n" + rlstest.SQL + "\n```"}
	})
	ids, err := identity.Parse("ids.yaml", []byte(db.Callers("trusted_header: X-Forwarded-User\ntrusted_proxies: ["+proxies+"]\n", map[string]string{"2": "user: bob"})))
	if err != nil {
		t.Fatal(err)
	}
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	eng, err := nl2sql.New(pgtest.Pool(t, db.DSN), nl2sql.WithLLM(model), nl2sql.WithSettings(ids.Settings()...))
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	return console.New(eng, console.WithIdentities(ids), console.WithLogger(slog.New(slog.NewTextHandler(logs, nil)))), db
}

// serve sends one request to h from 127.0.0.1 with the headers hdr (pairs).
func serve(h http.Handler, method, target string, form url.Values, hdr ...string) *http.Response {
	var req *http.Request
	if form != nil {
		req = httptest.NewRequest(method, target, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		req = httptest.NewRequest(method, target, nil)
	}
	req.RemoteAddr = "127.0.0.1:4000"
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(res *http.Response) string {
	var b bytes.Buffer
	b.ReadFrom(res.Body)
	return b.String()
}

// TestConsoleIdentities: two callers of one console, each mapped to the
// reader role and its own tenant id, see only their own rows (asked, and
// run on the check page), over a real row-level security policy; a
// caller cannot reach (nor teach) the other's answers by id, and request parameters
// naming another scope, role or setting change nothing; an unknown token
// is 401 and no token reaches the log.
func TestConsoleIdentities(t *testing.T) {
	var logs bytes.Buffer
	h, _ := rlsConsole(t, "10.9.9.9", &logs)
	ask := "/?q=" + url.QueryEscape("what do the notes say?") + "&scope=" + rlstest.T2 + "&role=postgres&set=app.tenant_id%3D2&app.tenant_id=2"
	ids := map[string]string{}
	for tenant, tok := range map[string]string{"1": tokenOne, "2": tokenTwo} {
		res := serve(h, "GET", ask, nil, "Authorization", "Bearer "+tok)
		page := body(res)
		if res.StatusCode != 200 {
			t.Fatalf("tenant %s: ask: %d\n%s", tenant, res.StatusCode, page)
		}
		for _, want := range rlstest.Rows[tenant] {
			if !strings.Contains(page, want) {
				t.Errorf("tenant %s: the answer lacks %q", tenant, want)
			}
		}
		if leak := rlstest.Leak(page, tenant); leak != "" {
			t.Errorf("tenant %s: the answer shows %q", tenant, leak)
		}
		m := regexp.MustCompile(`/a/([0-9a-f]+)/trace`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("tenant %s: no answer id", tenant)
		}
		ids[tenant] = m[1]
		res = serve(h, "POST", "/check", url.Values{"sql": {rlstest.SQL}, "action": {"run"}}, "Authorization", "Bearer "+tok)
		page = body(res)
		if res.StatusCode != 200 || !strings.Contains(page, rlstest.Rows[tenant][0]) || rlstest.Leak(page, tenant) != "" {
			t.Errorf("tenant %s: check and run: %d, own rows %v, leak %q", tenant, res.StatusCode, strings.Contains(page, rlstest.Rows[tenant][0]), rlstest.Leak(page, tenant))
		}
		// The plan reads notes, under row-level security: no cost
		// (estimates cover the other tenant's rows too).
		if !strings.Contains(page, `id="cost-hidden"`) || strings.Contains(page, `id="cost"`) {
			t.Errorf("tenant %s: the check page shows the plan's cost of a table under row-level security", tenant)
		}
	}
	// Caller one cannot open caller two's answer.
	for _, path := range []string{"/a/" + ids["2"], "/a/" + ids["2"] + "/trace"} {
		if res := serve(h, "GET", path, nil, "Authorization", "Bearer "+tokenOne); res.StatusCode != http.StatusNotFound {
			t.Errorf("caller one opened %s: %d", path, res.StatusCode)
		}
	}
	if res := serve(h, "GET", "/a/"+ids["2"], nil, "Authorization", "Bearer "+tokenTwo); res.StatusCode != 200 {
		t.Errorf("caller two's own answer: %d", res.StatusCode)
	}
	// Teach: caller one cannot confirm caller two's answer; its own, yes.
	if res := serve(h, "POST", "/teach/confirm", url.Values{"id": {ids["2"]}}, "Authorization", "Bearer "+tokenOne); res.StatusCode != http.StatusNotFound {
		t.Errorf("caller one confirmed caller two's answer: %d", res.StatusCode)
	}
	if res := serve(h, "POST", "/teach/confirm", url.Values{"id": {ids["1"]}}, "Authorization", "Bearer "+tokenOne); res.StatusCode != http.StatusSeeOther ||
		!strings.Contains(res.Header.Get("Location"), "done=learned") {
		t.Errorf("caller one confirming its answer: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	// Unknown or missing tokens.
	for _, hdr := range [][]string{{"Authorization", "Bearer not-a-caller"}, {"Authorization", "Bearer " + tokenOne + "x"}, {}} {
		res := serve(h, "GET", "/schema", nil, append(hdr, "Accept", "application/json")...)
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("%q: %d, want 401", hdr, res.StatusCode)
		}
	}
	// The header from an address that is not a trusted proxy is ignored.
	if res := serve(h, "GET", "/schema", nil, "X-Forwarded-User", "bob", "Accept", "application/json"); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("trusted header from an untrusted address: %d", res.StatusCode)
	}
	// The login form signs caller two in; its cookie reads as caller two.
	ck := &http.Cookie{Name: "nl2sql_csrf", Value: strings.Repeat("0", 64)}
	req := httptest.NewRequest("POST", "/login", strings.NewReader(url.Values{"token": {tokenTwo}, "next": {"/"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(ck)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var session *http.Cookie
	for _, c := range rec.Result().Cookies() {
		if c.Name == "nl2sql_session" {
			session = c
		}
	}
	if session == nil || strings.Contains(session.Value, tokenTwo) {
		t.Fatalf("login: %d, cookie %v", rec.Code, session)
	}
	req = httptest.NewRequest("GET", ask, nil)
	req.AddCookie(session)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if page := rec.Body.String(); rec.Code != 200 || !strings.Contains(page, "two-secret") || rlstest.Leak(page, "2") != "" {
		t.Errorf("signed in as two: %d, leak %q", rec.Code, rlstest.Leak(page, "2"))
	}
	for _, tok := range []string{tokenOne, tokenTwo, "not-a-caller"} {
		if strings.Contains(logs.String(), tok) {
			t.Errorf("the log holds a token: %s", logs.String())
		}
	}
}

// TestConsoleTrustedHeader: behind a trusted proxy (the request's address
// is one of trusted_proxies), the header names the caller, which reads as
// its own tenant; an unknown user is 401.
func TestConsoleTrustedHeader(t *testing.T) {
	var logs bytes.Buffer
	h, _ := rlsConsole(t, "127.0.0.0/8", &logs)
	res := serve(h, "POST", "/check", url.Values{"sql": {rlstest.SQL}, "action": {"run"}}, "X-Forwarded-User", "bob")
	// A header-signed request is a browser's: it needs the CSRF form token.
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("POST without a CSRF token: %d", res.StatusCode)
	}
	res = serve(h, "GET", "/?q="+url.QueryEscape("what do the notes say?"), nil, "X-Forwarded-User", "bob")
	page := body(res)
	if res.StatusCode != 200 || !strings.Contains(page, "two-secret") || rlstest.Leak(page, "2") != "" {
		t.Errorf("bob: %d, leak %q", res.StatusCode, rlstest.Leak(page, "2"))
	}
	if res := serve(h, "GET", "/schema", nil, "X-Forwarded-User", "mallory", "Accept", "application/json"); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("unknown user: %d", res.StatusCode)
	}
}
