package nl2sql_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/internal/scopetest"
	"github.com/nl2sqlgo/nl2sql/internal/sqlrefs"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// useModel is a small semantic model of the demo ERP: revenue excludes
// cancelled orders.
const useModel = `version: 1
entities:
  - name: sales_orders
    filters:
      - {name: not_cancelled_order, expr: status <> 'Cancelled'}
    measures:
      - name: revenue
        expr: total_amount
        agg: sum
        filter: not_cancelled_order
        synonyms: [turnover]
        description: Order revenue, cancelled orders excluded.
      - {name: order_count, agg: count, filter: not_cancelled_order}
  - name: customers
    dimensions:
      - {name: segment, synonyms: [customer segment]}
    filters:
      - {name: active_customer, expr: status = 'Active'}
metrics:
  - {name: average_order_value, type: ratio, numerator: revenue, denominator: order_count}
`

func loadUseModel(t *testing.T) *semantic.Model {
	t.Helper()
	m, err := semantic.Read(strings.NewReader(useModel), "use.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSemanticDefinitionsInPrompt: the prompt the model receives shows the
// definitions of exactly what the question names (a measure by its
// synonym, a dimension, a filter), as SQL to reuse, and the rule to compute
// them as defined; a question naming none gets no Definitions section.
func TestSemanticDefinitionsInPrompt(t *testing.T) {
	pgtest.SkipShort(t)
	var mu sync.Mutex
	var prompts []llmfake.Request
	eng, _ := engine(t, func(_ int, req *llmfake.Request) llmfake.Reply {
		mu.Lock()
		prompts = append(prompts, *req)
		mu.Unlock()
		return fenced("SELECT count(*) FROM employees")
	}, nl2sql.WithSemantic(loadUseModel(t)), nl2sql.WithK(1, 1, 1))
	ctx := context.Background()
	last := func() (string, string) {
		mu.Lock()
		defer mu.Unlock()
		r := prompts[len(prompts)-1]
		return r.Messages[0].Content, r.Last()
	}

	_, _ = eng.Ask(ctx, "What was the turnover of active customers per customer segment?")
	sys, user := last()
	for _, want := range []string{
		"【Definitions】\n",
		"measure revenue on public.sales_orders: sum(total_amount) FILTER (WHERE status <> 'Cancelled') -- Order revenue, cancelled orders excluded.\n",
		"filter active_customer on public.customers: status = 'Active'\n",
		"dimension segment on public.customers: segment\n",
	} {
		if !strings.Contains(user, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, user)
		}
	}
	if defs := section(user, "Definitions"); len(defs) != 3 {
		t.Errorf("the Definitions show %d lines, want the 3 the question names:\n%s", len(defs), strings.Join(defs, "\n"))
	}
	if !strings.Contains(sys, "exactly as defined") {
		t.Errorf("the rules do not ask for the definitions:\n%s", sys)
	}

	// The longest phrase wins: "average order value" is the metric, not
	// the measure inside it.
	sc, err := eng.SchemaContext(ctx, "What is the average order value?")
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Semantic) != 1 || sc.Semantic[0].Name != "average_order_value" || sc.Semantic[0].Kind != "metric" ||
		!strings.Contains(sc.Prompt.User, "metric average_order_value on public.sales_orders: sum(total_amount) FILTER (WHERE status <> 'Cancelled') / NULLIF(count(*) FILTER (WHERE status <> 'Cancelled'), 0)") {
		t.Errorf("links %+v, prompt:\n%s", sc.Semantic, sc.Prompt.User)
	}

	_, _ = eng.Ask(ctx, "How many employees are there?")
	sys, user = last()
	if strings.Contains(user, "Definitions") || strings.Contains(sys, "Definitions") {
		t.Errorf("a question naming no definition got some:\n%s\n%s", sys, user)
	}
}

// TestSemanticVocabularyRetrievesAndLinks: "turnover", a synonym of the
// revenue measure, retrieves the measure's table and links to the column it
// sums, which no word of the question names otherwise.
func TestSemanticVocabularyRetrievesAndLinks(t *testing.T) {
	pgtest.SkipShort(t)
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT 1") },
		nl2sql.WithSemantic(loadUseModel(t)))
	sc, err := eng.SchemaContext(context.Background(), "Our turnover last quarter")
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Tables) == 0 || sc.Tables[0].Name != "public.sales_orders" {
		t.Errorf("retrieved %v, want public.sales_orders first", sc.Tables)
	}
	linked := false
	for _, c := range sc.Links.Columns {
		linked = linked || c.Table == "public.sales_orders" && c.Column == "total_amount" && c.Phrase == "turnover"
	}
	if !linked {
		t.Errorf("turnover is not linked to sales_orders.total_amount: %+v", sc.Links.Columns)
	}
	if len(sc.Semantic) != 1 || sc.Semantic[0].Name != "revenue" || sc.Semantic[0].Phrase != "turnover" {
		t.Errorf("semantic links %+v", sc.Semantic)
	}
}

