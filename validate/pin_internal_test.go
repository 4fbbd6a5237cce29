package validate

import (
	"context"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/lookalikes"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestPinCachesTrustedOnly: Explain keeps the objects query's rows only
// where every relation and type it reached has a trusted owner in a
// trusted schema (a superuser's schema and table), never for a tenant's
// table, whose owner may change its views, policies and casts at any time;
// the look-alike rows are kept per pinned path.
func TestPinCachesTrustedOnly(t *testing.T) {
	f := lookalikes.New(t)
	pgtest.Exec(t, f.AdminDSN, `CREATE SCHEMA app; CREATE TABLE app.t (id int, name text); INSERT INTO app.t VALUES (1, 'a');
GRANT USAGE ON SCHEMA app TO `+f.Engine+`; GRANT SELECT ON app.t TO `+f.Engine)
	pool := f.Pool(t)
	v := New(WithSearchPath("div_01", "app", "public"))
	ctx := context.Background()
	if r := v.Explain(ctx, pool, []string{"SELECT id FROM plain"})[0]; r.Err != nil {
		t.Fatal(r.Err)
	}
	if n := len(v.objects.Keys()); n != 0 {
		t.Errorf("a tenant's table: %d objects rows kept, want none", n)
	}
	if n := len(v.looks.Keys()); n != 1 {
		t.Errorf("%d look-alike rows kept, want 1 (the pinned path's)", n)
	}
	if r := v.Explain(ctx, pool, []string{"SELECT id FROM t"})[0]; r.Err != nil {
		t.Fatal(r.Err)
	}
	if n := len(v.objects.Keys()); n != 1 {
		t.Errorf("a superuser's table in a trusted schema: %d objects rows kept, want 1", n)
	}
}
