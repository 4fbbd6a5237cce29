package validate

import (
	"fmt"
	"math"
	"slices"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// Recursion guard (V020). A recursive CTE is accepted only when its
// recursive term carries a proof that it ends, read from the meaning of its
// expressions rather than their spelling:
//
//   - a counter: a column whose step is strictly monotone (n + 1, n - 1,
//     d + INTERVAL '1 day', n * 2 or n + n from a positive literal seed),
//     after normalising arithmetic (n + -1 is n - 1, 1 + n is n + 1), casts
//     to numeric and date types ((n)::int, CAST(n AS bigint)) and unary
//     minus (-n < 10 is n > -10), compared in the direction it moves with a
//     value fixed during the recursion (a constant, an outer column, a
//     column of a table); abs(n) - 1, n * 2 from a seed that may be 0 or a
//     float, and casts to text are not monotone;
//   - a data walk: the CTE's column c equals a column k of a real table T,
//     and the term outputs another column m of T as the next c, where k
//     (walking up: T.id = r.parent_id) or m (walking down: T.parent_id =
//     r.id, next r.id = T.id) is T's primary key or a unique key. It ends
//     when the data is acyclic, like every key walk.
//
// A bound only counts where it filters the CTE's rows: WHERE and the ON of
// inner joins, a conjunct not under OR or NOT. Every other relation of the
// recursive term must yield at most one row per row of the CTE (joined on
// a unique key, or an aggregate subquery) except the walk's own table, or
// rows multiply at each step; the CTE's self-reference must be a FROM item
// of the recursive term itself, not inside a subquery. Anything else is
// refused with a message that says how to write a bounded version.

// recursionHint ends the V020 messages about a missing bound: the bounded
// form that always works.
const recursionHint = "; carry a depth column and add WHERE depth < 100 (or compare a counter with a constant, or join a table on its key)"

// recursionGuard flags a recursive CTE whose recursive term has no proof
// of ending (see above).
func (c *checker) recursionGuard(cte *pg.CommonTableExpr) {
	body := cte.Ctequery.GetSelectStmt()
	if body.Op == pg.SetOperation_SETOP_NONE {
		return // not self-referencing in a valid way; PostgreSQL decides
	}
	cols, ok := outputNames(body.Larg)
	if !ok {
		cols, _ = c.expandStars(body.Larg) // SELECT * FROM employees WHERE ...
	}
	cols = renameCols(cols, cte.Aliascolnames)
	for _, arm := range []*pg.SelectStmt{body.Larg, body.Rarg} {
		if arm == nil || !refersTo(arm, cte.Ctename) {
			continue
		}
		if why := c.recursionProof(cte.Ctename, cols, body.Larg, arm); why != "" {
			c.violation(CodeRecursion, "recursive CTE %s %s", cte.Ctename, why)
		}
	}
}

// expandStars gives the output names and expressions of a SELECT, its *
// and t.* expanded to the columns of the tables they name (t.col, from
// WithTables); both are nil when a star reads something else (a CTE, a
// subquery) or a table whose columns are unknown.
func (c *checker) expandStars(s *pg.SelectStmt) (names []string, vals []*pg.Node) {
	if s == nil || s.Op != pg.SetOperation_SETOP_NONE || len(s.ValuesLists) > 0 {
		return nil, nil
	}
	var tables []*pg.RangeVar
	var from func(n *pg.Node)
	from = func(n *pg.Node) {
		switch {
		case n.GetRangeVar() != nil:
			tables = append(tables, n.GetRangeVar())
		case n.GetJoinExpr() != nil:
			from(n.GetJoinExpr().Larg)
			from(n.GetJoinExpr().Rarg)
		default:
			tables = append(tables, nil) // a subquery or function: unknown columns
		}
	}
	for _, n := range s.FromClause {
		from(n)
	}
	for _, t := range s.TargetList {
		rt := t.GetResTarget()
		if rt == nil {
			return nil, nil
		}
		cr := rt.Val.GetColumnRef()
		if cr == nil || lastField(cr) != "*" {
			name := rt.Name
			if name == "" {
				name = figureColname(rt.Val)
			}
			names, vals = append(names, name), append(vals, rt.Val)
			continue
		}
		f := fieldNames(cr)
		for _, rv := range tables {
			if rv == nil {
				return nil, nil
			}
			alias := rv.Relname
			if rv.Alias != nil {
				alias = rv.Alias.Aliasname
			}
			if len(f) >= 2 && f[len(f)-2] != alias {
				continue
			}
			tbl := c.lookupTable(rv.Schemaname, rv.Relname)
			if (rv.Schemaname == "" && c.isCTE(rv.Relname)) || tbl == nil || len(tbl.Columns) == 0 || len(rv.GetAlias().GetColnames()) > 0 {
				return nil, nil
			}
			for _, col := range tbl.Columns {
				names = append(names, col)
				vals = append(vals, pg.MakeColumnRefNode([]*pg.Node{pg.MakeStrNode(alias), pg.MakeStrNode(col)}, -1))
			}
		}
	}
	return names, vals
}

// Kinds of column a recursive term reads.
const (
	refUnknown = iota
	refSelf    // the CTE's own row: what the step starts from
	refFixed   // fixed during the recursion: a table, a non-lateral subquery, an outer column
	refMoving  // computed from the CTE's row (LATERAL, functions in FROM)
)

// recItem is a FROM item of a recursive term other than the CTE itself.
type recItem struct {
	alias  string
	kind   int    // refFixed or refMoving
	table  *Table // a real table with known columns and keys, or nil
	real   bool   // a table or view of the database (not a CTE, subquery, function)
	single bool   // yields at most one row
	cols   []string
}

// recArm is the recursive term of a CTE under judgement.
type recArm struct {
	name    string
	cols    []string
	seed    *pg.SelectStmt
	self    string // alias of the self-reference ("" if not a FROM item)
	items   []*recItem
	filters []*pg.Node // conjuncts that filter the CTE's rows
	quals   []*pg.Node // every join and WHERE conjunct
	targets []*pg.Node
	steps   []int
	// maxSteps bounds the steps a counter may count from a constant seed
	// to a constant bound; tooMany is the most a bound would allow.
	maxSteps, tooMany float64
	mixedAnchors      bool // a seed relative to now() and a literal bound, or the reverse
}

// recursionProof returns why the recursive term arm is not known to end
// ("" when it is).
func (c *checker) recursionProof(name string, cols []string, seed, arm *pg.SelectStmt) string {
	if arm.Op != pg.SetOperation_SETOP_NONE {
		return "has a set operation in its recursive term, which the guard does not follow" + recursionHint
	}
	a := &recArm{name: name, cols: cols, seed: seed, maxSteps: float64(c.cfg.maxGenerated)}
	for _, f := range arm.FromClause {
		c.collectRec(a, f, true)
	}
	if a.self == "" {
		return "reads itself inside a subquery or function of its recursive term, where no bound can be checked; name it directly in the FROM clause" + recursionHint
	}
	for _, conj := range conjuncts(arm.WhereClause) {
		a.filters = append(a.filters, conj)
		a.quals = append(a.quals, conj)
	}
	_, a.targets = c.expandStars(arm) // nil when a star's columns are unknown
	a.steps = make([]int, len(a.cols))
	for i := range a.cols {
		a.steps[i] = a.step(i)
	}
	walkItem := (*recItem)(nil)
	bounded := false
	for _, conj := range a.filters {
		if it := a.walk(conj); it != nil {
			bounded, walkItem = true, it
			break
		}
	}
	for _, conj := range a.filters {
		if bounded {
			break
		}
		bounded = a.bounds(conj)
	}
	for _, it := range a.items {
		if it == walkItem || it.single || a.joinedOnKey(it) {
			continue
		}
		return "joins " + it.alias + " in its recursive term without its primary key or a unique key of a table, so its rows can multiply at each step; join it on its key (ON t.id = r.parent_id) or aggregate it in a subquery"
	}
	if !bounded && a.mixedAnchors {
		return "counts from a date relative to the current time to a literal date (or the reverse), which the guard cannot count; start and end both at literals or both at now()/CURRENT_DATE plus or minus an interval"
	}
	if !bounded && a.tooMany > 0 {
		return fmt.Sprintf("would count about %.3g steps from its seed to its bound, more than the limit of %d; narrow the range or use a larger step", math.Min(a.tooMany, math.MaxFloat64), int64(a.maxSteps))
	}
	if !bounded {
		return "has no condition that ends the recursion (a strictly monotone counter compared in the direction it moves, or a walk along a table's key); WHERE true, ON true, random(), a carried column, abs(n) - 1 or a join to VALUES, a subquery or a LATERAL copy do not" + recursionHint
	}
	return ""
}

// collectRec records the FROM items of a recursive term; filtering is false
// under the nullable side of an outer join, whose conditions do not remove
// the CTE's rows.
func (c *checker) collectRec(a *recArm, n *pg.Node, filtering bool) {
	switch {
	case n == nil:
	case n.GetRangeVar() != nil:
		rv := n.GetRangeVar()
		alias := rv.Relname
		if rv.Alias != nil {
			alias = rv.Alias.Aliasname
		}
		if rv.Schemaname == "" && rv.Relname == a.name {
			a.self = alias
			return
		}
		it := &recItem{alias: alias, kind: refFixed}
		if rv.Schemaname != "" || !c.isCTE(rv.Relname) {
			it.real = true
			if t := c.lookupTable(rv.Schemaname, rv.Relname); t != nil {
				it.table, it.cols = t, t.Columns
			}
		}
		if rv.Alias != nil && len(rv.Alias.Colnames) > 0 {
			it.cols = renameCols(it.cols, rv.Alias.Colnames)
			it.table = nil // renamed columns: keys by name no longer apply
		}
		a.items = append(a.items, it)
	case n.GetJoinExpr() != nil:
		j := n.GetJoinExpr()
		left, right := filtering, filtering
		switch j.Jointype {
		case pg.JoinType_JOIN_INNER:
		case pg.JoinType_JOIN_LEFT:
			right = false
		case pg.JoinType_JOIN_RIGHT:
			left = false
		default:
			left, right = false, false
		}
		c.collectRec(a, j.Larg, left)
		c.collectRec(a, j.Rarg, right)
		for _, conj := range conjuncts(j.Quals) {
			a.quals = append(a.quals, conj)
			if filtering && j.Jointype == pg.JoinType_JOIN_INNER {
				a.filters = append(a.filters, conj)
			}
		}
	case n.GetRangeSubselect() != nil:
		rs := n.GetRangeSubselect()
		sub := rs.Subquery.GetSelectStmt()
		it := &recItem{alias: "subquery", kind: refFixed, single: singleRow(sub) || (sub != nil && len(sub.ValuesLists) == 1)}
		if rs.Lateral {
			it.kind = refMoving
		}
		it.cols, _ = outputNames(sub)
		if rs.Alias != nil {
			it.alias = rs.Alias.Aliasname
			it.cols = renameCols(it.cols, rs.Alias.Colnames)
		}
		a.items = append(a.items, it)
	default:
		// Functions in FROM are LATERAL; table functions, XMLTABLE,
		// JSON_TABLE: computed from what they read.
		it := &recItem{alias: "a function in FROM", kind: refMoving}
		if rf := n.GetRangeFunction(); rf != nil && rf.Alias != nil {
			it.alias = rf.Alias.Aliasname
		}
		a.items = append(a.items, it)
	}
}

// owner tells what a column reference of the recursive term reads: the
// CTE's row (refSelf, it nil), an item's column, or an outer column
// (refFixed, it nil).
func (a *recArm) owner(cr *pg.ColumnRef) (kind int, it *recItem) {
	f := fieldNames(cr)
	switch {
	case len(f) >= 2:
		q := f[len(f)-2]
		if q == a.self {
			return refSelf, nil
		}
		for _, it := range a.items {
			if it.alias == q {
				return it.kind, it
			}
		}
		return refFixed, nil // an outer query's column
	case len(f) != 1 || f[0] == "*":
		return refUnknown, nil
	}
	if slices.Contains(a.cols, f[0]) {
		return refSelf, nil
	}
	var found *recItem
	for _, it := range a.items {
		switch {
		case it.cols == nil && len(a.items) > 1:
			return refUnknown, nil
		case it.cols == nil || slices.Contains(it.cols, f[0]):
			if found != nil {
				return refUnknown, nil
			}
			found = it
		}
	}
	if found == nil {
		return refFixed, nil
	}
	return found.kind, found
}

// fixed reports whether an expression has the same value at every step:
// it reads no column of the CTE or of what is computed from it, and calls
// no volatile function.
func (a *recArm) fixed(n *pg.Node) bool {
	ok := true
	visit(n, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg.ColumnRef:
			if k, _ := a.owner(x); k != refFixed {
				ok = false
			}
		case *pg.FuncCall:
			if volatileFunctions[funcName(x)] {
				ok = false
			}
		}
		return ok
	})
	return ok
}

