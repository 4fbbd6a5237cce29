package plan_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/plan"
)

// TestAmong: searches stay inside the given tables; requested tables are
// always allowed; a path needing another table is no path.
func TestAmong(t *testing.T) {
	g := plan.NewGraph(fixture(t))
	// chain.a -> chain.b -> chain.c: b is the only bridge.
	if _, err := g.ShortestPath("chain.a", "chain.c", plan.Among("chain.a", "chain.c")); !errors.Is(err, plan.ErrNoPath) {
		t.Errorf("ShortestPath without the bridge: %v, want ErrNoPath", err)
	}
	if p, err := g.ShortestPath("chain.a", "chain.c", plan.Among("chain.a", "chain.b", "chain.c")); err != nil || p.Hops() != 2 {
		t.Errorf("ShortestPath with the bridge: %v %v", p, err)
	}
	// Requested tables need not be listed.
	if p, err := g.ShortestPath("chain.a", "chain.c", plan.Among("chain.b")); err != nil || p.Hops() != 2 {
		t.Errorf("ShortestPath Among(bridge only): %v %v", p, err)
	}
	if p, err := g.ShortestPath("chain.a", "chain.b", plan.Among("island.lonely")); err != nil || p.Hops() != 1 {
		t.Errorf("direct join with an unrelated Among: %v %v", p, err)
	}
	// Unknown names are ignored; with nothing else, only requested tables.
	if _, err := g.ShortestPath("chain.a", "chain.c", plan.Among("nope.nope")); !errors.Is(err, plan.ErrNoPath) {
		t.Errorf("Among(unknown): %v, want ErrNoPath", err)
	}
	if ps := g.KShortestPaths("chain.a", "chain.c", 3, plan.Among("chain.a", "chain.c")); ps != nil {
		t.Errorf("KShortestPaths without the bridge: %v", ps)
	}

	// posts -> invoices: the cheap path goes through forums and threads,
	// the other through the users hub.
	ps := g.KShortestPaths("social.posts", "social.invoices", 5, plan.Among("social.threads", "social.forums"))
	if len(ps) != 1 || slices.Contains(ps[0].Tables, "social.users") {
		t.Errorf("KShortestPaths Among(threads, forums): %v", ps)
	}
	ps = g.KShortestPaths("social.posts", "social.invoices", 5, plan.Among("social.users"))
	if len(ps) != 1 || !slices.Equal(ps[0].Tables, []string{"social.posts", "social.users", "social.invoices"}) {
		t.Errorf("KShortestPaths Among(users): %v", ps)
	}
	// Repeated options add up; Exclude still applies to allowed tables.
	p, err := g.ShortestPath("social.posts", "social.invoices", plan.Among("social.threads"), plan.Among("social.forums", "social.users"))
	if err != nil || slices.Contains(p.Tables, "social.users") {
		t.Errorf("two Among options: %v %v", p, err)
	}
	p, err = g.ShortestPath("social.posts", "social.invoices", plan.Among("social.threads", "social.forums", "social.users"), plan.Exclude("social.forums"))
	if err != nil || !slices.Contains(p.Tables, "social.users") {
		t.Errorf("Among and Exclude: %v %v", p, err)
	}

	// Connect: products and customers need order_items and orders.
	req := []string{"shop.products", "shop.customers"}
	tr, err := g.Connect(req, plan.Among("shop.products", "shop.customers", "shop.order_items", "shop.orders"))
	if err != nil || !slices.Equal(tr.Added(), []string{"shop.order_items", "shop.orders"}) {
		t.Fatalf("Connect with the context: %v %v", tr.Added(), err)
	}
	tr, err = g.Connect(req, plan.Among("shop.products", "shop.customers", "shop.orders"), plan.MaxHops(3))
	var np *plan.NoPathError
	if !errors.As(err, &np) || !slices.Equal(np.Unconnected, []string{"shop.customers"}) {
		t.Fatalf("Connect without order_items: %v", err)
	}
	if got := tr.Tables(); !slices.Equal(got, req) || len(tr.Joins()) != 0 {
		t.Errorf("forest %v joins %v", got, tr.Joins())
	}
	// Among only restricts: the unrestricted tree uses no other table.
	tr, err = g.Connect([]string{"school.students", "school.courses"}, plan.Among("school.enrollments"))
	if err != nil || !slices.Equal(tr.Added(), []string{"school.enrollments"}) {
		t.Errorf("junction in Among: %v %v", tr.Added(), err)
	}
	if _, err := g.Connect([]string{"school.students", "school.courses"}, plan.Among()); !errors.Is(err, plan.ErrNoPath) {
		t.Errorf("Among(): %v, want ErrNoPath", err)
	}
}

