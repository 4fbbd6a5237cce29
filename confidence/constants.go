package confidence

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/cues"
	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// reDate is a date or timestamp constant ('2024-01-01', '2024-03').
var reDate = regexp.MustCompile(`^(1[89]|20)\d\d-\d\d(-\d\d)?\b`)

// A period named relative to today: "this year", "last quarter", "in the
// past 3 months", "today", "year to date".
var (
	periodFrom = map[string]bool{"this": true, "last": true, "next": true, "previous": true, "current": true, "past": true, "prior": true, "coming": true}
	periodUnit = map[string]bool{"year": true, "quarter": true, "month": true, "week": true, "day": true,
		"years": true, "quarters": true, "months": true, "weeks": true, "days": true}
	// periodKind are the words that may stand between a period's number
	// and its unit: "the last 10 calendar months", "the past 5 business
	// days", "the last 2 academic years".
	periodKind = map[string]bool{"academic": true, "school": true, "calendar": true, "fiscal": true, "business": true, "working": true, "trading": true, "full": true, "complete": true}
	// clockUnit are the units of a duration shorter than a day.
	clockUnit   = map[string]bool{"hour": true, "hours": true, "minute": true, "minutes": true, "second": true, "seconds": true}
	cueRelative = cues.NewCue("today", "yesterday", "tomorrow", "ytd", "year to date", "ago", "recent", "recently")
)

// periodNamed reports whether the text names the period a date constant
// of year y bounds: the year itself, the year before (the exclusive end
// of "in 2024" is '2025-01-01'), or a period relative to today.
func periodNamed(text *cues.Reading, y string) bool {
	n, err := strconv.Atoi(y)
	if err != nil {
		return false
	}
	before := strconv.Itoa(n - 1)
	return text.Any(func(w string) bool { return strings.Contains(w, y) || strings.Contains(w, before) }) ||
		text.Near(func(w string) bool { return periodFrom[w] }, func(w string) bool { return periodUnit[w] }, 12) ||
		text.Has(cueRelative)
}

// durationUnit reports whether w is a unit of time: "days" in "how many
// days", '6 days'.
func durationUnit(w string) bool { return periodUnit[w] || clockUnit[w] }

// dateFormatFuncs take a date field or a format as a constant argument.
var dateFormatFuncs = map[string]bool{"date_part": true, "date_trunc": true, "extract": true, "to_char": true,
	"to_date": true, "to_timestamp": true, "to_number": true, "date_bin": true}

// scale reports whether a constant is a whole number above 1 (12, 60,
// 100.0): what a unit is converted by, not a share.
func scale(c *pg_query.A_Const) bool {
	var v float64
	switch x := c.Val.(type) {
	case *pg_query.A_Const_Ival:
		v = float64(x.Ival.Ival)
	case *pg_query.A_Const_Fval:
		f, err := strconv.ParseFloat(x.Fval.Fval, 64)
		if err != nil {
			return false
		}
		v = f
	default:
		return false
	}
	return v >= 2 && v == float64(int64(v))
}

// reInterval is a count and a word, an interval constant when the word
// is a durationUnit: '6 days', '1 year'.
var reInterval = regexp.MustCompile(`^\d+\s*([a-z]+)$`)

// flagValues are the spellings of yes and no a column stores.
var flagValues = map[string]bool{"t": true, "f": true, "y": true, "n": true, "yes": true, "no": true, "true": true, "false": true}

