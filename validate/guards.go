package validate

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// Resource guards. The rules are deliberately simple so that they can be
// explained to whoever writes the query:
//
//   - generate_series(start, stop[, step]) must have bounds and step the
//     validator can evaluate: numeric literals, date/timestamp literals,
//     CURRENT_DATE/now()-like values (optionally date_trunc'ed) plus or minus
//     interval literals. The number of rows it yields must not exceed
//     maxGenerated. One exception: a date series whose bounds come from the
//     data (generate_series(min(d), max(d), '1 month')) is allowed when its
//     step is an interval literal of at least one day.
//   - String-building calls (repeat, lpad, rpad, format with widths,
//     replace, regexp_replace) must yield at most maxGenerated characters,
//     computed through nested calls (see strings.go); accumulating
//     aggregates (string_agg, array_agg, json_agg, ...) may collect values
//     of at most maxGenerated/100 built characters each.
//   - A recursive CTE needs a WHERE clause, a join condition or a LIMIT in its
//     recursive term.

func (c *checker) checkSeries(f *pg.FuncCall) {
	if len(f.Args) < 2 || len(f.Args) > 3 {
		c.violation(CodeSeries, "generate_series needs 2 or 3 constant arguments (start, stop, step)")
		return
	}
	max := float64(c.cfg.maxGenerated)
	if a, okA := numConst(f.Args[0]); okA {
		b, okB := numConst(f.Args[1])
		step := 1.0
		okS := true
		if len(f.Args) == 3 {
			step, okS = numConst(f.Args[2])
		}
		if !okB || !okS || step == 0 || !finite(a, b, step) {
			c.violation(CodeSeries, "generate_series bounds and step must be numeric constants (step not 0); compute the range from literal values")
			return
		}
		if n := math.Floor((b-a)/step) + 1; n > max {
			c.violation(CodeSeries, "generate_series would produce %.0f rows, more than the limit of %d; narrow the range", n, c.cfg.maxGenerated)
		}
		return
	}
	a, okA := timeConst(f.Args[0])
	b, okB := timeConst(f.Args[1])
	if (!okA || !okB) && len(f.Args) == 3 && !mentionsInfinity(f.Args[0], f.Args[1]) {
		// A calendar spine over the data's range (min(date) to max(date))
		// is common and bounded by the data: allowed with a step of at
		// least a day; statement_timeout is the backstop.
		if step, ok := intervalConst(f.Args[2]); ok {
			if step < 24*time.Hour {
				c.violation(CodeSeries, "generate_series over non-constant dates needs a step of at least INTERVAL '1 day'")
			}
			return
		}
	}
	if !okA || !okB || len(f.Args) != 3 {
		c.violation(CodeSeries, "generate_series needs constant bounds (numbers, date/timestamp literals, CURRENT_DATE or now() plus or minus an interval literal) and, for dates, an interval step")
		return
	}
	step, okS := intervalConst(f.Args[2])
	if !okS || step == 0 {
		c.violation(CodeSeries, "generate_series step must be a non-zero interval literal such as INTERVAL '1 day'")
		return
	}
	if a.anchored != b.anchored {
		c.violation(CodeSeries, "generate_series bounds must both be literals or both be relative to the current date")
		return
	}
	span := b.at.Sub(a.at)
	slop := a.slop + b.slop
	n := (math.Abs(span.Seconds())+slop.Seconds())/math.Abs(step.Seconds()) + 1
	if n > max {
		c.violation(CodeSeries, "generate_series would produce about %.0f rows, more than the limit of %d; narrow the range or use a larger step", n, c.cfg.maxGenerated)
	}
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// mentionsInfinity reports whether a string literal in the expressions
// spells an infinite date ('infinity', '-infinity').
func mentionsInfinity(ns ...*pg.Node) bool {
	found := false
	for _, n := range ns {
		visit(n, func(m proto.Message) bool {
			if k, ok := m.(*pg.A_Const); ok && k.GetSval() != nil &&
				strings.Contains(strings.ToLower(k.GetSval().Sval), "infinity") {
				found = true
			}
			return !found
		})
	}
	return found
}

// numConst evaluates a numeric literal, possibly negated or cast.
func numConst(n *pg.Node) (float64, bool) {
	switch {
	case n == nil:
		return 0, false
	case n.GetAConst() != nil:
		k := n.GetAConst()
		switch {
		case k.GetIval() != nil:
			return float64(k.GetIval().Ival), true
		case k.GetFval() != nil:
			v, err := strconv.ParseFloat(k.GetFval().Fval, 64)
			return v, err == nil
		case k.GetSval() != nil:
			v, err := strconv.ParseFloat(strings.TrimSpace(k.GetSval().Sval), 64)
			return v, err == nil
		}
		return 0, false
	case n.GetTypeCast() != nil:
		tc := n.GetTypeCast()
		switch typeNameOf(tc.TypeName) {
		case "int2", "int4", "int8", "integer", "bigint", "smallint", "numeric", "float4", "float8", "decimal", "real":
			return numConst(tc.Arg)
		}
	case n.GetAExpr() != nil:
		e := n.GetAExpr()
		if e.Kind != pg.A_Expr_Kind_AEXPR_OP || len(e.Name) != 1 {
			return 0, false
		}
		op := e.Name[0].GetString_().GetSval()
		r, ok := numConst(e.Rexpr)
		if !ok {
			return 0, false
		}
		if e.Lexpr == nil {
			switch op {
			case "-":
				return -r, true
			case "+":
				return r, true
			}
			return 0, false
		}
		l, ok := numConst(e.Lexpr)
		if !ok {
			return 0, false
		}
		switch op {
		case "+":
			return l + r, true
		case "-":
			return l - r, true
		case "*":
			return l * r, true
		}
	}
	return 0, false
}

func typeNameOf(t *pg.TypeName) string {
	if t == nil || len(t.Names) == 0 {
		return ""
	}
	return t.Names[len(t.Names)-1].GetString_().GetSval()
}

// timeVal is a timestamp known up to slop, either absolute or relative to
// the current time (anchored).
type timeVal struct {
	at       time.Time
	anchored bool
	slop     time.Duration
}

var epoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

var timeLayouts = []string{"2006-01-02", "2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04",
	"2006-01-02 15:04:05.999999", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05-07", "2006-01-02T15:04:05Z07:00"}

func parseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func timeConst(n *pg.Node) (timeVal, bool) {
	switch {
	case n == nil:
	case n.GetAConst() != nil:
		if s := n.GetAConst().GetSval(); s != nil {
			t, ok := parseTime(s.Sval)
			return timeVal{at: t}, ok
		}
	case n.GetTypeCast() != nil:
		tc := n.GetTypeCast()
		switch typeNameOf(tc.TypeName) {
		case "date", "timestamp", "timestamptz":
			return timeConst(tc.Arg)
		}
	case n.GetSqlvalueFunction() != nil:
		return timeVal{at: epoch, anchored: true, slop: 24 * time.Hour}, true
	case n.GetFuncCall() != nil:
		f := n.GetFuncCall()
		name := f.Funcname[len(f.Funcname)-1].GetString_().GetSval()
		switch name {
		case "now", "clock_timestamp", "statement_timestamp", "transaction_timestamp":
			if len(f.Args) == 0 {
				return timeVal{at: epoch, anchored: true, slop: 24 * time.Hour}, true
			}
		case "date_trunc":
			if len(f.Args) >= 2 {
				if v, ok := timeConst(f.Args[1]); ok {
					v.slop += 366 * 24 * time.Hour
					return v, true
				}
			}
		}
	case n.GetAExpr() != nil:
		e := n.GetAExpr()
		if e.Kind != pg.A_Expr_Kind_AEXPR_OP || len(e.Name) != 1 || e.Lexpr == nil {
			return timeVal{}, false
		}
		op := e.Name[0].GetString_().GetSval()
		l, ok := timeConst(e.Lexpr)
		if !ok {
			return timeVal{}, false
		}
		d, ok := intervalConst(e.Rexpr)
		if !ok {
			k, isNum := numConst(e.Rexpr) // date +/- integer days
			d, ok = time.Duration(k*float64(24*time.Hour)), isNum
		}
		if ok && (op == "+" || op == "-") {
			if op == "-" {
				d = -d
			}
			l.at = l.at.Add(d)
			return l, true
		}
	}
	return timeVal{}, false
}

var intervalUnits = map[string]time.Duration{
	"microsecond": time.Microsecond, "millisecond": time.Millisecond, "second": time.Second, "sec": time.Second,
	"minute": time.Minute, "min": time.Minute, "hour": time.Hour, "day": 24 * time.Hour, "week": 7 * 24 * time.Hour,
	"month": 30 * 24 * time.Hour, "mon": 30 * 24 * time.Hour, "year": 365 * 24 * time.Hour,
	"decade": 3650 * 24 * time.Hour, "century": 36500 * 24 * time.Hour,
}

// intervalConst evaluates '3 days'::interval / INTERVAL '1 month' (months
// count 30 days, years 365: the guard needs magnitudes, not calendars).
func intervalConst(n *pg.Node) (time.Duration, bool) {
	tc := n.GetTypeCast()
	var s string
	switch {
	case tc != nil && typeNameOf(tc.TypeName) == "interval":
		if tc.Arg.GetAConst().GetSval() == nil || len(tc.TypeName.Typmods) > 0 {
			return 0, false
		}
		s = tc.Arg.GetAConst().GetSval().Sval
	case n.GetAConst().GetSval() != nil:
		s = n.GetAConst().GetSval().Sval
	default:
		return 0, false
	}
	return parseInterval(s)
}

func parseInterval(s string) (time.Duration, bool) {
	f := strings.Fields(strings.ToLower(s))
	if len(f) == 0 || len(f)%2 != 0 {
		return 0, false
	}
	var total time.Duration
	for i := 0; i < len(f); i += 2 {
		k, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return 0, false
		}
		u := strings.TrimSuffix(f[i+1], "s")
		if f[i+1] == "s" || f[i+1] == "secs" {
			u = "sec"
		}
		d, ok := intervalUnits[u]
		if !ok {
			return 0, false
		}
		total += time.Duration(k * float64(d))
	}
	return total, true
}

// recursionGuard flags a recursive CTE whose recursive term has no real
// bound. A bound is a condition (WHERE or JOIN ON, a conjunct, not under OR
// or NOT) that either compares a column of the CTE with a value that does
// not depend on the recursion (n < 10, d <= '2024-12-31', depth < t.max),
// in the direction its step moves (n + 1 needs < or <=), or equates a
// column of the CTE with a column of a real relation, so that the data
// ends the walk. WHERE true, ON true, random() >= 0, n = n or ... OR true
// bound nothing.
func (c *checker) recursionGuard(cte *pg.CommonTableExpr) {
	body := cte.Ctequery.GetSelectStmt()
	if body.Op == pg.SetOperation_SETOP_NONE {
		return // not self-referencing in a valid way; PostgreSQL decides
	}
	cols, _ := outputNames(body.Larg)
	cols = renameCols(cols, cte.Aliascolnames)
	for _, arm := range []*pg.SelectStmt{body.Larg, body.Rarg} {
		if arm == nil || !refersTo(arm, cte.Ctename) {
			continue
		}
		if recursionBounded(arm, cte.Ctename, cols) {
			continue
		}
		c.violation(CodeRecursion, "recursive CTE %s has no condition that ends the recursion (compare a column of %s with a constant, e.g. WHERE n < 10, or join it to a table on a key); WHERE true, ON true or random() do not", cte.Ctename, cte.Ctename)
	}
}

// recursionBounded reports whether the recursive arm has a real bound.
func recursionBounded(arm *pg.SelectStmt, name string, cols []string) bool {
	self, others := map[string]bool{}, map[string]bool{}
	var quals []*pg.Node
	var collect func(n *pg.Node)
	collect = func(n *pg.Node) {
		switch {
		case n == nil:
		case n.GetRangeVar() != nil:
			rv := n.GetRangeVar()
			ref := rv.Relname
			if rv.Alias != nil {
				ref = rv.Alias.Aliasname
			}
			if rv.Schemaname == "" && rv.Relname == name {
				self[ref] = true
			} else {
				others[ref] = true
			}
		case n.GetJoinExpr() != nil:
			j := n.GetJoinExpr()
			collect(j.Larg)
			collect(j.Rarg)
			quals = append(quals, j.Quals)
		case n.GetRangeSubselect() != nil:
			if a := n.GetRangeSubselect().Alias; a != nil {
				others[a.Aliasname] = true
			}
		case n.GetRangeFunction() != nil:
			if a := n.GetRangeFunction().Alias; a != nil {
				others[a.Aliasname] = true
			}
		}
	}
	for _, f := range arm.FromClause {
		collect(f)
	}
	quals = append(quals, arm.WhereClause)
	onlySelf := len(others) == 0
	// which tells whether a column reference is the CTE's own (1), a real
	// relation's (2), or unknown (0).
	which := func(cr *pg.ColumnRef) int {
		f := fieldNames(cr)
		switch {
		case len(f) == 2 && self[f[0]]:
			return 1
		case len(f) == 2 && others[f[0]]:
			return 2
		case len(f) == 1 && (onlySelf || slices.Contains(cols, f[0])):
			return 1
		case len(f) == 1:
			return 2
		}
		return 0
	}
	steps := recursionSteps(arm, cols, which)
	for _, q := range quals {
		for _, conj := range conjuncts(q) {
			if boundPredicate(conj, which, steps) {
				return true
			}
		}
	}
	return false
}

// refKinds tells which kinds of column a subtree reads (1: the CTE's, 2: a
// real relation's) and whether it calls a volatile function.
func refKinds(n *pg.Node, which func(*pg.ColumnRef) int) (self, other, volatile bool) {
	visit(n, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg.ColumnRef:
			switch which(x) {
			case 1:
				self = true
			case 2:
				other = true
			}
		case *pg.FuncCall:
			if volatileFunctions[funcName(x)] {
				volatile = true
			}
		}
		return true
	})
	return
}

