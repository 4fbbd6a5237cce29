package repair

import (
	"regexp"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// Date arithmetic as models write it. PostgreSQL's date - date is an
// integer number of days, timestamp - timestamp an interval; MySQL's
// TIMESTAMPDIFF and SQLite's julianday(), date() and datetime() have no
// PostgreSQL function of that name. Each rewrite keeps the value the
// source dialect computes.

// Rule codes of the date rules.
const (
	RuleJulianDay     = "dialect.julianday"      // julianday(a) - julianday(b) → days between
	RuleTimestampDiff = "dialect.timestampdiff"  // TIMESTAMPDIFF(unit, a, b)
	RuleSQLiteDate    = "dialect.sqlite_date"    // date(x, '-30 days'), datetime('now')
	RuleExtractDays   = "42883.extract_days"     // EXTRACT(DAY FROM d1 - d2) → d1 - d2
	RuleIntervalDays  = "42883.interval_to_days" // d1 - d2 <= INTERVAL '30 days' → <= 30
	RuleTextDate      = "42883.text_date"        // text_col + INTERVAL → text_col::timestamp + INTERVAL
)

// baseType drops a type modifier: "numeric(10,2)" → "numeric",
// "timestamp(3) without time zone" → "timestamp without time zone".
func baseType(t string) string {
	if i := strings.IndexByte(t, '('); i >= 0 {
		if j := strings.IndexByte(t[i:], ')'); j >= 0 {
			t = t[:i] + t[i+j+1:]
		}
	}
	return t
}

// castTypes maps the last name of a cast's type to the name PostgreSQL
// prints.
var castTypes = map[string]string{
	"date": "date", "timestamp": "timestamp without time zone", "timestamptz": "timestamp with time zone",
	"float8": "double precision", "float4": "real", "numeric": "numeric", "int4": "integer", "int8": "bigint",
	"int2": "smallint", "text": "text", "varchar": "character varying", "interval": "interval",
}

// exprType returns the type of a simple expression as PostgreSQL prints
// it ("date", "timestamp without time zone", ...), or "" when it cannot be
// told without the server: columns of catalog tables, casts, CURRENT_DATE
// and friends.
func exprType(n *pg_query.Node, sc *scope) string {
	switch {
	case n == nil:
		return ""
	case n.GetColumnRef() != nil:
		if sc == nil {
			return ""
		}
		r, col := sc.resolve(n.GetColumnRef())
		if r == nil || r.table == nil || r.table.Column(col) == nil {
			return ""
		}
		return baseType(r.table.Column(col).Type)
	case n.GetTypeCast() != nil:
		tn := n.GetTypeCast().GetTypeName()
		if tn == nil || len(tn.Names) == 0 || len(tn.ArrayBounds) > 0 {
			return ""
		}
		return castTypes[tn.Names[len(tn.Names)-1].GetString_().GetSval()]
	case n.GetSqlvalueFunction() != nil:
		switch n.GetSqlvalueFunction().Op {
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
			return "date"
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N:
			return "timestamp with time zone"
		case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:
			return "timestamp without time zone"
		}
	}
	return ""
}

func isTimestamp(t string) bool { return strings.HasPrefix(t, "timestamp") }

// opName returns the operator of a plain binary A_Expr, or "".
func opName(n *pg_query.Node) string {
	e := n.GetAExpr()
	if e == nil || e.Kind != pg_query.A_Expr_Kind_AEXPR_OP || len(e.Name) != 1 || e.Lexpr == nil || e.Rexpr == nil {
		return ""
	}
	return e.Name[0].GetString_().GetSval()
}

// dateDiffOperands reports whether n is a - b with both sides dates (one
// may be of unknown type when the server said the result is an integer:
// date - integer would be a date).
func dateDiffOperands(n *pg_query.Node, sc *scope, serverSaysInteger bool) bool {
	if opName(n) != "-" {
		return false
	}
	e := n.GetAExpr()
	l, r := exprType(e.Lexpr, sc), exprType(e.Rexpr, sc)
	if l == "date" && r == "date" {
		return true
	}
	return serverSaysInteger && (l == "date" && r == "" || l == "" && r == "date")
}

func localTimestamp() *pg_query.Node {
	return &pg_query.Node{Node: &pg_query.Node_SqlvalueFunction{SqlvalueFunction: &pg_query.SQLValueFunction{
		Op: pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP, Typmod: -1, Location: -1}}}
}

func currentDate() *pg_query.Node {
	return &pg_query.Node{Node: &pg_query.Node_SqlvalueFunction{SqlvalueFunction: &pg_query.SQLValueFunction{
		Op: pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE, Typmod: -1, Location: -1}}}
}

// isNow reports the string constant 'now' (SQLite's current time).
func isNow(n *pg_query.Node) bool {
	s, ok := constText(n)
	return ok && n.GetAConst().GetSval() != nil && strings.EqualFold(strings.TrimSpace(s), "now")
}

// asTimestamp makes a timestamp of a date-ish argument: 'now' is
// LOCALTIMESTAMP, a timestamp stays, anything else (a date, a text date, a
// string literal) is cast, so that a - b is an interval.
func asTimestamp(n *pg_query.Node, sc *scope) *pg_query.Node {
	if isNow(n) {
		return localTimestamp()
	}
	if isTimestamp(exprType(n, sc)) {
		return n
	}
	return castTo(n, "timestamp")
}

func epochOf(n *pg_query.Node) *pg_query.Node { return extractCall("epoch", n) }

func intConst(i int64) *pg_query.Node { return pg_query.MakeAConstIntNode(i, -1) }

func numConst(s string) *pg_query.Node {
	return &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{
		Val: &pg_query.A_Const_Fval{Fval: &pg_query.Float{Fval: s}}, Location: -1}}}
}