var volatileFunctions = setOf("random", "random_normal", "clock_timestamp", "timeofday", "gen_random_uuid",
	"uuidv4", "uuidv7", "array_shuffle", "array_sample")

// monotoneCasts are the types a cast to keeps the order of numbers and
// dates, so that a comparison sees through it.
var monotoneCasts = setOf("int2", "int4", "int8", "integer", "bigint", "smallint", "numeric", "decimal",
	"float4", "float8", "real", "date", "timestamp", "timestamptz")

// linear expresses n as sign*col + off, col a column of the CTE's row;
// casts to numbers and dates, unary plus and minus and constant offsets
// are normalised.
func (a *recArm) linear(n *pg.Node) (col string, sign int, off float64, ok bool) {
	switch {
	case n == nil:
	case n.GetColumnRef() != nil:
		if k, _ := a.owner(n.GetColumnRef()); k == refSelf {
			return lastField(n.GetColumnRef()), 1, 0, true
		}
	case n.GetTypeCast() != nil:
		tc := n.GetTypeCast()
		if monotoneCasts[typeNameOf(tc.TypeName)] && len(tc.TypeName.ArrayBounds) == 0 {
			return a.linear(tc.Arg)
		}
	case n.GetAExpr() != nil:
		e := n.GetAExpr()
		op, okOp := opName(e)
		if e.Kind != pg.A_Expr_Kind_AEXPR_OP || !okOp {
			break
		}
		if e.Lexpr == nil {
			col, sign, off, ok = a.linear(e.Rexpr)
			switch {
			case !ok:
			case op == "-":
				return col, -sign, -off, true
			case op == "+":
				return col, sign, off, true
			}
			break
		}
		// x + k, x - k, k + x, k - x
		for _, p := range [][2]*pg.Node{{e.Lexpr, e.Rexpr}, {e.Rexpr, e.Lexpr}} {
			k, isK := offsetConst(p[1])
			if !isK {
				continue
			}
			if col, sign, off, ok = a.linear(p[0]); !ok {
				continue
			}
			switch {
			case op == "+":
				return col, sign, off + k, true
			case op == "-" && p[0] == e.Lexpr:
				return col, sign, off - k, true
			case op == "-":
				return col, -sign, k - off, true
			}
		}
	}
	return "", 0, 0, false
}

