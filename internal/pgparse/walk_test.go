package pgparse_test

import (
	"slices"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

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

// TestWalkFieldOrder: Walk visits a message's fields in declaration order,
// for every message type of the parse tree. protoreflect's Range does not
// promise an order, and the protobuf runtime swaps two adjacent fields in
// some builds (internal/detrand, seeded by the binary's hash): walking in
// Range order made the visit order, and what depends on it (literal
// notes, repair candidates), differ from one build to the next.
func TestWalkFieldOrder(t *testing.T) {
	seen := map[protoreflect.FullName]bool{}
	queue := []protoreflect.MessageDescriptor{(&pg.ParseResult{}).ProtoReflect().Descriptor()}
	for len(queue) > 0 {
		md := queue[0]
		queue = queue[1:]
		if seen[md.FullName()] {
			continue
		}
		seen[md.FullName()] = true
		mt, err := protoregistry.GlobalTypes.FindMessageByName(md.FullName())
		if err != nil {
			t.Fatal(err)
		}
		m := mt.New()
		field := map[protoreflect.ProtoMessage]int{} // child -> field index
		var want []int
		fds := md.Fields()
		for i := 0; i < fds.Len(); i++ {
			fd := fds.Get(i)
			if fd.Message() == nil || fd.IsMap() {
				continue
			}
			queue = append(queue, fd.Message())
			if od := fd.ContainingOneof(); od != nil && od.Fields().Get(0) != fd && m.WhichOneof(od) != nil {
				continue // one member of a oneof at a time
			}
			v := m.NewField(fd)
			var child protoreflect.Message
			if fd.IsList() {
				child = v.List().NewElement().Message()
				v.List().Append(protoreflect.ValueOfMessage(child))
			} else {
				child = v.Message()
			}
			m.Set(fd, v)
			field[child.Interface()] = i
			want = append(want, i)
		}
		var got []int
		pgparse.Walk(m, func(c protoreflect.Message) bool {
			if c == m {
				return true
			}
			got = append(got, field[c.Interface()])
			return false
		})
		if !slices.Equal(got, want) {
			t.Errorf("%s: fields visited in order %v, want %v", md.FullName(), got, want)
		}
	}
	if len(seen) < 100 {
		t.Fatalf("only %d message types checked", len(seen))
	}
}
