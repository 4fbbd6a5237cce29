package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/lookalikes"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestPinCachesTrustedOnly: a tenant's table read as the engine is refused
// before any catalog check (V029: its owner can attach code to it); the
// objects query's rows are kept where every relation and type it reached
// has a trusted owner in a trusted schema (a superuser's schema and
// table), and the look-alike rows per pinned path.
func TestPinCachesTrustedOnly(t *testing.T) {
	f := lookalikes.New(t)
	pgtest.Exec(t, f.AdminDSN, `CREATE SCHEMA app; CREATE TABLE app.t (id int, name text); INSERT INTO app.t VALUES (1, 'a');
GRANT USAGE ON SCHEMA app TO `+f.Engine+`; GRANT SELECT ON app.t TO `+f.Engine)
	pool := f.Pool(t)
	v := New(WithSearchPath("div_01", "app", "public"))
	ctx := context.Background()
	if r := v.Explain(ctx, pool, []string{"SELECT id FROM plain"})[0]; r.Err == nil || !strings.Contains(r.Message, CodeMutable) {
		t.Fatalf("the tenant's table read as the engine: %v, want V029", r.Err)
	}
	if n := len(v.objects.Keys()); n != 0 {
		t.Errorf("a tenant's table: %d objects rows kept, want none", n)
	}
	if r := v.Explain(ctx, pool, []string{"SELECT id FROM t"})[0]; r.Err != nil {
		t.Fatal(r.Err)
	}
	if n := len(v.objects.Keys()); n != 1 {
		t.Errorf("a superuser's table in a trusted schema: %d objects rows kept, want 1", n)
	}
	if n := len(v.looks.Keys()); n != 1 {
		t.Errorf("%d look-alike rows kept, want 1 (the pinned path's)", n)
	}
}

// TestPinForward: Forward maps an offset of the validated text to the
// same byte of Pin.SQL across the names pinning inserted, and Position
// maps it back (1-based).
func TestPinForward(t *testing.T) {
	const validated = "SELECT a FROM t JOIN u ON u.x = 'lit' WHERE b = 42"
	// "public." before t (offset 14) and "s." before u (offset 21).
	p := &Pin{SQL: "SELECT a FROM public.t JOIN s.u ON u.x = 'lit' WHERE b = 42", shifts: []shift{{at: 14, n: 7}, {at: 28, n: 2}}}
	for _, lit := range []string{"'lit'", "42", "t JOIN", "u ON"} {
		at := strings.Index(validated, lit)
		got := p.Forward(at)
		if p.SQL[got:got+len(lit)] != lit {
			t.Errorf("Forward(%d) = %d: %q, want %q", at, got, p.SQL[got:got+len(lit)], lit)
		}
		if back := p.Position(got+1) - 1; back != at {
			t.Errorf("Position(Forward(%d)) = %d", at, back)
		}
	}
	if (*Pin)(nil).Forward(5) != 5 {
		t.Error("a nil Pin moves offsets")
	}
}