// opName is an operator's name, unqualified or pg_catalog-qualified
// (OPERATOR(pg_catalog.+)); ok is false for any other schema.
func opName(e *pg.A_Expr) (string, bool) {
	if n := len(e.Name); n == 1 || n == 2 && e.Name[0].GetString_().GetSval() == "pg_catalog" {
		return opSymbol(e.Name), true
	}
	return "", false
}

// offsetConst is a constant step: a number, or an interval whose parts all
// have the same sign (INTERVAL '1 month -29 days' is 0 days from 1 February
// 2024: not a step), in seconds.
func offsetConst(n *pg.Node) (float64, bool) {
	if k, ok := numConst(n); ok && finite(k) {
		return k, true
	}
	return intervalSign(n)
}

// stepNone marks a CTE column the recursive term passes on unchanged.
const stepNone = 2

// step is +1 or -1 when the recursive term's output at position i is the
// CTE's column i strictly increased or decreased, stepNone when it passes
// it on unchanged, 0 otherwise.
func (a *recArm) step(i int) int {
	if i >= len(a.targets) {
		return 0
	}
	e := a.substitute(a.targets[i])
	col, sign, off, ok := a.linear(e)
	if seedFloat(a.seed, i) {
		return 0 // 1e300 + 1 is 1e300 in floating point: no step
	}
	switch {
	case ok && col == a.cols[i] && sign == 1 && off > 0:
		return 1
	case ok && col == a.cols[i] && sign == 1 && off < 0:
		return -1
	case ok && col == a.cols[i] && sign == 1:
		return stepNone
	case ok:
		return 0
	}
	// n * k (k > 1) and n + n grow strictly only from a positive seed.
	x := e.GetAExpr()
	if x == nil || x.Kind != pg.A_Expr_Kind_AEXPR_OP || x.Lexpr == nil || !seedPositive(a.seed, i) {
		return 0
	}
	op, _ := opName(x)
	self := func(n *pg.Node) bool {
		col, sign, off, ok := a.linear(n)
		return ok && col == a.cols[i] && sign == 1 && off == 0
	}
	factor := func(n *pg.Node) bool { k, ok := numConst(n); return ok && finite(k) && k > 1 }
	switch {
	case op == "+" && self(x.Lexpr) && self(x.Rexpr),
		op == "*" && self(x.Lexpr) && factor(x.Rexpr),
		op == "*" && factor(x.Lexpr) && self(x.Rexpr):
		return 1
	}
	return 0
}

