package plan_test

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/schema"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// introspect loads an SQL script into a template database once per cluster
// and returns the catalog of a fresh copy.
func introspect(t testing.TB, key, script string) *schema.Catalog {
	t.Helper()
	dsn := pgtest.FromTemplate(t, key, func(ctx context.Context, conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, script)
		return err
	})
	cat, err := schema.Introspect(context.Background(), pgtest.Pool(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

var fixtureCache struct {
	sync.Mutex
	cat *schema.Catalog
}

// fixture returns the catalog of testdata/graph.sql, introspected once per
// test binary (a Catalog is immutable).
func fixture(t testing.TB) *schema.Catalog {
	t.Helper()
	fixtureCache.Lock()
	defer fixtureCache.Unlock()
	if fixtureCache.cat != nil {
		return fixtureCache.cat
	}
	b, err := os.ReadFile("testdata/graph.sql")
	if err != nil {
		t.Fatal(err)
	}
	fixtureCache.cat = introspect(t, "plan/graph.sql "+string(b), string(b))
	return fixtureCache.cat
}

func pairs(edges []plan.JoinEdge) []string {
	var out []string
	for _, e := range edges {
		out = append(out, e.From+"="+e.To)
	}
	return out
}

// connect plans tables, failing the test on error, and checks the skeleton.
func connect(t *testing.T, g *plan.Graph, tables []string, want string, opts ...plan.SkeletonOption) *plan.Tree {
	t.Helper()
	tr, err := g.Connect(tables)
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Skeleton(opts...); got != want {
		t.Errorf("skeleton of %v\n got %s\nwant %s", tables, got, want)
	}
	return tr
}

func TestChain(t *testing.T) {
	g := plan.NewGraph(fixture(t))
	p, err := g.ShortestPath("chain.a", "chain.c")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"chain.a", "chain.b", "chain.c"}; !slices.Equal(p.Tables, want) {
		t.Fatalf("tables %v, want %v", p.Tables, want)
	}
	for _, e := range p.Edges {
		if !e.Forward || e.Cardinality != plan.ManyToOne {
			t.Errorf("edge %v: want forward many-to-one", e)
		}
	}
	back, err := g.ShortestPath("chain.c", "chain.a")
	if err != nil {
		t.Fatal(err)
	}
	if back.Hops() != 2 || back.Edges[0].Cardinality != plan.OneToMany || back.Cost <= p.Cost {
		t.Errorf("reverse path %v cost %v (forward %v): want 2 one-to-many hops costing more", back, back.Cost, p.Cost)
	}
	tr := connect(t, g, []string{"chain.a", "chain.c"}, "FROM chain.a a JOIN chain.b b ON b.id = a.b_id JOIN chain.c c ON c.id = b.c_id")
	if got := tr.Added(); !slices.Equal(got, []string{"chain.b"}) {
		t.Errorf("added %v, want [chain.b]", got)
	}
	if got, want := pairs(tr.Edges()), []string{"chain.a.b_id=chain.b.id", "chain.b.c_id=chain.c.id"}; !slices.Equal(got, want) {
		t.Errorf("edges %v, want %v", got, want)
	}
}

func TestJunction(t *testing.T) {
	g := plan.NewGraph(fixture(t))
	if !g.IsJunction("school.enrollments") || g.IsJunction("school.students") || g.IsJunction("shop.orders") {
		t.Errorf("junctions %v", g.Junctions())
	}
	if !slices.Contains(g.Junctions(), "school.enrollments") {
		t.Errorf("Junctions() = %v", g.Junctions())
	}
	tr := connect(t, g, []string{"school.students", "school.courses"},
		"FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id", plan.SearchPath("school"))
	if got := tr.Added(); !slices.Equal(got, []string{"school.enrollments"}) {
		t.Errorf("added %v, want [school.enrollments]", got)
	}
	if got := tr.Tables(); !slices.Equal(got, []string{"school.students", "school.enrollments", "school.courses"}) {
		t.Errorf("tables %v", got)
	}
}

func TestMultipleForeignKeys(t *testing.T) {
	g := plan.NewGraph(fixture(t))
	var toAddr []string
	for _, e := range g.Edges("shop.orders") {
		if e.To == "shop.addresses" {
			toAddr = append(toAddr, strings.Join(e.FromColumns, ","))
		}
	}
	if !slices.Equal(toAddr, []string{"billing_addr_id", "shipping_addr_id"}) {
		t.Fatalf("orders->addresses edges %v, want both keys", toAddr)
	}
	p, err := g.ShortestPath("shop.orders", "shop.addresses")
	if err != nil {
		t.Fatal(err)
	}
	if p.Hops() != 1 || p.Edges[0].FromColumns[0] != "billing_addr_id" {
		t.Errorf("shortest %v: want the billing key (name order breaks the tie)", p)
	}
	// Only three loopless paths exist: two keys and the one via customers.
	ps := g.KShortestPaths("shop.orders", "shop.addresses", 5)
	if len(ps) != 3 || ps[2].Hops() != 2 {
		t.Fatalf("got %d paths %v, want 3", len(ps), ps)
	}
	if ps[1].Hops() != 1 || ps[1].Edges[0].FromColumns[0] != "shipping_addr_id" {
		t.Errorf("second path %v: want the shipping key", ps[1])
	}
	checkKPaths(t, ps, "shop.orders", "shop.addresses")
}

// checkKPaths asserts Yen's contract: distinct, loopless, non-decreasing.
func checkKPaths(t *testing.T, ps []plan.Path, from, to string) {
	t.Helper()
	seen := map[string]bool{}
	for i, p := range ps {
		if p.Tables[0] != from || p.Tables[len(p.Tables)-1] != to {
			t.Errorf("path %d %v: wrong ends", i, p)
		}
		if len(p.Edges) != len(p.Tables)-1 {
			t.Errorf("path %d: %d edges for %d tables", i, len(p.Edges), len(p.Tables))
		}
		nodes := map[string]bool{}
		for j, n := range p.Tables {
			if nodes[n] {
				t.Errorf("path %d %v has a loop at %s", i, p, n)
			}
			nodes[n] = true
			if j > 0 && (p.Edges[j-1].From != p.Tables[j-1] || p.Edges[j-1].To != n) {
				t.Errorf("path %d: edge %d %s->%s does not chain", i, j-1, p.Edges[j-1].From, p.Edges[j-1].To)
			}
		}
		if seen[p.String()] {
			t.Errorf("path %d %v repeated", i, p)
		}
		seen[p.String()] = true
		if i > 0 && p.Cost < ps[i-1].Cost-1e-9 {
			t.Errorf("path %d cost %v < previous %v", i, p.Cost, ps[i-1].Cost)
		}
	}
}

func TestKShortestHub(t *testing.T) {
	g := plan.NewGraph(fixture(t))
	ps := g.KShortestPaths("social.posts", "social.invoices", 5)
	if len(ps) < 2 {
		t.Fatalf("got %d paths", len(ps))
	}
	checkKPaths(t, ps, "social.posts", "social.invoices")
	var viaHub bool
	for _, p := range ps {
		viaHub = viaHub || slices.Contains(p.Tables, "social.users")
	}
	if !viaHub {
		t.Errorf("no alternative goes through users: %v", ps)
	}
}

func TestCompositeKey(t *testing.T) {
	g := plan.NewGraph(fixture(t))
	tr := connect(t, g, []string{"shop.shipments", "shop.order_items"},
		"FROM shop.shipments s JOIN shop.order_items oi ON oi.order_id = s.order_id AND oi.line_no = s.line_no")
	if got := len(tr.Edges()); got != 2 {
		t.Errorf("%d column pairs, want 2", got)
	}
	// One-to-one: customer_profiles' key is its foreign key.
	p, err := g.ShortestPath("shop.customers", "shop.customer_profiles")
	if err != nil {
		t.Fatal(err)
	}
	if p.Edges[0].Cardinality != plan.OneToOne {
		t.Errorf("cardinality %v, want one-to-one", p.Edges[0].Cardinality)
	}
	// Connect four tables: the tree spans them with three joins through orders.
	tr, err = g.Connect([]string{"shop.products", "shop.customers", "shop.shipments"})
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Added(); !slices.Equal(got, []string{"shop.order_items", "shop.orders"}) {
		t.Errorf("added %v\n%s", got, tr.Skeleton())
	}
	if len(tr.Joins()) != len(tr.Tables())-1 {
		t.Errorf("%d joins for %d tables", len(tr.Joins()), len(tr.Tables()))
	}
}

func TestSelfReference(t *testing.T) {
	g := plan.NewGraph(fixture(t))
	var self []plan.Edge
	for _, e := range g.Edges("hr.employees") {
		if e.Self() {
			self = append(self, e)
		}
	}
	if len(self) != 1 || self[0].FromColumns[0] != "manager_id" || self[0].ToColumns[0] != "id" {
		t.Errorf("self edges %v, want employees.manager_id -> employees.id", self)
	}
	if slices.Contains(g.Neighbors("hr.employees"), "hr.employees") {
		t.Errorf("neighbours include the table itself: %v", g.Neighbors("hr.employees"))
	}
	tr, err := g.Connect([]string{"hr.employees", "hr.departments", "hr.employees"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "FROM hr.employees e JOIN hr.departments d ON d.id = e.department_id"; tr.Skeleton() != want {
		t.Errorf("skeleton %s", tr.Skeleton())
	}
	one, err := g.Connect([]string{"hr.employees"})
	if err != nil || one.Skeleton() != "FROM hr.employees e" || len(one.Joins()) != 0 {
		t.Errorf("single table: %v %q", err, one.Skeleton())
	}
}

func TestHub(t *testing.T) {
	cat := fixture(t)
	g := plan.NewGraph(cat)
	if got := g.Hubs(); !slices.Equal(got, []string{"social.users"}) {
		t.Fatalf("hubs %v, want [social.users]", got)
	}
	p, err := g.ShortestPath("social.posts", "social.invoices")
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(p.Tables, "social.users") || p.Hops() != 3 {
		t.Errorf("path %v uses the hub", p)
	}
	// The same search without the penalty takes the two-hop shortcut, so the
	// assertion above is the penalty's doing.
	free := plan.NewGraph(cat, plan.WithHubPenalty(0))
	p, err = free.ShortestPath("social.posts", "social.invoices")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(p.Tables, "social.users") {
		t.Errorf("without penalty: path %v, want via users", p)
	}
	// A hub as an endpoint costs nothing extra.
	tr, err := g.Connect([]string{"social.t01", "social.users", "social.t02"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Added()) != 0 || tr.Cost() > 2.2 {
		t.Errorf("hub endpoint: added %v cost %v", tr.Added(), tr.Cost())
	}
	// Between two tables that only share the hub, it is still used.
	tr, err = g.Connect([]string{"social.t01", "social.t02"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tr.Added(), []string{"social.users"}) {
		t.Errorf("added %v, want the hub", tr.Added())
	}
	// A high threshold turns hub detection off.
	if hubs := plan.NewGraph(cat, plan.WithHubThreshold(100)).Hubs(); len(hubs) != 0 {
		t.Errorf("hubs %v with threshold 100", hubs)
	}
}

func TestNoPath(t *testing.T) {
	g := plan.NewGraph(fixture(t))
	tr, err := g.Connect([]string{"shop.orders", "island.lonely", "shop.customers"})
	var np *plan.NoPathError
	if !errors.Is(err, plan.ErrNoPath) || !errors.As(err, &np) {
		t.Fatalf("err %v, want ErrNoPath", err)
	}
	if !slices.Equal(np.Unconnected, []string{"island.lonely"}) || len(np.Components) != 2 {
		t.Errorf("unconnected %v components %v", np.Unconnected, np.Components)
	}
	if tr == nil || len(tr.Joins()) != 1 || len(tr.Components()) != 2 {
		t.Fatalf("partial tree %+v", tr)
	}
	want := "FROM shop.orders o JOIN shop.customers c ON c.id = o.customer_id CROSS JOIN island.lonely l /* no join path */"
	if got := tr.Skeleton(); got != want {
		t.Errorf("skeleton\n got %s\nwant %s", got, want)
	}
	if _, err := g.ShortestPath("chain.a", "island.lonely"); !errors.Is(err, plan.ErrNoPath) {
		t.Errorf("ShortestPath to island: %v", err)
	}
	if ps := g.KShortestPaths("chain.a", "island.lonely", 3); ps != nil {
		t.Errorf("KShortestPaths to island: %v", ps)
	}
}

func TestUnknownTable(t *testing.T) {
	g := plan.NewGraph(fixture(t))
	_, err := g.Connect([]string{"shop.orders", "shop.nope", "nope"})
	var ut *plan.UnknownTableError
	if !errors.Is(err, plan.ErrUnknownTable) || !errors.As(err, &ut) || !slices.Equal(ut.Tables, []string{"shop.nope", "nope"}) {
		t.Errorf("err %v", err)
	}
	if _, err := g.ShortestPath("nope", "shop.orders"); !errors.Is(err, plan.ErrUnknownTable) {
		t.Errorf("ShortestPath: %v", err)
	}
}

func TestMaxHopsAndExclude(t *testing.T) {
	g := plan.NewGraph(fixture(t))
	if _, err := g.ShortestPath("chain.a", "chain.c", plan.MaxHops(1)); !errors.Is(err, plan.ErrNoPath) {
		t.Errorf("MaxHops(1) a->c: %v", err)
	}
	if p, err := g.ShortestPath("chain.a", "chain.c", plan.MaxHops(2)); err != nil || p.Hops() != 2 {
		t.Errorf("MaxHops(2) a->c: %v %v", p, err)
	}
	// The cheapest posts->invoices path has 3 hops; with 2 allowed, the
	// dearer hub path must be found (an exact hop-bounded search).
	p, err := g.ShortestPath("social.posts", "social.invoices", plan.MaxHops(2))
	if err != nil || !slices.Contains(p.Tables, "social.users") {
		t.Errorf("MaxHops(2) posts->invoices: %v %v", p, err)
	}
	// Excluding the forum route forces the hub.
	p, err = g.ShortestPath("social.posts", "social.invoices", plan.Exclude("social.forums"))
	if err != nil || !slices.Contains(p.Tables, "social.users") {
		t.Errorf("Exclude(forums): %v %v", p, err)
	}
	_, err = g.Connect([]string{"school.students", "school.courses"}, plan.Exclude("school.enrollments"))
	if !errors.Is(err, plan.ErrNoPath) {
		t.Errorf("Exclude(enrollments): %v", err)
	}
	for _, p := range g.KShortestPaths("social.posts", "social.invoices", 6, plan.MaxHops(3)) {
		if p.Hops() > 3 {
			t.Errorf("KShortestPaths MaxHops(3) gave %v", p)
		}
	}
}

func TestQuotingAndAliases(t *testing.T) {
	g := plan.NewGraph(fixture(t))
	connect(t, g, []string{"legacy.all_stats", "legacy.Account"},
		`FROM legacy.all_stats as2 JOIN legacy."order" o ON o.id = as2.order_id JOIN legacy."Account" a ON a."AccountID" = o.account_id`)
	// Alias collisions are numbered.
	tr, err := g.Connect([]string{"shop.customers", "school.courses", "shop.customer_profiles"})
	if !errors.Is(err, plan.ErrNoPath) {
		t.Fatalf("err %v", err)
	}
	al := tr.Aliases()
	if al["shop.customers"] != "c" || al["shop.customer_profiles"] != "cp" || al["school.courses"] != "c2" {
		t.Errorf("aliases %v", al)
	}
	ml := tr.Skeleton(plan.Multiline(true))
	if strings.Count(ml, "\n") != 2 {
		t.Errorf("multiline skeleton:\n%s", ml)
	}
}

func TestInferredEdges(t *testing.T) {
	cat := fixture(t)
	if _, err := plan.NewGraph(cat).ShortestPath("loose.authors", "loose.papers"); !errors.Is(err, plan.ErrNoPath) {
		t.Fatalf("declared-only graph connects loose tables: %v", err)
	}
	g := plan.NewGraph(cat, plan.WithInferredEdges(true))
	tr, err := g.Connect([]string{"loose.authors", "loose.papers"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pairs(tr.Edges()), []string{"loose.authors.aid=loose.writes.aid", "loose.writes.pid=loose.papers.pid"}; !slices.Equal(got, want) {
		t.Errorf("edges %v, want %v", got, want)
	}
	for _, e := range tr.Joins() {
		if !e.Inferred {
			t.Errorf("edge %v not marked inferred", e)
		}
	}
	if !g.IsJunction("loose.writes") {
		t.Errorf("writes (two inferred keys, no other columns) is not a junction")
	}
	p, err := g.ShortestPath("loose.orders", "loose.customers")
	if err != nil || p.Hops() != 1 || p.Edges[0].FromColumns[0] != "customer_id" || p.Edges[0].ToColumns[0] != "id" || p.Edges[0].Cardinality != plan.ManyToOne {
		t.Errorf("orders->customers: %v %v", p, err)
	}
	// Keyless tables sharing an identifier-like name get an edge of unknown cardinality.
	p, err = g.ShortestPath("loose.cities", "loose.states")
	if err != nil || p.Hops() != 1 || p.Edges[0].Cardinality != plan.Unknown {
		t.Errorf("cities->states: %v %v", p, err)
	}
	// Declared keys are not duplicated by inference, and stay cheaper.
	for _, e := range g.Edges("shop.orders") {
		if e.Inferred && e.To == "shop.customers" {
			t.Errorf("inferred duplicate of a declared key: %v", e)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	g := plan.NewGraph(fixture(t))
	want, err := g.Connect([]string{"shop.products", "shop.customers", "shop.shipments"})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan string, 8)
	for range 8 {
		go func() {
			tr, err := g.Connect([]string{"shop.products", "shop.customers", "shop.shipments"})
			if err != nil {
				errs <- err.Error()
				return
			}
			errs <- tr.Skeleton()
		}()
	}
	for range 8 {
		if got := <-errs; got != want.Skeleton() {
			t.Errorf("concurrent result %q, want %q", got, want.Skeleton())
		}
	}
}

// TestWithin: the cheapest path between two tables of one tenant runs
// through another tenant's table; Within keeps every search inside the
// tenant and the shared schema, and finds the dearer path there.
func TestWithin(t *testing.T) {
	cat := introspect(t, "plan/within", `
CREATE SCHEMA div_01; CREATE SCHEMA div_02;
CREATE TABLE public.regions (id int PRIMARY KEY);
CREATE TABLE div_02.links (id int PRIMARY KEY);
CREATE TABLE div_01.x (id int PRIMARY KEY, link_id int REFERENCES div_02.links, region_id int REFERENCES public.regions);
CREATE TABLE div_01.y (id int PRIMARY KEY, link_id int REFERENCES div_02.links);
CREATE TABLE div_01.w (id int PRIMARY KEY, region_id int REFERENCES public.regions, y_id int REFERENCES div_01.y);`)
	g := plan.NewGraph(cat)
	p, err := g.ShortestPath("div_01.x", "div_01.y")
	if err != nil || !slices.Contains(p.Tables, "div_02.links") {
		t.Fatalf("unrestricted: %v %v, want the path through div_02.links", p, err)
	}
	within := plan.Within("div_01", "public")
	p, err = g.ShortestPath("div_01.x", "div_01.y", within)
	if err != nil || !slices.Equal(p.Tables, []string{"div_01.x", "public.regions", "div_01.w", "div_01.y"}) {
		t.Errorf("Within: %v %v", p, err)
	}
	tree, err := g.Connect([]string{"div_01.x", "div_01.y"}, within)
	if err != nil || slices.Contains(tree.Tables(), "div_02.links") || !slices.Contains(tree.Tables(), "div_01.w") {
		t.Errorf("Connect Within: %v %v", tree.Tables(), err)
	}
	for _, kp := range g.KShortestPaths("div_01.x", "div_01.y", 3, within) {
		if slices.Contains(kp.Tables, "div_02.links") {
			t.Errorf("KShortestPaths Within gave %v", kp.Tables)
		}
	}
	// Requested tables are allowed even outside the schemas.
	if _, err := g.ShortestPath("div_01.x", "div_02.links", within); err != nil {
		t.Errorf("requested table outside Within: %v", err)
	}
	if _, err := g.Connect([]string{"div_01.x", "div_01.y"}, plan.Within("div_01")); !errors.Is(err, plan.ErrNoPath) {
		t.Errorf("Within(div_01) alone: %v, want no path", err)
	}
}
