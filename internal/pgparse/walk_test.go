package pgparse_test

import (
	"slices"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// TestWalkNodes: every column reference is visited in text order, and a
// false return keeps the walk out of that node (the subquery's column).
func TestWalkNodes(t *testing.T) {
	tree, err := pgparse.Parse("SELECT a, (SELECT b FROM u) FROM t WHERE c = 1")
	if err != nil {
		t.Fatal(err)
	}
	cols := func(skipSubqueries bool) []string {
		var out []string
		pgparse.WalkNodes(tree.ProtoReflect(), func(n *pg.Node) bool {
			if skipSubqueries && n.GetSubLink() != nil {
				return false
			}
			if c := n.GetColumnRef(); c != nil {
				out = append(out, c.Fields[0].GetString_().GetSval())
			}
			return true
		})
		return out
	}
	if got, want := cols(false), []string{"a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("all columns: %v, want %v", got, want)
	}
	if got, want := cols(true), []string{"a", "c"}; !slices.Equal(got, want) {
		t.Errorf("outside subqueries: %v, want %v", got, want)
	}
	n := 0
	pgparse.Walk(tree.ProtoReflect(), func(protoreflect.Message) bool { n++; return n < 3 })
	if n != 3 {
		t.Errorf("Walk visited the children of a message fn skipped: %d calls, want 3", n)
	}
}
