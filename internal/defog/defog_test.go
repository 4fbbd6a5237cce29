package defog

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func dataset(t *testing.T) string {
	t.Helper()
	dir, ok := Dir()
	if !ok {
		t.Skip("defog dataset not available (../shared/datasets/defog or $" + EnvDir + ")")
	}
	return dir
}

func TestDirFromEnv(t *testing.T) {
	t.Setenv(EnvDir, t.TempDir())
	if _, ok := Dir(); ok {
		t.Fatal("an empty directory was accepted as the dataset")
	}
	if _, err := Questions(); err != ErrNotFound {
		t.Fatalf("Questions with no dataset: err = %v, want ErrNotFound", err)
	}
}

func TestQuestions(t *testing.T) {
	dataset(t)
	qs, err := Questions()
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 314 {
		t.Errorf("got %d questions, the dataset README says 314", len(qs))
	}
	dbs, err := Databases()
	if err != nil {
		t.Fatal(err)
	}
	if len(dbs) != 11 {
		t.Errorf("got %d databases, want 11: %v", len(dbs), dbs)
	}
	known := map[string]bool{}
	for _, d := range dbs {
		known[d] = true
	}
	files := map[string]int{}
	for _, q := range qs {
		files[q.File]++
		if q.Question == "" || q.Query == "" {
			t.Errorf("%s:%d: empty question or query", q.File, q.Line)
		}
		if !known[q.DBName] {
			t.Errorf("%s:%d: unknown database %q", q.File, q.Line, q.DBName)
		}
		if len(Expand(q.Query)) == 0 {
			t.Errorf("%s:%d: gold query expands to nothing", q.File, q.Line)
		}
		if strings.Contains(strings.Join(Expand(q.Query), " "), "{") && !strings.Contains(q.Query, "'{") {
			t.Errorf("%s:%d: brace notation left after Expand: %q", q.File, q.Line, Expand(q.Query))
		}
	}
	if len(files) != 3 {
		t.Errorf("questions come from %d files, want 3: %v", len(files), files)
	}
}

func TestLoadDatabase(t *testing.T) {
	dataset(t)
	dbs, err := Databases()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, db := range dbs {
		t.Run(db, func(t *testing.T) {
			conn, err := pgx.Connect(ctx, pgtest.NewDatabase(t))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			if err := LoadDatabase(ctx, conn, db); err != nil {
				t.Fatal(err)
			}
			var tables, rows int
			err = conn.QueryRow(ctx, `SELECT count(*), coalesce(sum(n_live_tup), 0) FROM pg_stat_user_tables WHERE schemaname = $1`, Schema(db)).Scan(&tables, &rows)
			if err != nil {
				t.Fatal(err)
			}
			if tables == 0 {
				t.Errorf("no tables in schema %s after loading %s", Schema(db), db)
			}
		})
	}
	if err := LoadDatabase(ctx, nil, "../etc/passwd"); err == nil {
		t.Error("a path-like database name was accepted")
	}
}
