package repair

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// normalizeTree rewrites dialect idioms in place and returns what it did.
// text is the SQL the tree was parsed from (for quote styles).
func (r *Repairer) normalizeTree(tree *pg_query.ParseResult, text string) []Change {
	d := &doc{r: r, sql: text, tree: tree}
	var changes []Change
	add := func(c Change) {
		for _, o := range changes {
			if o.Rule == c.Rule && o.Note == c.Note {
				return
			}
		}
		changes = append(changes, c)
	}
	walkNodes(tree.ProtoReflect(), func(n *pg_query.Node, path []step) bool {
		switch {
		case n.GetSelectStmt() != nil:
			if c, ok := topFunction(n.GetSelectStmt()); ok {
				add(c)
			}
		case n.GetFuncCall() != nil:
			if c, ok := d.rewriteFunc(n, n.GetFuncCall(), path); ok {
				add(c)
			}
		case n.GetTypeCast() != nil:
			if c, ok := rewriteCastType(n.GetTypeCast()); ok {
				add(c)
			}
		case n.GetColumnRef() != nil:
			if c, ok := d.quotedString(n, path); ok {
				add(c)
			}
		case n.GetAExpr() != nil:
			if c, ok := d.rewriteDateExpr(n, path); ok {
				add(c)
			}
		}
		return true
	})
	return changes
}

// topFunction rewrites T-SQL "SELECT TOP (n) col", which PostgreSQL parses
// as top(n) AS col, to "SELECT col ... LIMIT n".
func topFunction(s *pg_query.SelectStmt) (Change, bool) {
	if len(s.TargetList) == 0 || s.LimitCount != nil {
		return Change{}, false
	}
	rt := s.TargetList[0].GetResTarget()
	fc := rt.GetVal().GetFuncCall()
	if fc == nil || rt.Name == "" || len(fc.Funcname) != 1 || !strings.EqualFold(funcName(fc), "top") || len(fc.Args) != 1 || !isNumberConst(fc.Args[0]) {
		return Change{}, false
	}
	s.LimitCount = fc.Args[0]
	s.LimitOption = pg_query.LimitOption_LIMIT_OPTION_COUNT
	rt.Val = colRef(rt.Name)
	rt.Name = ""
	return Change{Rule: RuleTop, Note: "SELECT TOP (n) → LIMIT n"}, true
}

var mysqlTypes = map[string]string{
	"datetime": "timestamp", "signed": "bigint", "unsigned": "bigint", "nvarchar": "varchar", "nchar": "char",
	"tinyint": "smallint", "mediumint": "integer", "longtext": "text", "mediumtext": "text", "tinytext": "text",
	"string": "text", "double": "double precision",
}

func rewriteCastType(tc *pg_query.TypeCast) (Change, bool) {
	if tc.TypeName == nil || len(tc.TypeName.Names) != 1 {
		return Change{}, false
	}
	name := tc.TypeName.Names[0].GetString_().GetSval()
	pg, ok := mysqlTypes[strings.ToLower(name)]
	if !ok {
		return Change{}, false
	}
	tc.TypeName.Names = names(pgType(pg)...)
	return Change{Rule: RuleCastType, Note: "CAST AS " + strings.ToUpper(name) + " → " + pg}, true
}

var extractFields = map[string]string{
	"year": "year", "month": "month", "day": "day", "hour": "hour", "minute": "minute", "second": "second",
	"quarter": "quarter", "week": "week", "dayofmonth": "day", "dayofyear": "doy",
}

var renamedFuncs = map[string]string{
	"len": "length", "ucase": "upper", "lcase": "lower", "instr": "strpos", "rand": "random",
	"truncate": "trunc", "getdate": "now",
	"sysdate": "now", "sysdatetime": "now", "current_timestamp": "now", "localtimestamp": "now",
}

// extractCall builds EXTRACT(field FROM x).
func extractCall(field string, x *pg_query.Node) *pg_query.Node {
	fc := call("extract", strConst(field), x).GetFuncCall()
	fc.Funcname = names("pg_catalog", "extract")
	fc.Funcformat = pg_query.CoercionForm_COERCE_SQL_SYNTAX
	return &pg_query.Node{Node: &pg_query.Node_FuncCall{FuncCall: fc}}
}