// unaskedConstants returns the constants the query compares with (in its
// WHERE, HAVING and JOIN conditions, at any depth: CTEs, sublinks,
// LATERAL) that neither the question nor its evidence names: 'Asia' in
// a query for "the language spoken by the most people in each country",
// which another question's answer carries with it. A constant is named
// when the text writes it out (a string's words, LIKE's wildcards
// aside, each word or the same word but for its ending: 'Asia' for
// "Asian"; a number, in digits or a word: "at least two"; the year of a
// date), when it is a stored value the question links to, or when it is
// a yes/no flag compared with a column whose name the question says
// ("official languages": isofficial = 'T'). 0 and 1, and LIMIT and OFFSET counts, are no
// constants a question has to name. tree is the query's parse tree; nil
// (a query that does not parse) has none. text is the reading of the
// question and its evidence (their analyses). countries are the codes
// the query compares with a country column (countryCompared): 'DE' is
// named by "Germany".
func unaskedConstants(tree *pg_query.ParseResult, text *cues.Reading, question, evidence *gloss.Analysis, stored []string, countries map[string]bool) []string {
	if tree == nil {
		return nil
	}
	notValues := map[*pg_query.A_Const]bool{}      // LIMIT and OFFSET, date fields and formats
	intervalUnit := map[*pg_query.A_Const]string{} // INTERVAL '6' DAY's '6': day
	compared := map[*pg_query.A_Const]string{}     // a constant's column, in "column = constant", filled by the walk below
	var quals []protoreflect.Message
	pgparse.Walk(tree.ProtoReflect(), func(m protoreflect.Message) bool {
		for _, q := range conditionsOf(m) {
			quals = append(quals, q.ProtoReflect())
		}
		switch n := m.Interface().(type) {
		case *pg_query.SelectStmt:
			for _, c := range []*pg_query.Node{n.LimitCount, n.LimitOffset} {
				if a := c.GetAConst(); a != nil {
					notValues[a] = true
				}
			}
		case *pg_query.CaseExpr:
			// CASE month WHEN 'January' THEN 1 ...: a conversion table,
			// whose values and results the question need not name; a
			// searched CASE's conditions still compare.
			for _, w := range n.Args {
				cw := w.GetCaseWhen()
				if cw == nil {
					continue
				}
				if c := cw.Result.GetAConst(); c != nil {
					notValues[c] = true
				}
				if c := cw.Expr.GetAConst(); c != nil && n.Arg != nil {
					notValues[c] = true
				}
			}
			if c := n.Defresult.GetAConst(); c != nil {
				notValues[c] = true
			}
		case *pg_query.A_Expr:
			// year * 12 + month, minutes / 60, 100.0 * part / whole, y ||
			// '-01': a unit's conversion or a piece of a format, no value a
			// question names (a share, 0.7 * seats, is one).
			if n.Kind != pg_query.A_Expr_Kind_AEXPR_OP || len(n.Name) != 1 {
				break
			}
			op := n.Name[0].GetString_().GetSval()
			for _, side := range []*pg_query.Node{n.Lexpr, n.Rexpr} {
				if c := pgparse.Uncast(side).GetAConst(); c != nil && (op == "||" || (op == "*" || op == "/") && scale(c)) {
					notValues[c] = true
				}
			}
		case *pg_query.TypeName:
			// numeric(10, 2), INTERVAL '70' DAY (whose field is a mask):
			// a type's modifiers, no value.
			for _, t := range n.Typmods {
				if c := t.GetAConst(); c != nil {
					notValues[c] = true
				}
			}
		case *pg_query.TypeCast:
			if c := n.Arg.GetAConst(); c != nil && n.TypeName != nil && len(n.TypeName.Typmods) > 0 {
				if unit := intervalFields[n.TypeName.Typmods[0].GetAConst().GetIval().GetIval()]; unit != "" {
					intervalUnit[c] = unit
				}
			}
		case *pg_query.FuncCall:
			// date_part('year', d), to_char(d, 'YYYY-MM'): a field or a
			// format, no value a question names.
			if len(n.Funcname) > 0 && dateFormatFuncs[n.Funcname[len(n.Funcname)-1].GetString_().GetSval()] {
				for _, a := range n.Args {
					if c := a.GetAConst(); c != nil {
						notValues[c] = true
					}
				}
			}
		}
		return true
	})
	numbers := map[string]bool{}
	for _, n := range text.Numbers() { // "at least two", "30,000", "70%"
		for _, f := range numberForms(n) {
			numbers[f] = true
		}
	}
	stems := map[string]bool{}
	var dateWords []string                     // the words that may name a month or a weekday
	calendar := map[*pg_query.A_Const]string{} // a constant compared with a month or a weekday: its field
	// A month or a day inside a name of several words the question
	// names is the name's ("April Ludgate"); "may" is a month before a
	// year only ("May 2024").
	inName := map[string]bool{}
	for _, v := range stored {
		if ws := valueWords(v); len(ws) > 1 {
			for _, w := range ws {
				inName[w] = true
			}
		}
	}
	for _, a := range []*gloss.Analysis{question, evidence} {
		for i, w := range a.Words {
			stems[w.Stem] = true
			if w.Text == "may" && (i+1 == len(a.Words) || len(a.Words[i+1].Text) != 4 || !cues.Digits(a.Words[i+1].Text)) || inName[w.Text] {
				continue
			}
			dateWords = append(dateWords, w.Text)
		}
	}
	// columnNamed: the question names a word of the column's name
	// ("definition" for hight_definition_tv), or one its name runs
	// together with others ("official" for isofficial).
	columnNamed := func(col string) bool {
		joined := strings.ToLower(col)
		for _, a := range []*gloss.Analysis{question, evidence} {
			for _, w := range a.Words {
				if !w.Stop && len(w.Stem) >= 4 && strings.Contains(joined, w.Stem) {
					return true
				}
			}
		}
		for _, w := range gloss.Fields(col) {
			if len(w) >= 3 && !gloss.Stopword(w) && stems[gloss.Stem(w)] {
				return true
			}
		}
		return false
	}
	names := text.Names()
	linked := map[string]bool{}
	for _, v := range stored {
		linked[strings.ToLower(v)] = true
	}
	named := func(c *pg_query.A_Const) (string, bool) {
		switch v := c.Val.(type) {
		case *pg_query.A_Const_Ival:
			n := strconv.FormatInt(int64(v.Ival.Ival), 10)
			return n, n == "0" || n == "1" || numbers[n] || calendar[c] != "" && calendarNamed(calendar[c], int(v.Ival.Ival), dateWords)
		case *pg_query.A_Const_Fval:
			n := normalNumber(v.Fval.Fval)
			return n, numbers[n]
		case *pg_query.A_Const_Sval:
			s := strings.ToLower(strings.TrimSpace(strings.Trim(v.Sval.Sval, "%_ ")))
			if !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) || linked[s] || text.Contains(s) {
				return v.Sval.Sval, true // '%,%' is a shape, no value
			}
			// 'CA' for "California", 'mon' for "Mondays".
			if slices.ContainsFunc(names, func(m string) bool { return abbreviates(s, m) }) {
				return v.Sval.Sval, true
			}
			// 'DE' compared with a country column for "Germany" (or
			// "germany"; "UK", "US" only as names: "us" is a pronoun).
			if countries[s] && slices.ContainsFunc(countryCodes[s], func(n string) bool {
				return len(n) > 3 && text.Contains(n) || slices.ContainsFunc(names, func(m string) bool { return strings.EqualFold(m, n) })
			}) {
				return v.Sval.Sval, true
			}
			// An interval ('6 days') bounds a period the question names
			// by its unit ("in the past 7 days").
			if m := reInterval.FindStringSubmatch(s); m != nil && durationUnit(m[1]) {
				unit := strings.TrimSuffix(m[1], "s")
				return v.Sval.Sval, stems[gloss.Stem(unit)] || stems[gloss.Stem(unit+"s")]
			}
			// INTERVAL '6' DAY: the number of the unit its field says.
			if unit := intervalUnit[c]; unit != "" {
				return v.Sval.Sval, stems[gloss.Stem(unit)] || stems[gloss.Stem(unit+"s")]
			}
			// to_char(d, 'MM') = '09' for "September".
			if n, err := strconv.Atoi(s); err == nil && calendar[c] != "" && calendarNamed(calendar[c], n, dateWords) {
				return v.Sval.Sval, true
			}
			if reDate.MatchString(s) {
				return v.Sval.Sval, periodNamed(text, s[:4])
			}
			if n, err := strconv.ParseFloat(s, 64); err == nil {
				return v.Sval.Sval, numbers[normalNumber(strconv.FormatFloat(n, 'f', -1, 64))]
			}
			// A yes/no flag is what the column it is compared with asks:
			// "official languages" is isofficial = 'T'.
			if flagValues[s] {
				return v.Sval.Sval, columnNamed(compared[c])
			}
			words := gloss.Fields(s)
			for _, w := range words {
				if st := gloss.Stem(w); !stems[st] && !variantIn(st, stems) {
					return v.Sval.Sval, false
				}
			}
			return v.Sval.Sval, len(words) > 0
		}
		return "", true // NULL, booleans: nothing a question writes
	}
	// One walk of the conditions: an A_Expr comes before its operands,
	// so a constant's column is known when the constant is reached.
	seen := map[*pg_query.A_Const]bool{}
	var out []string
	for _, q := range quals {
		pgparse.Walk(q, func(m protoreflect.Message) bool {
			switch n := m.Interface().(type) {
			case *pg_query.A_Expr:
				for _, side := range [][2]*pg_query.Node{{n.Lexpr, n.Rexpr}, {n.Rexpr, n.Lexpr}} {
					if col, c := side[0].GetColumnRef(), side[1].GetAConst(); col != nil && c != nil && len(col.Fields) > 0 {
						compared[c] = columnName(col)
					}
					// extract(month FROM d) BETWEEN 6 AND 12, isodow IN (6, 7).
					if f := calendarField(side[0]); f != "" {
						for _, c := range constants(side[1]) {
							calendar[c] = f
						}
					}
				}
				// CURRENT_DATE - 6 counts days back.
				if c := pgparse.Uncast(n.Rexpr).GetAConst(); c != nil && c.GetIval() != nil && clockValue(pgparse.Uncast(n.Lexpr)) &&
					len(n.Name) == 1 && n.Name[0].GetString_().GetSval() == "-" && (stems["day"] || stems["days"]) {
					notValues[c] = true
				}
			case *pg_query.A_Const:
				if notValues[n] || seen[n] || n.Isnull {
					return true
				}
				seen[n] = true
				if v, ok := named(n); !ok {
					out = append(out, v)
				}
			}
			return true
		})
	}
	return out
}

