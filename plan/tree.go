package plan

import (
	"slices"
	"sort"
)

// maxStarts bounds how many requested tables Connect tries as the seed of
// its tree; beyond it only the first is tried.
const maxStarts = 8

// Tree is a set of joins connecting requested tables, possibly through
// added (bridge, junction) tables. When some tables cannot be connected it
// is a forest: one tree per component.
type Tree struct {
	g          *Graph
	requested  []string
	tables     []string // join order
	added      []string
	joins      []Edge  // joins[i] brings a new table in; From is already joined
	ids        []int32 // ids[i] is the index of joins[i] in g.edges
	components [][]string
	cost       float64
}

// Tables returns every table of the tree in join order: the first requested
// table, then each table as it is joined.
func (t *Tree) Tables() []string { return slices.Clone(t.tables) }

// Requested returns the requested tables, qualified, in the given order.
func (t *Tree) Requested() []string { return slices.Clone(t.requested) }

// Added returns the tables the tree needed besides the requested ones
// (junction and bridge tables), in join order.
func (t *Tree) Added() []string { return slices.Clone(t.added) }

// Joins returns the joins in order, each oriented from the table already in
// the FROM list to the table it brings in.
func (t *Tree) Joins() []Edge { return slices.Clone(t.joins) }

// Edges returns the column equalities of the joins, one per key column, as
// "schema.table.column" pairs oriented like Joins.
func (t *Tree) Edges() []JoinEdge {
	var out []JoinEdge
	for _, e := range t.joins {
		out = append(out, e.ColumnPairs()...)
	}
	return out
}

// Components returns the tables of each connected component (requested and
// added), in join order; more than one means the tree is a forest.
func (t *Tree) Components() [][]string {
	out := make([][]string, len(t.components))
	for i, c := range t.components {
		out[i] = slices.Clone(c)
	}
	return out
}

// Cost returns the sum of the joins' weights plus the hub penalties of the
// added tables that are hubs.
func (t *Tree) Cost() float64 { return t.cost }

// build is a tree under construction, on node ids.
type build struct {
	nodes  []int32
	in     map[int32]bool
	edges  []int32
	comps  [][]int32 // node ids per component
	cost   float64
	broken int // number of extra components
}

// Connect returns a minimal-cost tree joining the given tables (two or more;
// one gives a tree without joins). It uses the shortest-path heuristic for
// Steiner trees (Takahashi–Matsuyama): starting from one table, it
// repeatedly adds the cheapest path from the tree to the nearest table not
// yet in it, trying each requested table (up to maxStarts) as the start and
// keeping the cheapest result. Tables on those paths that were not requested
// are reported by Added. MaxHops limits each added path.
//
// When some tables cannot be reached, Connect returns the forest that
// connects what can be connected together with a *NoPathError.
func (g *Graph) Connect(tables []string, opts ...SearchOption) (*Tree, error) {
	ids, err := g.resolve(tables...)
	if err != nil {
		return nil, err
	}
	var terms []int32
	for _, id := range ids {
		if !slices.Contains(terms, id) {
			terms = append(terms, id)
		}
	}
	if len(terms) == 0 {
		return &Tree{g: g}, nil
	}
	cfg, ban := g.searchConfig(opts)
	for _, id := range terms {
		delete(ban, id)
		if cfg.only != nil {
			cfg.only[id] = true // requested tables are always allowed
		}
	}
	var best *build
	for s := 0; s < len(terms) && s < maxStarts; s++ {
		b := g.grow(terms, s, ban, &cfg, best)
		if b != nil && (best == nil || b.broken < best.broken || (b.broken == best.broken && b.cost < best.cost-1e-9)) {
			best = b
		}
	}
	t := g.tree(terms, best)
	if best.broken > 0 {
		e := &NoPathError{Components: make([][]string, len(best.comps))}
		for i, c := range best.comps {
			for _, n := range c {
				if slices.Contains(terms, n) {
					e.Components[i] = append(e.Components[i], g.name(n))
					if i > 0 {
						e.Unconnected = append(e.Unconnected, g.name(n))
					}
				}
			}
		}
		return t, e
	}
	return t, nil
}

