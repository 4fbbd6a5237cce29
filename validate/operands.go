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
// string), the power of an exponent that is neither a constant of at most
// maxExponent nor a value of the data, or a power of more than ten times
// that many digits (its base's times its exponent: a thousand-digit base
// to the 130th takes 0.2 s a call). These are refused (V028),
// however the value reaches the operator (through a CTE or subquery
// column, a cast, a nested call).

// interruptless are the operators judged; their function spellings (and
// the numeric functions) are in interruptlessFuncs.
var interruptless = setOf("&&", "@>", "<@", "?|", "?&", "%", "^", "*", "/",
	// pg_trgm's word similarity and distance: every position of one
	// argument against the other, no interrupt check (10 s past a 1 s
	// timeout on 100,000 characters).
	"<%", "%>", "<<%", "%>>", "<<->", "<->>", "<<<->", "<->>>")

var interruptlessFuncs = setOf("mod", "power", "pow", "div", "factorial", "gcd", "lcm",
	"arrayoverlap", "arraycontains", "arraycontained", "jsonb_contains", "jsonb_contained",
	"jsonb_exists_any", "jsonb_exists_all", "numeric_mod", "numeric_power", "numeric_div", "numeric_mul",
	"numeric_div_trunc", "numeric_fac", "word_similarity", "strict_word_similarity",
	// every character of the string against every one of the from list
	// (translate) or of the characters to trim (two arguments)
	"translate", "btrim", "ltrim", "rtrim")

// maxExponent bounds a constant exponent of a numeric power (and the
// argument of factorial): 10^1000 has a thousand digits.
const maxExponent = 1000

// opSymbol is the operator of a possibly qualified name (OPERATOR(pg_catalog.&&)).
func opSymbol(names []*pg.Node) string {
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

// callSize is a call's size in operands mode where it differs from the
// string guard's (ok false: not such a call): a collected value is
// unbounded, a power has about its base's digits times its exponent, a
// factorial three digits per unit of its argument.
func (z *sizer) callSize(f *pg.FuncCall) (float64, bool) {
	switch name := funcName(f); {
	case accumulating[name]:
		return sizeCap, true
	case (name == "power" || name == "pow" || name == "numeric_power") && len(f.Args) == 2:
		return z.powerSize(f.Args[0], f.Args[1]), true
	case (name == "factorial" || name == "numeric_fac") && len(f.Args) == 1:
		return z.powerSize(nil, f.Args[0]), true
	}
	return 0, false
}

// powerSize bounds the digits of base ^ exp (of factorial(exp) when base
// is nil): unbounded unless the exponent is small; an exponent from the
// data counts once, as data does.
func (z *sizer) powerSize(base, exp *pg.Node) float64 {
	if !z.smallExponent(exp) {
		return sizeCap
	}
	b, ok := 3.0, true // factorial: n! has fewer than 3n digits for n <= 1000
	if v, isConst := numConst(base); isConst && base != nil {
		b = math.Max(math.Floor(math.Log10(math.Abs(v)))+1, 1) // the digits of its integer part
	} else if base != nil {
		b, ok = z.nodeSize(base)
	}
	if !ok {
		return sizeCap
	}
	if e, isConst := numConst(exp); isConst {
		return math.Min(b*math.Max(math.Abs(e), 1), sizeCap)
	}
	return b
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
	if c.plan || !interruptless[op] && !interruptlessFuncs[op] ||
		(op == "btrim" || op == "ltrim" || op == "rtrim") && len(args) < 2 {
		return
	}
	z := c.operandSizer()
	limit := float64(c.cfg.maxGenerated) / 100
	var base, exp *pg.Node
	switch {
	case (op == "^" || op == "power" || op == "pow" || op == "numeric_power") && len(args) == 2:
		base, exp = args[0], args[1]
	case (op == "factorial" || op == "numeric_fac") && len(args) == 1:
		exp = args[0]
	}
	if exp != nil {
		switch n := z.powerSize(base, exp); {
		case !z.smallExponent(exp):
			c.violation(CodeOperand, "%s with an exponent (or factorial argument) that is neither a constant of at most %d nor a column of the data "+
				"builds a number of up to 131072 digits without checking for interrupts; use a small constant exponent", what, maxExponent)
			return
		case n > limit*10:
			c.violation(CodeOperand, "%s builds a number of up to %.0f digits (its base's times its exponent), more than %.0f, without checking "+
				"for interrupts; use a smaller base or exponent", what, n, limit*10)
			return
		}
	}
	for _, a := range args {
		if a == nil {
			continue
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
