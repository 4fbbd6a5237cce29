package nl2sql_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/internal/corpus"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/provision"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// roleFixture is a database with the attack corpus's tables in public and
// two division schemas; div_01 has a table, a view and a materialized view.
const roleFixture = `
CREATE SCHEMA div_01;
CREATE SCHEMA div_02;
CREATE TABLE public.users (id serial PRIMARY KEY, name text, email text, created_at timestamptz DEFAULT now());
CREATE TABLE public.orders (id serial PRIMARY KEY, user_id int REFERENCES users, amount numeric, status text, created_at timestamptz DEFAULT now());
CREATE TABLE public.products (id serial PRIMARY KEY, name text, price numeric);
INSERT INTO users (name, email) VALUES ('Ann', 'ann@example.com'), ('Bob', 'bob@example.com'), ('Cid', 'cid@example.com');
INSERT INTO orders (user_id, amount, status) VALUES (1, 10, 'paid'), (1, 20, 'open'), (2, 5, 'paid');
INSERT INTO products (name, price) VALUES ('pen', 1.5), ('ink', 4);
CREATE TABLE div_01.invoices (id serial PRIMARY KEY, total numeric, status text);
INSERT INTO div_01.invoices (total, status) VALUES (100, 'paid'), (50, 'open');
CREATE VIEW div_01.open_invoices AS SELECT * FROM div_01.invoices WHERE status = 'open';
CREATE MATERIALIZED VIEW div_01.invoice_totals AS SELECT status, sum(total) AS total FROM div_01.invoices GROUP BY status;
CREATE TABLE div_02.invoices (id serial PRIMARY KEY, total numeric, status text);
INSERT INTO div_02.invoices (total, status) VALUES (7, 'paid');
`

// roleName returns a unique role name with a quote, a double quote, a space
// and non-ASCII letters in it, dropped when the test ends (after its
// databases, whose cleanups run first).
func roleName(t *testing.T) string {
	t.Helper()
	return pgtest.RoleName(t, `nl2sql rö'le "`)
}

// fixtureDB returns the DSN (as the cluster's superuser) of a fresh
// database holding roleFixture.
func fixtureDB(t *testing.T) string {
	t.Helper()
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, roleFixture)
	return dsn
}

