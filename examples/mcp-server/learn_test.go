package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// TestLearn teaches the engine through the learn tool (confirming an
// nl_query answer by its id, a corrected example, a doc), checks the
// refusals and the knowledge resource, and that a later nl_query sends the
// learnt example and doc to the model.
func TestLearn(t *testing.T) {
	dsn := erptest.Single(t)
	const countSQL = "SELECT count(*) AS n FROM employees"
	fake := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\n" + countSQL + "\n```"}
	})
	model := openai.New(openai.WithBaseURL(fake.BaseURL()), openai.WithModel("fake"), openai.WithAPIKey("test"))
	eng := mustEngine(t, dsn, nl2sql.WithLLM(model))
	cs := connect(t, NewServer(eng, Config{HasLLM: true}))
	learn := func(args map[string]any) LearnOutput {
		t.Helper()
		return decode[LearnOutput](t, call(t, cs, "learn", args))
	}

	asked := decode[NLQueryOutput](t, call(t, cs, "nl_query", map[string]any{"question": "How many employees are there?"}))
	confirmed := learn(map[string]any{"id": asked.ID, "note": "the user checked the count"})
	if confirmed.Kind != "example" || confirmed.Question != "How many employees are there?" || confirmed.SQL != asked.SQL ||
		confirmed.Note != "the user checked the count" || confirmed.ID == "" {
		t.Errorf("confirming %s stored %+v", asked.ID, confirmed)
	}
	if again := learn(map[string]any{"id": asked.ID, "note": "the user checked the count"}); again.ID != confirmed.ID {
		t.Errorf("learning twice: ids %q and %q", confirmed.ID, again.ID)
	}

	const staffSQL = "SELECT d.dept_name, count(*) AS staff FROM departments d JOIN employees e ON e.dept_id = d.dept_id " +
		"GROUP BY d.dept_name ORDER BY staff DESC"
	corrected := learn(map[string]any{"question": "Which departments have the most staff?", "sql": staffSQL})
	doc := learn(map[string]any{"kind": "doc", "table": "employees", "column": "status",
		"text": "An employee whose status is 'T' has left the company."})
	if doc.Kind != "doc" || doc.Table != "public.employees" || doc.Column != "status" {
		t.Errorf("doc stored as %+v", doc)
	}
	term := learn(map[string]any{"kind": "term", "term": "wombats", "targets": []string{"vehicles"}})
	if term.Kind != "term" || term.Term != "wombats" || !slices.Equal(term.Targets, []string{"public.vehicles"}) {
		t.Errorf("term stored as %+v", term)
	}

	for name, c := range map[string]struct {
		args map[string]any
		says string
	}{
		"unknown id":     {map[string]any{"id": "ans_nope"}, "unknown id"},
		"id and sql":     {map[string]any{"id": asked.ID, "sql": countSQL}, "not both"},
		"nothing":        {map[string]any{"note": "x"}, "question and its sql"},
		"bad table":      {map[string]any{"question": "How many?", "sql": "SELECT count(*) FROM employes"}, "employes"},
		"unsafe":         {map[string]any{"question": "Fire them all", "sql": "DELETE FROM employees"}, "V004"},
		"unknown table":  {map[string]any{"kind": "doc", "table": "nosuch", "text": "x"}, "nosuch"},
		"doc with sql":   {map[string]any{"kind": "doc", "text": "x", "sql": countSQL}, "not a doc"},
		"unknown kind":   {map[string]any{"kind": "rule", "text": "x"}, "example, doc or term"},
		"term with text": {map[string]any{"kind": "term", "term": "x", "targets": []string{"employees"}, "text": "x"}, "only term and targets"},
		"term alone":     {map[string]any{"kind": "term", "term": "x"}, "its targets"},
		"unknown target": {map[string]any{"kind": "term", "term": "x", "targets": []string{"nosuch"}}, "nosuch"},
	} {
		if res := call(t, cs, "learn", c.args); !res.IsError || !strings.Contains(text(res), c.says) {
			t.Errorf("%s: want a tool error saying %q, got %v %s", name, c.says, res.IsError, text(res))
		}
	}

	rr, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: knowledgeURI})
	if err != nil {
		t.Fatal(err)
	}
	var list []LearnOutput
	if err := json.Unmarshal([]byte(rr.Contents[0].Text), &list); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, k := range list {
		ids = append(ids, k.ID)
	}
	if want := []string{doc.ID, confirmed.ID, corrected.ID, term.ID}; !slices.Equal(slices.Sorted(slices.Values(ids)), slices.Sorted(slices.Values(want))) {
		t.Errorf("knowledge %s, want ids %v", rr.Contents[0].Text, want)
	}

	// The term applies at once: a question in its word gets its table.
	call(t, cs, "nl_query", map[string]any{"question": "How many wombats do we have?"})
	if reqs := fake.Requests(); !strings.Contains(reqs[len(reqs)-1].Last(), "# Table: vehicles") {
		t.Errorf("the term's table is not in the prompt:\n%s", reqs[len(reqs)-1].Last())
	}

	// A similar question: the model sees the learnt example and the doc.
	call(t, cs, "nl_query", map[string]any{"question": "Which departments have the most employees?"})
	reqs := fake.Requests()
	prompt := reqs[len(reqs)-1].Last()
	if !strings.Contains(prompt, "Examples") || !strings.Contains(prompt, "SQL: "+staffSQL) ||
		!strings.Contains(prompt, "has left the company") {
		t.Errorf("the prompt lacks the learnt example or doc:\n%s", prompt)
	}
}

// TestNoLearn: --no-learn leaves the learn tool out; answers keep their
// ids and the text stops offering to confirm them.
func TestNoLearn(t *testing.T) {
	dsn := erptest.Single(t)
	eng := mustEngine(t, dsn, nl2sql.WithLLM(fakeModel(t, "SELECT count(*) FROM employees", 0)))
	cs := connect(t, NewServer(eng, Config{HasLLM: true, NoLearn: true}))
	lt, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(lt.Tools, func(tool *mcp.Tool) bool { return tool.Name == "learn" }) || len(lt.Tools) != 3 {
		t.Errorf("tools %d, learn among them", len(lt.Tools))
	}
	res := call(t, cs, "nl_query", map[string]any{"question": "How many employees are there?"})
	if out := decode[NLQueryOutput](t, res); out.ID == "" || strings.Contains(text(res), "learn") {
		t.Errorf("id %q, text %s", out.ID, text(res))
	}
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "learn",
		Arguments: map[string]any{"question": "How many?", "sql": "SELECT 1"}}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Errorf("calling learn: %v, want unknown tool", err)
	}
}

// TestAnswersBounded: the oldest answer is forgotten past the bound.
func TestAnswersBounded(t *testing.T) {
	s := newAnswers(2)
	a := s.keep(answer{Question: "a", SQL: "SELECT 1"})
	b := s.keep(answer{Question: "b", SQL: "SELECT 2"})
	c := s.keep(answer{Question: "c", SQL: "SELECT 3"})
	if _, ok := s.get(a); ok {
		t.Error("the oldest answer is still kept")
	}
	for _, id := range []string{b, c} {
		if _, ok := s.get(id); !ok {
			t.Errorf("answer %s was forgotten", id)
		}
	}
	if got, _ := s.get(c); got.Question != "c" || len(s.byID) != 2 || a == b || b == c {
		t.Errorf("get %+v, %d kept, ids %s %s %s", got, len(s.byID), a, b, c)
	}
}

// TestLearnWritesIndex: with --index, what learn stores is written back
// into the index file, so the next server loaded from it knows it.
func TestLearnWritesIndex(t *testing.T) {
	dsn := erptest.Single(t)
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "erp.idx")
	if err := mustEngine(t, dsn).SaveIndexFile(ctx, path); err != nil {
		t.Fatal(err)
	}
	load := func() *nl2sql.Engine {
		opts, err := nl2sql.LoadIndexFile(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		return mustEngine(t, dsn, opts...)
	}
	cs := connect(t, NewServer(load(), Config{}))
	stored := decode[LearnOutput](t, call(t, cs, "learn", map[string]any{"question": "How many employees are there?", "sql": "SELECT count(*) FROM employees"}))
	known, err := load().Knowledge(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(known) != 1 || known[0].ID != stored.ID {
		t.Errorf("the next server from %s knows %+v, want %s", path, known, stored.ID)
	}
}