// dateLiteral casts a string constant used as a date (DATE_ADD's first
// argument) to date, or to timestamp when it carries a time, so that
// '2023-01-01' + INTERVAL '1 month' is not read as interval + interval.
func dateLiteral(n *pg_query.Node) *pg_query.Node {
	c := n.GetAConst()
	if c == nil || c.GetSval() == nil {
		return n
	}
	if isNow(n) {
		return localTimestamp()
	}
	if reISODate.MatchString(strings.TrimSpace(c.GetSval().Sval)) {
		return castTo(n, "date")
	}
	return castTo(n, "timestamp")
}

var reISODate = regexp.MustCompile(`^\d{4}-\d{1,2}-\d{1,2}$`)

// rewriteDateExpr rewrites julianday(a) - julianday(b), SQLite's way of
// counting days, to a PostgreSQL difference: a - b when both are dates
// (an integer, as julianday's difference of two dates is whole), else the
// interval's seconds / 86400 (fractional days, as julianday).
func (d *doc) rewriteDateExpr(n *pg_query.Node, path []step) (Change, bool) {
	if opName(n) != "-" {
		return Change{}, false
	}
	e := n.GetAExpr()
	a, b := juliandayArg(e.Lexpr), juliandayArg(e.Rexpr)
	if a == nil || b == nil {
		return Change{}, false
	}
	sc := d.scopeAt(path)
	if exprType(a, sc) == "date" && exprType(b, sc) == "date" {
		replace(n, binop("-", a, b))
		return Change{Rule: RuleJulianDay, Note: "julianday(a) - julianday(b) → a - b (dates: days)"}, true
	}
	replace(n, binop("/", epochOf(binop("-", asTimestamp(a, sc), asTimestamp(b, sc))), intConst(86400)))
	return Change{Rule: RuleJulianDay, Note: "julianday(a) - julianday(b) → EXTRACT(epoch FROM a - b) / 86400"}, true
}

// juliandayArg returns x of julianday(x), or nil.
func juliandayArg(n *pg_query.Node) *pg_query.Node {
	fc := n.GetFuncCall()
	if fc == nil || len(fc.Funcname) != 1 || !strings.EqualFold(funcName(fc), "julianday") || len(fc.Args) != 1 || fc.Over != nil || fc.AggStar {
		return nil
	}
	return fc.Args[0]
}

