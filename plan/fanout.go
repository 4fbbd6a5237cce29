package plan

// FanOut is a join of a tree that repeats rows: it joins a table by its key
// (One, the referenced primary key or unique columns) to the rows of a
// table that reference it (Many, whose foreign key columns are not unique),
// so every row of One, and of every table joined through One, appears once
// per matching row of Many. An aggregate over those rows (SUM of an order
// total over orders JOIN order_lines) counts each of them several times:
// the fan trap.
type FanOut struct {
	// Join is the join as Joins returns it (oriented from the table already
	// joined to the one it brings in).
	Join Edge
	// One is the table whose key the join matches: its rows are repeated.
	One string
	// Many is the table holding the foreign key: one output row per row of
	// it.
	Many string
	// Multiplied lists One and every table joined through it, that is the
	// tables on One's side of the join, in join order. Their rows are
	// repeated once per matching row of Many.
	Multiplied []string
}

// FanOuts lists the joins of the tree that multiply the rows on their other
// side, in join order: one-to-many joins, whichever way the tree traverses
// them (see FanOut). A table that only joins the tables it references (a
// fact table and its dimensions) is never in Multiplied: its rows are not
// repeated, the dimensions' are. One-to-one joins repeat nothing; joins of
// Unknown cardinality (inferred between tables without keys) are not
// reported, as nothing says which side repeats.
func (t *Tree) FanOuts() []FanOut {
	var out []FanOut
	for i, e := range t.joins {
		var one, many string
		switch e.Cardinality {
		case OneToMany:
			one, many = e.From, e.To
		case ManyToOne:
			one, many = e.To, e.From
		default:
			continue
		}
		side := t.side(one, i)
		var mult []string
		for _, name := range t.tables {
			if side[name] {
				mult = append(mult, name)
			}
		}
		out = append(out, FanOut{Join: e, One: one, Many: many, Multiplied: mult})
	}
	return out
}

// other returns the table an edge joins n to, false when n is neither end.
func (e Edge) other(n string) (string, bool) {
	switch n {
	case e.From:
		return e.To, true
	case e.To:
		return e.From, true
	}
	return "", false
}

// side returns the tables reachable from table through the joins other than
// joins[skip].
func (t *Tree) side(table string, skip int) map[string]bool {
	seen := map[string]bool{table: true}
	queue := []string{table}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for j, e := range t.joins {
			if j == skip {
				continue
			}
			next, ok := e.other(n)
			if !ok {
				continue
			}
			if !seen[next] {
				seen[next] = true
				queue = append(queue, next)
			}
		}
	}
	return seen
}

// Prune returns the tree without the tables that are not needed for the
// answer and only hang off it: leaves (tables with a single join) not named
// in needed are removed, repeatedly, so a junction left dangling goes too.
// Tables between needed ones stay, whether requested or added. needed uses
// the names Connect takes ("schema.table"; bare names mean public); names
// not in the tree are ignored. A requested table that is only wanted
// optionally, say the many side of a one-to-many join that would fan the
// rows out (see FanOuts), is dropped when it is not needed.
//
// The result is a tree of its own: Requested keeps the requested tables
// that remain, in order, Added the remaining added ones, each component is
// walked again from its first remaining requested table, and Cost is the
// sum of the remaining joins' weights plus the hub penalties of the
// remaining added hubs. A component without any needed table disappears.
// When nothing is pruned, t itself is returned.
func (t *Tree) Prune(needed ...string) *Tree {
	if t.g == nil || len(t.tables) == 0 {
		return t
	}
	g := t.g
	need := map[string]bool{}
	for _, n := range needed {
		if id, ok := g.lookup(n); ok {
			need[g.name(id)] = true
		}
	}
	degree := map[string]int{}
	for _, e := range t.joins {
		degree[e.From]++
		degree[e.To]++
	}
	gone := map[string]bool{}
	var queue []string
	for _, name := range t.tables {
		if !need[name] && degree[name] <= 1 {
			queue = append(queue, name)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if gone[n] {
			continue
		}
		gone[n] = true
		for _, e := range t.joins {
			other, ok := e.other(n)
			if !ok || gone[other] {
				continue
			}
			if degree[other]--; degree[other] <= 1 && !need[other] {
				queue = append(queue, other)
			}
		}
	}
	if len(gone) == 0 {
		return t
	}
	b := &build{}
	for i, e := range t.joins {
		if gone[e.From] || gone[e.To] {
			continue
		}
		b.edges = append(b.edges, t.ids[i])
		b.cost += e.Weight
	}
	for _, comp := range t.components {
		var ids []int32
		for _, name := range comp {
			if !gone[name] {
				ids = append(ids, g.id[name])
			}
		}
		if ids != nil {
			b.comps = append(b.comps, ids)
		}
	}
	var terms []int32
	for _, name := range t.requested {
		if !gone[name] {
			terms = append(terms, g.id[name])
		}
	}
	for _, name := range t.added {
		if !gone[name] && g.hub[g.id[name]] {
			b.cost += g.hubPenalty
		}
	}
	if len(b.comps) == 0 {
		return &Tree{g: g}
	}
	return g.tree(terms, b)
}
