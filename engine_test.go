package nl2sql_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// engine returns an Engine over a fresh copy of the demo ERP whose model is
// an OpenAI-compatible httptest server answering with script.
func engine(t *testing.T, script llmfake.Script, opts ...nl2sql.Option) (*nl2sql.Engine, *llmfake.Server) {
	t.Helper()
	srv := llmfake.New(t, script)
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	return preparedERP(t, model, opts...), srv
}

// preparedERP returns a prepared Engine over a fresh copy of the demo ERP
// whose model is model.
func preparedERP(t *testing.T, model nl2sql.LLM, opts ...nl2sql.Option) *nl2sql.Engine {
	t.Helper()
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

func fenced(sql string) llmfake.Reply { return llmfake.Reply{Content: "```sql\n" + sql + "\n```"} }

func TestAskSuccess(t *testing.T) {
	const gold = "SELECT count(*) AS active_employees FROM employees WHERE status = 'Active'"
	eng, srv := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced(gold) })
	res, err := eng.Ask(context.Background(), "How many employees are currently active?", nl2sql.Evidence("active means status = 'Active'"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 || len(res.Columns) != 1 || res.Columns[0].Name != "active_employees" {
		t.Fatalf("result = %+v", res)
	}
	if n, ok := res.Rows[0][0].(int64); !ok || n <= 0 {
		t.Errorf("count = %#v", res.Rows[0][0])
	}
	// The row cap is applied when the query runs, and reported beside it.
	if res.SQL != gold || res.RowCap != 1000 || len(res.Tables) != 1 || res.Tables[0] != "public.employees" {
		t.Errorf("sql %q tables %v", res.SQL, res.Tables)
	}
	if res.Attempts < 1 || res.Confidence <= 0 || len(res.Candidates) != 1 || !res.Candidates[0].Chosen {
		t.Errorf("trace: attempts %d confidence %v candidates %+v", res.Attempts, res.Confidence, res.Candidates)
	}
	for _, stage := range []string{"retrieve", "link", "plan", "prompt", "generate", "validate", "execute", "total"} {
		if _, ok := res.Timings[stage]; !ok {
			t.Errorf("no timing for %s", stage)
		}
	}
	if !contains(res.Context, "public.employees") {
		t.Errorf("context %v lacks employees", res.Context)
	}
	// The prompt holds the question verbatim and the schema context.
	req := srv.Requests()[0]
	if !strings.Contains(req.Last(), "How many employees are currently active?") || !strings.Contains(req.Last(), "# Table: employees") {
		t.Errorf("prompt:\n%s", req.Last())
	}
	if _, err := json.Marshal(res); err != nil {
		t.Errorf("result does not marshal: %v", err)
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestAskDeterministicRepair(t *testing.T) {
	// MySQL dialect plus a misspelt column: Normalize fixes the backticks and
	// IFNULL, the 42703 fix corrects the column; no repair prompt is sent.
	eng, srv := engine(t, func(int, *llmfake.Request) llmfake.Reply {
		return fenced("SELECT `dept_name`, IFNULL(count(e.emp_id), 0) AS n FROM departments d JOIN employees e ON e.dept_id = d.dept_id WHERE e.statuss = 'Active' GROUP BY dept_name")
	}, nl2sql.WithK(1, 1, 1))
	res, err := eng.Ask(context.Background(), "How many active employees does each department have?")
	if err != nil {
		t.Fatalf("%v\n%+v", err, res.Candidates)
	}
	if len(res.Rows) == 0 || len(srv.Requests()) != 1 {
		t.Errorf("rows %d, model calls %d", len(res.Rows), len(srv.Requests()))
	}
	rules := strings.Join(res.Candidates[0].Repairs, ",")
	if !strings.Contains(rules, "backtick") || !strings.Contains(rules, "42703") {
		t.Errorf("repairs = %s", rules)
	}
}

func TestAskRepairPrompt(t *testing.T) {
	var turns atomic.Int32
	eng, srv := engine(t, func(n int, r *llmfake.Request) llmfake.Reply {
		if len(r.Messages) == 4 { // the repair turn: base prompt + answer + delta
			turns.Add(1)
			return fenced("SELECT count(*) FROM fixed_assets")
		}
		return fenced("SELECT count(*) FROM fixed_assets WHERE zz_nonexistent_flag_xyz > 0")
	})
	res, err := eng.Ask(context.Background(), "How many fixed assets do we have?")
	if err != nil {
		t.Fatalf("%v\n%+v", err, res.Candidates)
	}
	if turns.Load() != 1 || len(res.Candidates) != 2 || res.Candidates[1].Origin != "repair_prompt" || !res.Candidates[1].Chosen {
		t.Errorf("turns %d candidates %+v", turns.Load(), res.Candidates)
	}
	delta := srv.Requests()[len(srv.Requests())-1].Last()
	if !strings.Contains(delta, "42703") || !strings.Contains(delta, "zz_nonexistent_flag_xyz") {
		t.Errorf("repair delta:\n%s", delta)
	}
}

func TestAskUnsafeRejected(t *testing.T) {
	eng, _ := engine(t, func(n int, r *llmfake.Request) llmfake.Reply {
		if n%2 == 0 {
			return fenced("SELECT pg_sleep(30)")
		}
		return fenced("WITH gone AS (DELETE FROM employees RETURNING *) SELECT count(*) FROM gone")
	}, nl2sql.WithK(2, 2, 2))
	// The question names the schema (employees): "Sleep for a while"
	// alone names nothing since "while" is a stopword, and retrieval
	// stops it before the model.
	res, err := eng.Ask(context.Background(), "Sleep for a while, then count the employees")
	var ne *nl2sql.Error
	if !errors.Is(err, nl2sql.ErrUnsafe) || !errors.As(err, &ne) || ne.Class != nl2sql.ClassUnsafe {
		t.Fatalf("err = %v", err)
	}
	if res.Error == nil || res.Error.Class != "rejected_unsafe" || res.Rows != nil {
		t.Errorf("result = %+v", res)
	}
	for _, c := range res.Candidates {
		if c.Status != "rejected" || c.Code == "" {
			t.Errorf("candidate %+v", c)
		}
	}
}

func TestAskAllCandidatesFail(t *testing.T) {
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply {
		return fenced("SELECT frobnicate_quux FROM employees")
	}, nl2sql.WithRepairAttempts(1), nl2sql.WithK(1, 1, 1))
	res, err := eng.Ask(context.Background(), "What is the frobnication of employees?")
	if !errors.Is(err, nl2sql.ErrColumnMiss) {
		t.Fatalf("err = %v", err)
	}
	if res.Attempts != 2 || res.Error.Code != "42703" {
		t.Errorf("attempts %d error %+v", res.Attempts, res.Error)
	}

	noSQL, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply { return llmfake.Reply{Content: "I cannot answer that."} })
	if _, err := noSQL.Ask(context.Background(), "What is the meaning of life?"); !errors.Is(err, nl2sql.ErrNoAnswer) {
		t.Errorf("no SQL: %v", err)
	}
	down, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Status: 500, Body: `{"error":{"message":"down","type":"server_error"}}`}
	})
	if _, err := down.Ask(context.Background(), "How many employees?"); !errors.Is(err, nl2sql.ErrLLM) {
		t.Errorf("server down: %v", err)
	}
}

