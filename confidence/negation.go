package confidence

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// negationWords say that the question excludes something: "people that
// are not poker players", "students without a pet", "every language
// except English". A word inside a quoted value is the value's, not the
// question's.
var negationWords = map[string]bool{
	"not": true, "no": true, "never": true, "without": true, "except": true, "excluding": true,
	"none": true, "neither": true, "nor": true, "non": true, "other": true,
}

// questionNegates reports whether the question says that something is
// excluded: a negation word, or a contraction ending in n't ("don't",
// "isn't"). "other" counts only in "other than". Some negations ask for
// no exclusion: a bound ("not higher than 4", "do not have more than 3
// cylinders" is "<= 4", "<= 3"), the current period left out ("excluding
// the current month", "not including today": an upper bound on a date),
// and "no" that is no determiner ("the no. of students", "0 stands for
// no.").
func questionNegates(a *gloss.Analysis) bool {
	if a == nil {
		return false
	}
	for i, t := range a.Tokens {
		if t.Quoted {
			continue
		}
		w := strings.ReplaceAll(t.Lower, "’", "'")
		negates := false
		switch {
		case strings.HasSuffix(w, "n't"):
			negates = true
		case w == "other":
			negates = i+1 < len(a.Tokens) && a.Tokens[i+1].Lower == "than"
		case w == "no":
			negates = !noDeterminer(a, i)
		case negationWords[w]:
			negates = true
		case w == "t" && i > 0 && strings.HasSuffix(a.Tokens[i-1].Lower, "n") && a.Tokens[i-1].End+1 == t.Start:
			negates = true // "don" "'" "t" split by the tokenizer
		}
		if negates && !followedBy(a, i, comparatives) && !followedBy(a, i, currentPeriod) {
			return true
		}
	}
	return false
}

// noDeterminer reports whether "no" at token i is no determiner: followed
// by a full stop, a comma or a question mark ("no. of days", "stands for
// no"), or last.
func noDeterminer(a *gloss.Analysis, i int) bool {
	end := a.Tokens[i].End
	if i+1 == len(a.Tokens) {
		return true
	}
	rest := strings.TrimLeft(a.Text[end:], " ")
	return rest != "" && strings.ContainsRune(".,?!;:", rune(rest[0]))
}

// comparatives make a negation before them a bound: "not higher than".
var comparatives = map[string]bool{
	"more": true, "less": true, "fewer": true, "higher": true, "lower": true, "greater": true, "larger": true,
	"smaller": true, "bigger": true, "above": true, "below": true, "over": true, "under": true, "exceed": true,
	"exceeds": true, "exceeding": true, "older": true, "younger": true, "later": true, "earlier": true,
	"longer": true, "shorter": true, "cheaper": true,
}

// currentPeriod are the words after a negation that leave out the period
// under way: "excluding the current month", "not including this week",
// "except today".
var currentPeriod = map[string]bool{"current": true, "this": true, "today": true, "today's": true, "ongoing": true}

// followedBy reports whether one of words follows the negation at token
// i within three words: a comparative ("not higher than", "do not have
// more than"), the current period ("not including this week").
func followedBy(a *gloss.Analysis, i int, words map[string]bool) bool {
	for j := i + 1; j < len(a.Tokens) && j <= i+3; j++ {
		if words[a.Tokens[j].Lower] {
			return true
		}
	}
	return false
}

// sqlNegates reports whether the query excludes rows by what it means,
// whatever the spelling: NOT (NOT EXISTS, NOT IN, NOT LIKE, NOT BETWEEN,
// NOT over any condition), <> and != (also <> ANY/ALL over a subquery),
// IS DISTINCT FROM, a regular expression that must not match, EXCEPT,
// and IS NULL (the anti-join of a LEFT JOIN). tree is the query's parse
// tree; nil (a query that does not parse) says nothing.
func sqlNegates(tree *pg_query.ParseResult) bool {
	if tree == nil {
		return false
	}
	neg := false
	pgparse.Walk(tree.ProtoReflect(), func(m protoreflect.Message) bool {
		if neg {
			return false
		}
		switch n := m.Interface().(type) {
		case *pg_query.BoolExpr:
			neg = n.Boolop == pg_query.BoolExprType_NOT_EXPR
		case *pg_query.A_Expr:
			switch n.Kind {
			case pg_query.A_Expr_Kind_AEXPR_DISTINCT, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
				neg = true
			default:
				neg = negatingOperator(n.Name) || equalsNone(n)
			}
		case *pg_query.SubLink:
			neg = negatingOperator(n.OperName)
		case *pg_query.NullTest:
			neg = n.Nulltesttype == pg_query.NullTestType_IS_NULL
		case *pg_query.BooleanTest:
			neg = n.Booltesttype == pg_query.BoolTestType_IS_FALSE || n.Booltesttype == pg_query.BoolTestType_IS_NOT_TRUE
		case *pg_query.SelectStmt:
			neg = n.Op == pg_query.SetOperation_SETOP_EXCEPT
		}
		return !neg
	})
	return neg
}

// equalsNone reports whether an expression compares with false or zero
// (is_in_inventory = FALSE, connections = 0): what is not there.
func equalsNone(e *pg_query.A_Expr) bool {
	if e.Kind != pg_query.A_Expr_Kind_AEXPR_OP || len(e.Name) == 0 || e.Name[len(e.Name)-1].GetString_().GetSval() != "=" {
		return false
	}
	for _, side := range []*pg_query.Node{e.Lexpr, e.Rexpr} {
		c := pgparse.Uncast(side).GetAConst()
		if c == nil {
			continue
		}
		switch v := c.Val.(type) {
		case *pg_query.A_Const_Boolval:
			if !v.Boolval.Boolval {
				return true
			}
		case *pg_query.A_Const_Ival:
			if v.Ival.Ival == 0 {
				return true
			}
		}
	}
	return false
}

// negatingOperator reports whether an operator name (possibly qualified:
// OPERATOR(pg_catalog.<>)) is one that holds when its operands differ or
// a pattern does not match.
func negatingOperator(name []*pg_query.Node) bool {
	if len(name) == 0 {
		return false
	}
	switch name[len(name)-1].GetString_().GetSval() {
	case "<>", "!=", "!~~", "!~~*", "!~", "!~*":
		return true
	}
	return false
}
