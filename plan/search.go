package plan

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// ErrUnknownTable is returned (wrapped in *UnknownTableError) for a table
// name the catalog does not have.
var ErrUnknownTable = errors.New("plan: unknown table")

// ErrNoPath is returned (wrapped in *NoPathError) when tables cannot be
// connected through the graph under the given options.
var ErrNoPath = errors.New("plan: no join path")

// UnknownTableError names the unknown tables.
type UnknownTableError struct{ Tables []string }

func (e *UnknownTableError) Error() string {
	return fmt.Sprintf("plan: unknown table(s) %s", strings.Join(e.Tables, ", "))
}

// Is makes errors.Is(err, ErrUnknownTable) true.
func (e *UnknownTableError) Is(target error) bool { return target == ErrUnknownTable }

// NoPathError reports the groups of requested tables that could be
// connected among themselves but not with each other. Components[0] is the
// group the returned tree or path starts from; Unconnected lists the
// requested tables outside it.
type NoPathError struct {
	Components  [][]string
	Unconnected []string
}

func (e *NoPathError) Error() string {
	return fmt.Sprintf("plan: no join path to %s", strings.Join(e.Unconnected, ", "))
}

// Is makes errors.Is(err, ErrNoPath) true.
func (e *NoPathError) Is(target error) bool { return target == ErrNoPath }

// SearchOption restricts ShortestPath, KShortestPaths and Connect.
type SearchOption interface{ applySearch(*searchConfig) }

type searchConfig struct {
	maxHops int
	exclude []string
	within  []string
	among   []string
	amongOn bool
	allow   []bool         // by schema index, from within; nil allows every schema
	only    map[int32]bool // node ids, from among; nil allows every table
}

type searchOptionFunc func(*searchConfig)

func (f searchOptionFunc) applySearch(c *searchConfig) { f(c) }

// MaxHops limits a path (or each path added to a tree) to n joins; 0 means
// no limit.
func MaxHops(n int) SearchOption { return searchOptionFunc(func(c *searchConfig) { c.maxHops = n }) }

// Exclude keeps paths from passing through the named tables (requested
// tables are never excluded). Unknown names are ignored.
func Exclude(tables ...string) SearchOption {
	return searchOptionFunc(func(c *searchConfig) { c.exclude = append(c.exclude, tables...) })
}

// Within keeps paths inside the tables of the named schemas: a tenant's
// schema and the shared ones, say, so that a search never wanders into the
// other tenants reachable through shared tables. Requested tables are
// always allowed. Unknown schemas are ignored.
func Within(schemas ...string) SearchOption {
	return searchOptionFunc(func(c *searchConfig) { c.within = append(c.within, schemas...) })
}

// Among keeps paths and trees inside the named tables ("schema.table";
// bare names mean public): the tables of a question's retrieved context,
// say, so that a skeleton never joins through a table the prompt does not
// show. Requested tables are always allowed, as with Within, so Among
// restricts only the bridge and junction tables a search may add; a search
// that needs a table outside the set fails with a *NoPathError (Connect
// returns the forest of what it could join). Unknown names are ignored;
// Among with only unknown names allows no table besides the requested ones.
// Repeated Among options add up (their union is allowed); Exclude and Within
// still apply to the tables Among allows.
func Among(tables ...string) SearchOption {
	return searchOptionFunc(func(c *searchConfig) {
		c.among = append(c.among, tables...)
		c.amongOn = true
	})
}

// Path is a chain of joins from one table to another.
type Path struct {
	Tables []string // From first, To last
	Edges  []Edge   // Edges[i] joins Tables[i] to Tables[i+1]
	// Cost is the sum of edge weights plus the hub penalty of every hub
	// passed through.
	Cost float64
}

// Hops returns the number of joins.
func (p Path) Hops() int { return len(p.Edges) }

// String renders the path as "a -(a.x=b.y)-> b ...".
func (p Path) String() string {
	if len(p.Tables) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(p.Tables[0])
	for _, e := range p.Edges {
		fmt.Fprintf(&b, " -[%s]-> %s", joinCond(e), e.To)
	}
	return b.String()
}

