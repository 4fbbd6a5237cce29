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
// "isn't"). "other" counts only in "other than".
func questionNegates(a *gloss.Analysis) bool {
	if a == nil {
		return false
	}
	for i, t := range a.Tokens {
		if t.Quoted {
			continue
		}
		w := strings.ReplaceAll(t.Lower, "’", "'")
		switch {
		case strings.HasSuffix(w, "n't"):
			return true
		case w == "other":
			if i+1 < len(a.Tokens) && a.Tokens[i+1].Lower == "than" {
				return true
			}
		case negationWords[w]:
			return true
		case w == "t" && i > 0 && strings.HasSuffix(a.Tokens[i-1].Lower, "n") && a.Tokens[i-1].End+1 == t.Start:
			return true // "don" "'" "t" split by the tokenizer
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
				neg = negatingOperator(n.Name)
			}
		case *pg_query.SubLink:
			neg = negatingOperator(n.OperName)
		case *pg_query.NullTest:
			neg = n.Nulltesttype == pg_query.NullTestType_IS_NULL
		case *pg_query.SelectStmt:
			neg = n.Op == pg_query.SetOperation_SETOP_EXCEPT
		}
		return !neg
	})
	return neg
}

// parseTree parses sql once for the signals read on its tree; nil when it
// does not parse (pgparse's tree is then not meaningful).
func parseTree(sql string) *pg_query.ParseResult {
	tree, err := pgparse.Parse(sql)
	if err != nil {
		return nil
	}
	return tree
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
