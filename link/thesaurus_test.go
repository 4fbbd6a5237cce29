package link_test

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// erpCatalog introspects a fresh copy of the demo ERP and builds its value
// index.
func erpCatalog(t *testing.T) (*schema.Catalog, *link.ValueIndex) {
	t.Helper()
	return catalogWithValues(t, pgtest.Pool(t, erptest.Single(t)))
}

// catalogWithValues introspects a database and builds its value index.
func catalogWithValues(t *testing.T, pool *pgxpool.Pool) (*schema.Catalog, *link.ValueIndex) {
	t.Helper()
	ctx := context.Background()
	cat, err := schema.Introspect(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	vi, err := link.BuildValueIndex(ctx, pool, cat)
	if err != nil {
		t.Fatal(err)
	}
	return cat, vi
}

func findColumn(r *link.Result, col string) (link.ColumnLink, int) {
	for i, c := range r.Columns {
		if c.Table+"."+c.Column == col {
			return c, i
		}
	}
	return link.ColumnLink{}, -1
}

func findTable(r *link.Result, table string) (link.TableLink, int) {
	for i, x := range r.Tables {
		if x.Table == table {
			return x, i
		}
	}
	return link.TableLink{}, -1
}

// thesaurusLinks lists the links made through the thesaurus.
func thesaurusLinks(r *link.Result) []string {
	var out []string
	for _, x := range r.Tables {
		if x.Reason == link.ReasonThesaurus || x.Via != "" {
			out = append(out, x.Table+" "+x.Via)
		}
	}
	for _, x := range r.Columns {
		if x.Reason == link.ReasonThesaurus || x.Via != "" {
			out = append(out, x.Table+"."+x.Column+" "+x.Via)
		}
	}
	return out
}

// TestLinkThesaurusERP: on the demo ERP, question words the schema does not
// use reach its tables and columns through the thesaurus.
func TestLinkThesaurusERP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cat, vi := erpCatalog(t)
	l := link.New(cat, link.WithValueIndex(vi))
	type want struct {
		kind   string // "table" or "column"
		name   string
		phrase string
		reason link.Reason
		via    string
		rank   int // at most this position (0-based) in its list; -1: any
	}
	for _, tc := range []struct {
		q     string
		wants []want
		check func(t *testing.T, r *link.Result)
	}{
		{q: "What is the average tenure of employees?", wants: []want{
			{"column", "public.employees.hire_date", "tenure", link.ReasonThesaurus, "thesaurus: tenure -> hire date", 0},
			{"table", "public.employees", "employees", link.ReasonExact, "", 0},
		}},
		{q: "How many staff did we hire in 2023?", wants: []want{
			{"table", "public.employees", "staff", link.ReasonThesaurus, "thesaurus: staff -> employee", 0},
			{"column", "public.employees.hire_date", "hire", link.ReasonPartial, "", -1},
		}},
		{q: "total spend per vendor", wants: []want{
			{"table", "public.purchase_orders", "spend", link.ReasonThesaurus, "thesaurus: spend -> purchase order", 0},
			{"table", "public.suppliers", "vendor", link.ReasonThesaurus, "thesaurus: vendor -> supplier", 1},
			{"column", "public.purchase_orders.supplier_id", "vendor", link.ReasonThesaurus, "thesaurus: vendor -> supplier", -1},
			// The purchase orders' amount ranks first among the totals.
			{"column", "public.purchase_orders.tot_amt", "total", link.ReasonPartial, "", 0},
		}},
		{q: "Which clients bought the most?", wants: []want{
			{"table", "public.customers", "clients", link.ReasonThesaurus, "thesaurus: clients -> customer", 0},
		}},
		{q: "top 5 clients by revenue", wants: []want{
			{"table", "public.customers", "clients", link.ReasonThesaurus, "thesaurus: clients -> customer", 0},
			// revenue is a word of the schema (v_customer_revenue.revenue):
			// it is matched as itself, not as sales orders or invoices.
			{"column", "public.v_customer_revenue.revenue", "revenue", link.ReasonExact, "", 0},
		}, check: func(t *testing.T, r *link.Result) {
			for _, tb := range []string{"public.sales_orders", "public.invoices"} {
				if _, i := findTable(r, tb); i >= 0 {
					t.Errorf("%s linked: revenue is the schema's own word", tb)
				}
			}
		}},
		{q: "What is the headcount per department?", wants: []want{
			{"table", "public.employees", "headcount", link.ReasonThesaurus, "thesaurus: headcount -> employee", -1},
			{"table", "public.departments", "department", link.ReasonExact, "", -1},
		}},
		{q: "Which staff were fired in 2024?", wants: []want{
			{"column", "public.employees.termination_date", "fired", link.ReasonThesaurus, "thesaurus: fired -> termination date", 0},
		}},
		{q: "How many deals are open?", wants: []want{
			{"table", "public.opportunities", "deals", link.ReasonThesaurus, "thesaurus: deals -> opportunity", 0},
		}},
		// A span related to tables of two names names neither: "sold"
		// leads to sales orders and invoices.
		{q: "Which product sold the most?", check: func(t *testing.T, r *link.Result) {
			for _, x := range r.Tables {
				if x.Reason == link.ReasonThesaurus {
					t.Errorf("table %s linked through %q", x.Table, x.Via)
				}
			}
		}},
		// "deal owner" reads as deal -> opportunities and its owner_emp_id,
		// not as the thesaurus' sales rep.
		{q: "What is the win rate of each deal owner?", check: func(t *testing.T, r *link.Result) {
			if _, i := findTable(r, "public.sales_reps"); i >= 0 {
				t.Errorf("sales_reps linked:\n%s", summary(r))
			}
		}},
	} {
		r := l.Link(ctx, tc.q, "", nil)
		bad := false
		for _, w := range tc.wants {
			var phrase, via string
			var reason link.Reason
			var score float64
			i := -1
			if w.kind == "table" {
				var x link.TableLink
				x, i = findTable(r, w.name)
				phrase, via, reason, score = x.Phrase, x.Via, x.Reason, x.Score
			} else {
				var x link.ColumnLink
				x, i = findColumn(r, w.name)
				phrase, via, reason, score = x.Phrase, x.Via, x.Reason, x.Score
			}
			switch {
			case i < 0:
				t.Errorf("%q: %s %s not linked", tc.q, w.kind, w.name)
				bad = true
			case phrase != w.phrase || reason != w.reason || via != w.via:
				t.Errorf("%q: %s %s: phrase %q reason %s via %q, want %q %s %q", tc.q, w.kind, w.name, phrase, reason, via, w.phrase, w.reason, w.via)
				bad = true
			case w.rank >= 0 && i > w.rank:
				t.Errorf("%q: %s %s ranked %d (score %.3f), want at most %d", tc.q, w.kind, w.name, i, score, w.rank)
				bad = true
			}
		}
		if tc.check != nil {
			t.Run(tc.q, func(t *testing.T) { tc.check(t, r) })
		}
		if bad {
			t.Logf("%q:\n%s", tc.q, summary(r))
		}
	}
}