// rewriteDateFunc rewrites the MySQL and SQLite date functions PostgreSQL
// lacks: julianday(x) alone, TIMESTAMPDIFF(unit, a, b), date(x, modifier...)
// and datetime(x, modifier...).
func (d *doc) rewriteDateFunc(n *pg_query.Node, fc *pg_query.FuncCall, name string, path []step) (Change, bool) {
	args := fc.Args
	switch {
	case name == "julianday" && len(args) == 1:
		// The Julian day number: days since 4714 BC noon; 1970-01-01 is
		// 2440587.5.
		replace(n, binop("+", binop("/", epochOf(asTimestamp(args[0], d.scopeAt(path))), intConst(86400)), numConst("2440587.5")))
		return Change{Rule: RuleJulianDay, Note: "julianday(x) → EXTRACT(epoch FROM x) / 86400 + 2440587.5"}, true
	case name == "timestampdiff" && len(args) == 3:
		unit := unitArg(args[0])
		if unit == "" {
			return Change{}, false
		}
		x, ok := timestampDiff(unit, args[1], args[2], d.scopeAt(path))
		if !ok {
			return Change{}, false
		}
		replace(n, x)
		return Change{Rule: RuleTimestampDiff, Note: "TIMESTAMPDIFF(" + strings.ToUpper(unit) + ", a, b) → whole " + unit + "s from a to b"}, true
	case (name == "date" && len(args) >= 2) || (name == "datetime" && len(args) >= 1):
		x, ok := sqliteDate(args, d.scopeAt(path))
		if !ok {
			return Change{}, false
		}
		if name == "date" {
			x = castTo(x, "date")
		}
		replace(n, x)
		return Change{Rule: RuleSQLiteDate, Note: name + "(x, modifiers) → x ± interval"}, true
	}
	return Change{}, false
}

// timestampDiff is MySQL's TIMESTAMPDIFF(unit, a, b): the whole units from a
// to b, truncated toward zero. Months and years count calendar units as
// age() does; two dates give plain day arithmetic.
func timestampDiff(unit string, a, b *pg_query.Node, sc *scope) (*pg_query.Node, bool) {
	dates := exprType(a, sc) == "date" && exprType(b, sc) == "date"
	ta, tb := asTimestamp(a, sc), asTimestamp(b, sc)
	seconds := func(per int64) *pg_query.Node {
		return call("trunc", binop("/", epochOf(binop("-", tb, ta)), intConst(per)))
	}
	months := func() *pg_query.Node {
		age := func() *pg_query.Node { return call("age", tb, ta) }
		return binop("+", binop("*", extractCall("year", age()), intConst(12)), extractCall("month", age()))
	}
	switch unit {
	case "day":
		if dates {
			return binop("-", b, a), true
		}
		return extractCall("day", binop("-", tb, ta)), true
	case "week":
		if dates {
			return binop("/", binop("-", b, a), intConst(7)), true
		}
		return seconds(7 * 86400), true
	case "hour":
		return seconds(3600), true
	case "minute":
		return seconds(60), true
	case "second":
		return seconds(1), true
	case "month":
		return months(), true
	case "quarter":
		return call("trunc", binop("/", months(), intConst(3))), true
	case "year":
		return extractCall("year", call("age", tb, ta)), true
	}
	return nil, false
}

var reModifier = regexp.MustCompile(`^([+-]?\d+(?:\.\d+)?)\s*(day|month|year|hour|minute|second)s?$`)