func names(fs []plan.FanOut) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.One+">"+f.Many)
	}
	return out
}

func TestFanOuts(t *testing.T) {
	g := plan.NewGraph(fixture(t))
	tr := connect(t, g, []string{"shop.customers", "shop.orders", "shop.order_items", "shop.customer_profiles"},
		"FROM shop.customers c JOIN shop.customer_profiles cp ON cp.customer_id = c.id JOIN shop.orders o ON o.customer_id = c.id JOIN shop.order_items oi ON oi.order_id = o.id")
	fs := tr.FanOuts()
	// customer_profiles is one-to-one: no fan-out.
	if got, want := names(fs), []string{"shop.customers>shop.orders", "shop.orders>shop.order_items"}; !slices.Equal(got, want) {
		t.Fatalf("fan-outs %v, want %v", got, want)
	}
	if got, want := fs[0].Multiplied, []string{"shop.customers", "shop.customer_profiles"}; !slices.Equal(got, want) {
		t.Errorf("customers>orders multiplies %v, want %v", got, want)
	}
	if got, want := fs[1].Multiplied, []string{"shop.customers", "shop.customer_profiles", "shop.orders"}; !slices.Equal(got, want) {
		t.Errorf("orders>order_items multiplies %v, want %v", got, want)
	}
	if fs[1].Join.From != "shop.orders" || fs[1].Join.Cardinality != plan.OneToMany {
		t.Errorf("join %+v", fs[1].Join)
	}
	// Traversed from the many side: the join is many-to-one, the fan-out
	// the same.
	tr = connect(t, g, []string{"shop.order_items", "shop.orders"}, "FROM shop.order_items oi JOIN shop.orders o ON o.id = oi.order_id")
	fs = tr.FanOuts()
	if len(fs) != 1 || fs[0].One != "shop.orders" || fs[0].Many != "shop.order_items" || !slices.Equal(fs[0].Multiplied, []string{"shop.orders"}) ||
		fs[0].Join.Cardinality != plan.ManyToOne {
		t.Errorf("fan-outs %+v", fs)
	}
	want := "FROM shop.order_items oi JOIN shop.orders o ON o.id = oi.order_id /* one row per oi: o repeats */"
	if got := tr.Skeleton(plan.FanOutNotes(true)); got != want {
		t.Errorf("skeleton with notes\n got %s\nwant %s", got, want)
	}
	// A junction fans out both ends.
	tr = connect(t, g, []string{"school.students", "school.courses"},
		"FROM school.students s JOIN school.enrollments e ON e.student_id = s.id JOIN school.courses c ON c.id = e.course_id")
	if got, want := names(tr.FanOuts()), []string{"school.students>school.enrollments", "school.courses>school.enrollments"}; !slices.Equal(got, want) {
		t.Errorf("junction fan-outs %v, want %v", got, want)
	}
	// A chain followed in the key's direction: each referenced table
	// repeats per referencing row, the fact table a repeats nowhere.
	fs = connect(t, g, []string{"chain.a", "chain.c"}, "FROM chain.a a JOIN chain.b b ON b.id = a.b_id JOIN chain.c c ON c.id = b.c_id").FanOuts()
	if got, want := names(fs), []string{"chain.b>chain.a", "chain.c>chain.b"}; !slices.Equal(got, want) ||
		!slices.Equal(fs[0].Multiplied, []string{"chain.b", "chain.c"}) || !slices.Equal(fs[1].Multiplied, []string{"chain.c"}) {
		t.Errorf("chain fan-outs %v %v", got, fs)
	}
	for _, f := range fs {
		if slices.Contains(f.Multiplied, "chain.a") {
			t.Errorf("%s>%s multiplies the fact table", f.One, f.Many)
		}
	}
	// Unknown cardinality is not reported.
	tr, err := plan.NewGraph(fixture(t), plan.WithInferredEdges(true)).Connect([]string{"loose.cities", "loose.states"})
	if err != nil || len(tr.Joins()) != 1 || len(tr.FanOuts()) != 0 {
		t.Errorf("inferred keyless join: %v %v", names(tr.FanOuts()), err)
	}
	if fs := (&plan.Tree{}).FanOuts(); fs != nil {
		t.Errorf("empty tree: %v", fs)
	}
}