// substitute replaces an output that is a table's column by what an
// equality of the recursive term makes it equal to (u.id with ON u.id =
// r.n + 1 is r.n + 1).
func (a *recArm) substitute(e *pg.Node) *pg.Node {
	cr := e.GetColumnRef()
	if cr == nil {
		return e
	}
	if k, _ := a.owner(cr); k == refSelf || k == refUnknown {
		return e
	}
	for _, conj := range a.filters {
		l, r, ok := equality(conj)
		if !ok {
			continue
		}
		for _, p := range [][2]*pg.Node{{l, r}, {r, l}} {
			if x := p[0].GetColumnRef(); x != nil && exprKey(p[0]) == exprKey(e) {
				if _, _, _, ok := a.linear(p[1]); ok {
					return p[1]
				}
			}
		}
	}
	return e
}

// equality splits l = r.
func equality(n *pg.Node) (l, r *pg.Node, ok bool) {
	e := n.GetAExpr()
	if e == nil || e.Kind != pg.A_Expr_Kind_AEXPR_OP || e.Lexpr == nil {
		return nil, nil, false
	}
	if op, ok := opName(e); !ok || op != "=" {
		return nil, nil, false
	}
	return e.Lexpr, e.Rexpr, true
}

// seedPositive reports whether every row of the non-recursive term has a
// positive number literal (not a float) at position i.
func seedPositive(s *pg.SelectStmt, i int) bool {
	seeds := seedNodes(s, i)
	for _, n := range seeds {
		if !positiveLiteral(n) {
			return false
		}
	}
	return len(seeds) > 0
}