// calendarField is the field of a month or a weekday an expression
// reads: "month" for extract(month FROM d), date_part('month', d) or a
// CASE that turns month names into numbers, "dow" (0 to 6 from Sunday)
// or "isodow" (1 to 7 from Monday) for the day of the week; "" for any
// other.
func calendarField(n *pg_query.Node) string {
	n = pgparse.Uncast(n)
	if f := n.GetFuncCall(); f != nil && len(f.Args) == 2 {
		arg := func(i int) string { return pgparse.Uncast(f.Args[i]).GetAConst().GetSval().GetSval() }
		switch strings.ToLower(pgparse.BuiltinName(f)) {
		case "extract", "date_part":
			if field := strings.ToLower(arg(0)); field == "month" || field == "dow" || field == "isodow" {
				return field
			}
		case "to_char":
			switch strings.ToUpper(arg(1)) {
			case "MM":
				return "month"
			case "D":
				return "d"
			case "ID":
				return "isodow"
			}
		}
	}
	if ce := n.GetCaseExpr(); ce != nil {
		for _, w := range ce.Args {
			if v := pgparse.Uncast(w.GetCaseWhen().GetExpr()).GetAConst().GetSval(); v != nil && monthNumber(v.Sval) > 0 {
				return "month"
			}
		}
	}
	return ""
}