// sqliteDate builds the timestamp SQLite's date()/datetime() compute from
// a time value and modifiers: '±N unit' adds an interval (month and year
// arithmetic clamps to the month's last day, as in PostgreSQL and MySQL,
// where SQLite overflows into the next month), 'start of month|year|day'
// truncates. Any other modifier: no rewrite.
func sqliteDate(args []*pg_query.Node, sc *scope) (*pg_query.Node, bool) {
	x := asTimestamp(args[0], sc)
	for _, m := range args[1:] {
		s, ok := constText(m)
		if !ok || m.GetAConst().GetSval() == nil {
			return nil, false
		}
		s = strings.ToLower(strings.Join(strings.Fields(s), " "))
		if sm := reModifier.FindStringSubmatch(s); sm != nil {
			if _, err := strconv.ParseFloat(sm[1], 64); err != nil {
				return nil, false
			}
			x = binop("+", x, castTo(strConst(sm[1]+" "+sm[2]+"s"), "interval"))
			continue
		}
		switch s {
		case "start of month", "start of year", "start of day":
			x = call("date_trunc", strConst(strings.TrimPrefix(s, "start of ")), x)
			continue
		}
		return nil, false
	}
	return x, true
}

// extractDays answers 42883 for EXTRACT(DAY FROM d1 - d2) and
// date_part('day', d1 - d2) where d1 and d2 are dates: the difference is
// already a number of days (EPOCH: days * 86400). A timestamp on either
// side makes an interval, which EXTRACT accepts, so that never gets here.
func (d *doc) extractDays(off int32, name string, types []string) []edit {
	if (name != "extract" && name != "date_part") || len(types) != 2 || types[1] != "integer" {
		return nil
	}
	h := d.find(off, isFuncCall)
	if h == nil || len(h.node.GetFuncCall().Args) != 2 {
		return nil
	}
	args := h.node.GetFuncCall().Args
	field, ok := constText(args[0])
	if !ok || !dateDiffOperands(args[1], d.scopeAt(h.path), true) {
		return nil
	}
	field = strings.ToLower(field)
	if field != "day" && field != "days" && field != "epoch" {
		return nil
	}
	note := strings.ToUpper(name) + "(" + field + " FROM d1 - d2) → d1 - d2 (dates: days)"
	return []edit{{rule: RuleExtractDays, note: note, fn: func(d *doc) error {
		h := d.find(off, isFuncCall)
		if h == nil || len(h.node.GetFuncCall().Args) != 2 {
			return errStale
		}
		x := h.node.GetFuncCall().Args[1]
		if field == "epoch" {
			x = binop("*", x, intConst(86400))
		}
		replace(h.node, x)
		return nil
	}}}
}

// countsDays reports a number compared with an interval that can only mean
// days: a constant, or a difference of dates. Any other number (a year, a
// count) is not multiplied by interval '1 day' on a guess.
func (d *doc) countsDays(n *pg_query.Node, path []step) bool {
	return isNumberConst(n) || dateDiffOperands(n, d.scopeAt(path), true)
}

// wholeDays returns N for an interval literal of whole days (INTERVAL
// '30 days', '1 day'::interval, INTERVAL '30' DAY).
func wholeDays(n *pg_query.Node) (int64, bool) {
	tc := n.GetTypeCast()
	if tc == nil || exprType(n, nil) != "interval" {
		return 0, false
	}
	s, ok := constText(tc.Arg)
	if !ok || tc.Arg.GetAConst().GetSval() == nil {
		return 0, false
	}
	s = strings.ToLower(strings.TrimSpace(s))
	switch mods := tc.TypeName.Typmods; {
	case len(mods) == 0:
		f := strings.Fields(s)
		if len(f) == 1 && strings.HasSuffix(f[0], "days") {
			f = []string{strings.TrimSuffix(f[0], "days"), "days"}
		} else if len(f) == 1 && strings.HasSuffix(f[0], "day") {
			f = []string{strings.TrimSuffix(f[0], "day"), "day"}
		}
		if len(f) != 2 || (f[1] != "day" && f[1] != "days") {
			return 0, false
		}
		s = f[0]
	case len(mods) == 1 && isNumberConst(mods[0]):
		// INTERVAL '30' DAY: the typmod is the field mask of DAY (1 << 3).
		if m, _ := constText(mods[0]); m != "8" {
			return 0, false
		}
	default:
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, false
	}
	return v, true
}