var volatileFunctions = setOf("random", "random_normal", "clock_timestamp", "timeofday", "gen_random_uuid",
	"uuidv4", "uuidv7", "array_shuffle", "array_sample")

// stepNone marks a CTE column the recursive arm passes on unchanged.
const stepNone = 2

// recursionSteps maps a CTE column to +1 or -1 when the recursive arm
// computes it as the column plus or minus a positive constant, and to
// stepNone when it passes it on unchanged.
func recursionSteps(arm *pg.SelectStmt, cols []string, which func(*pg.ColumnRef) int) map[string]int {
	steps := map[string]int{}
	for i, t := range arm.TargetList {
		rt := t.GetResTarget()
		if rt == nil || i >= len(cols) {
			continue
		}
		if cr := rt.Val.GetColumnRef(); cr != nil && which(cr) == 1 && lastField(cr) == cols[i] {
			steps[cols[i]] = stepNone // carried over unchanged: no bound on it ends anything
			continue
		}
		e := rt.Val.GetAExpr()
		if e == nil || e.Kind != pg.A_Expr_Kind_AEXPR_OP || len(e.Name) != 1 {
			continue
		}
		cr := e.Lexpr.GetColumnRef()
		if cr == nil || which(cr) != 1 || lastField(cr) != cols[i] {
			continue
		}
		sign := 1
		switch e.Name[0].GetString_().GetSval() {
		case "+":
		case "-":
			sign = -1
		default:
			continue
		}
		if k, ok := numConst(e.Rexpr); ok && k > 0 {
			steps[cols[i]] = sign
		} else if _, ok := intervalConst(e.Rexpr); ok {
			steps[cols[i]] = sign
		}
	}
	return steps
}