func TestAskAbstain(t *testing.T) {
	// Three samples that disagree and lack the COUNT a "how many" question
	// needs: low confidence.
	script := func(n int, r *llmfake.Request) llmfake.Reply {
		return fenced(map[float64]string{0: "SELECT emp_id FROM employees", 0.3: "SELECT first_name FROM employees", 0.5: "SELECT last_name FROM employees"}[*r.Temperature])
	}
	eng, _ := engine(t, script, nl2sql.WithK(3, 3, 3), nl2sql.WithAbstainBelow(0.6))
	res, err := eng.Ask(context.Background(), "How many employees?")
	if !errors.Is(err, nl2sql.ErrNoAnswer) || res.SQL == "" || res.Rows != nil || res.Confidence >= 0.6 {
		t.Errorf("abstain: err %v, sql %q, rows %d, confidence %v", err, res.SQL, len(res.Rows), res.Confidence)
	}
	// The same answer runs when the caller accepts lower confidence.
	res, err = eng.Ask(context.Background(), "How many employees?", nl2sql.AbstainBelow(0.1))
	if err != nil || len(res.Rows) == 0 {
		t.Errorf("no abstain: %v", err)
	}
}

func TestNewValidatesOptions(t *testing.T) {
	if _, err := nl2sql.New(nil); !errors.Is(err, nl2sql.ErrConfig) {
		t.Errorf("nil db: %v", err)
	}
	if _, err := nl2sql.New(pgtest.NewPool(t), nl2sql.WithK(0, 1, 1)); !errors.Is(err, nl2sql.ErrConfig) {
		t.Errorf("K=0: %v", err)
	}
	eng, _ := nl2sql.New(pgtest.NewPool(t))
	if _, err := eng.Ask(context.Background(), "How many customers are there?"); !errors.Is(err, nl2sql.ErrConfig) {
		t.Errorf("no LLM: %v", err)
	}
}

