package pgparse

import (
	"strconv"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// ConstText returns the text of a constant node (42, 3.5, 'text', true),
// false for anything else, NULL included.
func ConstText(n *pg.Node) (string, bool) {
	c := n.GetAConst()
	if c == nil || c.Isnull {
		return "", false
	}
	switch v := c.Val.(type) {
	case *pg.A_Const_Ival:
		return strconv.Itoa(int(v.Ival.Ival)), true
	case *pg.A_Const_Fval:
		return v.Fval.Fval, true
	case *pg.A_Const_Sval:
		return v.Sval.Sval, true
	case *pg.A_Const_Boolval:
		return strconv.FormatBool(v.Boolval.Boolval), true
	}
	return "", false
}

// OutputPosition reads a GROUP BY or ORDER BY item that is an output
// position (GROUP BY 2): an integer literal from 1 to outputs. PostgreSQL
// reads no other constant as a position (GROUP BY 1.0 and GROUP BY '1' are
// errors), and a literal too large for an int is none.
func OutputPosition(n *pg.Node, outputs int) (int, bool) {
	iv := n.GetAConst().GetIval()
	if iv == nil || iv.Ival < 1 || int(iv.Ival) > outputs {
		return 0, false
	}
	return int(iv.Ival), true
}

// Uncast returns the expression under n's casts ('2024-01-01'::date is
// '2024-01-01', x::text::int is x); n itself when it is no cast.
func Uncast(n *pg.Node) *pg.Node {
	for n != nil && n.GetTypeCast() != nil {
		n = n.GetTypeCast().Arg
	}
	return n
}
