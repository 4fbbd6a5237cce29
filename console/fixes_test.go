package console_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/console"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// TestConsoleSignOut: signing out clears the session cookie and refuses
// it from then on, a copy of it too; signing in again works.
func TestConsoleSignOut(t *testing.T) {
	c := newClient(t, console.New(newEngine(t, false), console.WithModel(false), console.WithAuthToken("s3cret")))
	c.c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	_, page := c.get("/login")
	if code, _ := c.post("/login", url.Values{"token": {"s3cret"}, "next": {"/schema"}, "csrf": {csrf(t, page)}}); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	base, _ := url.Parse(c.base)
	var session *http.Cookie
	for _, ck := range c.c.Jar.Cookies(base) {
		if ck.Name == "nl2sql_session" {
			session = ck
		}
	}
	code, page := c.get("/schema")
	if session == nil || code != 200 || !strings.Contains(page, `id="logout"`) {
		t.Fatalf("signed in: cookie %v, %d, sign-out button: %v", session, code, strings.Contains(page, `id="logout"`))
	}
	// Without the form's token, no sign-out (nor anything else).
	if code, _ := c.post("/logout", url.Values{}); code != http.StatusForbidden {
		t.Errorf("sign-out without the CSRF token: %d", code)
	}
	if code, _ := c.post("/logout", url.Values{"csrf": {csrf(t, page)}}); code != http.StatusSeeOther {
		t.Fatalf("sign-out: %d", code)
	}
	if code, _ := c.get("/schema"); code != http.StatusSeeOther {
		t.Errorf("after sign-out: %d, want the login redirect", code)
	}
	// The copied cookie is refused too.
	req, _ := http.NewRequest("GET", c.base+"/schema", nil)
	req.AddCookie(&http.Cookie{Name: session.Name, Value: session.Value})
	resp, err := (&http.Client{CheckRedirect: c.c.CheckRedirect}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the signed-out cookie replayed: %d", resp.StatusCode)
	}
	_, page = c.get("/login")
	c.post("/login", url.Values{"token": {"s3cret"}, "next": {"/schema"}, "csrf": {csrf(t, page)}})
	if code, _ := c.get("/schema"); code != 200 {
		t.Errorf("signed in again: %d", code)
	}
}

// TestConsoleStatusMessages: the knowledge page's status comes from a
// fixed set: a link's text is never shown (it once echoed ?learned= and
// ?forgot= whatever they said); the ID learnt is shown when it is listed.
func TestConsoleStatusMessages(t *testing.T) {
	eng := newEngine(t, false)
	c := newClient(t, console.New(eng, console.WithModel(false)))
	for _, q := range []string{"learned=Your+account+is+locked", "forgot=Call+555-0100", "done=learned&id=Call+555-0100", "done=Call+555-0100"} {
		_, page := c.get("/knowledge?" + q)
		if strings.Contains(page, "555-0100") || strings.Contains(page, "locked") {
			t.Errorf("/knowledge?%s shows the link's text", q)
		}
	}
	_, page := c.get("/knowledge")
	code, page := c.post("/teach/doc", url.Values{"text": {"payroll runs monthly"}, "csrf": {csrf(t, page)}})
	ks, _ := eng.Knowledge(context.Background())
	if code != 200 || len(ks) != 1 || !regexp.MustCompile(`id="learned">Learnt: <code>`+ks[0].ID+`</code>`).MatchString(page) {
		t.Errorf("after learning: %d %d items\n%.300s", code, len(ks), page)
	}
	code, page = c.post("/teach/forget", url.Values{"id": {ks[0].ID}, "csrf": {csrf(t, page)}})
	if code != 200 || !strings.Contains(page, `id="forgot">Forgotten.`) {
		t.Errorf("after forgetting: %d", code)
	}
}

