package link_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/schema"
)

func column(vi *link.ValueIndex, key string) *link.ValueColumn {
	for i := range vi.Columns {
		if c := &vi.Columns[i]; c.Table+"."+c.Column == key {
			return c
		}
	}
	return nil
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func TestBuildValueIndexSources(t *testing.T) {
	t.Parallel()
	dsn, cat := fixture(t)
	vi := valueIndex(t, dsn, cat)
	want := []struct {
		key    string
		source link.ValueSource
		values []string // sorted
	}{
		// Analyzed tables: pg_stats covers every distinct value.
		{"crm.deals.stage", link.SourceStats, []string{"Closed Lost", "Closed Won", "Negotiation", "Prospecting", "Qualification"}},
		{"sales.customers.region", link.SourceStats, []string{"APAC", "EMEA", "North", "South"}},
		{"sales.customers.segment", link.SourceStats, []string{"Enterprise", "O'Reilly partners", "SMB"}},
		{"sales.customers.country_cd", link.SourceStats, []string{"DE", "FR", "JP", "US"}},
		// char(4): the padding of the stored array text is removed.
		{"hr.employees.dept_cd", link.SourceStats, []string{"ENG", "FIN", "HR", "SALE"}},
		// Not analyzed: one bounded SELECT DISTINCT each.
		{"sales.invoices.stat", link.SourceSample, []string{"Open", "Paid", "Void"}},
		{"sales.invoices.curr_cd", link.SourceSample, []string{"EUR", "USD"}},
		{"hr.departments.dept_cd", link.SourceSample, []string{"ENG", "FIN", "HR", "SALE"}},
		{"sales.products.uom", link.SourceSample, []string{"EA"}},
		// Enum labels come from the catalog, in label order.
		{"hr.employees.status", link.SourceEnum, []string{"Active", "On leave", "Terminated"}},
	}
	for _, w := range want {
		c := column(vi, w.key)
		if c == nil {
			t.Errorf("%s missing", w.key)
			continue
		}
		if c.Source != w.source || !slices.Equal(sorted(c.Values), w.values) {
			t.Errorf("%s = %s %q, want %s %q", w.key, c.Source, c.Values, w.source, w.values)
		}
	}
	// High-cardinality columns are skipped on both paths.
	for _, key := range []string{"sales.customers.cust_nm", "hr.employees.email", "hr.employees.first_nm", // pg_stats
		"sales.invoices.inv_nbr", "crm.deals.deal_nm"} { // sampled
		if column(vi, key) != nil {
			t.Errorf("high-cardinality column %s indexed", key)
		}
	}
	st := vi.Stats
	if st.FromEnum != 1 || st.FromStats < 5 || st.FromSample < 4 || st.SkippedHighCardinality < 6 || st.SkippedErrors != 0 || st.BudgetExhausted {
		t.Errorf("stats = %+v", st)
	}
	// Every text column of the fixture has values, so each is accounted for.
	if st.Candidates != st.FromEnum+st.FromStats+st.FromSample+st.SkippedHighCardinality+st.SkippedErrors+st.SkippedBudget {
		t.Errorf("stats do not add up: %+v", st)
	}
}

func TestBuildValueIndexBounds(t *testing.T) {
	t.Parallel()
	dsn, cat := fixture(t)
	vi := valueIndex(t, dsn, cat, link.WithMaxValues(3))
	for _, key := range []string{"crm.deals.stage", "sales.customers.region", "hr.departments.dept_cd"} {
		if c := column(vi, key); c != nil {
			t.Errorf("%s has more than 3 values but was indexed: %q", key, c.Values)
		}
	}
	for _, key := range []string{"sales.invoices.stat", "sales.customers.segment", "hr.employees.status"} {
		if c := column(vi, key); c == nil || len(c.Values) > 3 {
			t.Errorf("%s: %+v", key, c)
		}
	}
	for _, c := range vi.Columns {
		if len(c.Values) > 3 && c.Source != link.SourceEnum {
			t.Errorf("cap exceeded: %+v", c)
		}
	}

	vi = valueIndex(t, dsn, cat, link.WithMaxValueLen(4), link.WithValueTables("sales.customers", "sales.invoices"))
	if c := column(vi, "sales.customers.segment"); c == nil || !slices.Equal(c.Values, []string{"SMB"}) {
		t.Errorf("long values kept: %+v", c)
	}
	for _, c := range vi.Columns {
		if !strings.HasPrefix(c.Table, "sales.customers") && !strings.HasPrefix(c.Table, "sales.invoices") {
			t.Errorf("table filter ignored: %s", c.Table)
		}
	}
	if c := column(vi, "hr.employees.status"); c != nil {
		t.Error("enum of a filtered-out table indexed")
	}
}

func TestBuildValueIndexOnConn(t *testing.T) {
	t.Parallel()
	dsn, cat := fixture(t)
	pooled := valueIndex(t, dsn, cat)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	single, err := link.BuildValueIndex(ctx, conn, cat)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(pooled.Columns)
	b, _ := json.Marshal(single.Columns)
	if string(a) != string(b) {
		t.Errorf("pool and single connection disagree:\n%s\n%s", a, b)
	}
	if _, err := link.BuildValueIndex(ctx, conn, nil); !errors.Is(err, link.ErrNilCatalog) {
		t.Errorf("nil catalog: %v", err)
	}
}

func TestValueIndexMatchExamplesJSON(t *testing.T) {
	t.Parallel()
	dsn, cat := fixture(t)
	vi := valueIndex(t, dsn, cat)
	top := func(v *link.ValueIndex, phrase string) link.ValueMatch {
		ms := v.Match(phrase)
		if len(ms) == 0 {
			return link.ValueMatch{}
		}
		return ms[0]
	}
	tests := []struct {
		phrase, want string // "table.column=value"
		exact        bool
	}{
		{"negotiation", "crm.deals.stage=Negotiation", true},
		{"  CLOSED   won ", "crm.deals.stage=Closed Won", true},
		{"Negociation", "crm.deals.stage=Negotiation", false},
		{"leave", "hr.employees.status=On leave", false},
		{"o'reilly partners", "sales.customers.segment=O'Reilly partners", true},
		{"reilly", "sales.customers.segment=O'Reilly partners", false},
		{"void", "sales.invoices.stat=Void", true},
		{"xylophone", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		m := top(vi, tt.phrase)
		got := ""
		if m.Table != "" {
			got = m.Table + "." + m.Column + "=" + m.Value
		}
		if got != tt.want || (tt.want != "" && (m.Score == 1) != tt.exact) || m.Score > 1 || (got != "" && m.Score < 0.5) {
			t.Errorf("Match(%q) = %q %.2f, want %q exact=%v", tt.phrase, got, m.Score, tt.want, tt.exact)
		}
	}

	b, err := json.Marshal(vi)
	if err != nil {
		t.Fatal(err)
	}
	var back link.ValueIndex
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		a, c := vi.Match(tt.phrase), back.Match(tt.phrase)
		if !slices.Equal(a, c) {
			t.Errorf("after JSON round trip Match(%q) = %v, want %v", tt.phrase, c, a)
		}
	}
	if back.Stats != vi.Stats {
		t.Errorf("stats lost: %+v", back.Stats)
	}

	ex := vi.Examples(2)
	if len(ex["crm.deals.stage"]) != 2 || len(ex["hr.employees.status"]) != 2 {
		t.Errorf("Examples(2) = %v", ex)
	}
	if _, ok := ex["sales.customers.cust_nm"]; ok {
		t.Error("high-cardinality column in examples")
	}
	text := schema.MSchema([]*schema.Table{cat.Table("crm.deals")}, schema.WithExamples(ex))
	for _, v := range ex["crm.deals.stage"] {
		if !strings.Contains(text, v) {
			t.Errorf("M-Schema lacks example %q:\n%s", v, text)
		}
	}
}

// slowFixture adds a view that takes 30 seconds to read.
func slowFixture(t *testing.T) (string, *schema.Catalog) {
	dsn, _ := fixture(t)
	pgtest.Exec(t, dsn, `CREATE SCHEMA slow; CREATE VIEW slow.v AS SELECT 'x'::text AS label FROM pg_sleep(30);`)
	cat, err := schema.Introspect(context.Background(), pgtest.Pool(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	return dsn, cat
}

func TestBuildValueIndexTimeouts(t *testing.T) {
	t.Parallel()
	dsn, cat := slowFixture(t)
	pool := pgtest.Pool(t, dsn)
	ctx := context.Background()
	if err := pool.Ping(ctx); err != nil { // connect before the clock runs
		t.Fatal(err)
	}
	// The stuck column is skipped; the others are read. (The elapsed-time
	// checks are liveness checks: the view sleeps 30s.)
	start := time.Now()
	vi, err := link.BuildValueIndex(ctx, pool, cat, link.WithQueryTimeout(3*time.Second),
		link.WithValueTables("slow.v", "sales.invoices"), link.WithViews(true))
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 20*time.Second || vi.Stats.SkippedErrors != 1 || vi.Stats.TimedOut != 1 ||
		column(vi, "sales.invoices.stat") == nil || column(vi, "slow.v.label") != nil {
		t.Errorf("query timeout: %+v after %v", vi.Stats, time.Since(start))
	}

	// The budget runs out while slow.v is read, after sales.invoices was
	// (one query at a time, in table order): what was read is dropped too,
	// so the index does not depend on how far the build got.
	start = time.Now()
	vi, err = link.BuildValueIndex(ctx, pool, cat, link.WithBudget(500*time.Millisecond), link.WithQueryTimeout(25*time.Second),
		link.WithConcurrency(1), link.WithValueTables("slow.v", "sales.invoices"), link.WithViews(true))
	if err != nil {
		t.Fatal(err)
	}
	st := vi.Stats
	if time.Since(start) > 20*time.Second || !st.BudgetExhausted || st.FromSample != 0 || st.SkippedBudget != st.Candidates || len(vi.Columns) != 0 {
		t.Errorf("budget: %+v, columns %+v after %v", st, vi.Columns, time.Since(start))
	}
}

func TestBuildValueIndexSkipsViews(t *testing.T) {
	t.Parallel()
	dsn, cat := slowFixture(t)
	vi := valueIndex(t, dsn, cat, link.WithValueTables("slow.v", "sales.invoices"))
	if vi.Stats.SkippedErrors != 0 || column(vi, "sales.invoices.stat") == nil || vi.Stats.Candidates != 3 { // inv_nbr, curr_cd, stat
		t.Errorf("views are not skipped by default: %+v", vi.Stats)
	}
}

func TestBuildValueIndexCancelled(t *testing.T) {
	t.Parallel()
	dsn, cat := slowFixture(t)
	pool := pgtest.Pool(t, dsn)
	ctx, cancel := context.WithCancel(context.Background())
	timer := time.AfterFunc(300*time.Millisecond, cancel)
	defer timer.Stop()
	start := time.Now()
	vi, err := link.BuildValueIndex(ctx, pool, cat, link.WithValueTables("slow.v"), link.WithQueryTimeout(25*time.Second), link.WithViews(true))
	if !errors.Is(err, context.Canceled) || vi != nil {
		t.Errorf("BuildValueIndex after cancel = %v, %v", vi, err)
	}
	if time.Since(start) > 20*time.Second {
		t.Errorf("cancellation not honoured: returned after %v", time.Since(start))
	}
	if _, err := link.BuildValueIndex(ctx, pool, cat); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

func TestLinkUsesEnumLabelsWithoutIndex(t *testing.T) {
	t.Parallel()
	_, cat := fixture(t)
	r := link.New(cat).Link(context.Background(), "Which employees are Terminated?", "", nil)
	if len(r.Values) == 0 || r.Values[0].String() != "hr.employees.status = 'Terminated'" {
		t.Errorf("values = %v", valuesOf(r))
	}
}

// TestLinkValuesInCandidateTenant: the same value stored in 30 tenants'
// copies of a table must still be linked to the tenant whose table is a
// candidate, although the 29 others would fill Match's best 20.
func TestLinkValuesInCandidateTenant(t *testing.T) {
	var tables []*schema.Table
	var schemas []schema.Schema
	var cols []link.ValueColumn
	for i := 1; i <= 30; i++ {
		s := fmt.Sprintf("div_%02d", i)
		schemas = append(schemas, schema.Schema{Name: s})
		tables = append(tables, &schema.Table{Schema: s, Name: "tickets", Kind: schema.KindTable,
			Columns: []schema.Column{{Name: "id", Type: "integer"}, {Name: "queue", Type: "text"}}})
		cols = append(cols, link.ValueColumn{Table: s + ".tickets", Column: "queue", Values: []string{"Billing Escalations", "Hardware"}})
	}
	cat := schema.NewCatalog(schemas, tables, nil)
	l := link.New(cat, link.WithValueIndex(link.NewValueIndex(cols)))
	for _, q := range []string{
		"How many tickets are in Billing Escalations?", // exact window
		"How many tickets are in Biling Escalation?",   // fuzzy
	} {
		r := l.Link(context.Background(), q, "", []string{"div_27.tickets"})
		if len(r.Values) == 0 || r.Values[0].Table != "div_27.tickets" || r.Values[0].Value != "Billing Escalations" {
			t.Errorf("%q: values %v, want div_27.tickets.queue = 'Billing Escalations'", q, valuesOf(r))
		}
	}
}
