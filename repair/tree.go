package repair

import (
	"errors"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
	"github.com/nl2sqlgo/nl2sql/schema"
)

var quoteIdent = schema.QuoteIdent

// step is one ancestor on the way from the root to a message: the message
// and the name of its field that leads further down.
type step struct {
	msg   protoreflect.Message
	field protoreflect.Name
}

// walk visits every message under m in pre-order; fn gets the message and
// its ancestors (valid only during the call) and returns false to skip the
// message's children.
func walk(m protoreflect.Message, path []step, fn func(m protoreflect.Message, path []step) bool) {
	if !fn(m, path) {
		return
	}
	pgparse.RangeFields(m, func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Message() == nil || fd.IsMap() {
			return true
		}
		p := append(path, step{msg: m, field: fd.Name()})
		if fd.IsList() {
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				walk(l.Get(i).Message(), p, fn)
			}
		} else {
			walk(v.Message(), p, fn)
		}
		return true
	})
}

// walkNodes calls fn for every *pg_query.Node wrapper under root.
func walkNodes(root protoreflect.Message, fn func(n *pg_query.Node, path []step) bool) {
	walk(root, nil, func(m protoreflect.Message, path []step) bool {
		if n, ok := m.Interface().(*pg_query.Node); ok {
			return fn(n, path)
		}
		return true
	})
}

// location returns the parse location of the node (byte offset), or -1.
func location(n *pg_query.Node) int32 {
	if n == nil {
		return -1
	}
	m := n.ProtoReflect()
	od := m.Descriptor().Oneofs().ByName("node")
	fd := m.WhichOneof(od)
	if fd == nil {
		return -1
	}
	inner := m.Get(fd).Message()
	lf := inner.Descriptor().Fields().ByName("location")
	if lf == nil {
		return -1
	}
	return int32(inner.Get(lf).Int())
}

// hit is a node found in a tree with its ancestors.
type hit struct {
	node *pg_query.Node
	path []step
}

// enclosingSelect returns the nearest SELECT around the hit, the index of
// that select in the path and the name of the select's field leading to
// the hit ("target_list", "where_clause", ...).
func (h *hit) enclosingSelect() (*pg_query.SelectStmt, int, protoreflect.Name) {
	for i := len(h.path) - 1; i >= 0; i-- {
		if s, ok := h.path[i].msg.Interface().(*pg_query.SelectStmt); ok {
			return s, i, h.path[i].field
		}
	}
	return nil, -1, ""
}

// parent returns the nearest Node wrapper above the hit.
func (h *hit) parent() *pg_query.Node {
	for i := len(h.path) - 1; i >= 0; i-- {
		if n, ok := h.path[i].msg.Interface().(*pg_query.Node); ok {
			return n
		}
	}
	return nil
}

// insideAggregate reports whether the hit sits in an aggregate call's
// arguments below its select.
func (h *hit) insideAggregate(selIdx int) bool {
	for i := len(h.path) - 1; i > selIdx; i-- {
		if fc, ok := h.path[i].msg.Interface().(*pg_query.FuncCall); ok && (isAggregate(funcName(fc)) || fc.AggStar || fc.Over != nil) {
			return true
		}
	}
	return false
}

// doc is one parsed statement being analysed or edited.
type doc struct {
	r    *Repairer
	sql  string
	tree *pg_query.ParseResult
	// declined is set by an analysis that found several targets, or only
	// loose ones, and proposed none.
	declined *declined
}

// offset converts PostgreSQL's 1-based character position to a byte offset.
func (d *doc) offset(pos int) int32 {
	if pos <= 0 {
		return -1
	}
	off, n := 0, 1
	for off < len(d.sql) && n < pos {
		_, size := utf8.DecodeRuneInString(d.sql[off:])
		off += size
		n++
	}
	return int32(off)
}

// find returns the first node at byte offset off accepted by ok.
// inSelect finds again the node an edit was planned on (find) and the
// SELECT it sits in; errStale when either is gone, so the edit does not
// apply to a tree that changed under it.
func (d *doc) inSelect(off int32, ok func(*pg_query.Node) bool) (*hit, *pg_query.SelectStmt, error) {
	h := d.find(off, ok)
	if h == nil {
		return nil, nil, errStale
	}
	sel, _, _ := h.enclosingSelect()
	if sel == nil {
		return nil, nil, errStale
	}
	return h, sel, nil
}

func (d *doc) find(off int32, ok func(*pg_query.Node) bool) *hit {
	if off < 0 {
		return nil
	}
	var found *hit
	walkNodes(d.tree.ProtoReflect(), func(n *pg_query.Node, path []step) bool {
		if found != nil {
			return false
		}
		if location(n) == off && ok(n) {
			found = &hit{node: n, path: append([]step(nil), path...)}
			return false
		}
		return true
	})
	return found
}

