package nl2sql_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// carsQuestion needs vehicles (odometer_km), which retrieval leaves out of
// its context: no word of it is a word of the table's name, columns or
// comments.
const carsQuestion = "What is the average mileage?"

// shows reports whether a model request's prompt shows table (its M-Schema
// section, schema omitted for the search path's).
func shows(r *llmfake.Request, table string) bool {
	for _, m := range r.Messages {
		if strings.Contains(m.Content, "# Table: "+table+"\n") || strings.Contains(m.Content, "# Table: "+table+",") {
			return true
		}
	}
	return false
}

// repairTurn reports whether a request is an LLM repair turn (base prompt,
// answer, delta).
func repairTurn(r *llmfake.Request) bool { return len(r.Messages) == 4 }

// assertAbsent fails the test unless table is absent from the question's
// context: the precondition of every backward recall test.
func assertAbsent(t *testing.T, eng *nl2sql.Engine, question, table string, opts ...nl2sql.AskOption) {
	t.Helper()
	c, err := eng.SchemaContext(context.Background(), question, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range c.Tables {
		if h.Name == table {
			t.Fatalf("precondition: %s is in the context of %q: %v", table, question, c.Tables)
		}
	}
	if shows(&llmfake.Request{Messages: []llmfake.Message{{Content: c.Prompt.User}}}, strings.TrimPrefix(table, "public.")) {
		t.Fatalf("precondition: the prompt of %q shows %s", question, table)
	}
}

// TestAskBackwardRecall: the model, not shown vehicles, reads it anyway
// with a column it guessed (42703, which no deterministic fix explains);
// backward recall adds vehicles to the context, rebuilds the prompt and
// samples again, and the model, shown the table, writes the right query.
func TestAskBackwardRecall(t *testing.T) {
	const guessed = "SELECT round(avg(v.mileage), 1) AS avg_mileage FROM vehicles v"
	const right = "SELECT round(avg(v.odometer_km), 1) AS avg_mileage FROM vehicles v"
	rec := &stageRecorder{}
	eng, srv := engine(t, func(_ int, r *llmfake.Request) llmfake.Reply {
		if shows(r, "vehicles") {
			return fenced(right)
		}
		return fenced(guessed)
	}, nl2sql.WithK(1, 1, 1), nl2sql.WithTracer(rec))
	ctx := context.Background()
	assertAbsent(t, eng, carsQuestion, "public.vehicles")

	res, err := eng.Ask(ctx, carsQuestion)
	if err != nil {
		t.Fatalf("%v\n%+v", err, res.Candidates)
	}
	// The rows are those of a query written by hand.
	gold, err := eng.Run(ctx, "SELECT round(sum(odometer_km)::numeric / count(*), 1) FROM public.vehicles")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 || fmt.Sprint(res.Rows) != fmt.Sprint(gold.Rows) {
		t.Errorf("rows %v, want %v", res.Rows, gold.Rows)
	}
	if res.SQL != right {
		t.Errorf("sql %q", res.SQL)
	}
	// One sample without vehicles, one with it; no repair turn.
	reqs := srv.Requests()
	if len(reqs) != 2 || res.Attempts != 2 || shows(&reqs[0], "vehicles") || !shows(&reqs[1], "vehicles") {
		t.Errorf("model calls %d, attempts %d", len(reqs), res.Attempts)
	}
	// The trace: the table closes the context list, the first candidate
	// failed on the guessed column, the re-sampled one was chosen.
	if n := len(res.Context); n < 2 || res.Context[n-1] != "public.vehicles" || slices.Index(res.Context, "public.vehicles") != n-1 {
		t.Errorf("context %v", res.Context)
	}
	if len(res.Candidates) != 2 || res.Candidates[0].Origin != "sample" || res.Candidates[0].Code != "42703" ||
		res.Candidates[1].Origin != "backward" || !res.Candidates[1].Chosen {
		t.Errorf("candidates %+v", res.Candidates)
	}
	if _, ok := res.Timings["backward"]; !ok {
		t.Errorf("no backward timing: %v", res.Timings)
	}
	// Each stage is reported as it ends: the precondition's SchemaContext
	// first, then Ask, whose backward recall links, plans and prompts the
	// wider context inside its own stage.
	want := []string{"retrieve", "link", "plan", "prompt", "retrieve", "link", "plan", "prompt", "generate", "validate",
		"link", "plan", "prompt", "backward", "repair", "score", "execute"}
	if strings.Join(rec.stages, ",") != strings.Join(want, ",") {
		t.Errorf("stages = %v", rec.stages)
	}
}

// TestAskBackwardRecallOnce: the re-sampled candidate fails on yet another
// table the context lacks; there is no second round, and the repair turn
// that follows is asked with the rebuilt prompt.
func TestAskBackwardRecallOnce(t *testing.T) {
	eng, srv := engine(t, func(_ int, r *llmfake.Request) llmfake.Reply {
		if shows(r, "vehicles") {
			return fenced("SELECT round(avg(fa.mileage), 1) FROM fixed_assets fa")
		}
		return fenced("SELECT round(avg(v.mileage), 1) FROM vehicles v")
	}, nl2sql.WithK(1, 1, 1), nl2sql.WithRepairAttempts(1))
	assertAbsent(t, eng, carsQuestion, "public.vehicles")
	assertAbsent(t, eng, carsQuestion, "public.fixed_assets")

	res, err := eng.Ask(context.Background(), carsQuestion)
	if !errors.Is(err, nl2sql.ErrColumnMiss) {
		t.Fatalf("err = %v\n%+v", err, res.Candidates)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || res.Attempts != 3 || !repairTurn(&reqs[2]) || !shows(&reqs[2], "vehicles") || shows(&reqs[2], "fixed_assets") {
		t.Errorf("model calls %d, attempts %d", len(reqs), res.Attempts)
	}
	if !contains(res.Context, "public.vehicles") || contains(res.Context, "public.fixed_assets") {
		t.Errorf("context %v", res.Context)
	}
	var origins []string
	for _, c := range res.Candidates {
		origins = append(origins, string(c.Origin))
	}
	if strings.Join(origins, ",") != "sample,backward,repair_prompt" {
		t.Errorf("origins %v", origins)
	}
}

// TestAskNoBackwardRecall: failures that are not about a table of the scope
// missing from the context start no backward round.
func TestAskNoBackwardRecall(t *testing.T) {
	for _, c := range []struct{ name, sql string }{
		// A table that exists nowhere (V012; the table-name correction
		// finds nothing close).
		{"nonexistent table", "SELECT round(avg(mileage), 1) FROM zz_company_fleet_xyz"},
		// A column missing from a table of the context (42703).
		{"column of a context table", "SELECT round(avg(el.mileage), 1) FROM expense_lines el"},
		// The right table, missing no column, but another failure (42883).
		{"other failure", "SELECT avg(v.make) FROM vehicles v"},
	} {
		t.Run(c.name, func(t *testing.T) {
			eng, srv := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced(c.sql) },
				nl2sql.WithK(1, 1, 1), nl2sql.WithRepairAttempts(0))
			assertAbsent(t, eng, carsQuestion, "public.vehicles")
			res, err := eng.Ask(context.Background(), carsQuestion)
			if err == nil {
				t.Fatalf("answered: %s", res.SQL)
			}
			if _, ok := res.Timings["backward"]; ok || len(srv.Requests()) != 1 || res.Attempts != 1 {
				t.Errorf("backward round: timings %v, model calls %d\n%+v", res.Timings, len(srv.Requests()), res.Candidates)
			}
			if contains(res.Context, "public.vehicles") || len(res.Candidates) != 1 {
				t.Errorf("context %v candidates %+v", res.Context, res.Candidates)
			}
		})
	}
}

