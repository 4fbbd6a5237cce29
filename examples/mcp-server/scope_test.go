package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/scopetest"
)

// TestScopeEverywhere: the built server started with --scope div_01
// --index FILE, FILE an index of the whole database (both tenants and
// knowledge of both), is asked through the official client for every
// tool, resource and template as a div_01 caller would, and for div_02's
// things by name: no reply, and no prompt its model gets, names anything
// of div_02 but the caller's own words echoed.
func TestScopeEverywhere(t *testing.T) {
	dsn, index := scopetest.Index(t)
	file := filepath.Join(t.TempDir(), "whole.idx")
	if err := os.WriteFile(file, index, 0o600); err != nil {
		t.Fatal(err)
	}
	fake := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT count(*) AS n FROM employees\n```"}
	})
	cmd := exec.Command(buildBinary(t), "--dsn", dsn, "--llm", "openai:fake", "--llm-url", fake.BaseURL(), "--scope", scopetest.Scope, "--index", file)
	cmd.Stderr = os.Stderr
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	check := func(what string, reply any, echoed ...string) {
		t.Helper()
		b, _ := json.Marshal(reply)
		s := string(b)
		for _, e := range echoed {
			s = strings.ReplaceAll(s, e, "")
		}
		if leak := scopetest.Leak(s); leak != "" {
			t.Errorf("%s: %s", what, leak)
		}
	}
	lr, err := cs.ListResources(ctx, nil)
	check("resources/list", lr)
	lt, _ := cs.ListResourceTemplates(ctx, nil)
	check("resources/templates/list", lt)
	tools, _ := cs.ListTools(ctx, nil)
	check("tools/list", tools)
	if err != nil || len(lr.Resources) == 0 {
		t.Fatalf("resources: %v", err)
	}
	var tables []TableInfo
	for _, uri := range []string{tablesURI, knowledgeURI, tableURIPrefix + "div_01.employees", tableURIPrefix + "div_02.secret_plans", tableURIPrefix + "div_02.employees"} {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		check(uri, res, uri)
		check(uri, err, uri)
		if uri == tablesURI {
			if err != nil || json.Unmarshal([]byte(res.Contents[0].Text), &tables) != nil {
				t.Fatalf("%s: %v", uri, err)
			}
		}
	}
	if len(tables) < 20 || !strings.Contains(mustJSON(tables), `"div_01.employees"`) {
		t.Errorf("%s lists %d tables, div_01's among them expected", tablesURI, len(tables))
	}
	for _, args := range []map[string]any{
		{"question": "secret plans kind label"},
		{"question": "how many plans are there", "scope": "public"},
		{"tables": []string{"employees", "div_01.benefit_plans"}},
		{"tables": []string{"secret_plans"}},
		{"tables": []string{"div_02.secret_plans"}},
		{"question": "plans", "scope": "div_02"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "describe_schema", Arguments: args})
		check("describe_schema "+mustJSON(args), res, "secret_plans", `\"div_02`, `"div_02`)
		check("describe_schema "+mustJSON(args), err)
	}
	for _, q := range []string{"how many plans are there", "secret plans kind label", "how many employees"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nl_query", Arguments: map[string]any{"question": q}})
		check("nl_query "+q, res, "secret plans")
		check("nl_query "+q, err)
	}
	if reqs := fake.Requests(); len(reqs) == 0 {
		t.Error("the model was never asked")
	} else {
		check("the prompts", reqs, "secret plans")
	}
	for _, sql := range []string{"SELECT count(*) FROM employees", "SELECT * FROM secret_plans", "SELECT kind FROM secret_plan"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_sql", Arguments: map[string]any{"sql": sql}})
		check("run_sql "+sql, res, sql, "secret_plans")
		check("run_sql "+sql, err)
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }
