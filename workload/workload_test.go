package workload_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/workload"
)

func TestRead(t *testing.T) {
	in := "-- a comment\n\nSELECT 1;\n" +
		`{"query": "SELECT 2", "calls": 5}` + "\n" +
		`{"sql": "SELECT 3", "calls": 2.0, "dbid": 7}` + "\n" +
		"  SELECT '{' AS brace  \n"
	got, err := workload.Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []workload.Statement{{SQL: "SELECT 1"}, {SQL: "SELECT 2", Calls: 5}, {SQL: "SELECT 3", Calls: 2}, {SQL: "SELECT '{' AS brace"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Read = %+v, want %+v", got, want)
	}
	for _, bad := range []string{`{"query": `, `{"calls": 3}`} {
		if _, err := workload.Read(strings.NewReader("SELECT 1\n" + bad + "\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("Read(%q) error %v, want one naming line 2", bad, err)
		}
	}
}

func TestUnparameterize(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT * FROM t WHERE a = $1 AND b IN ($2, $10)": "SELECT * FROM t WHERE a = '0' AND b IN ('0', '0')",
		"SELECT '$1', \"$2\", $$ $3 $$ -- $4\n, $5":       "SELECT '$1', \"$2\", $$ $3 $$ -- $4\n, '0'",
		"SELECT $tag$ $1 $tag$ /* $2 */ LIMIT $3":         "SELECT $tag$ $1 $tag$ /* $2 */ LIMIT '0'",
		"SELECT 'it''s $1' FROM t":                        "SELECT 'it''s $1' FROM t",
		"SELECT a$1 FROM t":                               "SELECT a$1 FROM t",
	} {
		if got := workload.Unparameterize(in); got != want {
			t.Errorf("Unparameterize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLearnCountsAndOrder(t *testing.T) {
	cat := shopCatalog()
	stmts := []workload.Statement{
		{SQL: "SELECT * FROM orders WHERE id = $1", Calls: 10},
		{SQL: "SELECT * FROM orders WHERE id = $1", Calls: 5}, // same text twice: one shape text
		{SQL: "SELECT * FROM orders WHERE id = 7"},            // same shape, another text
		{SQL: "SELECT c.name FROM clients c JOIN orders o ON o.buyer = c.id", Calls: 3},
		{SQL: "SELECT * FROM missing_table"},
		{SQL: "DELETE FROM orders"},
		{SQL: "SELEC garbage"},
	}
	k := workload.Learn(cat, stmts, workload.WithMaxShapes(1))
	if k.Statements != 7 || k.Kept != 4 || k.Rejected != 3 || k.Calls != 19 {
		t.Errorf("counts %d/%d/%d/%d, want 7 read, 4 kept, 3 rejected, 19 calls", k.Statements, k.Kept, k.Rejected, k.Calls)
	}
	if want := []workload.Edge{{From: "public.clients.id", To: "public.orders.buyer", Count: 3}}; !reflect.DeepEqual(k.Edges, want) {
		t.Errorf("edges %v, want %v", k.Edges, want)
	}
	if want := []workload.Usage{{Name: "public.orders", Count: 19}, {Name: "public.clients", Count: 3}}; !reflect.DeepEqual(k.Tables, want) {
		t.Errorf("tables %v, want %v", k.Tables, want)
	}
	if u := k.ColumnUsage(); u["public.orders.id"] != 16 || u["public.clients.name"] != 3 {
		t.Errorf("column usage %v", u)
	}
	if len(k.Shapes) != 1 || k.Shapes[0].Count != 16 || k.Shapes[0].Statements != 2 || k.Shapes[0].SQL != "SELECT * FROM orders WHERE id = $1" {
		t.Errorf("shapes %+v", k.Shapes)
	}
	// Deterministic: the same input gives the same knowledge.
	if again := workload.Learn(cat, stmts, workload.WithMaxShapes(1)); !reflect.DeepEqual(k, again) {
		t.Errorf("Learn is not deterministic")
	}
}

func TestLearnedEdgeWeights(t *testing.T) {
	cat := shopCatalog()
	one := plan.LearnedEdge{From: "public.orders.buyer", To: "public.clients.id", Count: 1}
	many := one
	many.Count = 50
	w := func(e plan.LearnedEdge) plan.Edge {
		g := plan.NewGraph(cat, plan.WithLearnedEdges(e))
		es := g.Edges("public.orders")
		if len(es) != 1 {
			t.Fatalf("edges %+v", es)
		}
		return es[0]
	}
	a, b := w(one), w(many)
	if !a.Learned || !a.Forward || a.Cardinality != plan.ManyToOne || a.Count != 1 || a.To != "public.clients" {
		t.Errorf("learned edge %+v", a)
	}
	if !(b.Weight < a.Weight && a.Weight < 1.5) || b.Weight <= 1 {
		t.Errorf("weights: frequent %v, rare %v; want 1 < frequent < rare < a guess (1.5)", b.Weight, a.Weight)
	}
	// Unknown columns, self joins and type mismatches are ignored.
	g := plan.NewGraph(cat, plan.WithLearnedEdges(
		plan.LearnedEdge{From: "public.orders.nope", To: "public.clients.id"},
		plan.LearnedEdge{From: "public.orders.id", To: "public.orders.buyer"},
		plan.LearnedEdge{From: "public.orders.total", To: "public.clients.name"}))
	if es := g.Edges("public.orders"); len(es) != 0 {
		t.Errorf("want no edges, got %+v", es)
	}
}
