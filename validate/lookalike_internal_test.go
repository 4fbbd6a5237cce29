package validate

import (
	"strings"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// TestLookalikeQueryQualified: the look-alike check runs under the
// request's search path, where the look-alikes it looks for live: every
// function, operator, type and relation it names is qualified with
// pg_catalog (relations: or is one of its own CTEs), so none can resolve to
// a tenant's object.
func TestLookalikeQueryQualified(t *testing.T) {
	for _, sql := range []string{lookalikeSQL, objectsSQL, pinSQL} {
		checkQualified(t, sql)
	}
}

func checkQualified(t *testing.T, sql string) {
	tree, err := pgparse.Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	ctes := map[string]bool{}
	names := func(ns []*pg.Node) []string {
		var out []string
		for _, n := range ns {
			out = append(out, n.GetString_().GetSval())
		}
		return out
	}
	qualified := func(what string, ns []*pg.Node) {
		if p := names(ns); len(p) != 2 || p[0] != "pg_catalog" {
			t.Errorf("%s %s is not qualified with pg_catalog", what, strings.Join(p, "."))
		}
	}
	seen := map[string]int{}
	pgparse.Walk(tree.ProtoReflect(), func(m protoreflect.Message) bool {
		switch x := m.Interface().(type) {
		case *pg.CommonTableExpr:
			ctes[x.Ctename] = true
		case *pg.FuncCall:
			qualified("function", x.Funcname)
		case *pg.A_Expr:
			qualified("operator", x.Name)
		case *pg.TypeName:
			qualified("type", x.Names)
		case *pg.SubLink:
			if x.SubLinkType != pg.SubLinkType_EXISTS_SUBLINK && x.SubLinkType != pg.SubLinkType_EXPR_SUBLINK &&
				x.SubLinkType != pg.SubLinkType_ARRAY_SUBLINK {
				t.Errorf("sublink of kind %v compares with an unqualified operator", x.SubLinkType)
			}
		case *pg.CaseExpr:
			if x.Arg != nil {
				t.Error("CASE x WHEN compares with an unqualified operator")
			}
		case *pg.MinMaxExpr, *pg.NullIfExpr:
			t.Errorf("%T compares with an unqualified operator", x)
		case *pg.JoinExpr:
			if x.IsNatural || len(x.UsingClause) > 0 {
				t.Error("a JOIN USING or NATURAL compares with an unqualified operator")
			}
		}
		seen[string(m.Descriptor().Name())]++
		return true
	})
	pgparse.Walk(tree.ProtoReflect(), func(m protoreflect.Message) bool {
		if r, ok := m.Interface().(*pg.RangeVar); ok && r.Schemaname != "pg_catalog" && !(r.Schemaname == "" && ctes[r.Relname]) {
			t.Errorf("relation %s.%s is not a catalog", r.Schemaname, r.Relname)
		}
		return true
	})
	if seen["FuncCall"] < 5 || seen["A_Expr"] < 10 || seen["TypeName"] < 3 {
		t.Errorf("the walk saw too little: %v", seen)
	}
}