// TestLinkThesaurusDirectWins: a phrase that matches a name by itself is
// not linked through the thesaurus, and with every word of a question a
// schema word the thesaurus changes nothing at all.
func TestLinkThesaurusDirectWins(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cat, vi := erpCatalog(t)
	with := link.New(cat, link.WithValueIndex(vi))
	without := link.New(cat, link.WithValueIndex(vi), link.WithThesaurus(nil))
	for _, q := range []string{
		// salary, total, amount, stock, order, sales and revenue are words
		// of the schema that the thesaurus relates to others (pay, sum,
		// inventory, purchase order, invoice, ...).
		"average salary by department",
		"total amount of invoices per customer",
		"stock movements per warehouse",
		"sales orders total amount by customer",
		"revenue per customer",
		"How many purchase orders per supplier?",
		"employees hired in 2021 by department",
	} {
		a, b := with.Link(ctx, q, "", nil), without.Link(ctx, q, "", nil)
		if links := thesaurusLinks(a); q != "employees hired in 2021 by department" && len(links) > 0 {
			t.Errorf("%q: linked through the thesaurus: %v", q, links)
		}
		if q == "employees hired in 2021 by department" {
			continue // "hired" is no schema word: checked below
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%q: the thesaurus changed the result:\nwith:\n%s\nwithout:\n%s", q, summary(a), summary(b))
		}
	}

	// "hired" is not a schema word: through the thesaurus it is hire_date,
	// more strongly than the inflection match; the direct "employees" keeps
	// its exact link.
	r := with.Link(ctx, "employees hired in 2021 by department", "", nil)
	if c, _ := findColumn(r, "public.employees.hire_date"); c.Reason != link.ReasonThesaurus || c.Via != "thesaurus: hired -> hire date" {
		t.Errorf("hire_date: %+v", c)
	}
	if x, i := findTable(r, "public.employees"); i != 0 || x.Reason != link.ReasonExact || x.Via != "" {
		t.Errorf("employees: %+v at %d", x, i)
	}

	// A direct match outranks the thesaurus match of the same quality.
	direct := with.Link(ctx, "What is the average hire date of employees?", "", nil)
	related := with.Link(ctx, "What is the average tenure of employees?", "", nil)
	d, _ := findColumn(direct, "public.employees.hire_date")
	th, _ := findColumn(related, "public.employees.hire_date")
	if d.Reason != link.ReasonExact || th.Reason != link.ReasonThesaurus || !(d.Score > th.Score) {
		t.Errorf("direct %+v, thesaurus %+v: want the direct link stronger", d, th)
	}
}