func TestPrune(t *testing.T) {
	g := plan.NewGraph(fixture(t))
	tr := connect(t, g, []string{"shop.customers", "shop.orders", "shop.order_items"},
		"FROM shop.customers c JOIN shop.orders o ON o.customer_id = c.id JOIN shop.order_items oi ON oi.order_id = o.id")
	// order_items was only wanted optionally: dropping it removes the fan-out.
	p := tr.Prune("shop.customers", "orders", "shop.orders")
	if got, want := p.Skeleton(), "FROM shop.customers c JOIN shop.orders o ON o.customer_id = c.id"; got != want {
		t.Errorf("pruned skeleton %s", got)
	}
	if !slices.Equal(p.Requested(), []string{"shop.customers", "shop.orders"}) || len(p.FanOuts()) != 1 || p.Cost() >= tr.Cost() {
		t.Errorf("pruned: requested %v fan-outs %v cost %v (was %v)", p.Requested(), names(p.FanOuts()), p.Cost(), tr.Cost())
	}
	// A table between needed ones stays, requested or not.
	if p := tr.Prune("shop.customers", "shop.order_items"); p != tr {
		t.Errorf("nothing to prune: %s", p.Skeleton())
	}
	tr2, err := g.Connect([]string{"shop.customers", "shop.order_items"})
	if err != nil || tr2.Prune("shop.customers", "shop.order_items") != tr2 {
		t.Fatalf("added bridge pruned: %v", err)
	}
	// The first table goes: the tree is walked again from the first
	// remaining requested one, and equals the tree Connect makes of them.
	tr = connect(t, g, []string{"shop.order_items", "shop.orders", "shop.customers"},
		"FROM shop.order_items oi JOIN shop.orders o ON o.id = oi.order_id JOIN shop.customers c ON c.id = o.customer_id")
	p = tr.Prune("shop.orders", "shop.customers")
	direct, err := g.Connect([]string{"shop.orders", "shop.customers"})
	if err != nil || p.Skeleton() != direct.Skeleton() || p.Cost() != direct.Cost() || !slices.Equal(p.Tables(), direct.Tables()) {
		t.Errorf("pruned %s (cost %v), want %s (cost %v)", p.Skeleton(), p.Cost(), direct.Skeleton(), direct.Cost())
	}
	// A junction left dangling goes too, and so does its other end.
	tr = connect(t, g, []string{"school.students", "school.courses"},
		"FROM school.students s JOIN school.enrollments e ON e.student_id = s.id JOIN school.courses c ON c.id = e.course_id")
	p = tr.Prune("school.students")
	if p.Skeleton() != "FROM school.students s" || len(p.Added()) != 0 || len(p.Joins()) != 0 || p.Cost() != 0 {
		t.Errorf("junction prune: %s added %v", p.Skeleton(), p.Added())
	}
	// An added junction that is needed stays, and stays added.
	p = tr.Prune("school.students", "school.enrollments")
	if p.Skeleton() != "FROM school.students s JOIN school.enrollments e ON e.student_id = s.id" || !slices.Equal(p.Added(), []string{"school.enrollments"}) {
		t.Errorf("needed junction: %s added %v", p.Skeleton(), p.Added())
	}
	// Forests: a component without a needed table disappears.
	tr, err = g.Connect([]string{"shop.orders", "island.lonely", "shop.customers"})
	if !errors.Is(err, plan.ErrNoPath) {
		t.Fatal(err)
	}
	if p := tr.Prune("shop.orders", "shop.customers"); p.Skeleton() != "FROM shop.orders o JOIN shop.customers c ON c.id = o.customer_id" || len(p.Components()) != 1 {
		t.Errorf("forest prune: %s %v", p.Skeleton(), p.Components())
	}
	if p := tr.Prune("island.lonely", "shop.orders"); p.Skeleton() != "FROM shop.orders o CROSS JOIN island.lonely l /* no join path */" {
		t.Errorf("forest prune keeping the island: %s", p.Skeleton())
	}
	if p := tr.Prune(); len(p.Tables()) != 0 || p.Skeleton() != "" {
		t.Errorf("nothing needed: %v", p.Tables())
	}
}