// The revenue of 2024 as the model ignoring the definition writes it, and
// as the definition says.
const (
	revenueIgnored = "SELECT sum(total_amount) AS revenue FROM sales_orders WHERE extract(year FROM order_date) = 2024"
	revenueDefined = "SELECT sum(o.total_amount) AS revenue FROM sales_orders o WHERE extract(year FROM o.order_date) = 2024 AND o.status <> 'Cancelled'"
)

// TestSemanticDeviationFlagged (issue 30's done-when): a model that
// ignores the measure's definition gets an answer flagged with a reason
// naming the measure, at most uncertain; when the samples include a
// candidate that follows the definition, it wins, though it has fewer
// votes, and it wins only because of the model (without it the majority
// does).
func TestSemanticDeviationFlagged(t *testing.T) {
	pgtest.SkipShort(t)
	const q = "What was the revenue in 2024?"
	const reason = "the query computes revenue without its filter status <> 'Cancelled'"
	ctx := context.Background()
	ignores := func(int, *llmfake.Request) llmfake.Reply { return fenced(revenueIgnored) }
	eng, _ := engine(t, ignores, nl2sql.WithSemantic(loadUseModel(t)), nl2sql.WithK(1, 1, 1))
	res, err := eng.Ask(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Reasons) == 0 || res.Reasons[0] != reason || res.Signals.Deviations != 1 {
		t.Errorf("reasons %q, signals %+v: want first %q", res.Reasons, res.Signals, reason)
	}
	if res.Confidence > 0.5 || res.Verdict == nl2sql.VerdictAnswered {
		t.Errorf("confidence %.2f, verdict %s: an answer against the definition is a guess at best", res.Confidence, res.Verdict)
	}

	// Two samples of three ignore the definition, one follows it.
	mixed := func(_ int, req *llmfake.Request) llmfake.Reply {
		if req.Temperature != nil && *req.Temperature == 0.3 {
			return fenced(revenueDefined)
		}
		return fenced(revenueIgnored)
	}
	for _, tc := range []struct {
		name string
		opts []nl2sql.Option
		want string
	}{
		{"with the model", []nl2sql.Option{nl2sql.WithSemantic(loadUseModel(t))}, revenueDefined},
		{"without", nil, revenueIgnored},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng, _ := engine(t, mixed, append(tc.opts, nl2sql.WithK(3, 3, 3))...)
			res, err := eng.Ask(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if res.SQL != tc.want {
				t.Errorf("chose %s\nwant %s", res.SQL, tc.want)
			}
			for _, r := range res.Reasons {
				if tc.want == revenueDefined && strings.Contains(r, "revenue") {
					t.Errorf("reason %q for a query computing revenue as defined", r)
				}
			}
		})
	}

	// Pick scores SQL written elsewhere the same way.
	pr, err := eng.Pick(ctx, q, []string{revenueIgnored, revenueIgnored, revenueDefined})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Chosen != 2 || *pr.Scores[0] >= *pr.Scores[2] {
		t.Errorf("Pick chose %d, scores %v", pr.Chosen, pr.Scores)
	}
}

// section returns the lines of a prompt section ("【title】" up to the
// blank line after it).
func section(prompt, title string) []string {
	_, rest, ok := strings.Cut(prompt, "【"+title+"】\n")
	if !ok {
		return nil
	}
	body, _, _ := strings.Cut(rest, "\n\n")
	return strings.Split(strings.TrimSuffix(body, "\n"), "\n")
}