func joinCond(e Edge) string {
	parts := make([]string, len(e.FromColumns))
	for i := range e.FromColumns {
		parts[i] = e.FromColumns[i] + "=" + e.ToColumns[i]
	}
	return strings.Join(parts, ",")
}

// query is one run of the search: Dijkstra from a set of sources to the
// nearest target.
type query struct {
	sources []int32
	targets map[int32]bool
	banNode map[int32]bool // never entered
	banEdge map[int32]bool // never used (edge index)
	allow   []bool         // schema index -> may be entered; nil: all
	only    map[int32]bool // node -> may be entered; nil: all
	maxHops int            // 0: unlimited
	// maxCost, when positive, ends the search once every state left costs
	// more (run then sets exceeded): the caller has a cheaper answer.
	maxCost  float64
	exceeded bool
}

// label is a settled or tentative search state.
type label struct {
	cost  float64
	node  int32
	hops  int32
	edge  int32 // edge used to arrive, -1 at a source
	prev  int32 // index of the previous state's label, -1 at a source
	final bool
}

type item struct {
	cost  float64
	node  int32
	hops  int32
	label int32
}

// pq is a binary min-heap of items, typed to avoid boxing each push.
type pq []item

func (it item) less(o item) bool {
	if it.cost != o.cost {
		return it.cost < o.cost
	}
	if it.node != o.node {
		return it.node < o.node
	}
	return it.hops < o.hops
}