type stageRecorder struct {
	mu     sync.Mutex
	stages []string
}

func (r *stageRecorder) Stage(_ context.Context, stage nl2sql.Stage, _ time.Duration, _ error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stages = append(r.stages, string(stage))
}

// TestAskResultVotingAndTracer: two differently written candidates return
// the same rows, a third does not; execution-result agreement picks one of
// the two even though the odd one was sampled first. The tracer sees every
// stage in order.
func TestAskResultVotingAndTracer(t *testing.T) {
	script := func(n int, r *llmfake.Request) llmfake.Reply {
		return fenced(map[float64]string{
			0:   "SELECT count(*) FROM employees WHERE hire_date < DATE '2020-01-01'",
			0.3: "SELECT count(*) FROM employees",
			0.5: "SELECT count(emp_id) FROM employees",
		}[*r.Temperature])
	}
	rec := &stageRecorder{}
	eng, _ := engine(t, script, nl2sql.WithK(3, 3, 3), nl2sql.WithTracer(rec))
	res, err := eng.Ask(context.Background(), "Count the employees")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.SQL, "hire_date") {
		t.Errorf("the odd candidate won: %s\n%+v", res.SQL, res.Candidates)
	}
	want := []string{"retrieve", "link", "plan", "prompt", "generate", "validate", "repair", "score", "execute"}
	if strings.Join(rec.stages, ",") != strings.Join(want, ",") {
		t.Errorf("stages = %v", rec.stages)
	}
}

func TestLearnFeedsFewShotExamples(t *testing.T) {
	eng, srv := engine(t, func(int, *llmfake.Request) llmfake.Reply {
		return fenced("SELECT count(*) FROM projects")
	}, nl2sql.WithK(1, 1, 1))
	ctx := context.Background()
	if _, err := eng.Learn(ctx, nl2sql.Example("How many projects are there?", "SELECT count(*) FROM projects")); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Learn(ctx, nl2sql.Example("Wipe them", "DELETE FROM projects")); !errors.Is(err, nl2sql.ErrUnsafe) {
		t.Errorf("unsafe example accepted: %v", err)
	}
	if _, err := eng.Learn(ctx, nl2sql.Example("Bad column", "SELECT nope FROM projects")); err == nil {
		t.Error("example that does not plan accepted")
	}
	if _, err := eng.Ask(ctx, "How many projects do we run?"); err != nil {
		t.Fatal(err)
	}
	if p := srv.Requests()[0].Last(); !strings.Contains(p, "【Examples】") || !strings.Contains(p, "Question: How many projects are there?") {
		t.Errorf("few-shot example not in the prompt:\n%s", p)
	}
}

