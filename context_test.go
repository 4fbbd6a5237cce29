package nl2sql_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

func contextOf(t *testing.T, eng *nl2sql.Engine, question string) *nl2sql.SchemaContext {
	t.Helper()
	c, err := eng.SchemaContext(context.Background(), question)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func contextNames(c *nl2sql.SchemaContext) []string {
	var out []string
	for _, h := range c.Tables {
		out = append(out, h.Name)
	}
	return out
}

// TestContextSkeletonJoinsWhatIsNeeded: the skeleton connects the tables
// the question needs and nothing that would multiply them.
func TestContextSkeletonJoinsWhatIsNeeded(t *testing.T) {
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT 1") })

	// "deals" are opportunities (thesaurus); a sales rep is an employee
	// with a quota. Joining sales_orders through employees would count
	// each won deal once per order the rep took (fan-out).
	c := contextOf(t, eng, "Which sales rep has won the most deals?")
	for _, want := range []string{"sales_reps", "opportunities"} {
		if !strings.Contains(c.Skeleton, want) {
			t.Errorf("deals: skeleton lacks %s: %s", want, c.Skeleton)
		}
	}
	if strings.Contains(c.Skeleton, "sales_orders") {
		t.Errorf("deals: skeleton joins sales_orders (fan-out): %s", c.Skeleton)
	}

	// "staff" are employees: the first table, and the skeleton does not
	// start from price lists.
	c = contextOf(t, eng, "How many staff did we hire in 2023?")
	if len(c.Tables) == 0 || c.Tables[0].Name != "public.employees" {
		t.Errorf("staff: context %v, want employees first", contextNames(c))
	}
	if strings.Contains(c.Skeleton, "price_lists") {
		t.Errorf("staff: skeleton %s", c.Skeleton)
	}

	// A sum over the one side of a one-to-many join the question needs
	// gets a warning in the prompt.
	c = contextOf(t, eng, "What is the total amount of sales orders per product?")
	if !strings.Contains(c.Skeleton, "sales_order_lines") {
		t.Fatalf("orders per product: skeleton %s", c.Skeleton)
	}
	if !strings.Contains(c.Prompt.User, "Joining sales_order_lines repeats each sales_orders row") {
		t.Errorf("orders per product: no fan-out warning in the prompt:\n%s", c.Prompt.User)
	}
	// ... and none when nothing is summed across it.
	c = contextOf(t, eng, "List the products of each sales order placed in 2024.")
	if strings.Contains(c.Prompt.User, "repeats each") {
		t.Errorf("list: unexpected fan-out warning:\n%s", c.Prompt.User)
	}
}

// TestContextSizes: over the demo ERP exam, every table a skeleton joins
// is in the context (the prompt shows it), and the context adapts to the
// question: at most 8 tables on average, against the cap of 12 it always
// filled before.
func TestContextSizes(t *testing.T) {
	exam, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT 1") })
	var tables, chars int
	for _, q := range exam {
		c, err := eng.SchemaContext(context.Background(), q.Question, nl2sql.Evidence(q.Evidence))
		if err != nil {
			t.Fatal(err)
		}
		if c.Match != retrieve.MatchStrong {
			t.Errorf("%s: match %s", q.QID, c.Match)
		}
		names := contextNames(c)
		for _, j := range c.Joins {
			for _, col := range []string{j.From, j.To} {
				if tbl := col[:strings.LastIndexByte(col, '.')]; !slices.Contains(names, tbl) {
					t.Errorf("%s: the skeleton joins %s, not in the context %v", q.QID, tbl, names)
				}
			}
		}
		tables += len(c.Tables)
		chars += len(c.Prompt.System) + len(c.Prompt.User)
	}
	n := float64(len(exam))
	t.Logf("demo ERP exam: %.1f tables and %.0f prompt characters per context", float64(tables)/n, float64(chars)/n)
	if m := float64(tables) / n; m > 8 {
		t.Errorf("mean context %.2f tables, want at most 8", m)
	}
}

// TestAskAbstainsWithoutMatch: a question no word of which is the
// schema's is not sent to the model: ErrRetrievalMiss, zero model calls;
// MinMatch(MatchNone) sends it anyway.
func TestAskAbstainsWithoutMatch(t *testing.T) {
	eng, srv := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT 1 AS one") })
	ctx := context.Background()
	c := contextOf(t, eng, "xyzzy plugh")
	if c.Match != retrieve.MatchNone || len(c.Tables) != 0 {
		t.Fatalf("context: match %s, tables %v", c.Match, contextNames(c))
	}
	res, err := eng.Ask(ctx, "xyzzy plugh")
	var ne *nl2sql.Error
	if !errors.Is(err, nl2sql.ErrRetrievalMiss) || !errors.As(err, &ne) || !strings.Contains(ne.Message, "does not match the schema") {
		t.Fatalf("Ask: %v", err)
	}
	if res == nil || res.Error == nil || res.Error.Class != nl2sql.ClassRetrievalMiss {
		t.Errorf("result error: %+v", res)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the model was called %d times", n)
	}
	if _, err := eng.Ask(ctx, "xyzzy plugh", nl2sql.MinMatch(retrieve.MatchNone)); err != nil {
		t.Errorf("MinMatch(none): %v", err)
	}
	if n := len(srv.Requests()); n == 0 {
		t.Error("MinMatch(none): the model was not called")
	}
	// A question the schema knows is answered as before.
	if _, err := eng.Ask(ctx, "How many customers are there?"); err != nil {
		t.Errorf("customers: %v", err)
	}
}