// connectAs connects to dsn's database as user ("" = dsn's own). The test
// cluster trusts every local connection, so the password is sent only if
// asked for.
func connectAs(t *testing.T, dsn, user, password string) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	if user != "" {
		cfg.User, cfg.Password = user, password
	}
	conn, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		t.Fatalf("connect as %q: %v", user, err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

func TestReaderRoleSQL(t *testing.T) {
	r := provision.ReaderRole{Name: `o'brien "x" ö`, Schemas: []string{"div_01", `we "ird`, "div_01"}, Database: "erp db",
		Password: `p'a ss\w"d`, DefaultPrivileges: true, DefaultPrivilegesFor: []string{"app owner"}, TempFileLimit: "-", WorkMem: "8MB"}
	stmts, err := r.SQL()
	if err != nil {
		t.Fatal(err)
	}
	sql := strings.Join(stmts, ";\n")
	const role = `"o'brien ""x"" ö"`
	for _, want := range []string{
		"CREATE ROLE " + role + " WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT CONNECTION LIMIT 20 PASSWORD 'SCRAM-SHA-256$4096:",
		`GRANT CONNECT ON DATABASE "erp db" TO ` + role,
		`GRANT USAGE ON SCHEMA "div_01" TO ` + role,
		`GRANT SELECT ON ALL TABLES IN SCHEMA "div_01" TO ` + role,
		`GRANT SELECT ON ALL TABLES IN SCHEMA "we ""ird" TO ` + role,
		`ALTER DEFAULT PRIVILEGES FOR ROLE "app owner" IN SCHEMA "we ""ird" GRANT SELECT ON TABLES TO ` + role,
		"ALTER ROLE " + role + " SET default_transaction_read_only = on",
		"ALTER ROLE " + role + " SET statement_timeout = '30s'",
		"ALTER ROLE " + role + " SET idle_in_transaction_session_timeout = '1min'",
		"ALTER ROLE " + role + " SET work_mem = '8MB'",
	} {
		if !strings.Contains(sql, want) {
			t.Errorf("SQL lacks %s\n%s", want, sql)
		}
	}
	// Nothing else: no sequences, no other privilege, no temp_file_limit
	// (left out), the duplicate schema once, the password not in clear.
	for _, bad := range []string{"SEQUENCE", "INSERT", "UPDATE", "DELETE", "CREATE ON", "temp_file_limit", `p'a`, `ss\w`} {
		if strings.Contains(sql, bad) {
			t.Errorf("SQL holds %q:\n%s", bad, sql)
		}
	}
	if n := strings.Count(sql, `GRANT USAGE ON SCHEMA "div_01"`); n != 1 || len(stmts) != 12 {
		t.Errorf("%d USAGE grants on div_01, %d statements:\n%s", n, len(stmts), sql)
	}
	if r.PasswordMode() != "scram-sha-256" {
		t.Errorf("password mode %q", r.PasswordMode())
	}

	// A password that is not printable ASCII goes as a literal; a backslash
	// makes it an E'' literal, correct whatever standard_conforming_strings is.
	r = provision.ReaderRole{Database: "erp", Password: `ünï'\`}
	stmts, err = r.SQL()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(stmts[0], ` PASSWORD E'ünï''\\'`) || !strings.HasPrefix(stmts[0], `CREATE ROLE "nl2sql_reader" `) || r.PasswordMode() != "server" {
		t.Errorf("create: %s", stmts[0])
	}
	if !slices.Contains(stmts, `GRANT SELECT ON ALL TABLES IN SCHEMA "public" TO "nl2sql_reader"`) ||
		!slices.Contains(stmts, `ALTER ROLE "nl2sql_reader" SET temp_file_limit = '1GB'`) {
		t.Errorf("defaults: %q", stmts)
	}
	stmts, _ = provision.ReaderRole{Database: "erp", ConnectionLimit: -1}.SQL()
	if !strings.HasSuffix(stmts[0], "CONNECTION LIMIT -1 PASSWORD NULL") {
		t.Errorf("no password, no limit: %s", stmts[0])
	}

	for _, bad := range []provision.ReaderRole{
		{}, // no database
		{Database: "d", Name: strings.Repeat("x", 64)},
		{Database: "d", Schemas: []string{"a\x00b"}},
		{Database: "d", Password: "a\x00"},
		{Database: "d", ConnectionLimit: -2},
		{Database: "d", Schemas: []string{""}},
	} {
		if _, err := bad.SQL(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestReaderRoleApply applies the role on a fresh database and checks, as
// that role, what it can and cannot do.
func TestReaderRoleApply(t *testing.T) {
	ctx := context.Background()
	name := roleName(t)
	user := roleName(t) // a per-user role for AsRole
	dsn := fixtureDB(t)
	admin := connectAs(t, dsn, "", "")
	const password = `pa ss'w"\rd` // quotes, space, backslash
	r := provision.ReaderRole{Name: name, Password: password, Schemas: []string{"div_01"}}
	stmts, err := r.Apply(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stmts[0], "CREATE ROLE ") || strings.Contains(strings.Join(stmts, ";"), "pa ss") {
		t.Errorf("applied: %q", stmts)
	}
	var pw string
	var super, inherit, login bool
	var limit int
	if err := admin.QueryRow(ctx, "SELECT coalesce(rolpassword, ''), rolsuper, rolinherit, rolcanlogin, rolconnlimit FROM pg_authid WHERE rolname = $1", name).
		Scan(&pw, &super, &inherit, &login, &limit); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(pw, "SCRAM-SHA-256$4096:") || super || inherit || !login || limit != 20 {
		t.Errorf("role: password %q super %v inherit %v login %v limit %d", pw, super, inherit, login, limit)
	}

	var pid int
	if err := admin.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	reader := connectAs(t, dsn, name, password)
	one := func(sql string) string {
		var s string
		if err := reader.QueryRow(ctx, sql).Scan(&s); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return s
	}
	for sql, want := range map[string]string{
		"SELECT current_user":                              name,
		"SHOW default_transaction_read_only":               "on",
		"SHOW statement_timeout":                           "30s",
		"SHOW idle_in_transaction_session_timeout":         "1min",
		"SHOW work_mem":                                    "16MB",
		"SHOW temp_file_limit":                             "1GB",
		"SELECT count(*)::text FROM div_01.invoices":       "2",
		"SELECT count(*)::text FROM div_01.open_invoices":  "1",
		"SELECT count(*)::text FROM div_01.invoice_totals": "2",
	} {
		if got := one(sql); got != want {
			t.Errorf("%s = %q, want %q", sql, got, want)
		}
	}
	// Each statement in its own transaction: read-only by default, or
	// read-write (the role may turn read-only off for itself) to show the
	// privileges alone refuse it.
	for _, c := range []struct {
		sql       string
		readWrite bool
		state     string // "" = succeeds
	}{
		{"SELECT * FROM div_02.invoices", false, "42501"},
		{"SELECT * FROM public.users", false, "42501"},
		{"SELECT last_value FROM div_01.invoices_id_seq", false, "42501"}, // sequences are not granted
		{"SELECT nextval('div_01.invoices_id_seq')", true, "42501"},
		{"INSERT INTO div_01.invoices (total) VALUES (1)", false, "25006"},
		{"INSERT INTO div_01.invoices (total) VALUES (1)", true, "42501"},
		{"UPDATE div_01.invoices SET total = 0", true, "42501"},
		{"DELETE FROM div_01.invoices", true, "42501"},
		{"TRUNCATE div_01.invoices", true, "42501"},
		{"REFRESH MATERIALIZED VIEW div_01.invoice_totals", true, "42501"},
		{"CREATE TABLE div_01.x (i int)", true, "42501"},
		{"CREATE TABLE public.x (i int)", true, "42501"},
		{"CREATE SCHEMA x", true, "42501"},
		// TEMPORARY on the database is PUBLIC's by default: read-only
		// refuses it, a read-write transaction has it.
		{"CREATE TEMP TABLE x (i int)", false, "25006"},
		{"CREATE TEMP TABLE x (i int)", true, ""},
		{"SELECT pg_read_file('postgresql.conf')", false, "42501"},
		{"SELECT pg_ls_dir('.')", false, "42501"},
		{"SELECT lo_import('/etc/hostname')", true, "42501"},
		{"COPY (SELECT 1) TO PROGRAM 'true'", false, "42501"},
		{"SELECT pg_terminate_backend(" + strconv.Itoa(pid) + ")", false, "42501"},
		{"SELECT pg_cancel_backend(" + strconv.Itoa(pid) + ")", false, "42501"},
		{"SET ROLE postgres", false, "42501"},
		// The settings are defaults the role may change for itself (in a
		// read-write transaction even persistently), except
		// temp_file_limit, which needs a superuser.
		{"SET temp_file_limit = -1", false, "42501"},
		{"SET statement_timeout = 0", false, ""},
		{"ALTER ROLE CURRENT_USER SET statement_timeout = 0", false, "25006"},
		{"ALTER ROLE CURRENT_USER SET statement_timeout = 0", true, ""},
		{"ALTER ROLE CURRENT_USER SET temp_file_limit = -1", true, "42501"},
		{"SHOW data_directory", false, "42501"},
		// No privilege governs creating large objects, and PostgreSQL lets
		// a read-only transaction create them: the role cannot stop it.
		// The executor's ROLLBACK discards them (and the validator denies
		// lo_* functions).
		{"SELECT lo_creat(-1)", false, ""},
		{"SELECT lo_from_bytea(0, 'x')", false, ""},
	} {
		var opts pgx.TxOptions
		if c.readWrite {
			opts.AccessMode = pgx.ReadWrite
		}
		tx, err := reader.BeginTx(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tx.Exec(ctx, c.sql)
		if got := sqlState(err); got != c.state || (c.state == "" && err != nil) {
			t.Errorf("%s (read-write %v): %v, want SQLSTATE %q", c.sql, c.readWrite, err, c.state)
		}
		tx.Rollback(ctx)
	}
	if _, err := reader.Exec(ctx, "ALTER SYSTEM SET work_mem = '1GB'"); sqlState(err) != "42501" {
		t.Errorf("ALTER SYSTEM: %v, want 42501", err)
	}
	var los int
	if err := admin.QueryRow(ctx, "SELECT count(*) FROM pg_largeobject_metadata").Scan(&los); err != nil || los != 0 {
		t.Errorf("%d large objects after rolled-back lo_creat (%v)", los, err)
	}
	if err := admin.Ping(ctx); err != nil {
		t.Errorf("admin connection after the reader's attempts: %v", err)
	}

	// Again: harmless, the role is altered (only its password here).
	stmts, err = r.Apply(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stmts[0], "ALTER ROLE ") || !strings.Contains(stmts[0], " WITH PASSWORD 'SCRAM-SHA-256$") {
		t.Errorf("second apply: %q", stmts)
	}
	// No password given: the existing one is kept; changed attributes and
	// a new connection limit are set back.
	if _, err := admin.Exec(ctx, "ALTER ROLE "+pgx.Identifier{name}.Sanitize()+" INHERIT CREATEDB CONNECTION LIMIT 3"); err != nil {
		t.Fatal(err)
	}
	r.Password = ""
	if stmts, err = r.Apply(ctx, admin); err != nil {
		t.Fatal(err)
	}
	want := "ALTER ROLE " + pgx.Identifier{name}.Sanitize() + " WITH NOCREATEDB NOINHERIT CONNECTION LIMIT 20"
	if stmts[0] != want {
		t.Errorf("third apply: %q, want %q first", stmts, want)
	}
	var pw2 string
	if err := admin.QueryRow(ctx, "SELECT coalesce(rolpassword, '') FROM pg_authid WHERE rolname = $1 AND NOT rolinherit AND NOT rolcreatedb AND rolconnlimit = 20", name).Scan(&pw2); err != nil || pw2 == "" || pw2 == pw {
		t.Errorf("after the third apply: password %q (first %q), %v", pw2, pw, err)
	}

	// A non-ASCII password is hashed by the server.
	r.Password = "ünïcödé pässwörd"
	if _, err := r.Apply(ctx, admin); err != nil {
		t.Fatal(err)
	}
	var pw3 string
	if err := admin.QueryRow(ctx, "SELECT coalesce(rolpassword, '') FROM pg_authid WHERE rolname = $1", name).Scan(&pw3); err != nil || !strings.HasPrefix(pw3, "SCRAM-SHA-256$") || pw3 == pw2 {
		t.Errorf("unicode password: %q %v", pw3, err)
	}

	// A role that kept more than the reader's privileges is refused, and
	// nothing changes.
	for _, grant := range []struct{ sql, want string }{
		{"GRANT INSERT ON div_01.invoices TO %s", "INSERT, UPDATE, DELETE or TRUNCATE on 1 table (div_01.invoices)"},
		{"GRANT SELECT ON div_02.invoices TO %s", "grants on 1 object outside its schemas (div_02.invoices)"},
		{"GRANT CREATE ON SCHEMA div_01 TO %s", "CREATE on schema div_01"},
		{"GRANT pg_monitor TO %s", "member of pg_monitor"},
	} {
		q := strings.ReplaceAll(grant.sql, "%s", pgx.Identifier{name}.Sanitize())
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
		r.ConnectionLimit = 5
		_, err := r.Apply(ctx, admin)
		if err == nil || !strings.Contains(err.Error(), grant.want) || !strings.Contains(err.Error(), "DROP OWNED BY") {
			t.Errorf("after %s: %v, want an error naming %q", q, err, grant.want)
		}
		var limit int
		if err := admin.QueryRow(ctx, "SELECT rolconnlimit FROM pg_roles WHERE rolname = $1", name).Scan(&limit); err != nil || limit != 20 {
			t.Errorf("after a refused apply the limit is %d (%v), want 20 unchanged", limit, err)
		}
		undo := strings.Replace(strings.Replace(q, "GRANT", "REVOKE", 1), " TO ", " FROM ", 1)
		if _, err := admin.Exec(ctx, undo); err != nil {
			t.Fatal(err)
		}
	}
	r.ConnectionLimit = 0
	if _, err := r.Apply(ctx, admin); err != nil {
		t.Errorf("after revoking: %v", err)
	}
	// Membership in a per-user role (for AsRole) is kept: NOINHERIT, its
	// privileges apply only after SET ROLE.
	for _, q := range []string{"CREATE ROLE %[2]s NOLOGIN", "GRANT USAGE ON SCHEMA div_01 TO %[2]s",
		"GRANT SELECT, INSERT ON div_01.invoices TO %[2]s", "GRANT %[2]s TO %[1]s"} {
		if _, err := admin.Exec(ctx, fmt.Sprintf(q, pgx.Identifier{name}.Sanitize(), pgx.Identifier{user}.Sanitize())); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Apply(ctx, admin); err != nil {
		t.Errorf("with a per-user role granted: %v", err)
	}
	if err := admin.QueryRow(ctx, "SELECT 1 FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member WHERE r.rolname = $1", name).Scan(new(int)); err != nil {
		t.Errorf("membership after apply: %v", err)
	}

	// Another database than the connected one is refused.
	r.Database = "elsewhere"
	if _, err := r.Apply(ctx, admin); err == nil || !strings.Contains(err.Error(), "connected to database") {
		t.Errorf("other database: %v", err)
	}
}

// readAttacks reads the validator's attack corpus (validate/testdata/attacks).
func readAttacks(t *testing.T) []corpus.Case {
	t.Helper()
	cases, err := corpus.Read(filepath.Join("validate", "testdata", "attacks"))
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// layer names the layer that refused a query Engine.Run failed.
func layer(err error) string {
	var xe *execute.Error
	switch {
	case errors.Is(err, nl2sql.ErrUnsafe), errors.Is(err, nl2sql.ErrInvalid):
		return "validator" // a policy refusal, or SQL it cannot accept (a slip)
	case errors.Is(err, execute.ErrRejected):
		return "executor's validator"
	case errors.As(err, &xe) && xe.SQLState == "42501":
		return "role privileges (42501)"
	case errors.As(err, &xe) && xe.SQLState == "25006":
		return "read-only transaction (25006)"
	}
	return ""
}

// TestReaderRoleAttacks runs the validator's attack corpus through
// Engine.Run connected as the reader role: every case is refused. Then the
// same corpus goes to the server as that role directly, without the
// validator or the executor, to show what the role alone holds.
func TestReaderRoleAttacks(t *testing.T) {
	ctx := context.Background()
	name := roleName(t)
	dsn := fixtureDB(t)
	admin := connectAs(t, dsn, "", "")
	reader := provision.ReaderRole{Name: name, Schemas: []string{"public", "div_01"}}
	if _, err := reader.Apply(ctx, admin); err != nil {
		t.Fatal(err)
	}
	pool := pgtest.PoolAs(t, dsn, name)
	eng, err := nl2sql.New(pool, nl2sql.WithIntrospectOptions(schema.WithSchemas("public", "div_01")))
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct {
		sql  string
		rows int
	}{
		{"SELECT count(*) FROM users", 1},
		{"SELECT u.name, sum(o.amount) FROM users u JOIN orders o ON o.user_id = u.id GROUP BY u.name ORDER BY 2 DESC", 2},
		{"SELECT name, price FROM products WHERE price > 1 ORDER BY price", 2},
		{"SELECT * FROM div_01.open_invoices", 1},
		{"SELECT status, total FROM div_01.invoice_totals ORDER BY status", 2},
		{"WITH t AS (SELECT status, count(*) AS n FROM orders GROUP BY status) SELECT * FROM t ORDER BY n DESC", 2},
	} {
		res, err := eng.Run(ctx, q.sql)
		if err != nil || len(res.Rows) != q.rows {
			t.Errorf("legit %s: %v, %d rows, want %d", q.sql, err, len(res.Rows), q.rows)
		}
	}

	cases := readAttacks(t)
	layers := map[string]int{}
	for _, c := range cases {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		res, err := eng.Run(cctx, c.SQL)
		cancel()
		if err == nil {
			t.Errorf("%s:%d: ran as the reader, %d rows\nSQL: %s", c.File, c.Line, len(res.Rows), c.SQL)
			continue
		}
		l := layer(err)
		if l == "" {
			t.Errorf("%s:%d: refused by no security layer: %v\nSQL: %s", c.File, c.Line, err, c.SQL)
			continue
		}
		layers[l]++
	}
	t.Logf("Engine.Run as the reader: %d attacks refused by layer %v", len(cases), layers)

	// A table the engine knows but the role may not read: the validator
	// allows it (it checks the catalog, not privileges), the role refuses.
	wide, err := nl2sql.New(pool)
	if err != nil {
		t.Fatal(err)
	}
	if err := wide.Prepare(ctx); err != nil {
		t.Fatalf("Prepare as the reader over schemas it cannot read: %v", err)
	}
	_, err = wide.Run(ctx, "SELECT total FROM div_02.invoices")
	if l := layer(err); l != "role privileges (42501)" || !errors.Is(err, nl2sql.ErrExecution) {
		t.Errorf("div_02 through an unscoped engine: %v (layer %q)", err, l)
	}

	// The role alone: each case in a clean session of the role, simple
	// protocol (stacked statements run), no validator, no executor; only
	// the role's privileges and session defaults. Resource bombs are left
	// out: against them the role has only its statement_timeout (here
	// 100ms) and temp_file_limit, and results of a gigabyte would land in
	// this process. Nothing but large objects may change: no relation, no
	// row, not the role's settings or attributes.
	var before string
	state := `SELECT (SELECT string_agg(format('%s.%s', relnamespace::regnamespace, relname), ',' ORDER BY 1) FROM pg_class
			WHERE relnamespace::regnamespace::text IN ('public', 'div_01', 'div_02'))
		|| (SELECT string_agg(t, '') FROM (SELECT format('%s', array_agg(u ORDER BY u.id)) AS t FROM users u
			UNION ALL SELECT format('%s', array_agg(o ORDER BY o.id)) FROM orders o
			UNION ALL SELECT format('%s', array_agg(i ORDER BY i.id)) FROM div_01.invoices i) s)
		|| coalesce((SELECT string_agg(array_to_string(setconfig, ','), ';') FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole WHERE r.rolname = $1), '')
		|| (SELECT format('%s', r) FROM pg_roles r WHERE rolname = $1)`
	if err := admin.QueryRow(ctx, state, name).Scan(&before); err != nil {
		t.Fatal(err)
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.User = name
	cfg.RuntimeParams["statement_timeout"] = "100"
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	alone := map[string]int{}
	ran := map[string]int{}
	var los []string
	var conn *pgx.Conn
	defer func() {
		if conn != nil {
			conn.Close(ctx)
		}
	}()
	for _, c := range cases {
		if c.File == "resource.sql" || c.File == "resource_guards.sql" {
			// Resource bombs are not sent raw: some build gigabytes in a
			// call that ignores the statement timeout.
			continue
		}
		if conn == nil {
			if conn, err = pgx.ConnectConfig(ctx, cfg); err != nil {
				t.Fatal(err)
			}
		}
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		_, err = conn.Exec(cctx, c.SQL)
		cancel()
		// A fresh session for the next case: what the case left open is
		// closed, its settings are reset to the role's defaults.
		if _, rerr := conn.Exec(ctx, "ROLLBACK"); rerr != nil || conn.IsClosed() {
			conn.Close(ctx)
			conn = nil
		} else if _, rerr := conn.Exec(ctx, "DISCARD ALL"); rerr != nil {
			conn.Close(ctx)
			conn = nil
		}
		// Large objects are the one thing the role cannot keep it from
		// leaving behind (see TestReaderRoleApply): count and remove them.
		var n int
		if err := admin.QueryRow(ctx, "SELECT count(lo_unlink(oid)) FROM pg_largeobject_metadata").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			los = append(los, c.File+":"+strconv.Itoa(c.Line))
			if !strings.Contains(c.SQL, "lo_") {
				t.Errorf("%s:%d left %d large objects without calling a lo_ function\nSQL: %s", c.File, c.Line, n, c.SQL)
			}
		}
		switch st := sqlState(err); {
		case err == nil:
			alone["ran"]++
			ran[c.File]++
		case st == "42501" || st == "25006" || st == "57014":
			alone[st]++
		case st != "":
			alone["other "+st[:2]+"xxx"]++
		default:
			alone["client error"]++
		}
	}
	var after string
	if err := admin.QueryRow(ctx, state, name).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if before != after {
		t.Errorf("the reader changed the database on its own:\nbefore %s\nafter  %s", before, after)
	}
	t.Logf("as the role alone (no validator, no executor), by SQLSTATE: %v; ran, by file: %v; left large objects: %v", alone, ran, los)
}
