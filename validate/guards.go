package validate

import (
	"math"
	"strconv"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// Resource guards prove a bound or refuse; each rule can be explained to
// whoever writes the query:
//
//   - generate_series(start, stop[, step]) must have bounds and step the
//     validator can evaluate: numeric literals, date/timestamp literals,
//     CURRENT_DATE/now()-like values (optionally date_trunc'ed) plus or minus
//     interval literals or integer days. The number of rows it yields,
//     computed in float seconds (2000 years in nanoseconds overflow
//     time.Duration), must not exceed maxGenerated. One exception: a date
//     series whose bounds come from the data (generate_series(min(d),
//     max(d), '1 month')) is allowed when its step is an interval literal of
//     at least one day and the constant shifts of its bounds stay within
//     maxGenerated steps.
//   - String-building calls (repeat, lpad, rpad, format with widths,
//     replace, regexp_replace) must yield at most maxGenerated characters,
//     computed through nested calls (strings.go); an aggregated value is as
//     long as its rows wherever it flows, so two in one value or an
//     aggregate of one are refused, what all accumulating aggregates of a
//     query collect per row counts together (a data value as
//     maxGenerated/1000 characters), and accumulating window
//     aggregates need a ROWS frame of constant bounds (sizes.go).
//   - A recursive CTE needs a strictly monotone counter compared in its
//     direction, or a walk along a table's key (recursion.go).

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
			if step < daySeconds {
				c.violation(CodeSeries, "generate_series over non-constant dates needs a step of at least INTERVAL '1 day'")
			} else if n := (dataShift(f.Args[0])+dataShift(f.Args[1]))/step + 1; !finite(n) || n > max {
				// min(d) - INTERVAL '1000 years': the shift alone is rows.
				c.violation(CodeSeries, "generate_series over the data's dates shifted by constants would produce at least %.3g rows, more than the limit of %d; shift the bounds less", math.Min(n, math.MaxFloat64), c.cfg.maxGenerated)
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
	// In seconds as floats: 2000 years in nanoseconds overflow an int64
	// (time.Duration), which once made both bounds collapse.
	n := (math.Abs(b.at-a.at)+a.slop+b.slop)/math.Abs(step) + 1
	if !finite(n) || n > max {
		c.violation(CodeSeries, "generate_series would produce about %.3g rows, more than the limit of %d; narrow the range or use a larger step", math.Min(n, math.MaxFloat64), c.cfg.maxGenerated)
	}
}

// dataShift is the size in seconds of the constant shifts applied to a
// bound read from the data (min(d) - INTERVAL '10 years' - 5: 10 years
// and 5 days).
func dataShift(n *pg.Node) float64 {
	switch {
	case n == nil:
	case n.GetTypeCast() != nil:
		return dataShift(n.GetTypeCast().Arg)
	case n.GetFuncCall() != nil && funcName(n.GetFuncCall()) == "date_trunc" && len(n.GetFuncCall().Args) == 2:
		return dataShift(n.GetFuncCall().Args[1])
	case n.GetAExpr() != nil:
		e := n.GetAExpr()
		if e.Kind != pg.A_Expr_Kind_AEXPR_OP || e.Lexpr == nil {
			return 0
		}
		for _, p := range [][2]*pg.Node{{e.Lexpr, e.Rexpr}, {e.Rexpr, e.Lexpr}} {
			if d, ok := intervalConst(p[1]); ok {
				return math.Abs(d) + dataShift(p[0])
			}
			if k, ok := numConst(p[1]); ok {
				return math.Abs(k)*daySeconds + dataShift(p[0])
			}
		}
	}
	return 0
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
		case "int2", "int4", "int8", "integer", "bigint", "smallint":
			// 0.4::int is 0 (PostgreSQL rounds half away from zero);
			// '0.4'::int is an error.
			if k := tc.Arg.GetAConst(); k != nil && k.GetSval() != nil {
				v, err := strconv.ParseInt(strings.TrimSpace(k.GetSval().Sval), 10, 64)
				return float64(v), err == nil
			}
			v, ok := numConst(tc.Arg)
			return math.Round(v), ok
		case "numeric", "float4", "float8", "decimal", "real":
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

// timeVal is a timestamp in seconds since 2000-01-01 known up to slop
// seconds, either absolute or relative to the current time (anchored).
// Seconds as float64 hold any date PostgreSQL does (and more) without
// overflow.
type timeVal struct {
	at       float64
	anchored bool
	slop     float64
}

const daySeconds = 24 * 3600

var epoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

var timeLayouts = []string{"2006-01-02", "2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04",
	"2006-01-02 15:04:05.999999", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05-07", "2006-01-02T15:04:05Z07:00"}

// parseTime reads a date or timestamp literal as seconds since epoch
// (time.Time.Sub would saturate at 292 years).
func parseTime(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return float64(t.Unix()-epoch.Unix()) + float64(t.Nanosecond())/1e9, true
		}
	}
	return 0, false
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
		return timeVal{anchored: true, slop: daySeconds}, true
	case n.GetFuncCall() != nil:
		f := n.GetFuncCall()
		switch funcName(f) {
		case "now", "clock_timestamp", "statement_timestamp", "transaction_timestamp":
			if len(f.Args) == 0 {
				return timeVal{anchored: true, slop: daySeconds}, true
			}
		case "date_trunc":
			if len(f.Args) >= 2 {
				if v, ok := timeConst(f.Args[1]); ok {
					v.slop += 366 * daySeconds
					return v, true
				}
			}
		}
	case n.GetAExpr() != nil:
		e := n.GetAExpr()
		op, okOp := opName(e)
		if e.Kind != pg.A_Expr_Kind_AEXPR_OP || !okOp || e.Lexpr == nil || (op != "+" && op != "-") {
			return timeVal{}, false
		}
		l, okL := timeConst(e.Lexpr)
		r := e.Rexpr
		if !okL && op == "+" {
			// interval + date, integer + date
			l, okL = timeConst(e.Rexpr)
			r = e.Lexpr
		}
		if !okL {
			return timeVal{}, false
		}
		d, ok := intervalConst(r)
		if !ok {
			k, isNum := numConst(r) // date +/- integer days
			d, ok = k*daySeconds, isNum && finite(k)
		}
		if !ok {
			return timeVal{}, false
		}
		if op == "-" {
			d = -d
		}
		l.at += d
		return l, finite(l.at)
	}
	return timeVal{}, false
}

