package nl2sql

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// recorder is a slog handler keeping every record.
type recorder struct {
	mu      sync.Mutex
	records []slog.Record
}

func (r *recorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *recorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records = append(r.records, rec)
	return nil
}
func (r *recorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *recorder) WithGroup(string) slog.Handler      { return r }

// at returns the records of one level, each as "message attr=value ...".
func (r *recorder) at(level slog.Level) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, rec := range r.records {
		if rec.Level != level {
			continue
		}
		s := rec.Message
		rec.Attrs(func(a slog.Attr) bool {
			s += " " + a.Key + "=" + a.Value.String()
			return true
		})
		out = append(out, s)
	}
	return out
}

// privFixture is a database with two division schemas.
func privFixture(t *testing.T) string {
	t.Helper()
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `
CREATE SCHEMA div_01;
CREATE SCHEMA div_02;
CREATE TABLE div_01.invoices (id int PRIMARY KEY, total numeric);
CREATE TABLE div_01.lines (id int PRIMARY KEY, invoice int);
CREATE TABLE div_02.invoices (id int PRIMARY KEY, total numeric);
CREATE TABLE public.users (id int PRIMARY KEY, name text);`)
	return dsn
}

func catalogOf(schemas ...string) *schema.Catalog {
	cat := &schema.Catalog{}
	for _, s := range schemas {
		cat.Schemas = append(cat.Schemas, schema.Schema{Name: s})
	}
	return cat
}

// check runs checkPrivileges on an engine over pool and returns its
// warnings and debug records.
func check(t *testing.T, ctx context.Context, pool *pgxpool.Pool, cat *schema.Catalog, opts ...Option) (warn, debug []string) {
	t.Helper()
	rec := &recorder{}
	e, err := New(pool, append([]Option{WithLogger(slog.New(rec))}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	e.checkPrivileges(ctx, cat)
	return rec.at(slog.LevelWarn), rec.at(slog.LevelDebug)
}

func TestCheckPrivileges(t *testing.T) {
	ctx := context.Background()
	// Roles first: their cleanups run after the database is dropped.
	reader := pgtest.Role(t, "LOGIN")
	over := pgtest.Role(t, "LOGIN BYPASSRLS CREATEROLE")
	group := pgtest.Role(t, "NOLOGIN")
	dsn := privFixture(t)

	// The cluster's superuser: one warning, naming it.
	warn, _ := check(t, ctx, pgtest.PoolAs(t, dsn, ""), catalogOf("div_01", "public"), WithRole("someone"))
	if len(warn) != 1 || !strings.Contains(warn[0], "found=superuser") || !strings.Contains(warn[0], "nl2sql role") ||
		!strings.Contains(warn[0], "query_role=someone") {
		t.Errorf("superuser: warnings %q", warn)
	}

	// The reader role: nothing to warn about.
	admin := pgtest.PoolAs(t, dsn, "")
	if _, err := (ReaderRole{Name: reader, Schemas: []string{"div_01", "public"}}).Apply(ctx, admin); err != nil {
		t.Fatal(err)
	}
	warn, debug := check(t, ctx, pgtest.PoolAs(t, dsn, reader), catalogOf("div_01", "public"))
	if len(warn) != 0 || len(debug) != 1 || !strings.Contains(debug[0], "can only read") {
		t.Errorf("reader: warnings %q, debug %q", warn, debug)
	}

	// A role that writes a table of the catalog, may CREATE in a schema of
	// its search path, bypasses RLS, may create roles and is a member of
	// pg_monitor through another role: all named in one warning.
	for _, q := range []string{
		"GRANT USAGE ON SCHEMA div_01, div_02 TO %[1]s",
		"GRANT SELECT ON ALL TABLES IN SCHEMA div_01 TO %[1]s",
		"GRANT UPDATE (total) ON div_01.invoices TO %[1]s",
		"GRANT TRUNCATE ON div_01.lines TO %[1]s",
		"GRANT INSERT ON div_02.invoices TO %[1]s", // div_02 is not in the catalog: not reported
		"GRANT CREATE ON SCHEMA public TO %[1]s",
		"GRANT pg_monitor TO %[2]s",
		"GRANT %[2]s TO %[1]s",
	} {
		if _, err := admin.Exec(ctx, fmt.Sprintf(q, pgx.Identifier{over}.Sanitize(), pgx.Identifier{group}.Sanitize())); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	warn, _ = check(t, ctx, pgtest.PoolAs(t, dsn, over), catalogOf("div_01"))
	if len(warn) != 1 {
		t.Fatalf("over-privileged: warnings %q", warn)
	}
	for _, want := range []string{
		"role=" + over, "CREATEROLE", "BYPASSRLS", "member of pg_monitor, pg_read_all_settings, pg_read_all_stats",
		"INSERT, UPDATE, DELETE or TRUNCATE on 2 tables (div_01.invoices, div_01.lines)", "CREATE on schema public",
	} {
		if !strings.Contains(warn[0], want) {
			t.Errorf("warning lacks %q:\n%s", want, warn[0])
		}
	}
	if strings.Contains(warn[0], "div_02") || strings.Contains(warn[0], "superuser") {
		t.Errorf("warning names what it should not:\n%s", warn[0])
	}

	// The check failing (here: a canceled context) is a debug record only.
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	warn, debug = check(t, canceled, pgtest.PoolAs(t, dsn, ""), nil)
	if len(warn) != 0 || len(debug) != 1 || !strings.Contains(debug[0], "failed") {
		t.Errorf("failed check: warnings %q, debug %q", warn, debug)
	}
}

// TestPrepareWarnsOnce: Prepare checks the role's privileges once per
// Engine; Refresh and later calls do not check again.
func TestPrepareWarnsOnce(t *testing.T) {
	ctx := context.Background()
	dsn := privFixture(t)
	rec := &recorder{}
	e, err := New(pgtest.PoolAs(t, dsn, ""), WithLogger(slog.New(rec)), WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := e.Prepare(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	if warn := rec.at(slog.LevelWarn); len(warn) != 1 || !strings.Contains(warn[0], "superuser") {
		t.Errorf("warnings %q", warn)
	}
}
