package console_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
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

func TestMain(m *testing.M) { pgtest.Main(m) }

// The questions the fake model knows, and its SQL for them.
const (
	qPerDept = "How many employees does each department have?"
	sqlDept  = "SELECT d.dept_name, count(*) AS employees FROM employees e JOIN departments d ON d.dept_id = e.dept_id GROUP BY d.dept_name ORDER BY employees DESC"
	qActive  = "How many employees are currently active?"
	sqlCount = "SELECT count(*) AS active_employees FROM employees WHERE status = 'Active'"
)

func script(_ int, req *llmfake.Request) llmfake.Reply {
	sql := sqlDept
	if strings.Contains(req.Last(), "currently active") {
		sql = sqlCount
	}
	return llmfake.Reply{Content: "```sql\n" + sql + "\n```"}
}

// newEngine is an engine on a fresh demo ERP, with the fake model when
// withModel.
func newEngine(t testing.TB, withModel bool) *nl2sql.Engine {
	t.Helper()
	if !withModel {
		return newEngineScript(t, nil)
	}
	return newEngineScript(t, script)
}

// newEngineScript is an engine on a fresh demo ERP with a fake model
// answering by sc (no model when sc is nil), and opts.
func newEngineScript(t testing.TB, sc llmfake.Script, opts ...nl2sql.Option) *nl2sql.Engine {
	t.Helper()
	var model nl2sql.LLM
	if sc != nil {
		srv := llmfake.New(t, sc)
		model = openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	}
	pool := pgtest.Pool(t, erptest.Single(t))
	eng, err := nl2sql.New(pool, append([]nl2sql.Option{nl2sql.WithLLM(model), nl2sql.WithModules(erp.Modules())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	return eng
}

// client is a browser-like client: cookies, no redirects followed
// automatically unless follow.
type client struct {
	t    *testing.T
	base string
	c    *http.Client
}

func newClient(t *testing.T, h http.Handler) *client {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	jar, _ := cookiejar.New(nil)
	return &client{t: t, base: srv.URL, c: &http.Client{Jar: jar}}
}

func (c *client) get(path string) (int, string) {
	c.t.Helper()
	resp, err := c.c.Get(c.base + path)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (c *client) post(path string, form url.Values, hdr ...string) (int, string) {
	c.t.Helper()
	req, _ := http.NewRequest("POST", c.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := c.c.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

func csrf(t *testing.T, page string) string {
	t.Helper()
	m := csrfRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no CSRF field in the page")
	}
	return m[1]
}

func TestConsoleHTTP(t *testing.T) {
	eng := newEngine(t, true)
	c := newClient(t, console.New(eng))

	// Ask: the SQL, the description, the rows, the chart.
	code, page := c.get("/?q=" + url.QueryEscape(qPerDept))
	if code != 200 {
		t.Fatalf("ask: %d\n%s", code, page)
	}
	for _, want := range []string{`id="sql"`, `id="description"`, `id="rows"`, `id="chart-img"`, "dept_name", "Why this query?"} {
		if !strings.Contains(page, want) {
			t.Errorf("answer page lacks %q", want)
		}
	}
	id := regexp.MustCompile(`/a/([0-9a-f]+)/chart\.svg`).FindStringSubmatch(page)
	if id == nil {
		t.Fatalf("no chart link:\n%s", page)
	}
	code, svg := c.get("/a/" + id[1] + "/chart.svg")
	if code != 200 || !strings.Contains(svg, "<svg") || !strings.Contains(svg, "employees") {
		t.Errorf("chart: %d %.200s", code, svg)
	}
	// The trace: the context's tables and reasons, the prompt, the
	// candidates, the timings.
	code, trace := c.get("/a/" + id[1] + "/trace")
	for _, want := range []string{`id="context-tables"`, "public.employees", `id="prompt"`, `class="candidate st-ok chosen"`, `class="waterfall"`, ">generate<"} {
		if !strings.Contains(trace, want) {
			t.Errorf("trace (%d) lacks %q", code, want)
		}
	}

	// One number is a big figure.
	_, page = c.get("/?q=" + url.QueryEscape(qActive))
	if !strings.Contains(page, `id="figure"`) {
		t.Errorf("no figure for a count")
	}

	// Confirm: the example lands in knowledge.
	tok := csrf(t, page)
	aid := regexp.MustCompile(`name="id" value="([0-9a-f]+)"`).FindStringSubmatch(page)
	code, kn := c.post("/teach/confirm", url.Values{"csrf": {tok}, "id": {aid[1]}})
	if code != 200 || !strings.Contains(kn, `id="learned"`) || !strings.Contains(kn, qActive) {
		t.Errorf("confirm: %d\n%s", code, kn)
	}
	// Correct with bad SQL: refused with the reason, the draft kept.
	code, kn = c.post("/teach/correct", url.Values{"csrf": {tok}, "question": {"q"}, "sql": {"SELECT nope FROM employees"}})
	if code != http.StatusUnprocessableEntity || !strings.Contains(kn, "not learnt") || !strings.Contains(kn, "SELECT nope") {
		t.Errorf("bad correction: %d", code)
	}
	// A doc note, then forgetting it.
	code, kn = c.post("/teach/doc", url.Values{"csrf": {tok}, "text": {"Active employees have status 'Active'."}, "table": {"employees"}, "column": {"status"}})
	if code != 200 || !strings.Contains(kn, "Active employees have status") {
		t.Errorf("doc: %d", code)
	}
	// A term: refused with the reason when a target is unknown (the draft
	// kept), shown in the list once stored.
	code, kn = c.post("/teach/term", url.Values{"csrf": {tok}, "term": {"crew"}, "targets": {"employees, nosuch"}})
	if code != http.StatusUnprocessableEntity || !strings.Contains(kn, "nosuch") || !strings.Contains(kn, `value="employees, nosuch"`) {
		t.Errorf("bad term: %d\n%s", code, kn)
	}
	code, kn = c.post("/teach/term", url.Values{"csrf": {tok}, "term": {"crew"}, "targets": {"employees,\n departments.dept_name"}})
	if code != 200 || !strings.Contains(kn, "<b>crew</b> → public.employees, public.departments.dept_name") {
		t.Errorf("term: %d\n%s", code, kn)
	}
	ks, _ := eng.Knowledge(context.Background())
	if len(ks) != 3 {
		t.Fatalf("knowledge = %+v", ks)
	}
	code, kn = c.post("/teach/forget", url.Values{"csrf": {tok}, "id": {ks[1].ID}})
	if ks2, _ := eng.Knowledge(context.Background()); code != 200 || len(ks2) != 2 {
		t.Errorf("forget: %d, %d left", code, len(ks2))
	}

	// Check: a bad column is an issue with its position; the repair.
	code, chk := c.post("/check", url.Values{"csrf": {tok}, "sql": {"SELECT emp_nam FROM employees"}, "action": {"check"}})
	if code != 200 || !strings.Contains(chk, "emp_nam") || !(strings.Contains(chk, `id="plan-error"`) || strings.Contains(chk, `id="issues"`)) {
		t.Errorf("check bad SQL: %d\n%s", code, chk)
	}
	if !strings.Contains(chk, "line 1, column 8") {
		t.Errorf("check: no position")
	}
	// Run: the rows and the cost.
	_, run := c.post("/check", url.Values{"csrf": {tok}, "sql": {"SELECT emp_no, hire_date FROM employees ORDER BY emp_no"}, "action": {"run"}})
	for _, want := range []string{`id="ok"`, `id="cost"`, `id="rows"`, `id="next"`} {
		if !strings.Contains(run, want) {
			t.Errorf("run lacks %q", want)
		}
	}

	// Schema: search, a table, its neighbours.
	_, sch := c.get("/schema?q=dept_name")
	if !strings.Contains(sch, "public.departments") {
		t.Errorf("schema search")
	}
	_, tbl := c.get("/schema/public.employees")
	if !strings.Contains(tbl, `id="mschema"`) || !strings.Contains(tbl, "public.departments") {
		t.Errorf("table page")
	}

	// Escaping: the question comes back as text.
	_, page = c.get("/retrieve?q=" + url.QueryEscape("<script>alert(1)</script> employees"))
	if strings.Contains(page, "<script>alert") || !strings.Contains(page, "&lt;script&gt;") {
		t.Errorf("not escaped")
	}

	// Too long: the engine's limit.
	code, page = c.get("/?q=" + strings.Repeat("employees%20", 1000))
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(page, "too long") {
		t.Errorf("long question: %d", code)
	}
}

func TestConsoleCSRF(t *testing.T) {
	c := newClient(t, console.New(newEngine(t, false), console.WithModel(false)))
	_, page := c.get("/knowledge")
	tok := csrf(t, page)
	form := url.Values{"text": {"x"}}
	if code, _ := c.post("/teach/doc", form); code != http.StatusForbidden {
		t.Errorf("no token: %d", code)
	}
	form.Set("csrf", strings.Repeat("0", 64))
	if code, _ := c.post("/teach/doc", form); code != http.StatusForbidden {
		t.Errorf("wrong token: %d", code)
	}
	form.Set("csrf", tok)
	if code, _ := c.post("/teach/doc", form, "Origin", "http://evil.example"); code != http.StatusForbidden {
		t.Errorf("cross origin: %d", code)
	}
	// GET never changes state.
	if code, _ := c.get("/teach/doc?text=x&csrf=" + tok); code != http.StatusMethodNotAllowed {
		t.Errorf("GET teach: %d", code)
	}
}

func TestConsoleNoModel(t *testing.T) {
	c := newClient(t, console.New(newEngine(t, false), console.WithModel(false)))
	_, page := c.get("/?q=" + url.QueryEscape(qPerDept))
	if !strings.Contains(page, `id="need-model"`) || strings.Contains(page, `id="answer"`) {
		t.Errorf("no model: the question box should say a model is needed")
	}
	_, page = c.get("/retrieve?q=" + url.QueryEscape(qPerDept))
	if !strings.Contains(page, "public.departments") || !strings.Contains(page, `id="prompt"`) {
		t.Errorf("retrieval without a model")
	}
}

func TestConsoleAuth(t *testing.T) {
	c := newClient(t, console.New(newEngine(t, false), console.WithModel(false), console.WithAuthToken("s3cret")))
	c.c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	if code, _ := c.get("/schema"); code != http.StatusSeeOther {
		t.Errorf("no token: %d", code)
	}
	req, _ := http.NewRequest("GET", c.base+"/schema", nil)
	req.Header.Set("Authorization", "Bearer s3cret")
	if resp, err := c.c.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("bearer: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	_, login := c.get("/login?next=/schema")
	tok := csrf(t, login)
	if code, _ := c.post("/login", url.Values{"csrf": {tok}, "token": {"wrong"}, "next": {"/schema"}}); code != http.StatusUnauthorized {
		t.Errorf("wrong token: %d", code)
	}
	if code, _ := c.post("/login", url.Values{"csrf": {tok}, "token": {"s3cret"}, "next": {"/schema"}}); code != http.StatusSeeOther {
		t.Errorf("login: %d", code)
	}
	if code, page := c.get("/schema"); code != 200 || !strings.Contains(page, "public.employees") {
		t.Errorf("after login: %d", code)
	}
}

// TestConsoleHost: without a token the console answers loopback host names
// and the allowed ones only, so a page whose domain an attacker points at
// 127.0.0.1 (DNS rebinding) cannot read it from the user's browser; with a
// token, the token decides.
func TestConsoleHost(t *testing.T) {
	eng := newEngine(t, false)
	open := console.New(eng, console.WithModel(false), console.WithAllowedHosts("db-console.internal"))
	status := func(h http.Handler, host string) int {
		req := httptest.NewRequest("GET", "/schema", nil)
		req.Host = host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	for host, want := range map[string]int{
		"127.0.0.1:8080": http.StatusOK, "localhost:8080": http.StatusOK, "[::1]:8080": http.StatusOK,
		"LOCALHOST": http.StatusOK, "db-console.internal:8080": http.StatusOK,
		"evil.example:8080": http.StatusForbidden, "evil.example": http.StatusForbidden,
		"127.0.0.1.evil.example": http.StatusForbidden, "": http.StatusForbidden,
	} {
		if got := status(open, host); got != want {
			t.Errorf("Host %q: %d, want %d", host, got, want)
		}
	}
	locked := console.New(eng, console.WithModel(false), console.WithAuthToken("s3cret"))
	if got := status(locked, "evil.example"); got == http.StatusOK || got == http.StatusForbidden {
		t.Errorf("with a token, an unknown host must meet the login (redirect or 401), got %d", got)
	}
}