// unitArg reads a T-SQL date-part argument (day, 'day', dd).
func unitArg(n *pg_query.Node) string {
	var s string
	if c := n.GetColumnRef(); c != nil && len(c.Fields) == 1 {
		s = colParts(c)[0]
	} else if t, ok := constText(n); ok {
		s = t
	}
	return dateUnits[strings.ToLower(s)]
}

var dateUnits = func() map[string]string {
	m := map[string]string{}
	for unit, spellings := range map[string]string{
		"day": "day dd d days", "month": "month mm m months", "year": "year yy yyyy years", "hour": "hour hh hours",
		"minute": "minute mi n minutes", "second": "second ss s seconds", "week": "week wk ww weeks", "quarter": "quarter qq q",
	} {
		for _, s := range strings.Fields(spellings) {
			m[s] = unit
		}
	}
	return m
}()

func (d *doc) rewriteFunc(n *pg_query.Node, fc *pg_query.FuncCall, path []step) (Change, bool) {
	if fc.Funcformat == pg_query.CoercionForm_COERCE_SQL_SYNTAX || fc.Over != nil {
		return Change{}, false
	}
	if len(fc.Funcname) > 1 && fc.Funcname[0].GetString_().GetSval() != "pg_catalog" {
		return Change{}, false
	}
	orig := funcName(fc)
	name := strings.ToLower(orig)
	args := fc.Args
	switch {
	case (name == "ifnull" || name == "nvl" || name == "isnull") && len(args) == 2:
		replace(n, &pg_query.Node{Node: &pg_query.Node_CoalesceExpr{CoalesceExpr: &pg_query.CoalesceExpr{Args: args, Location: -1}}})
		return Change{Rule: RuleCoalesce, Note: strings.ToUpper(name) + " → COALESCE"}, true
	case extractFields[name] != "" && len(args) == 1:
		replace(n, extractCall(extractFields[name], args[0]))
		return Change{Rule: RuleExtract, Note: strings.ToUpper(name) + "(x) → EXTRACT(" + extractFields[name] + " FROM x)"}, true
	case name == "dayofweek" && len(args) == 1: // MySQL: 1 = Sunday
		replace(n, binop("+", extractCall("dow", args[0]), pg_query.MakeAConstIntNode(1, -1)))
		return Change{Rule: RuleExtract, Note: "DAYOFWEEK(x) → EXTRACT(dow FROM x) + 1"}, true
	case name == "datepart" && len(args) == 2 && unitArg(args[0]) != "":
		replace(n, extractCall(unitArg(args[0]), args[1]))
		return Change{Rule: RuleExtract, Note: "DATEPART(unit, x) → EXTRACT(unit FROM x)"}, true
	case (name == "date_add" || name == "adddate" || name == "date_sub" || name == "subdate") && len(args) == 2:
		op := "+"
		if strings.HasSuffix(name, "sub") || name == "subdate" {
			op = "-"
		}
		replace(n, binop(op, dateLiteral(args[0]), args[1]))
		return Change{Rule: RuleDateAdd, Note: strings.ToUpper(name) + "(x, i) → x " + op + " i"}, true
	case name == "dateadd" && len(args) == 3 && unitArg(args[0]) != "":
		step := castTo(strConst("1 "+unitArg(args[0])), "interval")
		replace(n, binop("+", args[2], binop("*", args[1], step)))
		return Change{Rule: RuleDateAdd, Note: "DATEADD(unit, n, x) → x + n * interval '1 unit'"}, true
	case name == "datediff" && len(args) == 2:
		replace(n, binop("-", castTo(args[0], "date"), castTo(args[1], "date")))
		return Change{Rule: RuleDateDiff, Note: "DATEDIFF(a, b) → a::date - b::date"}, true
	case name == "datediff" && len(args) == 3 && unitArg(args[0]) == "day":
		replace(n, binop("-", castTo(args[2], "date"), castTo(args[1], "date")))
		return Change{Rule: RuleDateDiff, Note: "DATEDIFF(day, a, b) → b::date - a::date"}, true
	case name == "datediff" && len(args) == 3 && unitArg(args[0]) == "year":
		replace(n, binop("-", extractCall("year", args[2]), extractCall("year", args[1])))
		return Change{Rule: RuleDateDiff, Note: "DATEDIFF(year, a, b) → EXTRACT(year FROM b) - EXTRACT(year FROM a)"}, true
	case name == "strftime" && len(args) >= 2:
		f, ok := constText(args[0])
		if !ok || args[0].GetAConst().GetSval() == nil {
			return Change{}, false
		}
		pgf, ok := convertFormat(f, sqliteFormat)
		if !ok {
			return Change{}, false
		}
		x := args[1]
		if isNow(x) {
			x = call("now")
		} else {
			x = dateLiteral(x)
		}
		replace(n, call("to_char", x, strConst(pgf)))
		return Change{Rule: RuleStrftime, Note: "strftime('" + f + "', x) → to_char(x, '" + pgf + "')"}, true
	case name == "date_format" && len(args) == 2:
		f, ok := constText(args[1])
		if !ok {
			return Change{}, false
		}
		pgf, ok := convertFormat(f, mysqlFormat)
		if !ok {
			return Change{}, false
		}
		replace(n, call("to_char", args[0], strConst(pgf)))
		return Change{Rule: RuleDateFormat, Note: "DATE_FORMAT(x, '" + f + "') → to_char(x, '" + pgf + "')"}, true
	case name == "curdate" && len(args) == 0:
		replace(n, &pg_query.Node{Node: &pg_query.Node_SqlvalueFunction{SqlvalueFunction: &pg_query.SQLValueFunction{
			Op: pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE, Typmod: -1, Location: -1}}})
		return Change{Rule: RuleNow, Note: "CURDATE() → CURRENT_DATE"}, true
	case renamedFuncs[name] != "" && renamedFuncs[name] != name:
		if name == "instr" && len(args) != 2 {
			return Change{}, false
		}
		to := renamedFuncs[name]
		fc.Funcname = names(to)
		rule := RuleFunctionName
		if to == "now" {
			rule = RuleNow
		}
		return Change{Rule: rule, Note: strings.ToUpper(name) + " → " + to}, true
	case name == "locate" && len(args) == 2:
		fc.Funcname = names("strpos")
		fc.Args = []*pg_query.Node{args[1], args[0]}
		return Change{Rule: RuleFunctionName, Note: "LOCATE(sub, s) → strpos(s, sub)"}, true
	case name == "group_concat" && len(args) == 1:
		fc.Funcname = names("string_agg")
		fc.Args = []*pg_query.Node{castTo(args[0], "text"), strConst(",")}
		return Change{Rule: RuleGroupConcat, Note: "GROUP_CONCAT(x) → string_agg(x::text, ',')"}, true
	case (name == "if" || name == "iif") && len(args) == 3:
		replace(n, pg_query.MakeCaseExprNode(nil, []*pg_query.Node{pg_query.MakeCaseWhenNode(args[0], args[1], -1)}, -1))
		n.GetCaseExpr().Defresult = args[2]
		return Change{Rule: RuleIf, Note: "IF(c, a, b) → CASE WHEN c THEN a ELSE b END"}, true
	case (name == "sum" || name == "avg" || name == "max" || name == "min") && len(args) == 1 && !fc.AggStar:
		return d.boolAggregate(fc, name, path)
	case name == "julianday" || name == "timestampdiff" || name == "date" || name == "datetime":
		return d.rewriteDateFunc(n, fc, name, path)
	}
	return Change{}, false
}