func positiveLiteral(n *pg.Node) bool {
	k, ok := numConst(n)
	return ok && finite(k) && k > 0
}

// floatFunctions return double precision whatever their arguments.
var floatFunctions = setOf("random", "random_normal", "pi", "sqrt", "cbrt", "exp", "ln", "log", "log10", "power",
	"pow", "float4", "float8", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "degrees", "radians",
	"date_part", "to_number")

// seedFloat reports whether the non-recursive term may give column i a
// floating-point type: a cast to float4/float8 or a float function in the
// expression. (A float column of the data is not seen: documented.)
func seedFloat(s *pg.SelectStmt, i int) bool {
	nodes := seedNodes(s, i)
	found := false
	for _, n := range nodes {
		visit(n, func(m proto.Message) bool {
			switch x := m.(type) {
			case *pg.TypeCast:
				switch typeNameOf(x.TypeName) {
				case "float4", "float8", "real", "float":
					found = true
				}
			case *pg.FuncCall:
				found = found || floatFunctions[funcName(x)]
			}
			return !found
		})
	}
	return found
}

// bounds reports whether a filtering conjunct compares a counter with a
// fixed value in the direction it moves.
func (a *recArm) bounds(conj *pg.Node) bool {
	e := conj.GetAExpr()
	if e == nil {
		return false
	}
	dirOf := func(n *pg.Node) (dir, sign int) {
		col, sign, _, ok := a.linear(n)
		if !ok {
			return 0, 0
		}
		i := slices.Index(a.cols, col)
		if i < 0 || a.steps[i] == stepNone {
			return 0, 0
		}
		return a.steps[i], sign
	}
	switch e.Kind {
	case pg.A_Expr_Kind_AEXPR_BETWEEN, pg.A_Expr_Kind_AEXPR_BETWEEN_SYM:
		dir, _ := dirOf(e.Lexpr)
		if dir == 0 || !a.fixed(e.Rexpr) {
			return false
		}
		for _, b := range e.Rexpr.GetList().GetItems() {
			if !a.fewSteps(e.Lexpr, b) {
				return false
			}
		}
		return true
	case pg.A_Expr_Kind_AEXPR_OP:
	default:
		return false
	}
	op, ok := opName(e)
	if !ok || e.Lexpr == nil {
		return false
	}
	side, other := e.Lexpr, e.Rexpr
	dir, sign := dirOf(side)
	if dir == 0 {
		side, other, op = e.Rexpr, e.Lexpr, flipComparison(op)
		dir, sign = dirOf(side)
	}
	if dir == 0 || !a.fixed(other) {
		return false
	}
	if sign < 0 {
		op = flipComparison(op) // -n < 10 is n > -10
	}
	switch op {
	case "=":
		return true
	case "<", "<=":
		return dir > 0 && a.fewSteps(side, other)
	case ">", ">=":
		return dir < 0 && a.fewSteps(side, other)
	}
	return false
}

