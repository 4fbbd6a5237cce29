package describe

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// generic column names read ambiguously without their table when a query
// reads several: "name" becomes "region name".
var generic = map[string]bool{
	"name": true, "id": true, "code": true, "status": true, "description": true,
	"type": true, "date": true, "amount": true, "total amount": true, "category": true,
	"rate": true, "value": true, "number": true, "title": true, "notes": true,
	"quantity": true, "cost": true, "price": true, "total": true, "level": true,
	"stage": true, "currency": true, "year": true, "period": true, "priority": true,
	"source": true, "reason": true, "method": true, "health": true, "severity": true,
}

// colRef describes a column reference.
func (w *writer) colRef(c *pg.ColumnRef, sc *scope) string {
	f := c.GetFields()
	if len(f) == 0 {
		return "a column"
	}
	if f[len(f)-1].GetAStar() != nil {
		if len(f) >= 2 {
			if r, _ := sc.lookup(f[len(f)-2].GetString_().GetSval()); r != nil {
				return "all columns of " + r.words
			}
		}
		return "all columns"
	}
	col := w.words(lastField(c))
	var r *rel
	outer := false
	if q := qualifier(c); q != "" {
		r, outer = sc.lookup(q)
	} else if len(sc.rels) == 1 {
		r = sc.rels[0]
	}
	if r == nil {
		return col
	}
	col = w.inContext(lastField(c), col, r)
	switch {
	case r.role != "":
		return join(r.role, strip(col, r.entity))
	case outer, sc.multi && generic[col] && !strings.Contains(col, r.entity):
		return join(r.entity, col)
	}
	return col
}

// inContext reads an abbreviation in a column's name as the word of its
// table it begins, when the glosser reads it otherwise: doc_id of doctors
// is the doctor id, not the document id. col is the column in words.
func (w *writer) inContext(ident, col string, r *rel) string {
	if r.table == "" {
		return col
	}
	entity := strings.Fields(r.entity)
	out := strings.Fields(col)
	for _, part := range gloss.Split(ident) {
		if len(part) < 3 {
			continue
		}
		read := w.glosser(part)
		if len(read) == 0 || len(read) == 1 && read[0] == part {
			continue // no abbreviation
		}
		for _, e := range entity {
			if !strings.HasPrefix(e, part) {
				continue
			}
			if i := indexWords(out, read); i >= 0 {
				out = slices.Concat(out[:i], []string{e}, out[i+len(read):])
			}
			break
		}
	}
	return strings.Join(out, " ")
}

