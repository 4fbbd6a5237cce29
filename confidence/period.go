package confidence

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// A year the question names by itself ("in 2024", "the 2024 budget",
// "for fiscal year 2025") is a period with two ends: a query that bounds
// a date from one side only ("shipped_on >= '2024-01-01'") answers "since
// 2024". A year after a word that bounds it on one side ("since 2024",
// "before 1980", "between 2020 and 2023") or before one ("2014 or
// after", "2020 onwards") asks for that one side.

// oneSided are the words before a year that ask for one side of it, or
// read it as a number ("over 2000", "more than 1500").
var oneSided = map[string]bool{
	"since": true, "after": true, "before": true, "from": true, "until": true, "till": true, "to": true,
	"through": true, "between": true, "and": true, "by": true, "prior": true, "starting": true, "post": true, "pre": true,
	"over": true, "under": true, "above": true, "below": true, "than": true, "least": true, "most": true, "exceeding": true,
}

// openAfter are the words after "or"/"and" that open a year on one side
// ("2014 or after"); onwards opens it alone.
var openAfter = map[string]bool{"after": true, "later": true, "before": true, "earlier": true, "onward": true, "onwards": true, "beyond": true, "since": true}

// periodYears returns the years a reads as whole periods.
func periodYears(a *gloss.Analysis) []int {
	if a == nil {
		return nil
	}
	var out []int
	for _, p := range a.Phrases {
		if p.Kind != gloss.PhraseYear {
			continue
		}
		y, err := strconv.Atoi(p.Text)
		if err != nil {
			continue
		}
		i := tokenAt(a, p.Start)
		if i < 0 {
			continue
		}
		if i > 0 && oneSided[a.Tokens[i-1].Lower] {
			continue
		}
		if i+1 < len(a.Tokens) && (a.Tokens[i+1].Lower == "onwards" || a.Tokens[i+1].Lower == "onward") {
			continue
		}
		if i+2 < len(a.Tokens) && (a.Tokens[i+1].Lower == "or" || a.Tokens[i+1].Lower == "and") && openAfter[a.Tokens[i+2].Lower] {
			continue
		}
		out = append(out, y)
	}
	return out
}

// tokenAt is the index of the token starting at byte offset start, -1
// when none does.
func tokenAt(a *gloss.Analysis, start int) int {
	for i, t := range a.Tokens {
		if t.Start == start {
			return i
		}
	}
	return -1
}

// openPeriod returns the column the query bounds from one side only in a
// comparison with one of years (a constant that starts with the year or
// the next one: '2024-01-01', 2024, '2025-01-01'), "" when every such
// column is bounded on both sides (another comparison the other way,
// BETWEEN, an equality, a function of the column such as extract or
// date_trunc compared with it).
func openPeriod(tree *pg_query.ParseResult, years []int) string {
	if tree == nil || len(years) == 0 {
		return ""
	}
	type bounds struct{ lower, upper, closed, year bool }
	cols := map[string]*bounds{}
	var order []string
	at := func(col string) *bounds {
		b := cols[col]
		if b == nil {
			b = &bounds{}
			cols[col] = b
			order = append(order, col)
		}
		return b
	}
	pgparse.Walk(tree.ProtoReflect(), func(m protoreflect.Message) bool {
		e, ok := m.Interface().(*pg_query.A_Expr)
		if !ok {
			return true
		}
		switch e.Kind {
		case pg_query.A_Expr_Kind_AEXPR_BETWEEN, pg_query.A_Expr_Kind_AEXPR_BETWEEN_SYM:
			if col, _ := boundColumn(e.Lexpr); col != "" {
				at(col).closed = true
			}
			return true
		case pg_query.A_Expr_Kind_AEXPR_OP:
		default:
			return true
		}
		if len(e.Name) != 1 {
			return true
		}
		op := e.Name[0].GetString_().GetSval()
		col, inFunc := boundColumn(e.Lexpr)
		other := e.Rexpr
		if col == "" {
			col, inFunc = boundColumn(e.Rexpr)
			other = e.Lexpr
			op = flipComparison(op)
		}
		if col == "" {
			return true
		}
		b := at(col)
		switch {
		case op == "=" || inFunc:
			b.closed = true
		case op == ">" || op == ">=":
			b.lower = true
		case op == "<" || op == "<=":
			b.upper = true
		default:
			return true
		}
		if c, ok := pgparse.ConstText(pgparse.Uncast(other)); ok && startsWithYear(c, years) { // '2024-01-01'::date
			b.year = true
		}
		return true
	})
	for _, col := range order {
		if b := cols[col]; b.year && !b.closed && b.lower != b.upper {
			return col
		}
	}
	return ""
}

// boundColumn is the column an expression reads (through casts), and
// whether through a function of it (extract, date_trunc, to_char): ""
// for anything else.
func boundColumn(n *pg_query.Node) (col string, inFunc bool) {
	n = pgparse.Uncast(n)
	if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) > 0 {
		return strings.ToLower(columnName(cr)), false
	}
	if fc := n.GetFuncCall(); fc != nil {
		for _, a := range fc.Args {
			if col, _ := boundColumn(a); col != "" {
				return col, true
			}
		}
	}
	return "", false
}

// flipComparison is the operator with its sides swapped ("2024 < year"
// is "year > 2024").
func flipComparison(op string) string {
	switch op {
	case "<":
		return ">"
	case ">":
		return "<"
	case "<=":
		return ">="
	case ">=":
		return "<="
	}
	return op
}

// startsWithYear reports whether a constant's text starts with one of
// years or the year after it, as a whole number ('2024-01-01', 2025; not
// 20245).
func startsWithYear(text string, years []int) bool {
	for _, y := range years {
		for _, s := range []string{strconv.Itoa(y), strconv.Itoa(y + 1)} {
			if strings.HasPrefix(text, s) && (len(text) == len(s) || text[len(s)] < '0' || text[len(s)] > '9') {
				return true
			}
		}
	}
	return false
}
