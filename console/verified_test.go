package console_test

import (
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nl2sqlgo/nl2sql/console"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
)

// TestTeachTemplate: an answer confirmed "as a template" becomes one; the
// same question with another year is then answered from it without the
// model, and the page says which verified question and value answered.
func TestTeachTemplate(t *testing.T) {
	var calls atomic.Int32
	eng := newEngineScript(t, func(int, *llmfake.Request) llmfake.Reply {
		calls.Add(1)
		return llmfake.Reply{Content: "```sql\nSELECT count(*) AS hires FROM employees WHERE extract(year FROM hire_date) = 2021\n```"}
	})
	c := newClient(t, console.New(eng))
	_, page := c.get("/?q=" + url.QueryEscape("How many employees were hired in 2021?"))
	tok := csrf(t, page)
	aid := regexp.MustCompile(`name="id" value="([0-9a-f]+)"`).FindStringSubmatch(page)
	if aid == nil || !strings.Contains(page, `id="confirm-template"`) {
		t.Fatalf("no confirm form with the template box:\n%s", page)
	}
	code, kn := c.post("/teach/confirm", url.Values{"csrf": {tok}, "id": {aid[1]}, "parameters": {"auto"}})
	if code != 200 || !strings.Contains(kn, "How many employees were hired in {year}?") {
		t.Fatalf("confirm as a template: %d\n%s", code, kn)
	}
	before := calls.Load()
	_, page = c.get("/?q=" + url.QueryEscape("How many employees were hired in 2023?"))
	if !strings.Contains(page, `id="verified"`) || !strings.Contains(page, "year = 2023") || calls.Load() != before {
		t.Errorf("the template did not answer (model calls %d -> %d):\n%s", before, calls.Load(), page)
	}
}
