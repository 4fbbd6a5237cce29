package nl2sql_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// teach gives an engine one piece of each kind of knowledge, checking the
// refusals on the way, and returns what it learnt.
func teach(t *testing.T, eng *nl2sql.Engine) []nl2sql.Knowledge {
	t.Helper()
	ctx := context.Background()
	var out []nl2sql.Knowledge
	for _, k := range []nl2sql.Knowledge{
		nl2sql.Example("How many projects are there?", "SELECT count(*) FROM projects"),
		{Kind: nl2sql.KnowledgeDoc, Table: "projects", Text: "A project with status 'On Hold' still counts as open."},
		{Kind: nl2sql.KnowledgeDoc, Text: "Fiscal years start on the first of April."},
		{Kind: nl2sql.KnowledgeTerm, Term: "crew", Targets: []string{"employees"}},
	} {
		got, err := eng.Learn(ctx, k)
		if err != nil {
			t.Fatalf("learn %+v: %v", k, err)
		}
		again, err := eng.Learn(ctx, k)
		if err != nil || again.ID != got.ID {
			t.Fatalf("learning %+v twice: %v, IDs %q and %q", k, err, got.ID, again.ID)
		}
		out = append(out, got)
	}
	for _, c := range []struct {
		k    nl2sql.Knowledge
		want error
		says string
	}{
		{nl2sql.Example("How many?", "SELECT count(*) FROM projcts"), nl2sql.ErrInvalid, "projcts"},
		{nl2sql.Example("Wipe them", "DELETE FROM projects"), nl2sql.ErrUnsafe, "V004"},
		{nl2sql.Example("Bad column", "SELECT nope FROM projects"), nl2sql.ErrInvalid, "nope"},
		{nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Table: "nosuch", Text: "x"}, nl2sql.ErrInvalid, "nosuch"},
		{nl2sql.Knowledge{Kind: nl2sql.KnowledgeTerm, Term: "crew", Targets: []string{"employees.nosuch"}}, nl2sql.ErrInvalid, "employees.nosuch"},
	} {
		if _, err := eng.Learn(ctx, c.k); !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("learn %+v: %v, want %v saying %q", c.k, err, c.want, c.says)
		}
	}
	return out
}

// recorder is a fake model that remembers the prompts it was sent.
type recorder struct {
	mu      sync.Mutex
	prompts []string
}

func (r *recorder) model(t *testing.T) llm.Model {
	srv := llmfake.New(t, func(_ int, req *llmfake.Request) llmfake.Reply {
		r.mu.Lock()
		r.prompts = append(r.prompts, req.Last())
		r.mu.Unlock()
		return fenced("SELECT count(*) FROM projects")
	})
	return openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
}

func (r *recorder) last() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.prompts[len(r.prompts)-1]
}