// TestConsoleTableLinksEscaped: a table name with "/", "?", "#" or ".."
// is one escaped path segment in every link, and the link, resolved as a
// browser does, opens that table's page (a table named
// "x/../../?q=..." linked to the ask page, which asks the model).
func TestConsoleTableLinksEscaped(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	names := []string{`x/../../?q=drop everything`, `a#b`, `c?d=1`, `e%2Ff`}
	for _, n := range names {
		pgtest.Exec(t, dsn, `CREATE TABLE public."`+n+`" (id int PRIMARY KEY, ref int)`)
	}
	pgtest.Exec(t, dsn, `CREATE TABLE public.plain (id int, x int REFERENCES public."x/../../?q=drop everything")`)
	eng, err := nl2sql.New(pgtest.Pool(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, console.New(eng, console.WithModel(false)))
	base, _ := url.Parse(c.base + "/schema")
	for _, page := range []string{"/schema", "/schema/public.plain", "/retrieve?q=" + url.QueryEscape("drop everything plain")} {
		_, body := c.get(page)
		for _, n := range names {
			want := "public." + n
			found := false
			for _, m := range regexp.MustCompile(`href="([^"]*)">`+regexp.QuoteMeta(htmlEscape(want))+`<`).FindAllStringSubmatch(body, -1) {
				found = true
				u, err := browserResolve(base, strings.ReplaceAll(m[1], "&amp;", "&"))
				if err != nil {
					t.Fatal(err)
				}
				code, tp := c.get(u.RequestURI())
				if code != 200 || !strings.Contains(tp, `id="mschema"`) || !strings.Contains(tp, htmlEscape(want)) || strings.Contains(tp, `id="q"`) {
					t.Errorf("%s: the link %s of %q leads to %s: %d", page, m[1], want, u.RequestURI(), code)
				}
			}
			if !found && page != "/retrieve?q="+url.QueryEscape("drop everything plain") && (page == "/schema" || n == names[0]) {
				t.Errorf("%s: no link to %q", page, want)
			}
		}
	}
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// TestConsoleTraceAfterCancel: a first request for an answer's trace that
// ends before the context is built (a reload, a closed tab) does not
// leave "context canceled" on the page for good: the next one builds it.
func TestConsoleTraceAfterCancel(t *testing.T) {
	h := console.New(newEngine(t, true))
	c := newClient(t, h)
	_, page := c.get("/?q=" + url.QueryEscape(qPerDept))
	id := regexp.MustCompile(`/a/([0-9a-f]+)/trace`).FindStringSubmatch(page)
	if id == nil {
		t.Fatalf("no trace link:\n%.500s", page)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/a/"+id[1]+"/trace", nil).WithContext(ctx)
	req.Host = "127.0.0.1"
	h.ServeHTTP(w, req)
	if !strings.Contains(w.Body.String(), "context canceled") {
		t.Fatalf("the cancelled request's page does not say so: %.300s", w.Body.String())
	}
	code, trace := c.get("/a/" + id[1] + "/trace")
	if code != 200 || strings.Contains(trace, "context canceled") || !strings.Contains(trace, `id="context-tables"`) {
		t.Errorf("the trace after a cancelled first request: %d\n%.1000s", code, trace)
	}
}

// TestConsoleSchemaRowsAndBrackets: a table never analysed shows "not
// analysed" for its row estimate, not PostgreSQL's -1; an analysed one its
// estimate. The M-Schema and the prompt show [ ] for the CJK section
// brackets (U+3010, U+3011), which a browser without a CJK font draws as
// empty boxes.
func TestConsoleSchemaRowsAndBrackets(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE TABLE public.fresh (id int PRIMARY KEY) WITH (autovacuum_enabled = false);
CREATE TABLE public.counted (id int PRIMARY KEY) WITH (autovacuum_enabled = false);
INSERT INTO public.counted SELECT generate_series(1, 500); ANALYZE public.counted`)
	eng, err := nl2sql.New(pgtest.Pool(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, console.New(eng, console.WithModel(false)))
	_, page := c.get("/schema")
	row := func(name string) string {
		m := regexp.MustCompile(`>public\.` + name + `</a></td><td>[^<]*</td><td>([^<]*)</td>`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("no row for %s:\n%s", name, page)
		}
		return m[1]
	}
	if got := row("fresh"); got != "not analysed" {
		t.Errorf("never analysed: rows %q, want \"not analysed\"", got)
	}
	if got := row("counted"); got != "500" {
		t.Errorf("analysed: rows %q, want 500", got)
	}
	for _, path := range []string{"/schema/public.counted", "/retrieve?q=" + url.QueryEscape("how many counted ids")} {
		_, page := c.get(path)
		if strings.ContainsAny(page, "\u3010\u3011") || !strings.Contains(page, "[Schema]") {
			t.Errorf("%s: CJK brackets shown, or no [Schema] section:\n%.2000s", path, page)
		}
	}
}

// TestConsoleRefusalSaidOnce: "Check and run" on SQL the policy refuses
// says why once (the verdict's issue), without running it to refuse it
// again or offering a deterministic repair that cannot apply; a mistake
// (a misspelt column) still gets its repair.
func TestConsoleRefusalSaidOnce(t *testing.T) {
	c := newClient(t, console.New(newEngine(t, false), console.WithModel(false)))
	_, page := c.get("/check")
	_, page = c.post("/check", url.Values{"csrf": {csrf(t, page)}, "sql": {"SELECT pg_sleep(1)"}, "action": {"run"}})
	if n := strings.Count(page, "pg_sleep is not allowed"); n != 1 || !strings.Contains(page, `id="rejected"`) ||
		strings.Contains(page, "No deterministic repair") || strings.Contains(page, `id="run-error"`) {
		t.Errorf("refusal said %d times (want 1), or with a repair section or a run error:\n%s", n, page)
	}
	_, page = c.post("/check", url.Values{"csrf": {csrf(t, page)}, "sql": {"SELECT first_nme FROM employees"}, "action": {"run"}})
	if !strings.Contains(page, `id="repaired"`) || !strings.Contains(page, "first_name") || strings.Contains(page, `id="run-error"`) {
		t.Errorf("a misspelt column: no repair offered, or run anyway:\n%s", page)
	}

	// An Ask whose every candidate is refused says so once, with the code
	// once and without the validator's own "query rejected".
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT pg_sleep(1)\n```"}
	})
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	eng, err := nl2sql.New(pgtest.Pool(t, erptest.Single(t)), nl2sql.WithLLM(model), nl2sql.WithModules(erp.Modules()))
	if err != nil {
		t.Fatal(err)
	}
	_, page = newClient(t, console.New(eng)).get("/?q=" + url.QueryEscape(qActive))
	if strings.Count(page, "pg_sleep is not allowed") != 1 || strings.Count(page, "V010") != 1 || strings.Contains(page, "query rejected") ||
		!strings.Contains(page, `id="error">rejected_unsafe: every candidate broke the safety policy: V010: function pg_sleep is not allowed`) {
		t.Errorf("the ask page does not say the refusal once:\n%s", page)
	}
}