// TestERPExamWithSemanticModel measures what the shipped model changes on
// the demo ERP exam, offline (no model: each question's gold query is
// picked): how many questions name a definition, whether retrieval still
// puts every table the gold query reads in the context, and which gold
// queries compute a measure their question names otherwise than the model
// defines it (none: the shipped model and the exam agree).
func TestERPExamWithSemanticModel(t *testing.T) {
	pgtest.SkipShort(t)
	exam, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	m, err := semantic.Load("examples/erp/semantic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pool := pgtest.Pool(t, erptest.Single(t))
	plain, err := nl2sql.New(pool, nl2sql.WithModules(erp.Modules()))
	if err != nil {
		t.Fatal(err)
	}
	withModel, err := nl2sql.New(pool, nl2sql.WithModules(erp.Modules()), nl2sql.WithSemantic(m))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cat, err := plain.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var naming, measures, recalled, recalledModel, deviating, defs int
	var confPlain, confModel float64
	var deviated []string
	for _, q := range exam {
		refs, err := sqlrefs.Extract(q.GoldSQL, cat, []string{"public"})
		if err != nil {
			t.Fatal(err)
		}
		recall := func(eng *nl2sql.Engine) (*nl2sql.SchemaContext, bool) {
			sc, err := eng.SchemaContext(ctx, q.Question, nl2sql.Evidence(q.Evidence))
			if err != nil {
				t.Fatal(err)
			}
			names := contextNames(sc)
			return sc, !slices.ContainsFunc(refs.Tables, func(tb string) bool { return !slices.Contains(names, tb) })
		}
		_, ok := recall(plain)
		sc, okModel := recall(withModel)

		recalled += b2i(ok)
		recalledModel += b2i(okModel)
		if ok && !okModel {
			t.Logf("%s: %q loses a gold table %v: context %v, links %+v", q.QID, q.Question, refs.Tables, contextNames(sc), sc.Semantic)
		}
		if len(sc.Semantic) > 0 {
			naming++
			defs += len(sc.Semantic)
		}
		for _, l := range sc.Semantic {
			measures += b2i(l.Kind == "measure")
		}
		pp, err := plain.Pick(ctx, q.Question, []string{q.GoldSQL}, nl2sql.Evidence(q.Evidence))
		if err != nil {
			t.Fatal(err)
		}
		pm, err := withModel.Pick(ctx, q.Question, []string{q.GoldSQL}, nl2sql.Evidence(q.Evidence))
		if err != nil {
			t.Fatal(err)
		}
		confPlain += pp.Confidence
		confModel += pm.Confidence
		if pm.Signals.Deviations > 0 {
			deviating++
			deviated = append(deviated, q.QID+": "+strings.Join(pm.Reasons[:pm.Signals.Deviations], "; "))
		}
	}
	n := float64(len(exam))
	t.Logf("demo ERP exam, %d questions: %d name %d definitions (%d measures); gold tables all in the context: %d without the model, %d with it; gold picks deviating from a named measure: %d; mean gold confidence %.3f without the model, %.3f with it",
		len(exam), naming, defs, measures, recalled, recalledModel, deviating, confPlain/n, confModel/n)
	for _, d := range deviated {
		t.Log(d)
	}
	// The model's words name their tables, which makes the match strong
	// and the context tighter: co-05 ("sales revenue ... in euros") loses
	// exchange_rates, which only its evidence's "rate" asks for. At most 3%
	// of the exam may lose a table so.
	if naming == 0 || recalledModel*100 < recalled*97 {
		t.Errorf("the model names nothing of the exam (%d), or loses recall (%d, %d without it)", naming, recalledModel, recalled)
	}
	// The exam's gold queries compute what they name as the model defines it.
	if deviating > 0 {
		t.Errorf("%d gold queries deviate from the model's definitions", deviating)
	}
}

// TestSemanticScopedDefinitions: an engine scoped to one tenant shows only
// the definitions over its tables; a measure over the other tenant's
// table, named by the question, is neither linked nor in the prompt.
func TestSemanticScopedDefinitions(t *testing.T) {
	pgtest.SkipShort(t)
	m, err := semantic.Read(strings.NewReader(`version: 1
entities:
  - name: plans
    table: div_02.secret_plans
    measures:
      - {name: plan_count, agg: count, synonyms: [secret plan count]}
  - name: orders
    table: div_01.sales_orders
    measures:
      - {name: revenue, expr: total_amount, agg: sum}
`), "tenants.yaml")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := nl2sql.New(pgtest.Pool(t, erptest.Tenants(t)), nl2sql.WithScope(scopetest.Scope), nl2sql.WithSemantic(m))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := eng.SchemaContext(context.Background(), "What is the secret plan count, and the plan count against the revenue?")
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Semantic) != 1 || sc.Semantic[0].Name != "revenue" {
		t.Errorf("semantic links %+v, want revenue alone", sc.Semantic)
	}
	if leak := scopetest.Leak(sc.Prompt.System + sc.Prompt.User); leak != "" {
		t.Errorf("the prompt names the other tenant: %s", leak)
	}
}
