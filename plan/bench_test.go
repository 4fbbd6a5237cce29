package plan_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// synthetic builds a catalog of n tables in 100 schemas: each table has an
// id key, one to three foreign keys to earlier tables and, one time in ten,
// a key to one of 20 hub tables.
func synthetic(n int) *schema.Catalog {
	r := rand.New(rand.NewPCG(1, 2))
	var tables []*schema.Table
	var schemas []schema.Schema
	for s := range 100 {
		schemas = append(schemas, schema.Schema{Name: fmt.Sprintf("s%02d", s)})
	}
	for i := range n {
		t := &schema.Table{
			Schema: fmt.Sprintf("s%02d", i%100), Name: fmt.Sprintf("t%05d", i), Kind: schema.KindTable,
			Columns:    []schema.Column{{Name: "id", Type: "integer", NotNull: true, PrimaryKey: true}, {Name: "name", Type: "text"}},
			PrimaryKey: []string{"id"},
		}
		ref := func(j int, col string) {
			t.Columns = append(t.Columns, schema.Column{Name: col, Type: "integer"})
			t.ForeignKeys = append(t.ForeignKeys, schema.ForeignKey{
				Name: t.Name + "_" + col + "_fkey", Columns: []string{col},
				RefSchema: fmt.Sprintf("s%02d", j%100), RefTable: fmt.Sprintf("t%05d", j), RefColumns: []string{"id"},
			})
		}
		if i > 0 {
			for k := range 1 + r.IntN(3) {
				ref(r.IntN(i), fmt.Sprintf("r%d_id", k))
			}
		}
		if i > 20 && r.IntN(10) == 0 {
			ref(r.IntN(20), "hub_id")
		}
		tables = append(tables, t)
	}
	return schema.NewCatalog(schemas, tables, nil)
}

func name(i int) string { return fmt.Sprintf("s%02d.t%05d", i%100, i) }

func BenchmarkNewGraph10k(b *testing.B) {
	cat := synthetic(10000)
	b.ReportAllocs()
	for b.Loop() {
		plan.NewGraph(cat)
	}
}

func BenchmarkNewGraph10kInferred(b *testing.B) {
	cat := synthetic(10000)
	b.ReportAllocs()
	for b.Loop() {
		plan.NewGraph(cat, plan.WithInferredEdges(true))
	}
}

func benchConnect(b *testing.B, k int, opts ...plan.SearchOption) {
	g := plan.NewGraph(synthetic(10000))
	r := rand.New(rand.NewPCG(3, 4))
	var sets [][]string
	for range 64 {
		base := r.IntN(10000)
		set := []string{name(base)}
		for len(set) < k { // random tables: far apart, the hard case
			set = append(set, name(r.IntN(10000)))
		}
		sets = append(sets, set)
	}
	runConnect(b, g, sets, opts...)
}

func runConnect(b *testing.B, g *plan.Graph, sets [][]string, opts ...plan.SearchOption) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := g.Connect(sets[i%len(sets)], opts...); err != nil && !errors.Is(err, plan.ErrNoPath) {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkConnect3of10k(b *testing.B) { benchConnect(b, 3) }
func BenchmarkConnect5of10k(b *testing.B) { benchConnect(b, 5) }

// BenchmarkConnect5of10kMaxHops3 is the far-apart case with the hop limit
// the Engine uses: each search stays within three joins.
func BenchmarkConnect5of10kMaxHops3(b *testing.B) { benchConnect(b, 5, plan.MaxHops(3)) }

// BenchmarkConnectLocal5of10k connects five tables within three joins of
// each other, as the tables of one question usually are.
func BenchmarkConnectLocal5of10k(b *testing.B) {
	g := plan.NewGraph(synthetic(10000))
	r := rand.New(rand.NewPCG(5, 6))
	var sets [][]string
	for len(sets) < 64 {
		cur := name(r.IntN(10000))
		set := []string{cur}
		for range 12 {
			nb := g.Neighbors(cur)
			if len(nb) == 0 {
				break
			}
			cur = nb[r.IntN(len(nb))]
			if !slices.Contains(set, cur) && !g.IsHub(cur) {
				set = append(set, cur)
			}
			if len(set) == 5 {
				sets = append(sets, set)
				break
			}
		}
	}
	runConnect(b, g, sets)
}

// benchPairs runs search on pairs of tables spread over the catalog.
func benchPairs(b *testing.B, search func(g *plan.Graph, from, to string) error) {
	g := plan.NewGraph(synthetic(10000))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := search(g, name(i*7919%10000), name(i*104729%10000)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkShortestPath10k(b *testing.B) {
	benchPairs(b, func(g *plan.Graph, from, to string) error {
		_, err := g.ShortestPath(from, to)
		return err
	})
}

func BenchmarkKShortestPaths5of10k(b *testing.B) {
	benchPairs(b, func(g *plan.Graph, from, to string) error {
		if len(g.KShortestPaths(from, to, 5)) == 0 {
			return fmt.Errorf("no path %s -> %s", from, to)
		}
		return nil
	})
}
