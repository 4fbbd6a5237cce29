package validate_test

import (
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// FuzzValidate: Validate never panics; whatever it accepts is exactly one
// SELECT, and its rewrite validates again to the same SQL.
func FuzzValidate(f *testing.F) {
	for _, dir := range []string{"attacks", "legit"} {
		for _, c := range readCorpus(f, dir) {
			f.Add(c.sql)
		}
	}
	v := shopValidator()
	zero := validate.New()
	f.Fuzz(func(t *testing.T, sql string) {
		for _, v := range []*validate.Validator{v, zero} {
			res, err := v.Validate(sql)
			if err != nil {
				continue
			}
			tree, perr := pg.Parse(res.SQL)
			if perr != nil {
				t.Fatalf("accepted SQL does not parse: %v\ninput: %q\nresult: %q", perr, sql, res.SQL)
			}
			if len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetSelectStmt() == nil {
				t.Fatalf("accepted SQL is not exactly one SELECT\ninput: %q\nresult: %q", sql, res.SQL)
			}
			again, err := v.Validate(res.SQL)
			if err != nil {
				t.Fatalf("rewrite does not re-validate: %v\ninput: %q\nresult: %q", err, sql, res.SQL)
			}
			if again.SQL != res.SQL {
				t.Fatalf("rewrite not a fixed point\ninput: %q\nfirst: %q\nagain: %q", sql, res.SQL, again.SQL)
			}
		}
	})
}