// boolAggregate rewrites SUM(flag) over a boolean column to SUM(flag::int),
// and MAX/MIN(flag) to bool_or/bool_and.
func (d *doc) boolAggregate(fc *pg_query.FuncCall, name string, path []step) (Change, bool) {
	c := fc.Args[0].GetColumnRef()
	if c == nil {
		return Change{}, false
	}
	sc := d.scopeAt(path)
	if sc == nil {
		return Change{}, false
	}
	r, col := sc.resolve(c)
	if r == nil || r.table == nil || r.table.Column(col).Type != "boolean" {
		return Change{}, false
	}
	switch name {
	case "max":
		fc.Funcname = names("bool_or")
	case "min":
		fc.Funcname = names("bool_and")
	default:
		fc.Args[0] = castTo(fc.Args[0], "pg_catalog", "int4")
	}
	return Change{Rule: RuleBoolAggregate, Note: strings.ToUpper(name) + "(boolean) → " + strings.ToUpper(name) + "(x::int) / bool_or / bool_and"}, true
}

// quotedString turns a double-quoted name that is no column in scope and is
// compared with something into the string literal MySQL meant.
func (d *doc) quotedString(n *pg_query.Node, path []step) (Change, bool) {
	c := n.GetColumnRef()
	if len(c.Fields) != 1 || c.Fields[0].GetString_() == nil {
		return Change{}, false
	}
	loc := int(c.Location)
	if loc < 0 || loc >= len(d.sql) || d.sql[loc] != '"' {
		return Change{}, false
	}
	name := colParts(c)[0]
	if !d.comparedValue(n, path) {
		return Change{}, false
	}
	sc := d.scopeAt(path)
	if sc == nil {
		return Change{}, false
	}
	if rs, opaque := sc.owners(name); len(rs) > 0 || opaque {
		return Change{}, false
	}
	for _, o := range sc.output {
		if o == name {
			return Change{}, false
		}
	}
	replace(n, strConst(name))
	return Change{Rule: RuleQuotedString, Note: `"` + name + `" used as a value → '` + name + `'`}, true
}