// TestLinkThesaurusDisabled: WithThesaurus(nil) links nothing through the
// thesaurus.
func TestLinkThesaurusDisabled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cat, vi := erpCatalog(t)
	l := link.New(cat, link.WithValueIndex(vi), link.WithThesaurus(nil))
	for _, q := range []string{
		"What is the average tenure of employees?",
		"How many staff did we hire in 2023?",
		"total spend per vendor",
		"Which clients bought the most?",
	} {
		r := l.Link(ctx, q, "", nil)
		if links := thesaurusLinks(r); len(links) > 0 {
			t.Errorf("%q: %v", q, links)
		}
	}
	r := l.Link(ctx, "What is the average tenure of employees?", "", nil)
	if _, i := findColumn(r, "public.employees.hire_date"); i >= 0 {
		t.Errorf("tenure linked hire_date without a thesaurus:\n%s", summary(r))
	}
	r = l.Link(ctx, "Which clients bought the most?", "", nil)
	if _, i := findTable(r, "public.customers"); i >= 0 {
		t.Errorf("clients linked customers without a thesaurus:\n%s", summary(r))
	}
}

// TestLinkThesaurusDeterministic: equal inputs give equal results, from one
// linker called concurrently and from two linkers.
func TestLinkThesaurusDeterministic(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cat, vi := erpCatalog(t)
	qs := []string{
		"What is the average tenure of employees?",
		"How many staff did we hire in 2023?",
		"total spend per vendor",
		"Which clients bought the most?",
		"top 5 clients by revenue, with their headcount and wages",
	}
	render := func(l *link.Linker, q string) string {
		b, err := json.Marshal(l.Link(ctx, q, "staff means employees", nil))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	l1 := link.New(cat, link.WithValueIndex(vi))
	l2 := link.New(cat, link.WithValueIndex(vi), link.WithThesaurus(gloss.DefaultThesaurus()))
	want := map[string]string{}
	for _, q := range qs {
		want[q] = render(l1, q)
		if got := render(l2, q); got != want[q] {
			t.Errorf("%q: two linkers differ:\n%s\n%s", q, want[q], got)
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				for _, q := range qs {
					if got := render(l1, q); got != want[q] {
						mu.Lock()
						t.Errorf("%q: run differs:\n%s\n%s", q, want[q], got)
						mu.Unlock()
					}
				}
			}
		}()
	}
	wg.Wait()
}

// thesaurusCatalog is a small HR catalog without a database.
func thesaurusCatalog() *schema.Catalog {
	emp := &schema.Table{Schema: "hr", Name: "employees", Kind: schema.KindTable, PrimaryKey: []string{"emp_id"},
		Columns: []schema.Column{
			{Name: "emp_id", Type: "integer", PrimaryKey: true, NotNull: true},
			{Name: "full_name", Type: "text"},
			{Name: "hire_date", Type: "date"},
			{Name: "segment", Type: "text"},
		}}
	pay := &schema.Table{Schema: "hr", Name: "payslips", Kind: schema.KindTable, PrimaryKey: []string{"slip_id"},
		Columns: []schema.Column{
			{Name: "slip_id", Type: "integer", PrimaryKey: true, NotNull: true},
			{Name: "emp_id", Type: "integer"},
			{Name: "gross_amount", Type: "numeric(12,2)"},
		},
		ForeignKeys: []schema.ForeignKey{{Name: "fk", Columns: []string{"emp_id"}, RefSchema: "hr", RefTable: "employees", RefColumns: []string{"emp_id"}}}}
	return schema.NewCatalog([]schema.Schema{{Name: "hr"}}, []*schema.Table{emp, pay}, nil)
}

