package retrieve_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/schema"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func shopCatalog(t testing.TB) *schema.Catalog {
	t.Helper()
	dsn := pgtest.NewDatabase(t)
	b, err := os.ReadFile("testdata/shop.sql")
	if err != nil {
		t.Fatal(err)
	}
	pgtest.Exec(t, dsn, string(b))
	cat, err := schema.Introspect(context.Background(), pgtest.Pool(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func TestWordsAndTerms(t *testing.T) {
	for in, want := range map[string][]string{
		"cust_nbr":        {"cust", "nbr"},
		"custNbr":         {"cust", "nbr"},
		"HTTPServerError": {"http", "server", "error"},
		"order2line":      {"order", "2", "line"},
		"Net Amt (EUR)":   {"net", "amt", "eur"},
		"":                nil,
	} {
		if got := retrieve.Words(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
	if got := retrieve.Terms("How many categories of the products are there"); !reflect.DeepEqual(got, []string{"category", "product", "are"}[:2]) && !reflect.DeepEqual(got, []string{"category", "product"}) {
		t.Errorf("Terms = %q", got)
	}
	for in, want := range map[string]string{"orders": "order", "categories": "category", "addresses": "address", "status": "status", "analysis": "analysis", "boxes": "box", "class": "class"} {
		if got := retrieve.Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHashEmbedder(t *testing.T) {
	e := retrieve.NewHashEmbedder(256)
	ctx := context.Background()
	v, err := e.Embed(ctx, []string{"customer orders", "orders of customers", "payroll slips", "custmer order"})
	if err != nil {
		t.Fatal(err)
	}
	cos := func(a, b []float32) (s float32) {
		for i := range a {
			s += a[i] * b[i]
		}
		return
	}
	if len(v[0]) != 256 || e.Dimension() != 256 {
		t.Fatalf("dimension %d", len(v[0]))
	}
	if c := cos(v[0], v[0]); c < 0.999 || c > 1.001 {
		t.Errorf("not normalised: %f", c)
	}
	if cos(v[0], v[1]) < 0.9 {
		t.Errorf("plural/word order should not matter much: %f", cos(v[0], v[1]))
	}
	if cos(v[0], v[2]) > 0.2 {
		t.Errorf("unrelated texts too similar: %f", cos(v[0], v[2]))
	}
	if cos(v[0], v[3]) < cos(v[0], v[2])+0.2 {
		t.Errorf("misspelling should stay close: %f vs %f", cos(v[0], v[3]), cos(v[0], v[2]))
	}
	again, _ := e.Embed(ctx, []string{"customer orders"})
	if !reflect.DeepEqual(again[0], v[0]) {
		t.Error("not deterministic")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.Embed(cctx, []string{"x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled embed: %v", err)
	}
}

func TestMemoryStore(t *testing.T) {
	ctx := context.Background()
	e := retrieve.NewHashEmbedder(64)
	texts := map[string]string{
		"a": "customer orders placed by customers",
		"b": "supplier purchase orders",
		"c": "employee payroll slips",
		"d": "customer addresses",
	}
	var docs []retrieve.Document
	for _, id := range []string{"a", "b", "c", "d"} {
		v, _ := e.Embed(ctx, []string{texts[id]})
		docs = append(docs, retrieve.Document{ID: id, Kind: retrieve.KindTable, Scope: map[bool]string{true: "s1", false: "s2"}[id < "c"], Text: texts[id], Vector: v[0], Fingerprint: "f" + id, Catalog: "cat1"})
	}
	s := retrieve.NewMemoryStore()
	if err := s.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	hits, err := s.SearchText(ctx, "customer", 10, retrieve.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || hits[0].ID != "a" || hits[1].ID != "d" {
		t.Errorf("bm25 'customer' = %v (a mentions customers twice and must rank first)", ids(hits))
	}
	hits, _ = s.SearchText(ctx, "customer", 10, retrieve.Filter{Scopes: []string{"s2"}})
	if len(hits) != 1 || hits[0].ID != "d" {
		t.Errorf("scope filter: %v", ids(hits))
	}
	q, _ := e.Embed(ctx, []string{"purchase orders from suppliers"})
	hits, _ = s.SearchVector(ctx, q[0], 2, retrieve.Filter{})
	if len(hits) != 2 || hits[0].ID != "b" || hits[0].Score < hits[1].Score {
		t.Errorf("knn = %v", ids(hits))
	}
	if _, err := s.SearchVector(ctx, []float32{1, 2}, 2, retrieve.Filter{}); !errors.Is(err, retrieve.ErrDimension) {
		t.Errorf("dimension mismatch: %v", err)
	}
	if err := s.Upsert(ctx, []retrieve.Document{{ID: "x", Vector: []float32{1}}}); !errors.Is(err, retrieve.ErrDimension) {
		t.Errorf("upsert dimension mismatch: %v", err)
	}

	// replace, delete, manifest
	docs[0].Text, docs[0].Fingerprint = "warehouse stock levels", "f2"
	if err := s.Upsert(ctx, docs[:1]); err != nil {
		t.Fatal(err)
	}
	hits, _ = s.SearchText(ctx, "customer", 10, retrieve.Filter{})
	if len(hits) != 1 || hits[0].ID != "d" {
		t.Errorf("after replace: %v", ids(hits))
	}
	if err := s.Delete(ctx, []string{"d", "nope"}); err != nil {
		t.Fatal(err)
	}
	m, _ := s.Manifest(ctx)
	if !reflect.DeepEqual(m, map[string]string{"a": "f2", "b": "fb", "c": "fc"}) {
		t.Errorf("manifest = %v", m)
	}

	// save / load round trip
	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	l, err := retrieve.LoadMemoryStore(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	h1, _ := s.SearchVector(ctx, q[0], 3, retrieve.Filter{})
	h2, _ := l.SearchVector(ctx, q[0], 3, retrieve.Filter{})
	if !reflect.DeepEqual(ids(h1), ids(h2)) || l.Len() != 3 {
		t.Errorf("loaded store differs: %v vs %v", ids(h1), ids(h2))
	}
	if _, err := retrieve.LoadMemoryStore(bytes.NewReader([]byte("garbage"))); !errors.Is(err, retrieve.ErrBadStoreFile) {
		t.Errorf("garbage file: %v", err)
	}
	if err := l.DeleteCatalog(ctx, "cat1"); err != nil || l.Len() != 0 {
		t.Errorf("DeleteCatalog left %d (%v)", l.Len(), err)
	}
}

func TestMemoryStoreCompactsUnderChurn(t *testing.T) {
	ctx := context.Background()
	s := retrieve.NewMemoryStore()
	for round := 0; round < 50; round++ {
		var docs []retrieve.Document
		for i := 0; i < 100; i++ {
			docs = append(docs, retrieve.Document{ID: string(rune('a'+i%26)) + string(rune('a'+i/26)), Text: "word" + string(rune('a'+round%26))})
		}
		if err := s.Upsert(ctx, docs); err != nil {
			t.Fatal(err)
		}
	}
	if s.Len() != 100 {
		t.Fatalf("len = %d", s.Len())
	}
	hits, _ := s.SearchText(ctx, "word"+string(rune('a'+49%26)), 1000, retrieve.Filter{})
	if len(hits) != 100 {
		t.Errorf("latest texts not searchable: %d hits", len(hits))
	}
	hits, _ = s.SearchText(ctx, "worda", 1000, retrieve.Filter{})
	if len(hits) != 0 {
		t.Errorf("stale texts still searchable: %d hits", len(hits))
	}
}

// TestMemoryStoreChurnMatchesFresh replaces and deletes documents across
// scopes, then requires every search (text scores included: document
// frequencies and lengths are kept incrementally) to equal that of a store
// built fresh from the surviving documents, with and without scope filters.
func TestMemoryStoreChurnMatchesFresh(t *testing.T) {
	ctx := context.Background()
	e := retrieve.NewHashEmbedder(32)
	words := []string{"order", "customer", "invoice", "supplier", "stock", "payroll", "ledger", "ticket"}
	doc := func(i, round int) retrieve.Document {
		text := words[i%len(words)] + " " + words[(i+round)%len(words)] + " " + words[(i*3+round)%len(words)]
		v, _ := e.Embed(ctx, []string{text})
		kind := []retrieve.Kind{retrieve.KindTable, retrieve.KindColumn, retrieve.KindModule}[i%3]
		return retrieve.Document{ID: fmt.Sprintf("d%03d", i), Kind: kind, Scope: fmt.Sprintf("s%d", i%4), Text: text, Vector: v[0]}
	}
	churned := retrieve.NewMemoryStore()
	final := map[string]retrieve.Document{}
	for round := 0; round < 12; round++ {
		var docs []retrieve.Document
		for i := round * 7 % 40; i < 120; i += 1 + round%3 {
			d := doc(i, round)
			docs = append(docs, d)
			final[d.ID] = d
		}
		if err := churned.Upsert(ctx, docs); err != nil {
			t.Fatal(err)
		}
		var gone []string
		for i := round; i < 120; i += 11 {
			id := fmt.Sprintf("d%03d", i)
			gone = append(gone, id)
			delete(final, id)
		}
		if err := churned.Delete(ctx, gone); err != nil {
			t.Fatal(err)
		}
	}
	fresh := retrieve.NewMemoryStore()
	for _, id := range slices.Sorted(maps.Keys(final)) {
		if err := fresh.Upsert(ctx, []retrieve.Document{final[id]}); err != nil {
			t.Fatal(err)
		}
	}
	if churned.Len() != fresh.Len() || fresh.Len() < 50 {
		t.Fatalf("len %d vs %d", churned.Len(), fresh.Len())
	}
	for _, q := range []string{"order customer", "payroll ledger ticket", "stock"} {
		qv, _ := e.Embed(ctx, []string{q})
		for _, f := range []retrieve.Filter{{}, {Scopes: []string{"s1"}}, {Scopes: []string{"s2", "s3", "s2"}},
			{Kinds: []retrieve.Kind{retrieve.KindModule}}, {Kinds: []retrieve.Kind{retrieve.KindTable, retrieve.KindColumn}, Scopes: []string{"s0"}}} {
			a, _ := churned.SearchText(ctx, q, 15, f)
			b, _ := fresh.SearchText(ctx, q, 15, f)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("text %q %v: churned %v, fresh %v", q, f, ids(a), ids(b))
			}
			a, _ = churned.SearchVector(ctx, qv[0], 15, f)
			b, _ = fresh.SearchVector(ctx, qv[0], 15, f)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("vector %q %v: churned %v, fresh %v", q, f, ids(a), ids(b))
			}
			if len(a) == 0 {
				t.Errorf("vector %q %v: no hits", q, f)
			}
			for _, h := range a {
				if (len(f.Scopes) > 0 && !slices.Contains(f.Scopes, h.Scope)) || (len(f.Kinds) > 0 && !slices.Contains(f.Kinds, h.Kind)) {
					t.Errorf("vector %q %v: hit %s in scope %s, kind %s", q, f, h.ID, h.Scope, h.Kind)
				}
			}
		}
	}
}

func ids(hs []retrieve.Hit) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.ID)
	}
	return out
}

func TestRetrieverRanksAndExplains(t *testing.T) {
	ctx := context.Background()
	cat := shopCatalog(t)
	r, err := retrieve.New(ctx, cat, retrieve.WithHubDegree(3))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		q    string
		must []string
		top  string
	}{
		{"How many purchase orders did each supplier get?", []string{"public.purchase_orders", "public.suppliers"}, "public.purchase_orders"},
		{"Total net pay per employee", []string{"public.payslips", "public.employees"}, ""},
		{"Which products had the highest line totals?", []string{"public.products", "public.order_lines"}, ""},
		{"customers in Berlin", []string{"public.customers"}, "public.customers"},
	}
	for _, c := range cases {
		res, err := r.Tables(ctx, c.q, retrieve.MaxTables(5))
		if err != nil {
			t.Fatal(err)
		}
		names := res.Names()
		for _, m := range c.must {
			if !slices.Contains(names, m) {
				t.Errorf("%q: %s missing from %v", c.q, m, names)
			}
		}
		if c.top != "" && names[0] != c.top {
			t.Errorf("%q: top = %s, want %s (%v)", c.q, names[0], c.top, names)
		}
		if len(names) > 5 {
			t.Errorf("limit ignored: %d", len(names))
		}
		for _, h := range res.Tables {
			if len(h.Reasons) == 0 {
				t.Errorf("%s has no reason", h.Name)
			}
			if slices.Equal(h.Reasons, []string{"fk"}) && h.Via == "" {
				t.Errorf("fk-only hit %s lacks Via", h.Name)
			}
		}
		if len(res.Modules) < 1 || len(res.Modules) > 3 {
			t.Errorf("%q routed to %d modules", c.q, len(res.Modules))
		}
	}
	if _, err := r.Tables(ctx, "  "); !errors.Is(err, retrieve.ErrEmptyQuestion) {
		t.Errorf("empty question: %v", err)
	}
}

func TestRetrieverScopeAndGlossary(t *testing.T) {
	ctx := context.Background()
	cat := shopCatalog(t)
	r, err := retrieve.New(ctx, cat, retrieve.WithGlossary(map[string][]string{"headcount": {"employees"}}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Tables(ctx, "orders placed by customers", retrieve.Scope("div_02"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Names() {
		if s := cat.Table(n).Schema; s != "div_02" && s != "public" {
			t.Errorf("scope leak: %s", n)
		}
	}
	if !slices.Contains(res.Names(), "div_02.sales_orders") {
		t.Errorf("scoped table missing: %v", res.Names())
	}
	res, _ = r.Tables(ctx, "What is our headcount?")
	if len(res.Tables) == 0 || res.Tables[0].Name != "public.employees" || !slices.Contains(res.Tables[0].Reasons, "glossary") {
		t.Errorf("glossary: %+v", res.Tables)
	}
}

func TestRetrieverIncrementalRefresh(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.NewDatabase(t)
	b, _ := os.ReadFile("testdata/shop.sql")
	pgtest.Exec(t, dsn, string(b))
	pool := pgtest.Pool(t, dsn)
	cat, err := schema.Introspect(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	store := retrieve.NewMemoryStore()
	var progress []retrieve.Progress
	r, err := retrieve.New(ctx, cat, retrieve.WithStore(store), retrieve.WithProgress(func(p retrieve.Progress) { progress = append(progress, p) }))
	if err != nil {
		t.Fatal(err)
	}
	if len(progress) == 0 || progress[len(progress)-1].Done != progress[len(progress)-1].Total {
		t.Errorf("progress = %+v", progress)
	}
	full := store.Len()

	// Same catalog into the same store: nothing to embed.
	st, err := r.Refresh(ctx, cat)
	if err != nil || st.Embedded != 0 || st.Deleted != 0 {
		t.Fatalf("no-op refresh: %+v %v", st, err)
	}
	pgtest.Exec(t, dsn, `COMMENT ON TABLE suppliers IS 'Vendors and subcontractors'; DROP TABLE div_02.sales_orders; CREATE TABLE warehouses (wh_id int PRIMARY KEY, wh_nm text)`)
	cat2, _ := schema.Introspect(ctx, pool)
	st, err = r.Refresh(ctx, cat2)
	if err != nil {
		t.Fatal(err)
	}
	// suppliers: table + 3 column docs; warehouses: table + 2 columns; the
	// module documents of the touched communities; div_02.sales_orders: 1 + 3 deleted.
	if st.Embedded < 7 || st.Embedded > 7+4 || st.Deleted < 4 {
		t.Errorf("refresh stats = %+v (full index has %d documents)", st, full)
	}
	if r.Fingerprint() != cat2.Fingerprint() {
		t.Error("fingerprint not updated")
	}
	res, _ := r.Tables(ctx, "subcontractors")
	if len(res.Tables) == 0 || res.Tables[0].Name != "public.suppliers" {
		t.Errorf("changed comment not indexed: %+v", res.Tables)
	}
}

// TestRetrieverExampleValues: a value named in the question finds the table
// whose column holds it once sampled values are in the documents.
func TestRetrieverExampleValues(t *testing.T) {
	ctx := context.Background()
	cat := shopCatalog(t)
	q := "How many orders are Backordered?"
	plain, err := retrieve.New(ctx, cat)
	if err != nil {
		t.Fatal(err)
	}
	withValues, err := retrieve.New(ctx, cat, retrieve.WithExamples(map[string][]string{
		"public.sales_orders.status": {"Open", "Backordered", "Shipped"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	rank := func(r *retrieve.Retriever) (int, []string) {
		res, err := r.Tables(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return slices.Index(res.Names(), "public.sales_orders"), res.Tables[0].Reasons
	}
	before, _ := rank(plain)
	after, _ := rank(withValues)
	if after != 0 || (before >= 0 && before <= after) {
		t.Errorf("sales_orders rank: %d without values, %d with (want 0 and an improvement)", before, after)
	}
}

// TestModulesOverlapDeterministic: a table two configured modules list goes
// to the same module on every build (the first by name, a qualified
// listing before a bare one), not to the one map iteration brings first.
func TestModulesOverlapDeterministic(t *testing.T) {
	table := func(name string) *schema.Table {
		return &schema.Table{Schema: "public", Name: name, Kind: schema.KindTable,
			Columns: []schema.Column{{Name: "id", Type: "integer"}, {Name: "label", Type: "text"}}}
	}
	cat := schema.NewCatalog([]schema.Schema{{Name: "public"}}, []*schema.Table{table("a"), table("b"), table("c"), table("d")}, nil)
	modules := map[string][]string{
		"Zeta": {"b", "c", "public.d"}, "Alpha": {"a", "b", "d"}, "Mid": {"c"},
		"Beta": {"a"}, "Gamma": {"c"}, "Delta": {"b"}, "Eta": {"d"},
	}
	want := map[string]string{"public.a": "Alpha", "public.b": "Alpha", "public.c": "Gamma", "public.d": "Zeta"}
	for i := range 20 {
		r, err := retrieve.New(context.Background(), cat, retrieve.WithModules(modules))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for m, tables := range r.Modules() {
			for _, q := range tables {
				got[q] = m
			}
		}
		if !maps.Equal(got, want) {
			t.Fatalf("build %d: modules %v, want %v", i+1, got, want)
		}
	}
}

// TestTablesTakesTheAnalysis: TablesAnalysis, given the question's and
// evidence's gloss.Analysis, returns what Tables returns reading them
// itself; the evidence it is given replaces an Evidence option.
func TestTablesTakesTheAnalysis(t *testing.T) {
	ctx := context.Background()
	r, err := retrieve.New(ctx, shopCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	q, e := "How many purchase orders did each supplier get?", "suppliers are vendors"
	want, err := r.Tables(ctx, q, retrieve.Evidence(e))
	if err != nil {
		t.Fatal(err)
	}
	for name, opts := range map[string][]retrieve.QueryOption{
		"no option":      nil,
		"same evidence":  {retrieve.Evidence(e)},
		"other evidence": {retrieve.Evidence("payslips of employees")},
	} {
		got, err := r.TablesAnalysis(ctx, gloss.Analyze(q), gloss.Analyze(e), opts...)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Names(), want.Names()) || got.Match != want.Match || got.Known != want.Known {
			t.Errorf("%s: %v (%s %.2f), want %v (%s %.2f)", name, got.Names(), got.Match, got.Known, want.Names(), want.Match, want.Known)
		}
	}
	if !slices.Contains(want.Names(), "public.purchase_orders") {
		t.Errorf("purchase orders not retrieved: %v", want.Names())
	}
	for _, blank := range []*gloss.Analysis{nil, gloss.Analyze("  ")} {
		if _, err := r.TablesAnalysis(ctx, blank, nil); !errors.Is(err, retrieve.ErrEmptyQuestion) {
			t.Errorf("blank question: %v", err)
		}
	}
}
