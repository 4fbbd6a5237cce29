package pgtest

import (
	"context"
	"flag"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { Main(m) }

func TestNewPoolIsFreshAndWritable(t *testing.T) {
	a, b := NewPool(t), NewPool(t)
	ctx := context.Background()
	if _, err := a.Exec(ctx, "CREATE TABLE x (id int)"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := b.QueryRow(ctx, "SELECT count(*) FROM pg_class WHERE relname = 'x'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("databases are not isolated: table x visible in second database")
	}
}

func TestFromTemplateLoadsOnce(t *testing.T) {
	loads := 0
	load := func(ctx context.Context, c *pgx.Conn) error {
		loads++
		_, err := c.Exec(ctx, "CREATE TABLE seeded (v int); INSERT INTO seeded VALUES (1),(2),(3)")
		return err
	}
	key := "pgtest-self-test-" + randomName("")
	for i := 0; i < 2; i++ {
		p := Pool(t, FromTemplate(t, key, load))
		var n int
		if err := p.QueryRow(context.Background(), "SELECT count(*) FROM seeded").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 3 {
			t.Fatalf("copy %d has %d rows, want 3", i, n)
		}
	}
	if loads != 1 {
		t.Fatalf("template loaded %d times, want 1", loads)
	}
}

// TestSkipShort: under -short a test asking for a server is skipped and no
// server is asked for; a benchmark is not skipped.
func TestSkipShort(t *testing.T) {
	if !testing.Short() {
		if err := flag.Set("test.short", "true"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { flag.Set("test.short", "false") })
	}
	mu.Lock()
	before := started
	mu.Unlock()
	ran := false
	t.Run("asks", func(t *testing.T) {
		NewDatabase(t)
		ran = true
	})
	mu.Lock()
	after := started
	mu.Unlock()
	if ran || !before && after {
		t.Errorf("under -short: the test went on (%v), or a server was started (%v)", ran, !before && after)
	}
	var b testing.B
	SkipShort(&b)
	if b.Skipped() {
		t.Error("a benchmark was skipped")
	}
}

func TestWithDatabase(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u@/postgres?host=/tmp/x&port=5": "postgres://u@/db1?host=/tmp/x&port=5",
		"host=/tmp port=5 dbname=postgres":          "host=/tmp port=5 dbname=db1",
		"host=/tmp port=5":                          "host=/tmp port=5 dbname=db1",
	} {
		got, err := WithDatabase(in, "db1")
		if err != nil || got != want {
			t.Errorf("WithDatabase(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
