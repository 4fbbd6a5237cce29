package pgparse

import pg "github.com/pganalyze/pg_query_go/v6"

// BuiltinName is the name of the function f calls when it is written
// unqualified or pg_catalog-qualified (count, pg_catalog.now); "" when it
// is another schema's (stats.count: a user's own function), or f is nil.
func BuiltinName(f *pg.FuncCall) string {
	if f == nil {
		return ""
	}
	n := len(f.Funcname)
	if n == 0 || n > 2 || n == 2 && f.Funcname[0].GetString_().GetSval() != "pg_catalog" {
		return ""
	}
	return f.Funcname[n-1].GetString_().GetSval()
}