// fewSteps reports whether a counter (side, linear in a CTE column) counts
// at most maxSteps steps from its seed to a bound, when both are
// constants (numbers, or dates and timestamps); otherwise the data decides
// and it reports true. n < 10000000000 by n + 1 is a bound in name only.
func (a *recArm) fewSteps(side, bound *pg.Node) bool {
	col, sign, off0, _ := a.linear(side)
	i := slices.Index(a.cols, col)
	if i < 0 || i >= len(a.targets) {
		return true
	}
	_, _, step, _ := a.linear(a.substitute(a.targets[i]))
	seeds := seedNodes(a.seed, i)
	if step == 0 || len(seeds) == 0 {
		return true
	}
	target, far := 0.0, 0.0
	if b, ok := numConst(bound); ok {
		target = (b - off0) * float64(sign)
		for _, sn := range seeds {
			v, ok := numConst(sn)
			if !ok {
				return true
			}
			far = math.Max(far, math.Abs(target-v))
		}
	} else if b, ok := timeConst(bound); ok {
		// Offsets in dates are days, in intervals seconds; a mix is not
		// counted (fail closed).
		toSeconds := func(n *pg.Node, k float64) (float64, bool) {
			switch interval, number := constKinds(n); {
			case interval && number:
				return 0, false
			case number:
				return k * daySeconds, true
			}
			return k, true
		}
		off0s, ok1 := toSeconds(side, off0)
		steps, ok2 := toSeconds(a.targets[i], step)
		if !ok1 || !ok2 {
			return false
		}
		step = steps
		target = (b.at - off0s) * float64(sign)
		for _, sn := range seeds {
			v, ok := timeConst(sn)
			switch {
			case !ok:
				return true
			case v.anchored != b.anchored:
				a.mixedAnchors = true // now() to '3000-01-01': not counted
				return false
			}
			far = math.Max(far, math.Abs(target-v.at)+v.slop+b.slop)
		}
	} else {
		return true
	}
	if n := far / math.Abs(step); !finite(n) || n > a.maxSteps {
		a.tooMany = math.Max(a.tooMany, math.Min(n, math.MaxFloat64))
		return false
	}
	return true
}

// constKinds tells whether an expression adds interval constants and
// number constants.
func constKinds(n *pg.Node) (interval, number bool) {
	visit(n, func(m proto.Message) bool {
		if x, ok := m.(*pg.Node); ok && (x.GetAConst() != nil || x.GetTypeCast() != nil) {
			if _, isNum := numConst(x); isNum {
				number = true
				return false
			}
			if _, isIv := intervalSign(x); isIv {
				interval = true
				return false
			}
		}
		return true
	})
	return interval, number
}