// findAll returns every node accepted by ok.
func (d *doc) findAll(root protoreflect.Message, ok func(*pg_query.Node) bool) []*hit {
	var out []*hit
	walkNodes(root, func(n *pg_query.Node, path []step) bool {
		if ok(n) {
			out = append(out, &hit{node: n, path: append([]step(nil), path...)})
		}
		return true
	})
	return out
}

func isColumnRef(n *pg_query.Node) bool { return n.GetColumnRef() != nil }
func isFuncCall(n *pg_query.Node) bool  { return n.GetFuncCall() != nil }
func isAExpr(n *pg_query.Node) bool     { return n.GetAExpr() != nil }
func isRangeVar(n *pg_query.Node) bool  { return n.GetRangeVar() != nil }
func anyNode(*pg_query.Node) bool       { return true }

// edit is a candidate repair: fn mutates a fresh parse of the statement.
type edit struct {
	rule, note string
	fn         func(d *doc) error
	// verify, when set, builds Fix.Verify on a fresh copy of the tree.
	verify func(d *doc) (string, error)
}

var errStale = errors.New("repair: node not found in the fresh tree")

// check builds the edit's Verify query on a copy of the tree ("" when the
// edit needs none).
func (d *doc) check(e edit) (string, error) {
	if e.verify == nil {
		return "", nil
	}
	return e.verify(&doc{r: d.r, sql: d.sql, tree: proto.Clone(d.tree).(*pg_query.ParseResult)})
}

// apply runs the edit on a copy of the tree and deparses it. The analysis
// tree stays intact for the next candidate.
func (d *doc) apply(e edit) (string, error) {
	tree := proto.Clone(d.tree).(*pg_query.ParseResult)
	fresh := &doc{r: d.r, sql: d.sql, tree: tree}
	if err := e.fn(fresh); err != nil {
		return "", err
	}
	return pg_query.Deparse(tree)
}

// Node builders.

func names(ss ...string) []*pg_query.Node {
	out := make([]*pg_query.Node, len(ss))
	for i, s := range ss {
		out[i] = pg_query.MakeStrNode(s)
	}
	return out
}

func colRef(parts ...string) *pg_query.Node { return pg_query.MakeColumnRefNode(names(parts...), -1) }

func strConst(s string) *pg_query.Node { return pg_query.MakeAConstStrNode(s, -1) }

func castTo(n *pg_query.Node, typ ...string) *pg_query.Node {
	if len(typ) == 1 && pgType(typ[0]) != nil {
		typ = pgType(typ[0])
	}
	return &pg_query.Node{Node: &pg_query.Node_TypeCast{TypeCast: &pg_query.TypeCast{
		Arg: n, TypeName: &pg_query.TypeName{Names: names(typ...), Typemod: -1, Location: -1}, Location: -1,
	}}}
}

func call(name string, args ...*pg_query.Node) *pg_query.Node {
	return pg_query.MakeFuncCallNode(names(name), args, -1)
}

func binop(op string, l, r *pg_query.Node) *pg_query.Node {
	return pg_query.MakeAExprNode(pg_query.A_Expr_Kind_AEXPR_OP, names(op), l, r, -1)
}

// replace swaps the content of node n in place.
func replace(n, with *pg_query.Node) { n.Node = with.Node }

// wrap copies a node wrapper so the original wrapper can be replaced by an
// expression containing its old content.
func wrap(n *pg_query.Node) *pg_query.Node { return &pg_query.Node{Node: n.Node} }

// constText renders an A_Const as SQL literal text ("" for non-constants).
func constText(n *pg_query.Node) (string, bool) { return pgparse.ConstText(n) }

func isNumberConst(n *pg_query.Node) bool {
	c := n.GetAConst()
	if c == nil {
		return false
	}
	switch c.Val.(type) {
	case *pg_query.A_Const_Ival, *pg_query.A_Const_Fval:
		return true
	}
	return false
}

func funcName(fc *pg_query.FuncCall) string {
	if len(fc.Funcname) == 0 {
		return ""
	}
	return fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval()
}

// colParts returns the name parts of a column reference ("" for *).
func colParts(c *pg_query.ColumnRef) []string {
	out := make([]string, len(c.Fields))
	for i, f := range c.Fields {
		out[i] = f.GetString_().GetSval()
	}
	return out
}

func isAggregate(name string) bool {
	switch name {
	case "count", "sum", "avg", "min", "max", "string_agg", "array_agg", "bool_and", "bool_or", "every",
		"stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "json_agg", "jsonb_agg",
		"percentile_cont", "percentile_disc", "mode", "corr", "covar_pop", "covar_samp", "bit_and", "bit_or",
		"json_object_agg", "jsonb_object_agg", "xmlagg", "regr_slope", "regr_intercept", "regr_count":
		return true
	}
	return false
}
