package rewrite_test

import (
	"errors"
	"testing"

	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/rewrite"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestUnknownRelation: a refusal only of relations that exist nowhere
// (unqualified, or in a schema of the request) is a slip for the 42P01
// correction, in every spelling, with the server's character position; a
// table of another schema, named by it or not, stays refused, and
// OtherScope says which refusals name another tenant's table.
func TestUnknownRelation(t *testing.T) {
	cat := schema.NewCatalog([]schema.Schema{{Name: "div_01"}, {Name: "div_02"}}, []*schema.Table{
		{Schema: "div_01", Name: "customers", Columns: []schema.Column{{Name: "id", Type: "integer"}}},
		{Schema: "div_02", Name: "customers", Columns: []schema.Column{{Name: "id", Type: "integer"}}},
		{Schema: "div_02", Name: "secrets", Columns: []schema.Column{{Name: "id", Type: "integer"}}},
	}, nil)
	path := []string{"div_01"}
	v := validate.New(validate.WithTables(validate.Table{Schema: "div_01", Name: "customers"}),
		validate.WithSchemas(path...), validate.WithSearchPath(path...))
	for _, c := range []struct {
		sql      string
		fix      bool
		message  string // the failure's, when fix
		position int
		other    bool // OtherScope
	}{
		{sql: "SELECT * FROM custmers", fix: true, message: `relation "custmers" does not exist`, position: 15},
		{sql: "SELECT * FROM CUSTMERS", fix: true, message: `relation "custmers" does not exist`, position: 15},
		{sql: `SELECT * FROM "Custmers"`, fix: true, message: `relation "Custmers" does not exist`, position: 15},
		{sql: `SELECT * FROM U&"cust\006ders"`, fix: true, message: `relation "custmers" does not exist`, position: 15},
		{sql: "SELECT * FROM div_01.custmers", fix: true, message: `relation "div_01.custmers" does not exist`, position: 15},
		// The position counts characters, as PostgreSQL's does.
		{sql: "SELECT 'éé' AS x FROM custmers", fix: true, message: `relation "custmers" does not exist`, position: 23},
		// Nested: the first refused relation is the one reported.
		{sql: "WITH c AS (SELECT * FROM custmrs) SELECT * FROM c, LATERAL (SELECT * FROM ordrs) o", fix: true,
			message: `relation "custmrs" does not exist`, position: 26},
		// Another tenant's table: by its schema, or unqualified.
		{sql: "SELECT * FROM div_02.customers", other: true},
		{sql: "SELECT * FROM secrets"},
		{sql: "SELECT * FROM custmers, div_02.secrets", other: true},
		// A schema outside the request's path, even for a name that is
		// nowhere.
		{sql: "SELECT * FROM div_02.nothing"},
		{sql: "SELECT * FROM pg_catalog.nothing"},
		// Not a relation refusal.
		{sql: "SELECT pg_sleep(1) FROM customers"},
	} {
		_, err := v.Validate(c.sql)
		var ve *validate.Error
		if !errors.As(err, &ve) {
			t.Errorf("%s: not refused (%v)", c.sql, err)
			continue
		}
		f, fix := rewrite.UnknownRelation(ve, c.sql, path, cat)
		if fix != c.fix {
			t.Errorf("%s: UnknownRelation = %v, want %v (%v)", c.sql, fix, c.fix, ve)
		}
		want := repair.Failure{}
		if c.fix {
			want = repair.Failure{SQLState: "42P01", Message: c.message, Position: c.position}
		}
		if f != want {
			t.Errorf("%s: failure %+v, want %+v", c.sql, f, want)
		}
		if other := rewrite.OtherScope(ve, cat); other != c.other {
			t.Errorf("%s: OtherScope = %v, want %v", c.sql, other, c.other)
		}
	}
	if _, fix := rewrite.UnknownRelation(nil, "SELECT 1", path, cat); fix {
		t.Error("no refusal read as an unknown relation")
	}
}