func TestRun(t *testing.T) {
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply { return llmfake.Reply{Content: "unused"} })
	ctx := context.Background()
	res, err := eng.Run(ctx, "SELECT emp_id FROM employees ORDER BY emp_id", nl2sql.MaxRows(5))
	if err != nil || len(res.Rows) != 5 || !res.Truncated || res.RowCap != 5 {
		t.Fatalf("run: %v %+v", err, res)
	}
	// The cap is applied when the query runs, never written into the SQL
	// shown to the caller.
	if res.SQL != "SELECT emp_id FROM employees ORDER BY emp_id" {
		t.Errorf("run SQL = %q, want the query as written", res.SQL)
	}
	if _, err := eng.Run(ctx, "SELECT pg_sleep(1)"); !errors.Is(err, nl2sql.ErrUnsafe) {
		t.Errorf("unsafe run: %v", err)
	}
	if _, err := eng.Run(ctx, "SELECT nope FROM employees"); !errors.Is(err, nl2sql.ErrExecution) {
		t.Errorf("failing run: %v", err)
	}
}

func TestAskFailureClasses(t *testing.T) {
	for _, c := range []struct {
		sql  string
		want error
	}{
		// (An alias of a real table, d.dept_name, is repaired by adding the
		// join; an alias nothing explains is not.)
		{"SELECT count(*) FROM employees e WHERE qq.zz_region_label = 'Finance'", nl2sql.ErrJoinPathMiss},
		{"SELECT count(*) FROM staff_members_table_xyz", nl2sql.ErrRetrievalMiss},
	} {
		eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced(c.sql) }, nl2sql.WithK(1, 1, 1), nl2sql.WithRepairAttempts(0))
		res, err := eng.Ask(context.Background(), "How many employees work in Finance?")
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v (%+v)", c.sql, err, res.Candidates)
		}
	}
}

// TestAskInDivisionScope: a scoped engine plans and runs unqualified SQL
// against the division's tables (search_path pinned for EXPLAIN and
// execution alike), and sees nothing of other divisions.
func TestAskInDivisionScope(t *testing.T) {
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return fenced("SELECT count(*) FROM employees e JOIN departments d ON d.dept_id = e.dept_id")
	})
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"))
	pool := pgtest.Pool(t, erptest.Divisions(t, 2))
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithK(1, 1, 1), nl2sql.WithScope("div_02"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Ask(context.Background(), "How many employees have a department?")
	if err != nil {
		t.Fatalf("%v\n%+v", err, res.Candidates)
	}
	for _, tb := range append(res.Tables, res.Context...) {
		if strings.HasPrefix(tb, "div_01.") {
			t.Errorf("scope leak: %s", tb)
		}
	}
	if !contains(res.Tables, "div_02.employees") {
		t.Errorf("tables = %v", res.Tables)
	}
	if _, err := eng.Run(context.Background(), "SELECT count(*) FROM div_01.employees"); !errors.Is(err, nl2sql.ErrUnsafe) {
		t.Errorf("another division's table must be refused: %v", err)
	}
	// A history whose SQL reads another division brings none of its tables.
	c, err := eng.SchemaContext(context.Background(), "And what about 2019?",
		nl2sql.History(nl2sql.Turn{Question: "How many employees?", SQL: "SELECT count(*) FROM div_01.employees"}))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range c.Tables {
		if strings.HasPrefix(h.Name, "div_01.") {
			t.Errorf("history leaked %s into the context", h.Name)
		}
	}
	// Without a scope every schema is readable by qualified name.
	open, _ := nl2sql.New(pool, nl2sql.WithValueIndex(false))
	if res, err := open.Run(context.Background(), "SELECT count(*) FROM div_01.employees"); err != nil || len(res.Rows) != 1 {
		t.Errorf("unscoped engine: %v", err)
	}
	if res, err := open.Run(context.Background(), "SELECT count(*) FROM div_01.employees", nl2sql.Scope("div_02")); !errors.Is(err, nl2sql.ErrUnsafe) {
		t.Errorf("a per-request scope must restrict too: %v %v", err, res)
	}
}
