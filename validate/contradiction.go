package validate

import (
	"strconv"
	"strings"
	"unicode"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// The contradiction lint (L011). `WHERE language = 'English' AND language =
// 'Dutch'` asks one row to hold two values in one column: it is never
// true, and the query answers with no rows, which reads like "none". It is
// how a model writes "countries that speak both": the fix is two rows (the
// table joined twice, INTERSECT, or GROUP BY ... HAVING count(DISTINCT
// language) = 2), or IN (...) for either value.
//
// Only constants whose difference is certain are compared: numbers by
// value, and strings that hold no digit (a date or a number can be spelt
// two ways) compared without case (a case-insensitive column would match
// both spellings), except the words a boolean, date or time column reads
// as the same value ('t' and 'yes', 'now' and 'today').

// contradiction warns about a column equated, in the AND chain of a level's
// WHERE, to two different constants.
func (a *analyzer) contradiction(s *pg.SelectStmt, lv *level) {
	type seen struct {
		value string
		node  *pg.Node
	}
	first := map[*relation]map[string]seen{}
	for _, q := range conjuncts(s.WhereClause) {
		e := q.GetAExpr()
		if e == nil || e.Kind != pg.A_Expr_Kind_AEXPR_OP || len(e.Name) != 1 || e.Name[0].GetString_().GetSval() != "=" {
			continue
		}
		col, ok := lv.column(e.Lexpr)
		k := e.Rexpr
		if !ok {
			col, ok = lv.column(e.Rexpr)
			k = e.Lexpr
		}
		if !ok {
			continue
		}
		v, ok := certainConstant(k)
		if !ok {
			continue
		}
		if first[col.rel] == nil {
			first[col.rel] = map[string]seen{}
		}
		prev, had := first[col.rel][col.col]
		if !had {
			first[col.rel][col.col] = seen{v, k}
			continue
		}
		if prev.value != v {
			a.warn(CodeContradiction, int(e.Location),
				"%s cannot equal both %s and %s in one row, so the condition is never true and the query returns no rows; for rows with either value use %s IN (...), for things that have both (two rows) join the table twice or use INTERSECT",
				identPath(col.written...), constText(prev.node), constText(k), identPath(col.written...))
		}
	}
}

// certainConstant returns a comparable form of a constant whose value is
// certain whatever the column's type: a number, or a string without digits
// (lower-cased); false for anything else.
func certainConstant(n *pg.Node) (string, bool) {
	if v, ok := numConst(n); ok {
		return "n:" + strconv.FormatFloat(v, 'g', -1, 64), true
	}
	for n.GetTypeCast() != nil {
		n = n.GetTypeCast().Arg
	}
	s := n.GetAConst().GetSval()
	if s == nil || strings.IndexFunc(s.Sval, unicode.IsDigit) >= 0 {
		return "", false
	}
	v := strings.ToLower(strings.TrimSpace(s.Sval))
	if spelt[v] {
		return "", false
	}
	return "s:" + v, true
}

// spelt are the words that, read as a boolean, a date or a time, are the
// same value as another word: 't' and 'yes' are both true in a boolean
// column, 'now' and 'today' can be the same date.
var spelt = map[string]bool{
	"t": true, "true": true, "y": true, "yes": true, "on": true,
	"f": true, "false": true, "n": true, "no": true, "off": true,
	"now": true, "today": true, "tomorrow": true, "yesterday": true,
	"epoch": true, "infinity": true, "-infinity": true, "allballs": true,
}

// constText writes a constant as it reads in SQL.
func constText(n *pg.Node) string {
	for n.GetTypeCast() != nil {
		n = n.GetTypeCast().Arg
	}
	if s := n.GetAConst().GetSval(); s != nil {
		return "'" + strings.ReplaceAll(s.Sval, "'", "''") + "'"
	}
	if v, ok := numConst(n); ok {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return "a constant"
}
