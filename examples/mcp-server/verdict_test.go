package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/scopetest"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

const (
	qTopCustomers = "Top 5 customers by revenue in 2024"
	qEachDept     = "How many employees are in each department?"
	qLatest       = "Which are the three latest orders?"
)

// splitModel answers the top customers with an employee count, the
// per-department count with SELECT 1, and the latest orders by order
// date at temperature 0 and by the SQL of ship when sampling.
func splitModel(t *testing.T, ship string) nl2sql.LLM {
	fake := llmfake.New(t, func(_ int, r *llmfake.Request) llmfake.Reply {
		sql := "SELECT so_id FROM sales_orders ORDER BY order_date DESC LIMIT 3"
		switch q := r.Last(); {
		case strings.Contains(q, qTopCustomers):
			sql = "SELECT count(*) AS employees FROM employees"
		case strings.Contains(q, qEachDept):
			sql = "SELECT 1"
		case r.Temperature != nil && *r.Temperature > 0:
			sql = ship
		}
		return llmfake.Reply{Content: "```sql\n" + sql + "\n```"}
	})
	return openai.New(openai.WithBaseURL(fake.BaseURL()), openai.WithModel("fake"), openai.WithAPIKey("test"))
}

const shipSQL = "SELECT so_id FROM sales_orders ORDER BY requested_ship_date DESC NULLS LAST LIMIT 3"

// TestNLQueryVerdicts: nl_query tells the host what the engine makes of
// its answer, in the structured content and in the text it reads: the
// employee count for the top customers is uncertain, its reasons name what
// the query reads and what the question asks, and the text says to show it
// as a guess and to ask the user; SELECT 1 below the server's minimum is
// abstained, not a tool error: no rows, the reasons, a question for the
// user.
func TestNLQueryVerdicts(t *testing.T) {
	dsn := erptest.Single(t)
	model := splitModel(t, shipSQL)
	cs := connect(t, NewServer(mustEngine(t, dsn, nl2sql.WithLLM(model)), Config{HasLLM: true}))
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "uncertain") || !strings.Contains(ins, "abstained") {
		t.Errorf("the instructions do not say what the statuses mean: %q", ins)
	}

	res := call(t, cs, "nl_query", map[string]any{"question": qTopCustomers})
	out := decode[NLQueryOutput](t, res)
	txt := text(res)
	t.Logf("uncertain: %s", txt)
	if out.Status != "uncertain" || len(out.Rows) != 1 || !slices.ContainsFunc(out.Reasons, func(r string) bool {
		return strings.Contains(r, "the query reads employees") && strings.Contains(r, "customers")
	}) {
		t.Errorf("status %q, %d rows, reasons %q", out.Status, len(out.Rows), out.Reasons)
	}
	for _, want := range []string{"confidence", ": uncertain.", "The answer is uncertain. Why:\n- the query reads employees", "as a guess", "Ask the user", "Rows:"} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q", want)
		}
	}

	strict := connect(t, NewServer(mustEngine(t, dsn, nl2sql.WithLLM(model), nl2sql.WithMinConfidence(0.5)), Config{HasLLM: true}))
	res = call(t, strict, "nl_query", map[string]any{"question": qEachDept})
	out = decode[NLQueryOutput](t, res) // fails the test on isError
	txt = text(res)
	t.Logf("abstained: %s", txt)
	if out.Status != "abstained" || len(out.Rows) != 0 || out.SQL != "SELECT 1" || !slices.ContainsFunc(out.Reasons, func(r string) bool { return strings.Contains(r, "reads no table") }) {
		t.Errorf("status %q, rows %v, sql %q, reasons %q", out.Status, out.Rows, out.SQL, out.Reasons)
	}
	for _, want := range []string{"No answer (abstained)", "was not run", "The engine abstained: no query was likely enough to be right. Why:\n- the query reads no table", "Ask the user", "The query it did not run: SELECT 1"} {
		if !strings.Contains(txt, want) {
			t.Errorf("abstained text lacks %q", want)
		}
	}
	if strings.Contains(txt, "Rows:") || strings.Contains(txt, "confirms this answer") {
		t.Errorf("abstained text shows rows or offers to confirm")
	}
}