// TestAskBackwardRecallScope: in a division's scope, a query over the
// division's own vehicles (written unqualified) is recalled to its
// division's table; one over another division's is refused and recalls
// nothing: a tenant never gets another tenant's table into its context.
func TestAskBackwardRecallScope(t *testing.T) {
	pool := pgtest.Pool(t, erptest.Divisions(t, 2))
	ask := func(t *testing.T, sql string) (*nl2sql.Result, error, int) {
		t.Helper()
		srv := llmfake.New(t, func(_ int, r *llmfake.Request) llmfake.Reply {
			if shows(r, "vehicles") {
				return fenced("SELECT round(avg(odometer_km), 1) FROM vehicles")
			}
			return fenced(sql)
		})
		model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
		eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithK(1, 1, 1), nl2sql.WithRepairAttempts(0),
			nl2sql.WithScope("div_02"))
		if err != nil {
			t.Fatal(err)
		}
		assertAbsent(t, eng, carsQuestion, "div_02.vehicles")
		res, err := eng.Ask(context.Background(), carsQuestion)
		for _, tb := range append(append([]string(nil), res.Context...), res.Tables...) {
			if strings.HasPrefix(tb, "div_01.") {
				t.Errorf("scope leak: %s", tb)
			}
		}
		for _, r := range srv.Requests() {
			for _, m := range r.Messages {
				if strings.Contains(m.Content, "div_01") {
					t.Errorf("another division shown to the model:\n%s", m.Content)
				}
			}
		}
		return res, err, len(srv.Requests())
	}

	t.Run("own division", func(t *testing.T) {
		res, err, calls := ask(t, "SELECT round(avg(v.mileage), 1) FROM vehicles v")
		if err != nil {
			t.Fatalf("%v\n%+v", err, res.Candidates)
		}
		if calls != 2 || !contains(res.Context, "div_02.vehicles") || !contains(res.Tables, "div_02.vehicles") {
			t.Errorf("calls %d context %v tables %v", calls, res.Context, res.Tables)
		}
	})
	for _, sql := range []string{
		"SELECT round(avg(v.mileage), 1) FROM div_01.vehicles v",
		"SELECT round(avg(v.odometer_km), 1) FROM div_01.vehicles v",
		"SELECT round(avg(div_01.vehicles.mileage), 1) FROM div_02.expense_lines",
	} {
		t.Run(sql, func(t *testing.T) {
			res, err, calls := ask(t, sql)
			if err == nil {
				t.Fatalf("answered: %s", res.SQL)
			}
			if _, ok := res.Timings["backward"]; ok || calls != 1 || len(res.Candidates) != 1 {
				t.Errorf("backward round: calls %d, candidates %+v", calls, res.Candidates)
			}
			if contains(res.Context, "div_02.vehicles") {
				t.Errorf("context %v", res.Context)
			}
		})
	}
}