var intervalUnits = map[string]float64{
	"microsecond": 1e-6, "millisecond": 1e-3, "second": 1, "sec": 1,
	"minute": 60, "min": 60, "hour": 3600, "day": daySeconds, "week": 7 * daySeconds,
	"month": 30 * daySeconds, "mon": 30 * daySeconds, "year": 365 * daySeconds,
	"decade": 3650 * daySeconds, "century": 36500 * daySeconds, "millennium": 365000 * daySeconds,
}

// intervalConst evaluates '3 days'::interval / INTERVAL '1 month' in
// seconds (months count 30 days, years 365: the guard needs magnitudes,
// not calendars).
func intervalConst(n *pg.Node) (float64, bool) {
	d, ok := intervalSeconds(n)
	return d.seconds, ok
}

// interval is an interval literal's magnitude; mixed tells that its parts
// have different signs ('1 month -29 days').
type interval struct {
	seconds float64
	mixed   bool
}

func intervalSeconds(n *pg.Node) (interval, bool) {
	tc := n.GetTypeCast()
	var s string
	switch {
	case tc != nil && typeNameOf(tc.TypeName) == "interval":
		if tc.Arg.GetAConst().GetSval() == nil || len(tc.TypeName.Typmods) > 0 {
			return interval{}, false
		}
		s = tc.Arg.GetAConst().GetSval().Sval
	case n.GetAConst().GetSval() != nil:
		s = n.GetAConst().GetSval().Sval
	default:
		return interval{}, false
	}
	return parseInterval(s)
}

func parseInterval(s string) (interval, bool) {
	f := strings.Fields(strings.ToLower(s))
	if len(f) == 0 || len(f)%2 != 0 {
		return interval{}, false
	}
	var out interval
	pos, neg := false, false
	for i := 0; i < len(f); i += 2 {
		k, err := strconv.ParseFloat(f[i], 64)
		if err != nil || !finite(k) {
			return interval{}, false
		}
		u := strings.TrimSuffix(f[i+1], "s")
		if f[i+1] == "s" || f[i+1] == "secs" {
			u = "sec"
		}
		if u == "millennia" {
			u = "millennium"
		}
		d, ok := intervalUnits[u]
		if !ok {
			return interval{}, false
		}
		pos, neg = pos || k > 0, neg || k < 0
		out.seconds += k * d
	}
	out.mixed = pos && neg
	return out, finite(out.seconds)
}