// TestNLQueryAlternatives: when the samples split, an uncertain answer
// carries the other reading (its SQL, description, first rows, support,
// an answer id) and the clarifying question, in the structured content
// and the text; learn {id} of the alternative keeps it as the question's
// example. An abstention carries them too.
func TestNLQueryAlternatives(t *testing.T) {
	dsn := erptest.Single(t)
	model := splitModel(t, shipSQL)
	eng := mustEngine(t, dsn, nl2sql.WithLLM(model), nl2sql.WithK(2, 2, 2), nl2sql.WithUncertainBelow(1.01))
	cs := connect(t, NewServer(eng, Config{HasLLM: true}))
	res := call(t, cs, "nl_query", map[string]any{"question": qLatest})
	out := decode[NLQueryOutput](t, res)
	txt := text(res)
	t.Logf("alternatives: %s", txt)
	if out.Status != "uncertain" || len(out.Alternatives) != 1 {
		t.Fatalf("status %q, alternatives %+v", out.Status, out.Alternatives)
	}
	alt := out.Alternatives[0]
	if alt.SQL != shipSQL || alt.Description == "" || len(alt.Rows) != 3 || len(alt.Columns) != 1 || alt.Support != 0.5 || !strings.HasPrefix(alt.ID, "ans_") || alt.ID == out.ID {
		t.Errorf("alternative %+v", alt)
	}
	if !strings.Contains(out.Clarify, "order date") || !strings.Contains(out.Clarify, "requested ship date") {
		t.Errorf("clarify %q", out.Clarify)
	}
	for _, want := range []string{"Ask the user: " + out.Clarify, "1. " + alt.Description, "support 50%, id " + alt.ID, "SQL: " + shipSQL, "First rows: [", "learn with its id"} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	learnt := decode[LearnOutput](t, call(t, cs, "learn", map[string]any{"id": alt.ID}))
	ks, _ := eng.Knowledge(t.Context())
	if !slices.ContainsFunc(ks, func(k nl2sql.Knowledge) bool { return k.ID == learnt.ID && k.Question == qLatest && k.SQL == shipSQL }) {
		t.Errorf("learn %s: knowledge %+v", alt.ID, ks)
	}

	abstain := connect(t, NewServer(mustEngine(t, dsn, nl2sql.WithLLM(model), nl2sql.WithK(2, 2, 2), nl2sql.WithMinConfidence(0.99)), Config{HasLLM: true}))
	res = call(t, abstain, "nl_query", map[string]any{"question": qLatest})
	out = decode[NLQueryOutput](t, res)
	if out.Status != "abstained" || len(out.Rows) != 0 || len(out.Alternatives) != 1 || out.Alternatives[0].SQL != shipSQL || out.Clarify == "" ||
		!strings.Contains(text(res), "Ask the user: "+out.Clarify) {
		t.Errorf("abstained: status %q, %d rows, alternatives %+v, clarify %q", out.Status, len(out.Rows), out.Alternatives, out.Clarify)
	}
}

// TestNLQueryAlternativesBudget: alternatives whose first rows are large
// leave their rows out, say so, and the reply stays within its budget.
func TestNLQueryAlternativesBudget(t *testing.T) {
	dsn := erptest.Single(t)
	big := "SELECT so_id, repeat('<', 6000) AS pad FROM sales_orders ORDER BY requested_ship_date DESC NULLS LAST LIMIT 3"
	eng := mustEngine(t, dsn, nl2sql.WithLLM(splitModel(t, big)), nl2sql.WithK(2, 2, 2), nl2sql.WithUncertainBelow(1.01))
	const budget = 32 << 10
	cs := connect(t, NewServer(eng, Config{HasLLM: true, MaxReply: budget}))
	res := call(t, cs, "nl_query", map[string]any{"question": qLatest})
	out := decode[NLQueryOutput](t, res)
	b, _ := json.Marshal(res)
	if len(out.Alternatives) != 1 || len(out.Alternatives[0].Rows) != 0 || out.Alternatives[0].SQL != big || len(b) > budget ||
		!strings.Contains(strings.Join(out.Notes, " "), "alternatives' rows were left out") || len(out.Rows) != 3 {
		t.Errorf("reply of %d bytes (budget %d), %d rows, alternatives %d, notes %q", len(b), budget, len(out.Rows), len(out.Alternatives), out.Notes)
	}
}