// intervalDays answers "operator does not exist: integer <= interval" where
// the integer is a difference of dates and the interval a literal of whole
// days: the literal becomes its number of days (also in BETWEEN, whose
// bounds must all be whole days or numbers).
func (d *doc) intervalDays(off int32, sig string) []edit {
	types := strings.Fields(sig) // "integer <= interval": one-word types only
	if len(types) != 3 || !(types[0] == "integer" && types[2] == "interval" || types[0] == "interval" && types[2] == "integer") {
		return nil
	}
	h := d.find(off, isAExpr)
	if h == nil {
		return nil
	}
	e := h.node.GetAExpr()
	sc := d.scopeAt(h.path)
	var bounds []*pg_query.Node
	switch e.Kind {
	case pg_query.A_Expr_Kind_AEXPR_OP:
		if len(e.Name) != 1 || e.Name[0].GetString_().GetSval() != types[1] || !comparisonOps[types[1]] || e.Lexpr == nil || e.Rexpr == nil {
			return nil
		}
		switch {
		case types[0] == "integer" && dateDiffOperands(e.Lexpr, sc, true):
			bounds = []*pg_query.Node{e.Rexpr}
		case types[2] == "integer" && dateDiffOperands(e.Rexpr, sc, true):
			bounds = []*pg_query.Node{e.Lexpr}
		default:
			return nil
		}
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN,
		pg_query.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		l := e.Rexpr.GetList()
		if types[0] != "integer" || !dateDiffOperands(e.Lexpr, sc, true) || l == nil {
			return nil
		}
		bounds = l.Items
	default:
		return nil
	}
	n := 0
	for _, b := range bounds {
		if _, ok := wholeDays(b); ok {
			n++
		} else if !isNumberConst(b) {
			return nil
		}
	}
	if n == 0 {
		return nil
	}
	return []edit{{rule: RuleIntervalDays, note: "INTERVAL 'n days' compared with a difference of dates → n", fn: func(d *doc) error {
		h := d.find(off, isAExpr)
		if h == nil {
			return errStale
		}
		e := h.node.GetAExpr()
		sides := []*pg_query.Node{e.Lexpr, e.Rexpr}
		if l := e.Rexpr.GetList(); l != nil {
			sides = l.Items
		}
		for _, s := range sides {
			if v, ok := wholeDays(s); ok {
				replace(s, intConst(v))
			}
		}
		return nil
	}}}
}

// textDate answers "operator does not exist: text + interval" (and text -
// date, timestamp - text...): a date stored as text, as SQLite keeps them,
// is cast to what the other side needs — timestamp for an interval or a
// timestamp, date for a date (the difference is then days).
func (d *doc) textDate(off int32, sig string) []edit {
	h := d.find(off, isAExpr)
	if h == nil {
		return nil
	}
	op := opName(h.node)
	if op != "+" && op != "-" {
		return nil
	}
	i := strings.Index(sig, " "+op+" ")
	if i < 0 {
		return nil
	}
	lt, rt := sig[:i], sig[i+len(op)+2:]
	target := func(other string) string {
		switch {
		case other == "interval" || isTimestamp(other):
			return "timestamp"
		case other == "date" && op == "-":
			return "date"
		}
		return ""
	}
	left := true
	typ := ""
	switch {
	case isText(lt) && !isText(rt):
		typ = target(rt)
	case isText(rt) && !isText(lt) && op == "-":
		typ, left = target(lt), false
	}
	if typ == "" {
		return nil
	}
	return []edit{{rule: RuleTextDate, note: "text date cast to " + typ, fn: func(d *doc) error {
		h := d.find(off, isAExpr)
		if h == nil || opName(h.node) != op {
			return errStale
		}
		e := h.node.GetAExpr()
		if left {
			e.Lexpr = castTo(e.Lexpr, typ)
		} else {
			e.Rexpr = castTo(e.Rexpr, typ)
		}
		return nil
	}}}
}
