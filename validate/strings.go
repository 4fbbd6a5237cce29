package validate

import (
	"math"
	"strconv"
	"unicode/utf8"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// String sizes. A query can build a huge value in one row from a short
// text: repeat(repeat('x', 10000), 100000), lpad('x', 900000000),
// format('%900000000s', 'x'). Each string-building call's result is bounded
// by computing its size through the expression: literals count their
// characters, a value read from the data counts 1 (one row's value is the
// data's size, not the query's doing), repeat multiplies, lpad/rpad and
// format widths set a length, concatenations add up. A call whose size
// cannot be bounded by constants (a non-constant count, width or format
// string), or exceeds maxGenerated, is refused (V022).

// builders are the functions whose result can be much longer than their
// arguments.
var builders = setOf("repeat", "lpad", "rpad", "format", "replace", "regexp_replace", "overlay",
	"array_to_string", "concat_ws")

// fixedSize are functions whose result is short whatever their arguments
// (md5 of an aggregate is 32 characters, not the aggregate).
var fixedSize = setOf("md5", "sha224", "sha256", "sha384", "sha512", "length", "char_length", "character_length",
	"octet_length", "bit_length", "cardinality", "array_length", "array_ndims", "json_array_length",
	"jsonb_array_length", "strpos", "position", "ascii", "crc32", "crc32c", "hashtext", "count")

// accumulating are the aggregates whose state holds every input value; a
// product of relations or long built values under them can fill memory that
// work_mem does not bound.
var accumulating = setOf("array_agg", "string_agg", "json_agg", "jsonb_agg", "json_agg_strict", "jsonb_agg_strict",
	"json_object_agg", "jsonb_object_agg", "json_object_agg_strict", "jsonb_object_agg_strict",
	"json_object_agg_unique", "jsonb_object_agg_unique", "json_object_agg_unique_strict",
	"jsonb_object_agg_unique_strict", "xmlagg", "range_agg", "range_intersect_agg")

// checkStringSize applies the string guard to one call.
func (c *checker) checkStringSize(f *pg.FuncCall, name string) {
	limit := float64(c.cfg.maxGenerated)
	switch {
	case builders[name]:
		n, ok := c.sizes.strSize(f)
		switch {
		case !ok:
			c.violation(CodeStringBomb, "%s needs constant lengths, counts and format widths (number literals); compute them from literals", name)
		case oversize(n, limit):
			c.violation(CodeStringBomb, "%s would build a text %s; use smaller lengths", name, describeSize(n, c.cfg.maxGenerated))
		}
	}
}

// accumulation gives the per-row inputs and the window of an accumulating
// aggregate (a call, JSON_ARRAYAGG or JSON_OBJECTAGG); ok is false for
// anything else.
func accumulation(m proto.Message) (name string, args []*pg.Node, over *pg.WindowDef, ok bool) {
	switch x := m.(type) {
	case *pg.FuncCall:
		if accumulating[funcName(x)] {
			return funcName(x), x.Args, x.Over, true
		}
	case *pg.JsonArrayAgg:
		return "JSON_ARRAYAGG", []*pg.Node{x.GetArg().GetRawExpr()}, x.GetConstructor().GetOver(), true
	case *pg.JsonObjectAgg:
		return "JSON_OBJECTAGG", []*pg.Node{x.GetArg().GetKey(), x.GetArg().GetValue().GetRawExpr()}, x.GetConstructor().GetOver(), true
	}
	return "", nil, nil, false
}

// checkAccumulation judges one accumulating aggregate: the values it
// collects (no aggregated value, built values of at most limit/100
// characters) and, as a window, its frame (each row holds what its frame
// collects); it returns the built characters it collects per row.
func (c *checker) checkAccumulation(name string, args []*pg.Node, over *pg.WindowDef, report func(format string, args ...any)) float64 {
	limit := float64(c.cfg.maxGenerated)
	n, ok := c.sizes.sumSize(args)
	aggs, chars := splitSize(n)
	switch {
	case ok && aggs > 0:
		report("%s would collect aggregated values (string_agg, array_agg, ... of a subquery, CTE or window), each as long as its rows; aggregate the data itself", name)
	case ok && chars > limit/100:
		report("%s would collect built values of up to %.0f characters each, more than %d; aggregate the data itself", name, chars, c.cfg.maxGenerated/100)
	}
	if over != nil && !boundedFrame(over, limit/100) {
		report("%s OVER a frame that is not ROWS BETWEEN constant bounds gives every row an aggregate that grows with the rows (rows times rows in all); aggregate with GROUP BY, or write ROWS BETWEEN 10 PRECEDING AND CURRENT ROW in the OVER clause", name)
	}
	return chars
}

// Window frame options (FRAMEOPTION_* in PostgreSQL's parsenodes.h).
const (
	frameRows                  = 0x00004
	frameStartUnboundedPrec    = 0x00020
	frameEndUnboundedFollowing = 0x00100
	frameStartOffset           = 0x00800 | 0x02000
	frameEndOffset             = 0x01000 | 0x04000
)

// boundedFrame reports whether a window's frame is ROWS between constant
// offsets (or the current row) spanning at most max rows. A named window
// (OVER w) is judged by its own clause's frame, which the inline
// definition does not show: not bounded here.
func boundedFrame(w *pg.WindowDef, max float64) bool {
	o := w.FrameOptions
	if w.Name != "" || w.Refname != "" || o&frameRows == 0 || o&(frameStartUnboundedPrec|frameEndUnboundedFollowing) != 0 {
		return false
	}
	span := 1.0
	for _, part := range []struct {
		set  bool
		node *pg.Node
	}{{o&frameStartOffset != 0, w.StartOffset}, {o&frameEndOffset != 0, w.EndOffset}} {
		if !part.set {
			continue
		}
		k, ok := numConst(part.node)
		if !ok || !finite(k) || k < 0 {
			return false
		}
		span += k
	}
	return span <= max
}

// strSize bounds the characters a string-building call yields; ok is false
// when a count, length, width or format string is not a constant.
func (z *sizer) strSize(f *pg.FuncCall) (float64, bool) {
	name := funcName(f)
	arg := func(i int) (float64, bool) {
		if i >= len(f.Args) {
			return 0, true
		}
		return z.nodeSize(f.Args[i])
	}
	switch name {
	case "repeat":
		if len(f.Args) != 2 {
			return 0, true // PostgreSQL rejects the call itself
		}
		k, ok := numConst(f.Args[1])
		if !ok || !finite(k) {
			return 0, false
		}
		s, ok := arg(0)
		return s * math.Max(k, 0), ok
	case "lpad", "rpad":
		if len(f.Args) < 2 {
			return 0, true
		}
		k, ok := numConst(f.Args[1])
		if !ok || !finite(k) {
			return 0, false
		}
		return math.Max(k, 0), true
	case "format":
		return z.formatSize(f.Args)
	case "array_to_string", "concat_ws":
		// The delimiter goes between elements whose number is the data's
		// (array_agg over a table, VARIADIC ARRAY(...)): a built delimiter
		// counts as if the elements were a hundred times more.
		di := 1
		if name == "concat_ws" {
			di = 0
		}
		d, ok := arg(di)
		if !ok {
			return 0, false
		}
		rest := append(append([]*pg.Node(nil), f.Args[:di]...), f.Args[min(di+1, len(f.Args)):]...)
		n, ok := z.sumSize(rest)
		if d > 1 && d > sizeOf(f.Args[di]) {
			return n * (1 + d*100), ok
		}
		// A written-out delimiter between the elements of one
		// aggregated value keeps it one aggregated value.
		aggs, chars := splitSize(n)
		return aggs*aggUnit + chars*(1+d), ok
	case "replace", "regexp_replace", "overlay":
		// Every character may be replaced by the replacement text.
		s, ok1 := arg(0)
		rep, ok2 := arg(2)
		if name == "overlay" {
			rep, ok2 = arg(1)
		}
		return s * math.Max(rep, 1), ok1 && ok2
	}
	return z.sumSize(f.Args)
}

// nodeSize bounds the characters an expression yields (data values count 1).
func (z *sizer) nodeSize(n *pg.Node) (float64, bool) {
	switch {
	case n == nil:
		return 0, true
	case n.GetAConst() != nil:
		k := n.GetAConst()
		switch {
		case k.GetSval() != nil:
			return float64(utf8.RuneCountInString(k.GetSval().Sval)), true
		case k.GetFval() != nil:
			return float64(len(k.GetFval().Fval)), true
		case k.GetBsval() != nil:
			return float64(len(k.GetBsval().Bsval)), true
		}
		return 8, true
	case n.GetTypeCast() != nil:
		return z.nodeSize(n.GetTypeCast().Arg)
	case n.GetCollateClause() != nil:
		return z.nodeSize(n.GetCollateClause().Arg)
	case n.GetFuncCall() != nil:
		f := n.GetFuncCall()
		if builders[funcName(f)] {
			return z.strSize(f)
		}
		if n, ok := z.callSize(f); ok && z.operands {
			return n, true
		}
		if isAggregate(f) || f.Over != nil {
			if accumulating[funcName(f)] {
				// As long as the rows it collects: one aggregated value.
				_, ok := z.sumSize(f.Args)
				return aggUnit, ok
			}
			if passThrough[funcName(f)] {
				// One of its inputs (max(s), lag(s)).
				s, ok := z.sumSize(f.Args)
				return math.Max(s, 1), ok
			}
			return 1, true // one row's value of data
		}
		if fixedSize[funcName(f)] {
			// Its arguments are still built: their characters stay,
			// one aggregated value is gone.
			s, ok := z.sumSize(f.Args)
			if aggs, chars := splitSize(s); aggs <= 1 {
				return math.Max(chars, 8), ok
			}
			return s, ok
		}
		return z.sumSize(f.Args)
	case n.GetAExpr() != nil:
		e := n.GetAExpr()
		if z.operands && opSymbol(e.Name) == "^" {
			return z.powerSize(e.Lexpr, e.Rexpr), true
		}
		if e.Kind == pg.A_Expr_Kind_AEXPR_OP && len(e.Name) > 0 && opSymbol(e.Name) != "||" {
			// Arithmetic and comparisons: a number, a date or a boolean,
			// not a concatenation.
			return z.maxSize([]*pg.Node{e.Lexpr, e.Rexpr})
		}
		return z.sumSize([]*pg.Node{e.Lexpr, e.Rexpr})
	case n.GetCaseExpr() != nil:
		ce := n.GetCaseExpr()
		nodes := []*pg.Node{ce.Defresult}
		for _, w := range ce.Args {
			if cw := w.GetCaseWhen(); cw != nil {
				nodes = append(nodes, cw.Result)
			}
		}
		return z.maxSize(nodes)
	case n.GetCoalesceExpr() != nil:
		return z.maxSize(n.GetCoalesceExpr().Args)
	case n.GetMinMaxExpr() != nil:
		return z.maxSize(n.GetMinMaxExpr().Args)
	case n.GetAArrayExpr() != nil:
		return z.sumSize(n.GetAArrayExpr().Elements)
	case n.GetRowExpr() != nil:
		return z.sumSize(n.GetRowExpr().Args)
	case n.GetColumnRef() != nil:
		return z.columnSize(n.GetColumnRef()), true
	case n.GetSubLink() != nil:
		sl := n.GetSubLink()
		switch sl.SubLinkType {
		case pg.SubLinkType_EXISTS_SUBLINK:
			return 1, true
		case pg.SubLinkType_ARRAY_SUBLINK:
			return aggUnit, true // every row of the subquery
		}
		if z.operands && sl.SubLinkType == pg.SubLinkType_ARRAY_SUBLINK {
			return sizeCap, true // as many elements as the subquery has rows
		}
		return z.querySize(sl.Subselect.GetSelectStmt()), true
	case n.GetAIndirection() != nil:
		return z.nodeSize(n.GetAIndirection().Arg)
	case n.GetJsonArrayAgg() != nil, n.GetJsonObjectAgg() != nil, n.GetJsonArrayQueryConstructor() != nil:
		return aggUnit, true
	}
	return 1, true // a value read from the data, or computed from one
}

func (z *sizer) sumSize(ns []*pg.Node) (float64, bool) {
	total, ok := 0.0, true
	for _, a := range ns {
		s, k := z.nodeSize(a)
		total += s
		ok = ok && k
	}
	return total, ok
}

func (z *sizer) maxSize(ns []*pg.Node) (float64, bool) {
	m, ok := 0.0, true
	for _, a := range ns {
		s, k := z.nodeSize(a)
		m = math.Max(m, s)
		ok = ok && k
	}
	return m, ok
}

// formatSize bounds format(fmt, args...): the format string must be a
// literal; each %s/%I/%L adds its argument's size or its width, whichever
// is larger (widths from * take a constant argument).
func (z *sizer) formatSize(args []*pg.Node) (float64, bool) {
	if len(args) == 0 {
		return 0, true
	}
	fs := args[0].GetAConst().GetSval()
	if tc := args[0].GetTypeCast(); fs == nil && tc != nil {
		fs = tc.Arg.GetAConst().GetSval()
	}
	if fs == nil {
		return 0, false
	}
	rest := args[1:]
	total := float64(utf8.RuneCountInString(fs.Sval))
	next := 0 // next argument for a specifier without a position
	argAt := func(i int) *pg.Node {
		if i < 0 || i >= len(rest) {
			return nil
		}
		return rest[i]
	}
	s := fs.Sval
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		i++
		if i < len(s) && s[i] == '%' {
			continue
		}
		// %[position$][flags][width]type; width is digits, * or *position$.
		pos, j := digits(s, i)
		if j < len(s) && s[j] == '$' && j > i {
			next = pos - 1
			i = j + 1
		}
		for i < len(s) && s[i] == '-' {
			i++
		}
		width := 0.0
		switch {
		case i < len(s) && s[i] == '*':
			i++
			wi := next
			if p, j := digits(s, i); j > i && j < len(s) && s[j] == '$' {
				wi, i = p-1, j+1
			} else {
				next++
			}
			w, ok := numConst(argAt(wi))
			if !ok || !finite(w) {
				return 0, false
			}
			width = math.Abs(w)
		default:
			w, j := digits(s, i)
			width, i = float64(w), j
		}
		if i >= len(s) {
			break // PostgreSQL rejects an unterminated specifier
		}
		size, ok := z.nodeSize(argAt(next))
		if !ok {
			return 0, false
		}
		next++
		total += math.Max(width, size)
	}
	return total, true
}

// digits reads a decimal number at s[i:], returning it (saturated) and the
// index after it.
func digits(s string, i int) (int, int) {
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i {
		return 0, j
	}
	n, err := strconv.Atoi(s[i:j])
	if err != nil {
		n = math.MaxInt32
	}
	return n, j
}

// sizeOf is the size of a plain literal (0 for anything computed): what a
// delimiter written out in full costs.
func sizeOf(n *pg.Node) float64 {
	if k := n.GetAConst(); k != nil && k.GetSval() != nil {
		return float64(utf8.RuneCountInString(k.GetSval().Sval))
	}
	return 0
}