// TestNLQueryScopeAlternatives: a server pinned to div_01 never offers an
// answer reading div_02's tables as an alternative, though the model
// writes one.
func TestNLQueryScopeAlternatives(t *testing.T) {
	fake := llmfake.New(t, func(n int, r *llmfake.Request) llmfake.Reply {
		sql := "SELECT count(*) AS n FROM employees"
		switch {
		case r.Temperature == nil || *r.Temperature == 0:
		case n%2 == 0:
			sql = `SELECT count(*) AS n FROM "DIV_02".secret_plans`
		default:
			sql = "SELECT count(*) AS n FROM departments"
		}
		return llmfake.Reply{Content: "```sql\n" + sql + "\n```"}
	})
	model := openai.New(openai.WithBaseURL(fake.BaseURL()), openai.WithModel("fake"), openai.WithAPIKey("test"))
	eng, _ := scopetest.Engine(t, nl2sql.WithLLM(model), nl2sql.WithK(4, 4, 4), nl2sql.WithUncertainBelow(1.01))
	cs := connect(t, NewServer(eng, Config{HasLLM: true, Scope: scopetest.Scope}))
	res := call(t, cs, "nl_query", map[string]any{"question": "How many employees are there?"})
	out := decode[NLQueryOutput](t, res)
	if !slices.ContainsFunc(out.Alternatives, func(a Alternative) bool { return strings.Contains(a.SQL, "departments") }) {
		t.Errorf("no in-scope alternative: %+v", out.Alternatives)
	}
	b, _ := json.Marshal(res)
	if leak := scopetest.Leak(string(b)); leak != "" {
		t.Errorf("the reply shows %s", leak)
	}
}

// TestFitAlternatives: the last alternative's rows go first, and only as
// many as the share of the budget needs.
func TestFitAlternatives(t *testing.T) {
	row := func(n int) [][]any { return [][]any{{strings.Repeat("x", n)}} }
	alts := []Alternative{{SQL: "a", Rows: row(100)}, {SQL: "b", Rows: row(3000)}}
	if notes := fitAlternatives(alts, 4<<10); len(notes) != 1 || len(alts[1].Rows) != 0 || len(alts[0].Rows) != 1 {
		t.Errorf("notes %q, rows %d and %d", notes, len(alts[0].Rows), len(alts[1].Rows))
	}
	alts = []Alternative{{SQL: "a", Rows: row(100)}}
	if notes := fitAlternatives(alts, 4<<10); notes != nil || len(alts[0].Rows) != 1 {
		t.Errorf("within the budget: notes %q, rows %d", notes, len(alts[0].Rows))
	}
}

// TestVerdictFlags: the built server started with --min-confidence
// abstains on SELECT 1 for a question about two tables (a result with
// status abstained, not a tool error); a threshold outside 0..1 is
// refused at start.
func TestVerdictFlags(t *testing.T) {
	for _, bad := range [][]string{{"--min-confidence", "1.5"}, {"--min-confidence", "-0.1"}, {"--uncertain-below", "-1"}} {
		if _, err := parseFlags(append([]string{"--dsn", "postgres://x/y"}, bad...), io.Discard); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	dsn := erptest.Single(t)
	fake := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply { return llmfake.Reply{Content: "```sql\nSELECT 1\n```"} })
	cmd := exec.Command(buildBinary(t), "--dsn", dsn, "--llm", "openai:fake", "--llm-url", fake.BaseURL(), "--min-confidence", "0.5")
	cmd.Env = append(os.Environ(), "OPENAI_API_KEY=test")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	out := decode[NLQueryOutput](t, call(t, cs, "nl_query", map[string]any{"question": qEachDept}))
	if out.Status != "abstained" || len(out.Rows) != 0 {
		t.Errorf("status %q, %d rows", out.Status, len(out.Rows))
	}
}