// TestLinkThesaurusRules checks, without a database, the spans that are
// not looked up (glossary terms, capitalised values, aggregate words), a
// user list, WordNet's weaker links and the JSON shape.
func TestLinkThesaurusRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cat := thesaurusCatalog()

	// A glossary term is the user's: it is not looked up as well.
	l := link.New(cat, link.WithGlossary(link.Glossary{"staff": {"hr.payslips"}}))
	r := l.Link(ctx, "How many staff are there?", "", nil)
	if links := thesaurusLinks(r); len(links) > 0 {
		t.Errorf("glossary term looked up: %v", links)
	}
	if x, i := findTable(r, "hr.payslips"); i != 0 || x.Reason != link.ReasonGlossary {
		t.Errorf("glossary link: %+v at %d\n%s", x, i, summary(r))
	}

	// A capitalised word inside a sentence is a value or a name.
	l = link.New(cat)
	r = l.Link(ctx, "How many employees work for Staff Holdings?", "", nil)
	if links := thesaurusLinks(r); len(links) > 0 {
		t.Errorf("a name looked up: %v", links)
	}
	// Sentence-initial capitals are ordinary words.
	r = l.Link(ctx, "Staff hired in 2024", "", nil)
	if x, _ := findTable(r, "hr.employees"); x.Via != "thesaurus: staff -> employee" {
		t.Errorf("Staff: %+v\n%s", x, summary(r))
	}

	// Aggregate words say how to compute: "total" is not an amount.
	r = l.Link(ctx, "What is the total for each employee?", "", nil)
	if links := thesaurusLinks(r); len(links) > 0 {
		t.Errorf("aggregate word looked up: %v", links)
	}

	// A user list, merged before the built-in one, at full strength.
	user, err := gloss.ParseThesaurus(strings.NewReader("wonga, dosh -> gross amount\n"))
	if err != nil {
		t.Fatal(err)
	}
	l = link.New(cat, link.WithThesaurus(gloss.MergeThesauri(user, gloss.DefaultThesaurus())))
	r = l.Link(ctx, "average wonga of employees", "", nil)
	c, _ := findColumn(r, "hr.payslips.gross_amount")
	if c.Reason != link.ReasonThesaurus || c.Via != "thesaurus (user): wonga -> gross amount" || c.Phrase != "wonga" {
		t.Errorf("user list: %+v\n%s", c, summary(r))
	}

	// WordNet synonyms are weaker than curated links: a catalog whose
	// only word for people is "worker" (curated from staff) and one
	// whose word is WordNet's.
	wn := gloss.DefaultThesaurus().Related("tenure")
	var wnTerm string
	for _, x := range wn {
		if x.Source == gloss.WordNet && !strings.Contains(x.Text, " ") {
			wnTerm = x.Text
			break
		}
	}
	if wnTerm == "" {
		t.Skip("no one-word WordNet synonym of tenure")
	}
	mk := func(col string) *schema.Catalog {
		return schema.NewCatalog([]schema.Schema{{Name: "hr"}}, []*schema.Table{{Schema: "hr", Name: "employees", Kind: schema.KindTable,
			Columns: []schema.Column{{Name: "emp_id", Type: "integer"}, {Name: col, Type: "date"}}}}, nil)
	}
	curated := link.New(mk("hire_date")).Link(ctx, "average tenure of employees", "", nil)
	wordnet := link.New(mk(wnTerm)).Link(ctx, "average tenure of employees", "", nil)
	cc, _ := findColumn(curated, "hr.employees.hire_date")
	wc, _ := findColumn(wordnet, "hr.employees."+wnTerm)
	if cc.Reason != link.ReasonThesaurus || wc.Reason != link.ReasonThesaurus || !(cc.Score > wc.Score) ||
		!strings.HasPrefix(wc.Via, "thesaurus (wordnet): tenure -> ") {
		t.Errorf("curated %+v, wordnet %+v: want both, the curated stronger", cc, wc)
	}

	// JSON: direct links keep their shape; thesaurus links add "via".
	b, _ := json.Marshal(curated.Tables[0])
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"phrase", "reason", "score", "table"}) {
		t.Errorf("direct table link JSON keys %v", keys)
	}
	b, _ = json.Marshal(cc)
	m = nil
	_ = json.Unmarshal(b, &m)
	if m["reason"] != "thesaurus" || m["via"] != "thesaurus: tenure -> hire date" || m["phrase"] != "tenure" {
		t.Errorf("thesaurus column link JSON %s", b)
	}
}