// grow runs the shortest-path heuristic from terms[start]. It gives up,
// returning nil, as soon as it cannot beat best: the cost of a path found
// includes the hubs it passes, so the running sum is the tree's cost so far.
func (g *Graph) grow(terms []int32, start int, ban map[int32]bool, cfg *searchConfig, best *build) *build {
	b := &build{in: map[int32]bool{}}
	remaining := map[int32]bool{}
	for _, id := range terms {
		remaining[id] = true
	}
	seed := func(n int32) {
		b.nodes = append(b.nodes, n)
		b.in[n] = true
		b.comps = append(b.comps, []int32{n})
		delete(remaining, n)
	}
	seed(terms[start])
	for len(remaining) > 0 {
		cur := b.comps[len(b.comps)-1]
		q := &query{sources: cur, targets: remaining, banNode: ban, allow: cfg.allow, only: cfg.only, maxHops: cfg.maxHops}
		bounded := best != nil && b.broken >= best.broken
		if bounded {
			// A path dearer than this loses to best: stop searching there.
			q.maxCost = best.cost - b.cost + 1e-9
			if q.maxCost <= 0 {
				return nil
			}
		}
		nodes, edges, cost, ok := g.run(q)
		if q.exceeded {
			return nil // over the bound, not unreachable
		}
		if !ok {
			b.broken++
			if best != nil && b.broken > best.broken {
				return nil
			}
			for _, id := range terms { // next component: first remaining in request order
				if remaining[id] {
					seed(id)
					break
				}
			}
			continue
		}
		for _, n := range nodes[1:] {
			b.nodes = append(b.nodes, n)
			b.in[n] = true
			b.comps[len(b.comps)-1] = append(b.comps[len(b.comps)-1], n)
			delete(remaining, n)
		}
		b.edges = append(b.edges, edges...)
		b.cost += cost
		if best != nil && b.broken >= best.broken && b.cost > best.cost+1e-9 {
			return nil
		}
	}
	return b
}

// tree orders a build for rendering: each component is walked breadth-first
// from its first requested table, neighbours in name order, so the result
// does not depend on the order paths were found in.
func (g *Graph) tree(terms []int32, b *build) *Tree {
	t := &Tree{g: g, cost: b.cost}
	for _, id := range terms {
		t.requested = append(t.requested, g.name(id))
	}
	adj := map[int32][]int32{} // node -> edges leaving it, oriented
	for _, e := range b.edges {
		from, to := g.id[g.edges[e].From], g.id[g.edges[e].To]
		adj[from] = append(adj[from], e)
		adj[to] = append(adj[to], e^1) // edges are stored in pairs: e^1 is the reverse
	}
	for _, list := range adj {
		sort.Slice(list, func(i, j int) bool {
			a, c := &g.edges[list[i]], &g.edges[list[j]]
			if a.To != c.To {
				return a.To < c.To
			}
			return list[i] < list[j]
		})
	}
	visited := map[int32]bool{}
	for _, comp := range b.comps {
		root := comp[0]
		for _, id := range terms { // first requested table of the component
			if slices.Contains(comp, id) {
				root = id
				break
			}
		}
		var names []string
		queue := []int32{root}
		visited[root] = true
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			names = append(names, g.name(n))
			if !slices.Contains(terms, n) {
				t.added = append(t.added, g.name(n))
			}
			for _, e := range adj[n] {
				to := g.id[g.edges[e].To]
				if visited[to] {
					continue
				}
				visited[to] = true
				t.joins = append(t.joins, g.edges[e])
				t.ids = append(t.ids, e)
				queue = append(queue, to)
			}
		}
		t.tables = append(t.tables, names...)
		t.components = append(t.components, names)
	}
	return t
}
