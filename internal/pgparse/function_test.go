package pgparse

import (
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"
)

func TestBuiltinName(t *testing.T) {
	for sql, want := range map[string]string{
		"SELECT count(*)":                  "count",
		"SELECT pg_catalog.now()":          "now",
		`SELECT "MAX"(x) FROM t`:           "MAX",
		"SELECT stats.count(x) FROM t":     "",
		"SELECT a.b.count(x) FROM t":       "",
		"SELECT pg_catalog.x.now() FROM t": "",
	} {
		tree, err := pg.Parse(sql)
		if err != nil {
			t.Fatal(err)
		}
		f := tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().GetVal().GetFuncCall()
		if got := BuiltinName(f); got != want {
			t.Errorf("BuiltinName(%s) = %q, want %q", sql, got, want)
		}
	}
	if BuiltinName(nil) != "" {
		t.Error("BuiltinName(nil) is not empty")
	}
}
