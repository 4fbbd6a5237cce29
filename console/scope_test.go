package console_test

import (
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/console"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/scopetest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

var hrefRE = regexp.MustCompile(`(?:href|src|action)="(/[^"]*)"`)

// TestConsoleScope: a console on an engine scoped to div_01, loaded from
// an index of the whole database (both tenants, knowledge of both), is
// walked as a div_01 caller: every page it links to from the seeds
// (ask, an answer, its trace and chart, schema searches, a table, a
// table of div_02 asked for by name, retrieval, knowledge, check and
// run, a forget of div_02's knowledge by ID), and every prompt the model
// got, name nothing of div_02.
func TestConsoleScope(t *testing.T) {
	fake := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT count(*) AS n FROM employees\n```"}
	})
	model := openai.New(openai.WithBaseURL(fake.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	eng, _ := scopetest.Engine(t, nl2sql.WithLLM(model))
	c := newClient(t, console.New(eng))

	seen := map[string]bool{}
	var queue []string
	visit := func(path, body string, input ...string) {
		t.Helper()
		for _, in := range input { // the caller's own words, shown back
			body = strings.ReplaceAll(body, html.EscapeString(in), "")
		}
		if leak := scopetest.Leak(body); leak != "" {
			t.Errorf("%s shows %s", path, leak)
		}
		for _, m := range hrefRE.FindAllStringSubmatch(body, -1) {
			p := strings.ReplaceAll(m[1], "&amp;", "&")
			if !seen[p] && !strings.HasPrefix(p, "/static/") && !strings.HasPrefix(p, "/login") {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	for _, p := range []string{"/", "/?q=" + url.QueryEscape("how many plans"), "/schema", "/schema?q=secret", "/schema?q=plan",
		"/schema?q=label", "/schema/secret_plans", "/schema/div_02.secret_plans", "/schema/div_01.employees",
		"/retrieve?q=" + url.QueryEscape("secret plans kind"), "/retrieve?q=" + url.QueryEscape("how many employees"),
		"/knowledge", "/check"} {
		seen[p] = true
		queue = append(queue, p)
	}
	for len(queue) > 0 && len(seen) < 400 {
		p := queue[0]
		queue = queue[1:]
		_, body := c.get(p)
		name, _ := strings.CutPrefix(p, "/schema/")
		visit(p, body, name)
	}
	_, page := c.get("/check")
	tok := csrf(t, page)
	for _, sql := range []string{"SELECT count(*) FROM employees", "SELECT * FROM secret_plans", "SELECT kind FROM secret_plan"} {
		_, body := c.post("/check", url.Values{"csrf": {tok}, "sql": {sql}, "action": {"run"}})
		visit("POST /check "+sql, body, append([]string{sql}, strings.Fields(sql)...)...)
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		_, body := c.get(p)
		visit(p, body)
	}
	if len(seen) < 40 {
		t.Errorf("the walk reached %d pages only", len(seen))
	}
	// Forgetting div_02's knowledge by its ID is refused, and it stays.
	ks, _ := eng.Knowledge(t.Context())
	for _, k := range ks {
		if scopetest.Leak(k.Table+k.SQL+strings.Join(k.Targets, " ")) == "" {
			continue
		}
		code, body := c.post("/teach/forget", url.Values{"csrf": {tok}, "id": {k.ID}})
		if code != 422 {
			t.Errorf("forget %s of div_02: %d", k.ID, code)
		}
		visit("POST /teach/forget", body)
	}
	if after, _ := eng.Knowledge(t.Context()); len(after) != len(ks) {
		t.Errorf("knowledge: %d items before the forgets, %d after", len(ks), len(after))
	}
	reqs := fake.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model was never asked: the walk did not ask")
	}
	b, _ := json.Marshal(reqs)
	if leak := scopetest.Leak(string(b)); leak != "" {
		t.Errorf("a prompt holds %s", leak)
	}
}
