package plan

import (
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// LearnedEdge is a join seen in a query workload: an equality between two
// columns ("schema.table.column") of different tables, and how many times
// (statements weighted by calls) the workload joined along it. Package
// workload learns them; WithLearnedEdges gives them to a Graph.
type LearnedEdge struct {
	From  string `json:"from"` // schema.table.column
	To    string `json:"to"`
	Count int    `json:"count"` // how often the workload joined them (calls)
}

// WithLearnedEdges adds joins learned from a workload (workload.Learn) for
// column pairs no declared foreign key covers. An equality whose one side is
// its table's single-column primary or unique key becomes a key edge from
// the other side (many-to-one, one-to-one when both are keys); one between
// two non-key columns an edge of Unknown cardinality. Columns covered by a
// learned edge are not guessed from names again (WithInferredEdges), and
// learned edges count as keys for the junction rule.
//
// A learned edge costs more than a declared key and less than a guess: 0.2
// more per hop, 0.4 when its count is below MinLearnedCount (a join seen
// once may be a one-off), against 0.5 for a guess. Edges naming an
// unknown table or column, of incompatible types, duplicated or repeating
// a declared key, are ignored. Several calls add up.
func WithLearnedEdges(edges ...LearnedEdge) Option {
	return optionFunc(func(c *config) { c.learned = append(c.learned, edges...) })
}

// MinLearnedCount is the count below which a learned edge costs rareExtra more.
const MinLearnedCount = 2

const (
	learnedExtra = 0.2 // a join the workload uses: more than a key, less than a guess
	rareExtra    = 0.2 // seen fewer than MinLearnedCount times: still below a guess
)

// learnedKey is a learned edge resolved to graph nodes, oriented like a
// foreign key (from the referencing side) when one side is a key.
type learnedKey struct {
	from, to   int32
	fromColumn string
	toColumn   string
	count      int
	keyed      bool // to's column is a key: a foreign key shape
}

// resolveLearned turns the configured learned edges into per-table foreign
// keys (keyed ones) and keyless pairs, skipping those a declared key covers.
func (g *Graph) resolveLearned(edges []LearnedEdge, declared [][]schema.ForeignKey) []learnedKey {
	split := func(s string) (int32, string, bool) {
		i := strings.LastIndexByte(s, '.')
		if i < 0 {
			return 0, "", false
		}
		id, ok := g.id[s[:i]]
		if !ok || g.tables[id].Column(s[i+1:]) == nil {
			return 0, "", false
		}
		return id, s[i+1:], true
	}
	type pairKey struct {
		a, b   int32
		ca, cb string
	}
	merged := map[pairKey]int{}
	var order []pairKey
	for _, e := range edges {
		a, ca, ok1 := split(e.From)
		b, cb, ok2 := split(e.To)
		if !ok1 || !ok2 || a == b || !compatible(g.tables[a].Column(ca), g.tables[b].Column(cb)) {
			continue
		}
		if a > b || (a == b && ca > cb) {
			a, b, ca, cb = b, a, cb, ca
		}
		k := pairKey{a, b, ca, cb}
		if _, ok := merged[k]; !ok {
			order = append(order, k)
		}
		merged[k] += max(e.Count, 1)
	}
	declares := func(from int32, col string, to int32, refCol string) bool {
		for _, fk := range declared[from] {
			if len(fk.Columns) == 1 && fk.Columns[0] == col && fk.RefColumns[0] == refCol && g.id[fk.Ref()] == to {
				return true
			}
		}
		return false
	}
	var out []learnedKey
	for _, k := range order {
		if declares(k.a, k.ca, k.b, k.cb) || declares(k.b, k.cb, k.a, k.ca) {
			continue
		}
		ta, tb := g.tables[k.a], g.tables[k.b]
		ka, kb := singleKey(ta, k.ca), singleKey(tb, k.cb)
		lk := learnedKey{from: k.a, to: k.b, fromColumn: k.ca, toColumn: k.cb, count: merged[k]}
		switch {
		case ka && kb: // one-to-one: the primary key side is referenced
			lk.keyed = true
			if slices.Equal(ta.PrimaryKey, []string{k.ca}) && !slices.Equal(tb.PrimaryKey, []string{k.cb}) {
				lk.from, lk.to, lk.fromColumn, lk.toColumn = k.b, k.a, k.cb, k.ca
			}
		case ka:
			lk.keyed = true
			lk.from, lk.to, lk.fromColumn, lk.toColumn = k.b, k.a, k.cb, k.ca
		case kb:
			lk.keyed = true
		}
		out = append(out, lk)
	}
	slices.SortFunc(out, func(x, y learnedKey) int {
		if x.from != y.from {
			return int(x.from - y.from)
		}
		if x.to != y.to {
			return int(x.to - y.to)
		}
		return strings.Compare(x.fromColumn+"="+x.toColumn, y.fromColumn+"="+y.toColumn)
	})
	return out
}

// learnedFKs returns the keyed learned edges as foreign keys per table (for
// the junction rule and to keep name inference off their columns).
func (g *Graph) learnedFKs(learned []learnedKey) [][]schema.ForeignKey {
	out := make([][]schema.ForeignKey, len(g.tables))
	for _, l := range learned {
		if !l.keyed {
			continue
		}
		t := g.tables[l.to]
		out[l.from] = append(out[l.from], schema.ForeignKey{
			Columns: []string{l.fromColumn}, RefSchema: t.Schema, RefTable: t.Name, RefColumns: []string{l.toColumn},
		})
	}
	return out
}

// addLearned adds a learned edge and its reverse.
func (g *Graph) addLearned(l learnedKey) {
	extra := learnedExtra
	if l.count < MinLearnedCount {
		extra += rareExtra
	}
	if !l.keyed {
		e := Edge{
			From: g.names[l.from], To: g.names[l.to],
			FromColumns: []string{l.fromColumn}, ToColumns: []string{l.toColumn},
			Learned: true, Count: l.count, Weight: baseWeight + extra,
		}
		if l.fromColumn == l.toColumn {
			e.Weight -= nameMatchBonus
		}
		r := e
		r.From, r.To, r.FromColumns, r.ToColumns = e.To, e.From, e.ToColumns, e.FromColumns
		e.Forward = true
		g.addPair(l.from, l.to, e, r)
		return
	}
	t := g.tables[l.from]
	fwd := Edge{
		From: g.names[l.from], To: g.names[l.to],
		FromColumns: []string{l.fromColumn}, ToColumns: []string{l.toColumn},
		Forward: true, Cardinality: ManyToOne, Learned: true, Count: l.count,
		Weight: baseWeight + extra,
	}
	if unique(t, fwd.FromColumns) {
		fwd.Cardinality = OneToOne
	}
	if l.fromColumn == l.toColumn {
		fwd.Weight -= nameMatchBonus
	}
	rev := Edge{
		From: fwd.To, To: fwd.From, FromColumns: fwd.ToColumns, ToColumns: fwd.FromColumns,
		Cardinality: OneToMany, Learned: true, Count: l.count, Weight: fwd.Weight + reverseExtra,
	}
	if fwd.Cardinality == OneToOne {
		rev.Cardinality, rev.Weight = OneToOne, fwd.Weight
	}
	g.addPair(l.from, l.to, fwd, rev)
}