// constants are the constants of a comparison's other side: one, or
// those of a list (IN, BETWEEN).
func constants(n *pg_query.Node) []*pg_query.A_Const {
	if c := pgparse.Uncast(n).GetAConst(); c != nil {
		return []*pg_query.A_Const{c}
	}
	var out []*pg_query.A_Const
	for _, item := range n.GetList().GetItems() {
		if c := pgparse.Uncast(item).GetAConst(); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// months are the months' names, January first.
var months = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}

// weekdays are the days' names, Sunday first (extract(dow ...)'s 0).
var weekdays = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// monthNumber is the number of a month's name (or its three-letter
// abbreviation), 0 for none.
func monthNumber(w string) int {
	w = strings.ToLower(strings.TrimSpace(w))
	for i, m := range months {
		if w == m || len(w) == 3 && strings.HasPrefix(m, w) {
			return i + 1
		}
	}
	return 0
}

// intervalFields are the units of an interval's field masks
// (INTERVAL '6' DAY), as PostgreSQL numbers them.
var intervalFields = map[int32]string{4: "year", 2: "month", 8: "day", 1024: "hour", 2048: "minute", 4096: "second"}

// calendarNamed reports whether words (the question's and the
// evidence's, lower case) name the month or the weekday that number n of
// field is: June is month 6; Saturday is dow 6 (0 to 6 from Sunday),
// isodow 6 (1 to 7 from Monday: Sunday 7) and d 7 (to_char's 'D', 1 to
// 7 from Sunday). The weekend and the weekdays name the week's split:
// any valid day number. Two months or days named ("June through
// August", "Monday to Friday") name the ones between them too.
func calendarNamed(field string, n int, words []string) bool {
	lo, hi := 99, -1
	for _, w := range words {
		day := strings.TrimSuffix(w, "s")
		k := -1
		switch field {
		case "month":
			if m := monthNumber(w); m > 0 {
				k = m
			}
		case "dow", "isodow", "d":
			i := slices.Index(weekdays, day)
			switch {
			case i < 0:
			case field == "dow":
				k = i
			case field == "isodow" && i == 0:
				k = 7
			case field == "isodow":
				k = i
			default:
				k = i + 1
			}
			if (day == "weekend" || day == "weekday") && validDay(field, n) {
				return true
			}
		}
		if k < 0 {
			continue
		}
		if k == n {
			return true
		}
		lo, hi = min(lo, k), max(hi, k)
	}
	return lo < hi && n > lo && n < hi
}

// validDay reports whether n is a day of the week of field: dow 0 to 6,
// isodow and d 1 to 7.
func validDay(field string, n int) bool {
	if field == "dow" {
		return n >= 0 && n <= 6
	}
	return n >= 1 && n <= 7
}
