package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"reflect"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

func TestRoleCommand(t *testing.T) {
	t.Setenv("NL2SQL_DSN", "")
	t.Setenv("DATABASE_URL", "")
	t.Setenv("NL2SQL_ROLE_PASSWORD", "")

	code, out, errs := cli(t, "role", "--name", "x", "--schema", "div_01", "--database", "erp")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"BEGIN;\nCREATE ROLE \"x\" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT CONNECTION LIMIT 20 PASSWORD NULL;\n",
		"GRANT CONNECT ON DATABASE \"erp\" TO \"x\";\n",
		"GRANT USAGE ON SCHEMA \"div_01\" TO \"x\";\n",
		"GRANT SELECT ON ALL TABLES IN SCHEMA \"div_01\" TO \"x\";\n",
		"ALTER ROLE \"x\" SET default_transaction_read_only = on;\n",
		"ALTER ROLE \"x\" SET temp_file_limit = '1GB';\nCOMMIT;\n",
		"-- No password",
		"superuser",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "public") || strings.Contains(out, "DEFAULT PRIVILEGES") {
		t.Errorf("output grants more:\n%s", out)
	}

	// --scope div_02 adds div_02 and public; commas, a password from the
	// environment (hashed here), --json, the database from --dsn.
	t.Setenv("NL2SQL_ROLE_PASSWORD", "s3cret pass")
	code, out, errs = cli(t, "role", "--schema", "a,b", "--scope", "div_02", "--default-privileges-for", "owner",
		"--temp-file-limit", "-", "--dsn", "postgres://u@localhost/shop", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	m := decode(t, out)
	if !reflect.DeepEqual(keys(m), []string{"applied", "database", "password", "role", "schemas", "statements"}) ||
		m["role"] != "nl2sql_reader" || m["database"] != "shop" || m["password"] != "scram-sha-256" || m["applied"] != false ||
		!reflect.DeepEqual(m["schemas"], []any{"a", "b", "div_02", "public"}) {
		t.Fatalf("json: %s", out)
	}
	all := ""
	for _, s := range m["statements"].([]any) {
		all += s.(string) + "\n"
	}
	if strings.Contains(all, "s3cret") || !strings.Contains(all, "PASSWORD 'SCRAM-SHA-256$4096:") || strings.Contains(all, "temp_file_limit") ||
		!strings.Contains(all, `ALTER DEFAULT PRIVILEGES FOR ROLE "owner" IN SCHEMA "public" GRANT SELECT ON TABLES TO "nl2sql_reader"`) {
		t.Errorf("statements:\n%s", all)
	}

	// Usage errors: exit 2 with a reason.
	for _, args := range [][]string{
		{"role"}, // no database
		{"role", "--database", "d", "--connection-limit", "0"},
		{"role", "--database", "d", "extra"},
		{"role", "--database", "d", "--name", strings.Repeat("n", 64)},
	} {
		if code, _, errs := cli(t, args...); code != 2 || errs == "" {
			t.Errorf("%q: exit %d, stderr %q", args, code, errs)
		}
	}
}

func TestRoleCommandApply(t *testing.T) {
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := "cli reader " + hex.EncodeToString(b[:])
	admin := pgtest.AdminDSN(t)
	t.Cleanup(func() { // after the database is dropped
		ctx := context.Background()
		if conn, err := pgx.Connect(ctx, admin); err == nil {
			conn.Exec(ctx, "DROP ROLE IF EXISTS "+pgx.Identifier{name}.Sanitize())
			conn.Close(ctx)
		}
	})
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE SCHEMA div_01; CREATE TABLE div_01.t (i int); INSERT INTO div_01.t VALUES (1), (2);
		CREATE TABLE public.secret (s text)`)
	t.Setenv("NL2SQL_ROLE_PASSWORD", "")
	for i := range 2 { // twice: the second run alters the existing role
		code, out, errs := cli(t, "role", "--name", name, "--schema", "div_01", "--dsn", dsn, "--apply")
		if code != 0 {
			t.Fatalf("apply %d: exit %d: %s", i, code, errs)
		}
		first := map[int]string{0: "CREATE ROLE", 1: "GRANT CONNECT"}[i]
		if !strings.Contains(out, "-- Applied (one transaction):\n"+first) || strings.Contains(out, "BEGIN;") {
			t.Errorf("apply %d:\n%s", i, out)
		}
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.User = name
	ctx := context.Background()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM div_01.t").Scan(&n); err != nil || n != 2 {
		t.Errorf("as the role: %d rows, %v", n, err)
	}
	if _, err := conn.Exec(ctx, "SELECT * FROM public.secret"); err == nil || !strings.Contains(err.Error(), "42501") {
		t.Errorf("public.secret as the role: %v", err)
	}

	// The server refuses (a role that exists with more privileges): exit 1.
	pgtest.Exec(t, dsn, "GRANT SELECT ON public.secret TO "+pgx.Identifier{name}.Sanitize())
	code, _, errs := cli(t, "role", "--name", name, "--schema", "div_01", "--dsn", dsn, "--apply")
	if code != 1 || !strings.Contains(errs, "public.secret") {
		t.Errorf("over-privileged role: exit %d: %s", code, errs)
	}
	// No database to apply to: exit 2.
	if code, _, errs := cli(t, "role", "--apply"); code != 2 || !strings.Contains(errs, "no database") {
		t.Errorf("--apply without --dsn: exit %d: %s", code, errs)
	}
}
