package validate

import (
	"math"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// Operands of work that does not stop. Some operators run to the end of
// one call without checking for interrupts, so neither the statement
// timeout nor a cancel request stops them, and a backend ran on for
// minutes after its client gave up: array && and @> / <@ compare every
// element of one side with every element of the other, jsonb @> / <@ walk
// both documents, and numeric %, ^, *, / (mod, power, div, factorial, gcd,
// lcm) take time that grows with the square of the digits, up to 131072 of
// them. On the data's own values they are what the data is; the query must
// not feed them a value it builds or collects itself: an accumulating
// aggregate (array_agg, jsonb_agg, ...), ARRAY(subquery), a value of more
// than a hundredth of WithMaxGenerated characters (a literal, a built
// string), or the power of an exponent that is neither a constant of at
// most maxExponent nor a value of the data. These are refused (V028),
// however the value reaches the operator (through a CTE or subquery
// column, a cast, a nested call).

// interruptless are the operators judged; their function spellings (and
// the numeric functions) are in interruptlessFuncs.
var interruptless = setOf("&&", "@>", "<@", "?|", "?&", "%", "^", "*", "/")

var interruptlessFuncs = setOf("mod", "power", "pow", "div", "factorial", "gcd", "lcm",
	"arrayoverlap", "arraycontains", "arraycontained", "jsonb_contains", "jsonb_contained",
	"jsonb_exists_any", "jsonb_exists_all", "numeric_mod", "numeric_power", "numeric_div", "numeric_mul",
	"numeric_div_trunc", "numeric_fac")

// maxExponent bounds a constant exponent of a numeric power (and the
// argument of factorial): 10^1000 has a thousand digits.
const maxExponent = 1000

// opName is the operator of a possibly qualified name (OPERATOR(pg_catalog.&&)).
func opName(names []*pg.Node) string {
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1].GetString_().GetSval()
}

// smallExponent reports an exponent a power may take: a constant of at
// most maxExponent, or a column of the data (its value is the data's).
func (z *sizer) smallExponent(n *pg.Node) bool {
	if k, ok := numConst(n); ok {
		return math.Abs(k) <= maxExponent
	}
	cr := n.GetColumnRef()
	if cr == nil {
		if tc := n.GetTypeCast(); tc != nil {
			cr = tc.Arg.GetColumnRef()
		}
	}
	return cr != nil && z.columnSize(cr) == 1
}

// unboundedCall reports a call whose result an operand count (operands
// mode) cannot bound: a collected value or a power without a small
// exponent.
func (z *sizer) unboundedCall(f *pg.FuncCall) bool {
	switch name := funcName(f); {
	case accumulating[name]:
		return true
	case name == "power" || name == "pow" || name == "numeric_power":
		return len(f.Args) == 2 && !z.smallExponent(f.Args[1])
	case name == "factorial" || name == "numeric_fac":
		return len(f.Args) == 1 && !z.smallExponent(f.Args[0])
	}
	return false
}

// operandSizer returns the query's sizer in operands mode, learnt on first
// use.
func (c *checker) operandSizer() *sizer {
	if c.operandSizes == nil {
		c.operandSizes = &sizer{cols: map[string]float64{}, rels: map[string]float64{}, operands: true}
		c.operandSizes.learn(c.top)
	}
	return c.operandSizes
}

// checkOperands applies the rule to an operator expression (and to
// ANY/ALL over an array or a subquery).
func (c *checker) checkOperands(op string, what string, args []*pg.Node, sub *pg.SelectStmt) {
	if c.plan || !interruptless[op] && !interruptlessFuncs[op] {
		return
	}
	z := c.operandSizer()
	limit := float64(c.cfg.maxGenerated) / 100
	exp := -1 // the exponent's argument
	switch op {
	case "^", "power", "pow", "numeric_power":
		exp = 1
	case "factorial", "numeric_fac":
		exp = 0
	}
	for i, a := range args {
		if a == nil {
			continue
		}
		if i == exp && !z.smallExponent(a) {
			c.violation(CodeOperand, "%s with an exponent (or factorial argument) that is neither a constant of at most %d nor a column of the data builds a number "+
				"of up to 131072 digits without checking for interrupts; use a small constant exponent", what, maxExponent)
			return
		}
		if n, ok := z.nodeSize(a); !ok || n > limit {
			c.operandViolation(what, limit)
			return
		}
	}
	if sub != nil && z.querySize(sub) > limit {
		c.operandViolation(what, limit)
	}
}

func (c *checker) operandViolation(what string, limit float64) {
	c.violation(CodeOperand, "%s does not check for interrupts, and an operand is a value the query builds or collects "+
		"(array_agg or another accumulating aggregate, ARRAY(subquery), a power, a value of more than %.0f characters): "+
		"it could keep the server busy past the statement timeout; apply it to the data's own values or to short literals",
		what, limit)
}