// indexWords returns where sub first stands in words, or -1.
func indexWords(words, sub []string) int {
	for i := 0; i+len(sub) <= len(words); i++ {
		if slices.Equal(words[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// strip removes a leading entity from column words: "employee id" of an
// employee is "id".
func strip(col, entity string) string {
	if rest, ok := strings.CutPrefix(col, entity+" "); ok {
		return rest
	}
	return col
}

// join qualifies column words with an entity, merging a shared word:
// "parent category" and "category name" make "parent category name".
func join(entity, col string) string {
	e, c := strings.Fields(entity), strings.Fields(col)
	if len(e) > 0 && len(c) > 1 && e[len(e)-1] == c[0] {
		c = c[1:]
	}
	return strings.Join(append(e, c...), " ")
}

var dateRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// constant describes a literal.
func constant(c *pg.A_Const) string {
	switch {
	case c.GetIsnull():
		return "nothing"
	case c.GetIval() != nil:
		return strconv.FormatInt(int64(c.GetIval().GetIval()), 10)
	case c.GetFval() != nil:
		return c.GetFval().GetFval()
	case c.GetBoolval() != nil:
		return strconv.FormatBool(c.GetBoolval().GetBoolval())
	case c.GetSval() != nil:
		s := c.GetSval().GetSval()
		if dateRe.MatchString(s) {
			return s
		}
		return "'" + s + "'"
	case c.GetBsval() != nil:
		return "bits " + c.GetBsval().GetBsval()
	}
	return "0"
}

// dateConst returns the date of a literal like DATE '2024-01-01'.
func dateConst(n *pg.Node) (time.Time, bool) {
	if tc := n.GetTypeCast(); tc != nil {
		n = tc.GetArg()
	}
	s := n.GetAConst().GetSval().GetSval()
	if !dateRe.MatchString(s) {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01-02", s)
	return t, err == nil
}

func dateish(s string) bool {
	for _, w := range strings.Fields(s) {
		switch w {
		case "date", "time", "day", "month", "year", "on", "at", "period", "timestamp":
			return true
		}
	}
	return false
}

// isColumn reports whether n is a plain column: its words take no "of".
func isColumn(n *pg.Node) bool {
	if tc := n.GetTypeCast(); tc != nil {
		return isColumn(tc.GetArg())
	}
	return n.GetColumnRef() != nil
}

// expr describes a value.
func (w *writer) expr(n *pg.Node, sc *scope) string {
	if n == nil {
		return "nothing"
	}
	switch {
	case n.GetColumnRef() != nil:
		return w.colRef(n.GetColumnRef(), sc)
	case n.GetAConst() != nil:
		return constant(n.GetAConst())
	case n.GetTypeCast() != nil:
		tc := n.GetTypeCast()
		if c := tc.GetArg().GetAConst(); c != nil && c.GetSval() != nil {
			return strings.Trim(constant(c), "'")
		}
		return w.expr(tc.GetArg(), sc)
	case n.GetParamRef() != nil:
		return fmt.Sprintf("parameter $%d", n.GetParamRef().GetNumber())
	case n.GetFuncCall() != nil:
		return w.funcCall(n.GetFuncCall(), sc)
	case n.GetAExpr() != nil:
		return w.aExpr(n.GetAExpr(), sc)
	case n.GetCaseExpr() != nil:
		return w.caseExpr(n.GetCaseExpr(), sc)
	case n.GetCoalesceExpr() != nil:
		args := n.GetCoalesceExpr().GetArgs()
		if len(args) == 0 {
			return "nothing"
		}
		first := w.expr(args[0], sc)
		var rest []string
		for _, a := range args[1:] {
			rest = append(rest, w.expr(a, sc))
		}
		if len(rest) == 1 && args[1].GetAConst() != nil {
			return first + " (" + rest[0] + " when missing)"
		}
		return first + ", or " + list(rest, "or") + " when missing"
	case n.GetMinMaxExpr() != nil:
		m := n.GetMinMaxExpr()
		var args []string
		for _, a := range m.GetArgs() {
			args = append(args, w.expr(a, sc))
		}
		return pick(m.GetOp() == pg.MinMaxOp_IS_GREATEST, "the greater of ", "the lesser of ") + list(args, "and")
	case n.GetSubLink() != nil && n.GetSubLink().GetSubLinkType() == pg.SubLinkType_EXPR_SUBLINK:
		return w.brief(n.GetSubLink().GetSubselect(), sc)
	case n.GetSqlvalueFunction() != nil:
		switch n.GetSqlvalueFunction().GetOp() {
		case pg.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
			return "today"
		case pg.SQLValueFunctionOp_SVFOP_CURRENT_USER, pg.SQLValueFunctionOp_SVFOP_SESSION_USER, pg.SQLValueFunctionOp_SVFOP_USER:
			return "the current user"
		}
		return "the current time"
	case n.GetBoolExpr() != nil, n.GetNullTest() != nil, n.GetBooleanTest() != nil, n.GetSubLink() != nil:
		return "whether " + w.cond(n, sc)
	case n.GetCollateClause() != nil:
		return w.expr(n.GetCollateClause().GetArg(), sc)
	case n.GetAIndirection() != nil:
		return "a part of " + w.expr(n.GetAIndirection().GetArg(), sc)
	case n.GetAArrayExpr() != nil, n.GetArrayExpr() != nil:
		return "a list of values"
	case n.GetRowExpr() != nil:
		var args []string
		for _, a := range n.GetRowExpr().GetArgs() {
			args = append(args, w.expr(a, sc))
		}
		return "(" + strings.Join(args, ", ") + ")"
	}
	return "an expression"
}

var arith = map[string]string{"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo", "^": "to the power of"}

// aExpr describes an operator expression used as a value.
func (w *writer) aExpr(e *pg.A_Expr, sc *scope) string {
	op := opName(e)
	if e.GetKind() != pg.A_Expr_Kind_AEXPR_OP {
		if e.GetKind() == pg.A_Expr_Kind_AEXPR_NULLIF {
			return w.expr(e.GetLexpr(), sc) + " (nothing when it is " + w.expr(e.GetRexpr(), sc) + ")"
		}
		return "whether " + w.cond(&pg.Node{Node: &pg.Node_AExpr{AExpr: e}}, sc)
	}
	if e.GetLexpr() == nil {
		if op == "-" {
			return "minus " + w.expr(e.GetRexpr(), sc)
		}
		return w.expr(e.GetRexpr(), sc)
	}
	// 100 * a / b is a percentage.
	if op == "/" {
		if l := e.GetLexpr().GetAExpr(); l != nil && opName(l) == "*" && l.GetLexpr() != nil && isHundred(l.GetLexpr()) {
			return w.expr(l.GetRexpr(), sc) + " as a percentage of " + w.expr(e.GetRexpr(), sc)
		}
	}
	if op == "||" {
		var parts []string
		var walk func(n *pg.Node)
		walk = func(n *pg.Node) {
			if x := n.GetAExpr(); x != nil && opName(x) == "||" && x.GetLexpr() != nil {
				walk(x.GetLexpr())
				walk(x.GetRexpr())
				return
			}
			if c := n.GetAConst(); c != nil && c.GetSval() != nil && strings.TrimSpace(c.GetSval().GetSval()) == "" {
				return
			}
			parts = append(parts, w.expr(n, sc))
		}
		walk(&pg.Node{Node: &pg.Node_AExpr{AExpr: e}})
		return list(parts, "and") + " put together"
	}
	if word, ok := arith[op]; ok {
		return w.expr(e.GetLexpr(), sc) + " " + word + " " + w.expr(e.GetRexpr(), sc)
	}
	if _, ok := compare[op]; ok {
		return "whether " + w.cond(&pg.Node{Node: &pg.Node_AExpr{AExpr: e}}, sc)
	}
	return "an expression of " + w.expr(e.GetLexpr(), sc) + " and " + w.expr(e.GetRexpr(), sc)
}

func isHundred(n *pg.Node) bool {
	c := n.GetAConst()
	if c == nil {
		return false
	}
	if c.GetIval() != nil {
		return c.GetIval().GetIval() == 100
	}
	f, err := strconv.ParseFloat(c.GetFval().GetFval(), 64)
	return err == nil && f == 100
}

// caseExpr describes CASE by its possible results and what decides.
func (w *writer) caseExpr(c *pg.CaseExpr, sc *scope) string {
	var results []string
	seen := map[string]bool{}
	addResult := func(n *pg.Node) {
		s := w.expr(n, sc)
		if !seen[s] {
			seen[s] = true
			results = append(results, s)
		}
	}
	var on []string
	seenOn := map[string]bool{}
	for _, n := range c.GetArgs() {
		cw := n.GetCaseWhen()
		if cw == nil {
			continue
		}
		addResult(cw.GetResult())
		for _, col := range w.columns(cw.GetExpr(), sc) {
			if !seenOn[col] {
				seenOn[col] = true
				on = append(on, col)
			}
		}
	}
	if c.GetDefresult() != nil {
		addResult(c.GetDefresult())
	} else {
		addResult(&pg.Node{Node: &pg.Node_AConst{AConst: &pg.A_Const{Isnull: true}}})
	}
	if c.GetArg() != nil {
		on = append([]string{w.expr(c.GetArg(), sc)}, on...)
	}
	s := "one of " + list(results, "or")
	if len(on) > 0 {
		s += " depending on " + list(on, "and")
	}
	return s
}

// columns lists the columns an expression reads, in order, once each.
func (w *writer) columns(n *pg.Node, sc *scope) []string {
	var out []string
	seen := map[string]bool{}
	var visit func(m *pg.Node)
	visit = func(m *pg.Node) {
		if m == nil {
			return
		}
		if c := m.GetColumnRef(); c != nil {
			s := w.colRef(c, sc)
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
			return
		}
		switch {
		case m.GetAExpr() != nil:
			visit(m.GetAExpr().GetLexpr())
			visit(m.GetAExpr().GetRexpr())
		case m.GetBoolExpr() != nil:
			for _, a := range m.GetBoolExpr().GetArgs() {
				visit(a)
			}
		case m.GetFuncCall() != nil:
			for _, a := range m.GetFuncCall().GetArgs() {
				visit(a)
			}
		case m.GetTypeCast() != nil:
			visit(m.GetTypeCast().GetArg())
		case m.GetNullTest() != nil:
			visit(m.GetNullTest().GetArg())
		}
	}
	visit(n)
	return out
}

var aggregates = map[string]bool{
	"count": true, "sum": true, "avg": true, "min": true, "max": true, "string_agg": true,
	"array_agg": true, "bool_and": true, "bool_or": true, "every": true, "stddev": true,
	"stddev_samp": true, "stddev_pop": true, "variance": true, "var_samp": true, "var_pop": true,
	"percentile_cont": true, "percentile_disc": true, "mode": true, "json_agg": true, "jsonb_agg": true,
	"corr": true, "median": true,
}

// funcCall describes a function call, aggregate or window function.
func (w *writer) funcCall(f *pg.FuncCall, sc *scope) string {
	name := funcName(f)
	args := f.GetArgs()
	arg := func(i int) string {
		if i < len(args) {
			return w.expr(args[i], sc)
		}
		return "nothing"
	}
	if f.GetOver() != nil {
		return w.window(f, sc)
	}
	if aggregates[name] || f.GetAggStar() || f.GetAggWithinGroup() {
		w.aggs++
		s := w.aggregate(f, sc)
		if f.GetAggFilter() != nil {
			s += " where " + w.cond(f.GetAggFilter(), sc)
		}
		return s
	}
	switch name {
	case "round", "trunc", "lower", "upper", "btrim", "trim", "numeric", "float8", "int4", "int8", "text":
		if len(args) > 0 {
			return arg(0)
		}
	case "abs":
		return "the absolute value of " + arg(0)
	case "ceil", "ceiling":
		return arg(0) + " rounded up"
	case "floor":
		return arg(0) + " rounded down"
	case "extract", "date_part", "date_trunc":
		if len(args) == 2 {
			return "the " + strings.Trim(arg(0), "'") + " of " + arg(1)
		}
	case "now", "current_timestamp", "clock_timestamp", "statement_timestamp", "transaction_timestamp":
		return "now"
	case "age":
		return "the age of " + arg(0)
	case "length", "char_length":
		return "the length of " + arg(0)
	case "concat", "concat_ws":
		var parts []string
		for _, a := range args {
			if c := a.GetAConst(); c != nil && c.GetSval() != nil {
				continue
			}
			parts = append(parts, w.expr(a, sc))
		}
		return list(parts, "and") + " put together"
	case "to_char":
		return arg(0) + " as text"
	case "nullif":
		return arg(0) + " (nothing when it is " + arg(1) + ")"
	case "greatest", "least":
		var parts []string
		for i := range args {
			parts = append(parts, arg(i))
		}
		return pick(name == "greatest", "the greater of ", "the lesser of ") + list(parts, "and")
	}
	var parts []string
	for i := range args {
		parts = append(parts, arg(i))
	}
	if len(parts) == 0 {
		return "the " + w.words(name)
	}
	return "the " + w.words(name) + " of " + list(parts, "and")
}

// aggregate describes an aggregate call, without its FILTER.
func (w *writer) aggregate(f *pg.FuncCall, sc *scope) string {
	name := funcName(f)
	args := f.GetArgs()
	if f.GetAggStar() || len(args) == 0 {
		if name == "count" {
			return "the number of " + pick(sc.subject != "", sc.subject, "rows")
		}
		return "the " + w.words(name)
	}
	a := w.expr(args[0], sc)
	col := isColumn(args[0])
	distinct := ""
	if f.GetAggDistinct() {
		distinct = "distinct "
	}
	of := func(word string) string {
		if word == "total" && strings.Contains(" "+a+" ", " total ") {
			return "the sum of " + distinct + a
		}
		if col && distinct == "" && !strings.HasPrefix(a, word+" ") {
			return "the " + word + " " + a
		}
		return "the " + word + " of " + distinct + a
	}
	switch name {
	case "count":
		if f.GetAggDistinct() {
			if col {
				return "the number of distinct " + plural(strings.TrimSuffix(a, " id"))
			}
			return "the number of distinct values of " + a
		}
		return "the number of " + pick(sc.subject != "", sc.subject, "rows") + " with a " + a
	case "sum":
		return of("total")
	case "avg":
		return of("average")
	case "min":
		return of(pick(col && dateish(a), "earliest", "lowest"))
	case "max":
		return of(pick(col && dateish(a), "latest", "highest"))
	case "string_agg", "array_agg", "json_agg", "jsonb_agg":
		return "the list of " + distinct + a
	case "bool_and", "every":
		return "whether all " + a
	case "bool_or":
		return "whether any " + a
	case "stddev", "stddev_samp", "stddev_pop":
		return "the standard deviation of " + a
	case "variance", "var_samp", "var_pop":
		return "the variance of " + a
	case "percentile_cont", "percentile_disc":
		if len(f.GetAggOrder()) > 0 {
			return "the " + a + " percentile of " + w.expr(f.GetAggOrder()[0].GetSortBy().GetNode(), sc)
		}
	case "median":
		return of("median")
	}
	return "the " + w.words(name) + " of " + distinct + a
}

// window describes a window function call.
func (w *writer) window(f *pg.FuncCall, sc *scope) string {
	name := funcName(f)
	args := f.GetArgs()
	var s string
	switch name {
	case "rank", "dense_rank":
		s = "the rank"
	case "row_number":
		s = "the row number"
	case "percent_rank", "cume_dist":
		s = "the percentile rank"
	case "ntile":
		s = "the bucket number"
	case "lag", "lead", "first_value", "last_value", "nth_value":
		word := map[string]string{"lag": "previous", "lead": "next", "first_value": "first", "last_value": "last", "nth_value": "nth"}[name]
		a := "value"
		if len(args) > 0 {
			a = w.expr(args[0], sc)
		}
		s = "the " + word + " " + a
	default:
		before := w.aggs
		s = w.aggregate(f, sc)
		w.aggs = before
		if f.GetAggFilter() != nil {
			s += " where " + w.cond(f.GetAggFilter(), sc)
		}
	}
	over := f.GetOver()
	var order []string
	for _, n := range over.GetOrderClause() {
		sb := n.GetSortBy()
		key := w.expr(sb.GetNode(), sc)
		if sb.GetSortbyDir() == pg.SortByDir_SORTBY_DESC {
			key += pick(dateish(key), " (latest first)", " (highest first)")
		}
		order = append(order, key)
	}
	if len(order) > 0 {
		s += " by " + strings.Join(order, ", then ")
	}
	var part []string
	for _, n := range over.GetPartitionClause() {
		part = append(part, w.expr(n, sc))
	}
	if len(part) > 0 {
		s += " within each " + list(part, "and")
	}
	if over.GetName() != "" || over.GetRefname() != "" {
		s += " over a named window"
	}
	return s
}