// orderingOps compare in an order, which differs between text and numbers
// or dates.
var orderingOps = map[string]bool{"<": true, ">": true, "<=": true, ">=": true}

var comparisonOps = map[string]bool{"=": true, "<>": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true, "~~": true, "~~*": true, "!~~": true, "!~~*": true}

// comparedValue reports whether n is the right-hand side of a comparison
// (or an item of an IN list) whose left side is not a constant.
func (d *doc) comparedValue(n *pg_query.Node, path []step) bool {
	for i := len(path) - 1; i >= 0; i-- {
		switch v := path[i].msg.Interface().(type) {
		case *pg_query.List:
			continue
		case *pg_query.A_Expr:
			if path[i].field != "rexpr" || v.Lexpr == nil || v.Lexpr.GetAConst() != nil || v.Lexpr == n {
				return false
			}
			switch v.Kind {
			case pg_query.A_Expr_Kind_AEXPR_IN, pg_query.A_Expr_Kind_AEXPR_LIKE, pg_query.A_Expr_Kind_AEXPR_ILIKE:
				return true
			case pg_query.A_Expr_Kind_AEXPR_OP:
				return len(v.Name) == 1 && comparisonOps[v.Name[0].GetString_().GetSval()]
			}
			return false
		case *pg_query.Node:
			continue
		default:
			return false
		}
	}
	return false
}

// Date format directives of SQLite's strftime and MySQL's DATE_FORMAT in
// to_char syntax.
var (
	sqliteFormat = map[byte]string{'Y': "YYYY", 'm': "MM", 'd': "DD", 'H': "HH24", 'M': "MI", 'S': "SS", 'j': "DDD", '%': "%"}
	mysqlFormat  = map[byte]string{'Y': "YYYY", 'y': "YY", 'm': "MM", 'c': "FMMM", 'd': "DD", 'e': "FMDD", 'H': "HH24",
		'h': "HH12", 'i': "MI", 's': "SS", 'S': "SS", 'M': "FMMonth", 'b': "Mon", 'W': "FMDay", 'a': "Dy", 'j': "DDD", 'p': "AM", '%': "%"}
)

// convertFormat translates a %-format to to_char; literal text is quoted.
func convertFormat(f string, dirs map[byte]string) (string, bool) {
	var b strings.Builder
	lit := false
	for i := 0; i < len(f); i++ {
		if f[i] == '%' && i+1 < len(f) {
			pg, ok := dirs[f[i+1]]
			if !ok {
				return "", false
			}
			if lit {
				b.WriteByte('"')
				lit = false
			}
			b.WriteString(pg)
			i++
			continue
		}
		if isSeparator(f[i]) {
			if lit {
				b.WriteByte('"')
				lit = false
			}
			b.WriteByte(f[i])
			continue
		}
		if !lit {
			b.WriteByte('"')
			lit = true
		}
		b.WriteByte(f[i])
	}
	if lit {
		b.WriteByte('"')
	}
	return b.String(), true
}

func isSeparator(c byte) bool { return strings.IndexByte(" -/:.,", c) >= 0 }