// seedNodes are the expressions the non-recursive term gives column i.
func seedNodes(s *pg.SelectStmt, i int) []*pg.Node {
	switch {
	case s == nil:
	case s.Op != pg.SetOperation_SETOP_NONE:
		return append(seedNodes(s.Larg, i), seedNodes(s.Rarg, i)...)
	case len(s.ValuesLists) > 0:
		var out []*pg.Node
		for _, row := range s.ValuesLists {
			if items := row.GetList().GetItems(); i < len(items) {
				out = append(out, items[i])
			}
		}
		return out
	case i < len(s.TargetList) && s.TargetList[i].GetResTarget() != nil:
		return []*pg.Node{s.TargetList[i].GetResTarget().Val}
	}
	return nil
}

func flipComparison(op string) string {
	switch op {
	case "<":
		return ">"
	case "<=":
		return ">="
	case ">":
		return "<"
	case ">=":
		return "<="
	}
	return op
}

// walk returns the table a filtering conjunct walks along: T.k = r.c with
// the term's next c being T.m (m not k), and k or m a unique key of T.
func (a *recArm) walk(conj *pg.Node) *recItem {
	l, r, ok := equality(conj)
	if !ok {
		return nil
	}
	for _, p := range [][2]*pg.Node{{l, r}, {r, l}} {
		cr := p[0].GetColumnRef()
		if cr == nil {
			continue
		}
		_, it := a.owner(cr)
		if it == nil || it.table == nil {
			continue
		}
		col, sign, off, ok := a.linear(p[1])
		i := slices.Index(a.cols, col)
		if !ok || sign != 1 || off != 0 || i < 0 || i >= len(a.targets) {
			continue
		}
		next := a.targets[i].GetColumnRef()
		if next == nil {
			continue
		}
		if _, nit := a.owner(next); nit != it {
			continue
		}
		k, m := lastField(cr), lastField(next)
		if k != m && (uniqueIn(it.table, []string{k}) || uniqueIn(it.table, []string{m})) {
			return it
		}
	}
	return nil
}

// joinedOnKey reports whether the conditions of the recursive term equate
// a primary key or unique key of the item's table with values fixed for
// each row of the rest, so that it adds at most one row to each.
func (a *recArm) joinedOnKey(it *recItem) bool {
	if it.table == nil {
		return false
	}
	var keyCols []string
	for _, conj := range a.quals {
		l, r, ok := equality(conj)
		if !ok {
			continue
		}
		for _, p := range [][2]*pg.Node{{l, r}, {r, l}} {
			cr := p[0].GetColumnRef()
			if cr == nil {
				continue
			}
			if _, owner := a.owner(cr); owner != it || a.reads(p[1], it) {
				continue
			}
			keyCols = append(keyCols, lastField(cr))
		}
	}
	return uniqueIn(it.table, keyCols)
}

// reads reports whether an expression reads the item or calls a volatile
// function (then it does not pick one row of the item).
func (a *recArm) reads(n *pg.Node, it *recItem) bool {
	found := false
	visit(n, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg.ColumnRef:
			if k, owner := a.owner(x); owner == it || k == refUnknown {
				found = true
			}
		case *pg.FuncCall:
			found = found || volatileFunctions[funcName(x)]
		case *pg.SubLink:
			found = true // a subquery may return anything
		}
		return !found
	})
	return found
}

// refersTo reports whether the query reads the unqualified relation name
// anywhere (a FROM item, a join, a subquery in FROM or in an expression).
func refersTo(s *pg.SelectStmt, name string) bool {
	found := false
	visit(s, func(m proto.Message) bool {
		if rv, ok := m.(*pg.RangeVar); ok && rv.Schemaname == "" && rv.Relname == name {
			found = true
		}
		return !found
	})
	return found
}

// intervalSign evaluates an interval literal in seconds when all its parts
// have the same sign.
func intervalSign(n *pg.Node) (float64, bool) {
	d, ok := intervalSeconds(n)
	if !ok || d.mixed {
		return 0, false
	}
	// PostgreSQL keeps microseconds: '0.0000001 seconds' is no step.
	return math.Round(d.seconds*1e6) / 1e6, finite(d.seconds)
}