// boundPredicate reports whether one conjunct bounds the recursion.
func boundPredicate(conj *pg.Node, which func(*pg.ColumnRef) int, steps map[string]int) bool {
	e := conj.GetAExpr()
	if e == nil {
		return false
	}
	switch e.Kind {
	case pg.A_Expr_Kind_AEXPR_BETWEEN, pg.A_Expr_Kind_AEXPR_BETWEEN_SYM:
		ls, lo, lv := refKinds(e.Lexpr, which)
		rs, _, rv := refKinds(e.Rexpr, which)
		return ls && !lo && !lv && !rs && !rv
	case pg.A_Expr_Kind_AEXPR_OP:
	default:
		return false
	}
	if len(e.Name) != 1 {
		return false
	}
	op := e.Name[0].GetString_().GetSval()
	ls, lo, lv := refKinds(e.Lexpr, which)
	rs, ro, rv := refKinds(e.Rexpr, which)
	if lv || rv {
		return false
	}
	// A data walk: a column of the CTE equals a column of a real relation.
	if op == "=" && ((ls && !lo && ro && !rs) || (rs && !ro && lo && !ls)) {
		return true
	}
	// A counter: the CTE's column on one side only, the other side fixed.
	side := e.Lexpr
	switch {
	case ls && !rs:
	case rs && !ls:
		side, op = e.Rexpr, flipComparison(op)
	default:
		return false
	}
	dir := 0
	if cr := side.GetColumnRef(); cr != nil {
		dir = steps[lastField(cr)]
	} else if a := side.GetAExpr(); a != nil && a.Lexpr.GetColumnRef() != nil {
		dir = steps[lastField(a.Lexpr.GetColumnRef())]
	}
	switch {
	case dir == stepNone:
		return false
	case op == "=":
		return true
	}
	switch op {
	case "<", "<=":
		return dir >= 0
	case ">", ">=":
		return dir <= 0
	}
	return false
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

// refersTo reports whether a FROM item of s (at any depth of joins) is the
// unqualified relation name.
func refersTo(s *pg.SelectStmt, name string) bool {
	if s.Op != pg.SetOperation_SETOP_NONE {
		return (s.Larg != nil && refersTo(s.Larg, name)) || (s.Rarg != nil && refersTo(s.Rarg, name))
	}
	var found bool
	var visit func(n *pg.Node)
	visit = func(n *pg.Node) {
		switch {
		case n == nil || found:
		case n.GetRangeVar() != nil:
			rv := n.GetRangeVar()
			found = rv.Schemaname == "" && rv.Relname == name
		case n.GetJoinExpr() != nil:
			visit(n.GetJoinExpr().Larg)
			visit(n.GetJoinExpr().Rarg)
		}
	}
	for _, n := range s.FromClause {
		visit(n)
	}
	return found
}