func (q *pq) push(x item) {
	*q = append(*q, x)
	h := *q
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h[i].less(h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *pq) pop() item {
	h := *q
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		m, l, r := i, 2*i+1, 2*i+2
		if l < n && h[l].less(h[m]) {
			m = l
		}
		if r < n && h[r].less(h[m]) {
			m = r
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	*q = h
	return top
}

// scratch is the reusable memory of one search: state -> label index,
// valid where stamp equals gen, so nothing is cleared between searches.
type scratch struct {
	gen    uint32
	stamp  []uint32
	index  []int32
	labels []label
	heap   pq
}

func (g *Graph) getScratch(states int) *scratch {
	sc, _ := g.scratch.Get().(*scratch)
	if sc == nil {
		sc = &scratch{}
	}
	if len(sc.stamp) < states {
		sc.stamp, sc.index, sc.gen = make([]uint32, states), make([]int32, states), 0
	}
	sc.gen++
	if sc.gen == 0 { // wrapped: old stamps could match again
		clear(sc.stamp)
		sc.gen = 1
	}
	sc.labels, sc.heap = sc.labels[:0], sc.heap[:0]
	return sc
}

// run finds the cheapest path from any source to any target. Without a hop
// limit a state is a node; with one it is (node, hops), which keeps the
// search exact: a cheap long path does not hide a dearer short one. Its
// memory comes from a pool, so concurrent searches do not share it and
// repeated ones do not allocate per table.
func (g *Graph) run(q *query) (nodes []int32, edges []int32, cost float64, ok bool) {
	width := int32(1)
	if q.maxHops > 0 {
		width = int32(q.maxHops + 1)
	}
	sc := g.getScratch(len(g.tables) * int(width))
	defer g.scratch.Put(sc)
	state := func(n, h int32) int32 {
		if width == 1 {
			return n
		}
		return n*width + h
	}
	lookup := func(st int32) (int32, bool) {
		if sc.stamp[st] == sc.gen {
			return sc.index[st], true
		}
		return -1, false
	}
	set := func(st int32, l label) int32 {
		i, ok := lookup(st)
		if !ok {
			i = int32(len(sc.labels))
			sc.labels = append(sc.labels, l)
			sc.stamp[st], sc.index[st] = sc.gen, i
		} else {
			sc.labels[i] = l
		}
		return i
	}
	for _, s := range q.sources {
		i := set(state(s, 0), label{node: s, edge: -1, prev: -1})
		sc.heap.push(item{node: s, label: i})
	}
	for len(sc.heap) > 0 {
		it := sc.heap.pop()
		l := &sc.labels[it.label]
		if l.final || it.cost > l.cost {
			continue
		}
		if q.maxCost > 0 && l.cost > q.maxCost {
			q.exceeded = true
			return nil, nil, 0, false
		}
		l.final = true
		if q.targets[l.node] {
			cost = l.cost
			for i := it.label; i >= 0; i = sc.labels[i].prev {
				x := sc.labels[i]
				nodes = append(nodes, x.node)
				if x.edge >= 0 {
					edges = append(edges, x.edge)
				}
			}
			reverse(nodes)
			reverse(edges)
			return nodes, edges, cost, true
		}
		if q.maxHops > 0 && int(l.hops) >= q.maxHops {
			continue
		}
		extra := 0.0
		if g.hub[l.node] && l.edge >= 0 { // passing through; sources are free
			extra = g.hubPenalty
		}
		from, base, hops := l.node, l.cost, l.hops+1
		for _, a := range g.adj[from] {
			if q.banEdge[a.edge] || ((q.banNode[a.to] || (q.allow != nil && !q.allow[g.schemaOf[a.to]]) || (q.only != nil && !q.only[a.to])) && !q.targets[a.to]) {
				continue
			}
			c := base + a.weight + extra
			st := state(a.to, hops)
			if i, seen := lookup(st); seen && (sc.labels[i].final || sc.labels[i].cost <= c) {
				continue
			}
			i := set(st, label{cost: c, node: a.to, hops: hops, edge: a.edge, prev: it.label})
			sc.heap.push(item{cost: c, node: a.to, hops: hops, label: i})
		}
	}
	return nil, nil, 0, false
}

func reverse[T any](s []T) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// resolve maps table names to node ids, reporting unknown ones.
func (g *Graph) resolve(tables ...string) ([]int32, error) {
	ids := make([]int32, 0, len(tables))
	var unknown []string
	for _, t := range tables {
		id, ok := g.lookup(t)
		if !ok {
			unknown = append(unknown, t)
			continue
		}
		ids = append(ids, id)
	}
	if unknown != nil {
		return nil, &UnknownTableError{Tables: unknown}
	}
	return ids, nil
}

func (g *Graph) searchConfig(opts []SearchOption) (searchConfig, map[int32]bool) {
	var cfg searchConfig
	for _, o := range opts {
		o.applySearch(&cfg)
	}
	ban := map[int32]bool{}
	for _, t := range cfg.exclude {
		if id, ok := g.lookup(t); ok {
			ban[id] = true
		}
	}
	if len(cfg.within) > 0 {
		cfg.allow = make([]bool, len(g.schemas))
		for _, s := range cfg.within {
			if i, ok := g.schemaIdx[s]; ok {
				cfg.allow[i] = true
			}
		}
	}
	if cfg.amongOn {
		cfg.only = make(map[int32]bool, len(cfg.among))
		for _, t := range cfg.among {
			if id, ok := g.lookup(t); ok {
				cfg.only[id] = true
			}
		}
	}
	return cfg, ban
}

// ShortestPath returns the cheapest path from one table to another. Table
// names are "schema.table" (bare names mean public). The error is an
// *UnknownTableError or a *NoPathError.
func (g *Graph) ShortestPath(from, to string, opts ...SearchOption) (Path, error) {
	ids, err := g.resolve(from, to)
	if err != nil {
		return Path{}, err
	}
	cfg, ban := g.searchConfig(opts)
	delete(ban, ids[0])
	nodes, edges, ok := g.shortest(ids[0], ids[1], ban, nil, &cfg, cfg.maxHops)
	if !ok {
		return Path{}, &NoPathError{
			Components:  [][]string{{g.name(ids[0])}, {g.name(ids[1])}},
			Unconnected: []string{g.name(ids[1])},
		}
	}
	return g.path(nodes, edges), nil
}

func (g *Graph) shortest(from, to int32, banNode, banEdge map[int32]bool, cfg *searchConfig, maxHops int) ([]int32, []int32, bool) {
	nodes, edges, _, ok := g.run(&query{
		sources: []int32{from}, targets: map[int32]bool{to: true},
		banNode: banNode, banEdge: banEdge, allow: cfg.allow, only: cfg.only, maxHops: maxHops,
	})
	return nodes, edges, ok
}

func (g *Graph) name(id int32) string { return g.names[id] }

// path builds a Path, costing it from scratch so every path is priced the
// same way: edge weights plus the penalty of intermediate hubs.
func (g *Graph) path(nodes, edges []int32) Path {
	p := Path{Tables: make([]string, len(nodes)), Edges: make([]Edge, len(edges))}
	for i, n := range nodes {
		p.Tables[i] = g.name(n)
		if i > 0 && i < len(nodes)-1 && g.hub[n] {
			p.Cost += g.hubPenalty
		}
	}
	for i, e := range edges {
		p.Edges[i] = g.edges[e]
		p.Cost += g.edges[e].Weight
	}
	return p
}

// KShortestPaths returns up to k loopless paths from one table to another in
// non-decreasing cost (Yen's algorithm). Paths differ in at least one edge,
// so two foreign keys between the same tables give two paths. It returns nil
// for unknown tables or when there is no path.
func (g *Graph) KShortestPaths(from, to string, k int, opts ...SearchOption) []Path {
	ids, err := g.resolve(from, to)
	if err != nil || k <= 0 {
		return nil
	}
	cfg, ban := g.searchConfig(opts)
	delete(ban, ids[0])
	type cand struct {
		nodes, edges []int32
		cost         float64
	}
	costOf := func(nodes, edges []int32) float64 { return g.path(nodes, edges).Cost }
	nodes, edges, ok := g.shortest(ids[0], ids[1], ban, nil, &cfg, cfg.maxHops)
	if !ok {
		return nil
	}
	found := []cand{{nodes, edges, costOf(nodes, edges)}}
	var pool []cand
	seen := map[string]bool{edgeKey(edges): true}
	for len(found) < k {
		last := found[len(found)-1]
		for i := 0; i < len(last.nodes)-1; i++ {
			spur := last.nodes[i]
			rootNodes, rootEdges := last.nodes[:i+1], last.edges[:i]
			banEdge := map[int32]bool{}
			for _, p := range found {
				if len(p.edges) > i && slices.Equal(p.edges[:i], rootEdges) {
					banEdge[p.edges[i]] = true
				}
			}
			banNode := map[int32]bool{}
			for n := range ban {
				banNode[n] = true
			}
			for _, n := range rootNodes[:i] {
				banNode[n] = true
			}
			hops := 0
			if cfg.maxHops > 0 {
				if hops = cfg.maxHops - i; hops <= 0 {
					continue
				}
			}
			sn, se, ok := g.shortest(spur, ids[1], banNode, banEdge, &cfg, hops)
			if !ok {
				continue
			}
			nodes := append(append([]int32{}, rootNodes[:i]...), sn...)
			edges := append(append([]int32{}, rootEdges...), se...)
			if key := edgeKey(edges); !seen[key] {
				seen[key] = true
				pool = append(pool, cand{nodes, edges, costOf(nodes, edges)})
			}
		}
		if len(pool) == 0 {
			break
		}
		sort.SliceStable(pool, func(a, b int) bool {
			if pool[a].cost != pool[b].cost {
				return pool[a].cost < pool[b].cost
			}
			return g.namesKey(pool[a].nodes) < g.namesKey(pool[b].nodes)
		})
		found = append(found, pool[0])
		pool = pool[1:]
	}
	out := make([]Path, len(found))
	for i, c := range found {
		out[i] = g.path(c.nodes, c.edges)
	}
	return out
}

func (g *Graph) namesKey(nodes []int32) string {
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(g.name(n))
		b.WriteByte(' ')
	}
	return b.String()
}

func edgeKey(edges []int32) string {
	var b strings.Builder
	for _, e := range edges {
		fmt.Fprintf(&b, "%d,", e)
	}
	return b.String()
}
