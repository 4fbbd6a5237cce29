package repair

import (
	"regexp"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// Type repairs: PostgreSQL is strict where MySQL and SQLite coerce. The
// server's message names the argument types, so casts go exactly where the
// types failed.

var (
	reFunction = regexp.MustCompile(`^function (\S+)\((.*)\) does not exist`)
	reOperator = regexp.MustCompile(`^operator does not exist: (.+)$`)
	reBoolArg  = regexp.MustCompile(`^argument of (\S+) must be type boolean, not type (.+)$`)
	reMismatch = regexp.MustCompile(`^(COALESCE|CASE) types (.+) and (.+) cannot be matched`)
)

// pgType maps a type name as PostgreSQL prints it to TypeName parts.
func pgType(t string) []string {
	switch t {
	case "integer":
		return []string{"pg_catalog", "int4"}
	case "bigint":
		return []string{"pg_catalog", "int8"}
	case "smallint":
		return []string{"pg_catalog", "int2"}
	case "double precision":
		return []string{"pg_catalog", "float8"}
	case "real":
		return []string{"pg_catalog", "float4"}
	case "boolean":
		return []string{"pg_catalog", "bool"}
	case "timestamp without time zone", "timestamp":
		return []string{"pg_catalog", "timestamp"}
	case "timestamp with time zone":
		return []string{"pg_catalog", "timestamptz"}
	case "character varying", "varchar":
		return []string{"pg_catalog", "varchar"}
	case "character", "char":
		return []string{"pg_catalog", "bpchar"}
	case "numeric", "interval":
		return []string{"pg_catalog", t}
	case "time without time zone", "time":
		return []string{"pg_catalog", "time"}
	case "time with time zone":
		return []string{"pg_catalog", "timetz"}
	case "date", "text":
		return []string{t}
	}
	return nil
}

func isText(t string) bool {
	return t == "text" || t == "character varying" || t == "character" || t == "name" || t == "bpchar"
}

func isNumber(t string) bool {
	switch t {
	case "integer", "bigint", "smallint", "numeric", "double precision", "real":
		return true
	}
	return false
}

func isTime(t string) bool {
	return t == "date" || strings.HasPrefix(t, "timestamp")
}

// splitTypes splits "double precision, integer".
func splitTypes(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// castArg casts argument i of the function call at off in a fresh tree.
func castArg(off int32, i int, typ ...string) func(*doc) error {
	return func(d *doc) error {
		h := d.find(off, isFuncCall)
		if h == nil || i >= len(h.node.GetFuncCall().Args) {
			return errStale
		}
		fc := h.node.GetFuncCall()
		fc.Args[i] = castTo(fc.Args[i], typ...)
		return nil
	}
}

var stringFuncs = map[string]bool{
	"length": true, "char_length": true, "lower": true, "upper": true, "left": true, "right": true, "substr": true,
	"substring": true, "strpos": true, "replace": true, "split_part": true, "lpad": true, "rpad": true, "btrim": true,
	"ltrim": true, "rtrim": true, "initcap": true, "reverse": true, "starts_with": true, "to_date": true,
	"to_timestamp": true, "regexp_replace": true, "regexp_match": true, "md5": true, "position": true,
}

var timeFuncs = map[string]int{"extract": 1, "date_part": 1, "date_trunc": 1, "to_char": 0, "age": -1}

// undefinedFunction answers 42883 for functions and operators.
func (d *doc) undefinedFunction(f Failure) []edit {
	off := d.offset(f.Position)
	if m := reFunction.FindStringSubmatch(f.Message); m != nil {
		name, types := m[1][strings.LastIndex(m[1], ".")+1:], splitTypes(m[2])
		return append(d.extractDays(off, name, types), d.functionArgs(off, m[1], types)...)
	}
	if m := reOperator.FindStringSubmatch(f.Message); m != nil {
		out := append(d.intervalDays(off, m[1]), d.textDate(off, m[1])...)
		return append(out, d.operatorTypes(off, m[1])...)
	}
	return nil
}

func (d *doc) functionArgs(off int32, qname string, types []string) []edit {
	name := qname[strings.LastIndex(qname, ".")+1:]
	h := d.find(off, isFuncCall)
	if h == nil || len(h.node.GetFuncCall().Args) != len(types) {
		return nil
	}
	var fns []func(*doc) error
	rule := ""
	set := func(r string, fn func(*doc) error) {
		if rule == "" {
			rule = r
		}
		fns = append(fns, fn)
	}
	for i, t := range types {
		switch {
		case (name == "round" || name == "trunc") && i == 0 && isFloat(t):
			set(RuleCastNumeric, castArg(off, i, "numeric"))
		case numericOnly[name] && isFloat(t) && allNumbers(types):
			set(RuleCastNumeric, castArg(off, i, "numeric"))
		case (name == "sum" || name == "avg") && t == "boolean":
			set(RuleCastInt, castArg(off, i, "pg_catalog", "int4"))
		case (name == "sum" || name == "avg") && isText(t):
			set(RuleCastNumeric, castArg(off, i, "numeric"))
		case (name == "max" || name == "min") && t == "boolean":
			agg := map[string]string{"max": "bool_or", "min": "bool_and"}[name]
			set(RuleCastInt, func(d *doc) error {
				h := d.find(off, isFuncCall)
				if h == nil {
					return errStale
				}
				h.node.GetFuncCall().Funcname = names(agg)
				return nil
			})
		case isText(t) && timeFuncs[name] != 0 || isText(t) && name == "to_char":
			if p := timeFuncs[name]; p == i || p == -1 {
				set(RuleCastTime, castArg(off, i, "pg_catalog", "timestamp"))
			}
		case stringFuncs[name] && t != "unknown" && !isText(t) && !(i > 0 && isNumber(t)):
			set(RuleCastText, castArg(off, i, "text"))
		}
	}
	if len(fns) == 0 {
		return nil
	}
	return []edit{{rule: rule, note: "cast arguments of " + name + "(" + strings.Join(types, ", ") + ")", fn: chain(fns...)}}
}

// operatorTypes fixes "operator does not exist: L op R".
//
// Text compared in order (<, >, <=, >=) with a number or a date is read as
// a number (numeric) or that date type (readAs), never the other side as
// text: as text, '9' sorts after '10' and the query would answer another
// question. When the text holds no such value the repaired query fails to
// run, and nothing is answered. A row compared in order has no sure
// reading and is left alone. Equality keeps both readings, text first (a
// code stored as text).
func (d *doc) operatorTypes(off int32, sig string) []edit {
	h := d.find(off, isAExpr)
	if h == nil {
		return nil
	}
	e := h.node.GetAExpr()
	if len(e.Name) != 1 || e.Lexpr == nil || e.Rexpr == nil {
		return nil
	}
	op := e.Name[0].GetString_().GetSval()
	i := strings.Index(sig, " "+op+" ")
	if i < 0 {
		return nil
	}
	lt, rt := sig[:i], sig[i+len(op)+2:]
	side := func(left bool, fn func(n *pg_query.Node) *pg_query.Node) func(*doc) error {
		return func(d *doc) error {
			h := d.find(off, isAExpr)
			if h == nil {
				return errStale
			}
			e := h.node.GetAExpr()
			if left {
				e.Lexpr = fn(e.Lexpr)
			} else {
				e.Rexpr = fn(e.Rexpr)
			}
			return nil
		}
	}
	quote := func(n *pg_query.Node) *pg_query.Node { s, _ := constText(n); return strConst(s) }
	numeric := func(n *pg_query.Node) *pg_query.Node { return castTo(n, "numeric") }
	// ordered: compared in an order, text and numbers or dates differ.
	// elements: the right side is an array whose elements are compared
	// (x < ANY (array), x < ALL (array)).
	ordered := orderingOps[op]
	elements := e.Kind == pg_query.A_Expr_Kind_AEXPR_OP_ANY || e.Kind == pg_query.A_Expr_Kind_AEXPR_OP_ALL
	var out []edit
	switch {
	case op == "%" && isNumber(lt) && isNumber(rt) && (isFloat(lt) || isFloat(rt)):
		var fns []func(*doc) error
		if isFloat(lt) {
			fns = append(fns, side(true, numeric))
		}
		if isFloat(rt) {
			fns = append(fns, side(false, numeric))
		}
		out = append(out, edit{rule: RuleCastNumeric, note: "double precision % → numeric", fn: chain(fns...)})
	case lt == "interval" && isNumber(rt) && comparisonOps[op]:
		if sub := e.Lexpr.GetAExpr(); sub != nil && len(sub.Name) == 1 && sub.Name[0].GetString_().GetSval() == "-" {
			out = append(out, edit{rule: RuleDateDiffDays, note: "a - b → a::date - b::date (days)", fn: side(true, dateDiff)})
		}
		if d.countsDays(e.Rexpr, h.path) {
			out = append(out, edit{rule: RuleDaysInterval, note: "n → n * interval '1 day'", fn: side(false, days)})
		}
	case rt == "interval" && isNumber(lt) && comparisonOps[op]:
		if sub := e.Rexpr.GetAExpr(); sub != nil && len(sub.Name) == 1 && sub.Name[0].GetString_().GetSval() == "-" {
			out = append(out, edit{rule: RuleDateDiffDays, note: "a - b → a::date - b::date (days)", fn: side(false, dateDiff)})
		}
		if d.countsDays(e.Lexpr, h.path) {
			out = append(out, edit{rule: RuleDaysInterval, note: "n → n * interval '1 day'", fn: side(true, days)})
		}
	case strings.HasPrefix(lt, "timestamp") && isNumber(rt) && (op == "+" || op == "-"):
		out = append(out, edit{rule: RuleDateArith, note: "timestamp ± n → date ± n", fn: side(true, func(n *pg_query.Node) *pg_query.Node { return castTo(n, "date") })})
	case ordered && (e.Lexpr.GetRowExpr() != nil || e.Rexpr.GetRowExpr() != nil):
		// (a, b) > (1, 2): a row is no number; no reading is sure.
	case ordered && isNumberConst(e.Rexpr) && isText(lt):
		out = append(out, edit{rule: RuleCastNumeric, note: "text compared in order with a number: read as a number", fn: side(true, readAs(false, "numeric"))})
	case ordered && isNumberConst(e.Lexpr) && isText(rt):
		out = append(out, edit{rule: RuleCastNumeric, note: "text compared in order with a number: read as a number", fn: side(false, readAs(elements, "numeric"))})
	case isNumberConst(e.Rexpr) && !isNumber(lt) && lt != "interval":
		out = append(out, edit{rule: RuleQuoteLiteral, note: "number compared with " + lt + ": quoted", fn: side(false, quote)})
	case isNumberConst(e.Lexpr) && !isNumber(rt) && rt != "interval":
		out = append(out, edit{rule: RuleQuoteLiteral, note: "number compared with " + rt + ": quoted", fn: side(true, quote)})
	case (op == "~~" || op == "~~*" || op == "!~~" || op == "!~~*") && !isText(lt):
		out = append(out, edit{rule: RuleCastText, note: "LIKE on " + lt + ": cast to text", fn: side(true, asText)})
	case isText(lt) && !isText(rt) && rt != "unknown":
		if !ordered {
			out = append(out, edit{rule: RuleCastText, note: rt + " side cast to text", fn: side(false, asText)})
		}
		if t := orderedType(rt); t != nil {
			out = append(out, edit{rule: RuleCastText, note: "text side cast to " + rt, fn: side(true, readAs(false, t...))})
		}
	case isText(rt) && !isText(lt) && lt != "unknown":
		if !ordered {
			out = append(out, edit{rule: RuleCastText, note: lt + " side cast to text", fn: side(true, asText)})
		}
		if t := orderedType(lt); t != nil {
			out = append(out, edit{rule: RuleCastText, note: "text side cast to " + lt, fn: side(false, readAs(elements, t...))})
		}
	}
	return out
}

func asText(n *pg_query.Node) *pg_query.Node { return castTo(n, "text") }

// orderedType is the type text compared with a value of type t is read as:
// numeric for every number (an integer column beside '19.99' stays
// comparable), t's own for a date or time; nil when it has no reading.
func orderedType(t string) []string {
	if isNumber(t) {
		return []string{"pg_catalog", "numeric"}
	}
	return pgType(t)
}

// readAs returns the edit that reads an expression as typ. The cast goes
// where the text's values are compared: inside min, max, greatest and
// least (the largest text is not the largest number: max('90', '200') is
// '90'), inside a scalar subquery's one output, and on the elements of an
// array (elements: x < ANY (array)).
func readAs(elements bool, typ ...string) func(*pg_query.Node) *pg_query.Node {
	if len(typ) == 1 && pgType(typ[0]) != nil {
		typ = pgType(typ[0])
	}
	var read func(n *pg_query.Node) *pg_query.Node
	read = func(n *pg_query.Node) *pg_query.Node {
		if elements {
			c := castTo(n, typ...)
			c.GetTypeCast().TypeName.ArrayBounds = []*pg_query.Node{pg_query.MakeIntNode(-1)}
			return c
		}
		if fc := n.GetFuncCall(); fc != nil && len(fc.Args) == 1 && len(fc.AggOrder) == 0 {
			if name := pgparse.BuiltinName(fc); name == "min" || name == "max" {
				fc.Args[0] = castTo(fc.Args[0], typ...)
				return n
			}
		}
		if mm := n.GetMinMaxExpr(); mm != nil { // greatest, least
			for i, a := range mm.Args {
				mm.Args[i] = castTo(a, typ...)
			}
			return n
		}
		if sl := n.GetSubLink(); sl != nil && sl.SubLinkType == pg_query.SubLinkType_EXPR_SUBLINK {
			if sel := sl.Subselect.GetSelectStmt(); sel != nil && sel.Op == pg_query.SetOperation_SETOP_NONE && len(sel.TargetList) == 1 && sel.TargetList[0].GetResTarget() != nil {
				rt := sel.TargetList[0].GetResTarget()
				rt.Val = read(rt.Val)
				return n
			}
		}
		return castTo(n, typ...)
	}
	return read
}

func days(n *pg_query.Node) *pg_query.Node {
	return binop("*", n, castTo(strConst("1 day"), "interval"))
}

func dateDiff(n *pg_query.Node) *pg_query.Node {
	sub := n.GetAExpr()
	return binop("-", castTo(sub.Lexpr, "date"), castTo(sub.Rexpr, "date"))
}

// datatypeMismatch answers 42804.
func (d *doc) datatypeMismatch(f Failure) []edit {
	off := d.offset(f.Position)
	if m := reBoolArg.FindStringSubmatch(f.Message); m != nil && isNumber(m[2]) {
		return []edit{{rule: RuleBoolWhere, note: "argument of " + m[1] + " of type " + m[2] + " → <> 0", fn: func(d *doc) error {
			h := d.find(off, anyNode)
			if h == nil {
				return errStale
			}
			replace(h.node, binop("<>", wrap(h.node), pg_query.MakeAConstIntNode(0, -1)))
			return nil
		}}}
	}
	if m := reMismatch.FindStringSubmatch(f.Message); m != nil {
		return []edit{{rule: RuleMismatchText, note: m[1] + " branches cast to text", fn: castBranches(off, m[1])}}
	}
	return nil
}

// invalidText answers 22P02 when a string constant such as 'N/A' is a
// branch of a COALESCE or CASE over numbers: the other branches become text.
func (d *doc) invalidText(f Failure) []edit {
	off := d.offset(f.Position)
	h := d.find(off, func(n *pg_query.Node) bool { return n.GetAConst() != nil })
	if h == nil {
		return nil
	}
	for i := len(h.path) - 1; i >= 0; i-- {
		switch h.path[i].msg.Interface().(type) {
		case *pg_query.CoalesceExpr:
			return []edit{{rule: RuleInvalidText, note: "COALESCE branches cast to text", fn: castBranches(off, "COALESCE")}}
		case *pg_query.CaseExpr:
			return []edit{{rule: RuleInvalidText, note: "CASE branches cast to text", fn: castBranches(off, "CASE")}}
		case *pg_query.Node, *pg_query.CaseWhen, *pg_query.List:
			continue
		}
		return nil
	}
	return nil
}

// castBranches casts to text, in a fresh tree, the branches of the
// COALESCE or CASE expression around the node at off.
func castBranches(off int32, kind string) func(*doc) error {
	return func(d *doc) error {
		h := d.find(off, anyNode)
		if h == nil {
			return errStale
		}
		for i := len(h.path) - 1; i >= 0; i-- {
			switch v := h.path[i].msg.Interface().(type) {
			case *pg_query.CoalesceExpr:
				if kind == "COALESCE" {
					for j, a := range v.Args {
						v.Args[j] = textArg(a)
					}
					return nil
				}
			case *pg_query.CaseExpr:
				if kind == "CASE" {
					for _, w := range v.Args {
						if cw := w.GetCaseWhen(); cw != nil {
							cw.Result = textArg(cw.Result)
						}
					}
					if v.Defresult != nil {
						v.Defresult = textArg(v.Defresult)
					}
					return nil
				}
			}
		}
		return errStale
	}
}

// textArg casts a branch to text unless it is a string or NULL constant.
func textArg(n *pg_query.Node) *pg_query.Node {
	if c := n.GetAConst(); c != nil && (c.Isnull || c.GetSval() != nil) {
		return n
	}
	return asText(n)
}