// uses checks that a restarted engine knows and uses what was taught: the
// list, the example as few-shot, the table's doc in the prompt, the term in
// retrieval; and that Forget removes it.
func uses(t *testing.T, eng *nl2sql.Engine, rec *recorder, taught []nl2sql.Knowledge) {
	t.Helper()
	ctx := context.Background()
	list, err := eng.Knowledge(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(ks []nl2sql.Knowledge) []string {
		var s []string
		for _, k := range ks {
			s = append(s, k.ID)
		}
		slices.Sort(s)
		return s
	}
	if !slices.Equal(ids(list), ids(taught)) {
		t.Fatalf("after the restart the engine knows %+v, want %+v", list, taught)
	}
	if _, err := eng.Ask(ctx, "How many projects do we have?"); err != nil {
		t.Fatal(err)
	}
	p := rec.last()
	if !strings.Contains(p, "SQL: SELECT count(*) FROM projects") || !strings.Contains(p, "On Hold' still counts as open") {
		t.Errorf("the prompt lacks the example or the doc:\n%s", p)
	}
	c, err := eng.SchemaContext(ctx, "How big is the crew?")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(c.Tables, func(h retrieve.TableHit) bool { return h.Name == "public.employees" }) {
		t.Errorf("the term did not bring its table: %+v", c.Tables)
	}
	if err := eng.Forget(ctx, taught[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Ask(ctx, "How many projects do we have?"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(rec.last(), "【Examples】") {
		t.Errorf("a forgotten example is still shown:\n%s", rec.last())
	}
	if err := eng.Forget(ctx, taught[0].ID); !errors.Is(err, nl2sql.ErrInput) {
		t.Errorf("forgetting twice: %v", err)
	}
}

// TestKnowledgeSurvivesRestartMemory: knowledge saved with the index file
// comes back with LoadIndex.
func TestKnowledgeSurvivesRestartMemory(t *testing.T) {
	pool := pgtest.Pool(t, erptest.Single(t))
	rec := &recorder{}
	model := rec.model(t)
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithModules(erp.Modules()), nl2sql.WithK(1, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	taught := teach(t, eng)
	// A refresh (re-index) keeps it.
	if err := eng.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if list, _ := eng.Knowledge(context.Background()); len(list) != len(taught) {
		t.Fatalf("after Refresh: %+v", list)
	}
	var buf bytes.Buffer
	if err := eng.SaveIndex(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	opts, err := nl2sql.LoadIndex(&buf)
	if err != nil {
		t.Fatal(err)
	}
	restarted, err := nl2sql.New(pool, append(opts, nl2sql.WithLLM(model), nl2sql.WithModules(erp.Modules()), nl2sql.WithK(1, 1, 1))...)
	if err != nil {
		t.Fatal(err)
	}
	uses(t, restarted, rec, taught)
}

// TestKnowledgeSurvivesRestartPGVector: knowledge in a pgvector store is
// there for the next engine on the same store.
func TestKnowledgeSurvivesRestartPGVector(t *testing.T) {
	erpDSN := erptest.Single(t)
	for _, srv := range pgtest.PGVectorServers(t) {
		t.Run(srv.Name, func(t *testing.T) {
			ctx := context.Background()
			vpool := pgtest.Pool(t, srv.DSN)
			schemaName := "nl2sql_knowledge_" + srv.Name
			t.Cleanup(func() { vpool.Exec(context.Background(), `DROP SCHEMA IF EXISTS "`+schemaName+`" CASCADE`) })
			open := func() *nl2sql.Engine {
				store, err := retrieve.NewPGVectorStore(ctx, vpool, 64, retrieve.WithStoreSchema(schemaName))
				if err != nil {
					t.Fatal(err)
				}
				rec := &recorder{}
				eng, err := nl2sql.New(pgtest.Pool(t, erpDSN), nl2sql.WithLLM(rec.model(t)), nl2sql.WithStore(store),
					nl2sql.WithEmbedder(retrieve.NewHashEmbedder(64)), nl2sql.WithModules(erp.Modules()), nl2sql.WithK(1, 1, 1))
				if err != nil {
					t.Fatal(err)
				}
				engRecorders[eng] = rec
				return eng
			}
			taught := teach(t, open())
			restarted := open()
			uses(t, restarted, engRecorders[restarted], taught)
		})
	}
}

var engRecorders = map[*nl2sql.Engine]*recorder{}

// TestLearnInScope: Learn checks knowledge in the request's scope: an
// answer given under a division's scope is confirmed there, and SQL
// reading another division is refused in it.
func TestLearnInScope(t *testing.T) {
	eng, err := nl2sql.New(pgtest.Pool(t, erptest.Divisions(t, 2)), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := eng.Learn(ctx, nl2sql.Example("How many employees?", "SELECT count(*) FROM employees e JOIN departments d ON d.dept_id = e.dept_id"), nl2sql.Scope("div_01")); err != nil {
		t.Errorf("an answer of div_01, confirmed in div_01: %v", err)
	}
	if _, err := eng.Learn(ctx, nl2sql.Example("How many employees?", "SELECT count(*) FROM div_02.employees"), nl2sql.Scope("div_01")); !errors.Is(err, nl2sql.ErrUnsafe) {
		t.Errorf("another division's table under Scope(div_01): %v, want ErrUnsafe", err)
	}
	if _, err := eng.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Table: "div_02.employees", Text: "x"}, nl2sql.Scope("div_01")); !errors.Is(err, nl2sql.ErrInvalid) {
		t.Errorf("a doc of another division's table under Scope(div_01): %v, want ErrInvalid", err)
	}
	if _, err := eng.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Table: "employees", Text: "x"}, nl2sql.Scope("div_01")); err != nil {
		t.Errorf("a doc of the division's own table: %v", err)
	}
	if _, err := eng.Learn(ctx, nl2sql.Example("How many employees?", "SELECT count(*) FROM employees"), nl2sql.Scope("nope")); !errors.Is(err, nl2sql.ErrConfig) {
		t.Errorf("unknown scope: %v", err)
	}
}

// TestFreeDocsMatchTheQuestion: a doc tied to no table goes into the prompt
// of a question sharing two of its words, not of one sharing one, and no
// longer once forgotten.
func TestFreeDocsMatchTheQuestion(t *testing.T) {
	eng, err := nl2sql.New(pgtest.Pool(t, erptest.Single(t)), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	doc, err := eng.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Text: "Fiscal years start on the first of April."})
	if err != nil {
		t.Fatal(err)
	}
	shown := func(question string) bool {
		t.Helper()
		c, err := eng.SchemaContext(ctx, question)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Contains(c.Prompt.User, "Fiscal years start on the first of April.")
	}
	if !shown("How many projects started in the current fiscal year?") {
		t.Error("a question sharing two words (fiscal, year) lacks the doc")
	}
	if shown("How many projects are there this year?") {
		t.Error("a question sharing one word (year) got the doc")
	}
	if err := eng.Forget(ctx, doc.ID); err != nil {
		t.Fatal(err)
	}
	if shown("How many projects started in the current fiscal year?") {
		t.Error("a forgotten doc is still shown")
	}
}

// TestTermAppliesAtOnce: a learnt term brings its table to the very next
// question (before, only after the next Prepare or Refresh), and forgetting
// it takes it away again.
func TestTermAppliesAtOnce(t *testing.T) {
	eng, err := nl2sql.New(pgtest.Pool(t, erptest.Single(t)), nl2sql.WithValueIndex(false), nl2sql.WithModules(erp.Modules()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const question = "How many wombats do we have?"
	brings := func() bool {
		t.Helper()
		c, err := eng.SchemaContext(ctx, question)
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(c.Tables, func(h retrieve.TableHit) bool { return h.Name == "public.employees" })
	}
	if brings() {
		t.Fatal("test data: the question brings employees without the term")
	}
	start := time.Now()
	term, err := eng.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeTerm, Term: "wombats", Targets: []string{"employees"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("learning the term took %v (the schema index rebuilt)", time.Since(start))
	if !brings() {
		t.Error("the term learnt does not bring employees to the next question")
	}
	if err := eng.Forget(ctx, term.ID); err != nil {
		t.Fatal(err)
	}
	if brings() {
		t.Error("the term forgotten still brings employees")
	}
}
