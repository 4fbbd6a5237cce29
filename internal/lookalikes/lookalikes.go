// Package lookalikes plants look-alike functions, operators, casts, types,
// domains, views and policies in a tenant's schema of a test database, for
// the tests of every entry point (issue 25): a tenant that may create
// objects in its own schema (div_01) shadows built-ins whose bodies read
// another tenant's table (div_02.bank_accounts) with the privileges of the
// role running the query (the engine).
//
// Every planted body reports through Secret: it returns it, or raises an
// error whose message holds Marker and Secret. A test asserts that Secret
// and Marker never appear in a result, an error or a log.
package lookalikes

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// Secret is div_02's value the look-alikes leak; Marker starts the errors
// they raise.
const (
	Secret = "SECRET-IBAN-0042"
	Marker = "PWNED"
)

// Attack is one query a tenant's look-alike would hijack, run with the
// search path div_01, public.
type Attack struct {
	Name, SQL string
	// Object is what the refusal must name: the planted object.
	Object string
}

// OnPath reports whether the attack hijacks a name the server resolves on
// the search path (a function, aggregate or operator): pinned out of the
// path (validate.Pin), the query may run and call the built-in. The other
// attacks (casts, domains, views, policies, indexes) ride on objects of
// the relations and types the query reads, and are refused.
func (a Attack) OnPath() bool {
	return strings.HasPrefix(a.Name, "function") || strings.HasPrefix(a.Name, "aggregate") || strings.HasPrefix(a.Name, "operator")
}

// Attacks are the queries; each calls, through its spelling, one planted
// object. They are ordinary queries: the validator accepts every one of
// them without the catalog check.
var Attacks = []Attack{
	{"function lower(varchar), SQL", "SELECT lower(first_name) AS x FROM employees", "div_01.lower(character varying)"},
	{"function lower, upper case", "SELECT LOWER(first_name) AS x FROM employees", "div_01.lower(character varying)"},
	{"function lower in a CTE", "WITH c AS (SELECT lower(first_name) AS x FROM employees) SELECT x FROM c", "div_01.lower(character varying)"},
	{"function lower in VALUES", "SELECT x FROM (VALUES (lower('a'::varchar))) v(x)", "div_01.lower(character varying)"},
	{"function lower in a sublink", "SELECT id, (SELECT lower(first_name) FROM employees LIMIT 1) AS x FROM employees", "div_01.lower(character varying)"},
	{"function lower in LATERAL", "SELECT l.x FROM employees e, LATERAL (SELECT lower(e.first_name) AS x) l", "div_01.lower(character varying)"},
	{"function upper(varchar) immutable on a constant, folded by EXPLAIN", "SELECT upper('abc'::varchar) AS x", "div_01.upper(character varying)"},
	{"function upper, quoted", `SELECT "upper"('abc'::varchar) AS x`, "div_01.upper(character varying)"},
	{"function upper, unicode escape", `SELECT U&"\0075pper"('abc'::varchar) AS x`, "div_01.upper(character varying)"},
	{"function upper in a window frame", "SELECT count(*) OVER (ORDER BY id ROWS BETWEEN length(upper('a'::varchar)) PRECEDING AND CURRENT ROW) AS n FROM employees", "div_01.upper(character varying)"},
	{"aggregate max(varchar)", "SELECT max(first_name) AS x FROM employees", "div_01.max(character varying)"},
	{"aggregate max, window", "SELECT max(first_name) OVER () AS x FROM employees", "div_01.max(character varying)"},
	{"operator = (varchar)", "SELECT id FROM employees WHERE first_name = 'Ann'", "operator div_01.=(character varying, character varying)"},
	{"operator = through IN", "SELECT id FROM employees WHERE first_name IN ('Ann', 'Bob')", "operator div_01.=(character varying, character varying)"},
	{"operator = through CASE", "SELECT CASE first_name WHEN 'Ann' THEN 1 END AS x FROM employees", "operator div_01.=(character varying, character varying)"},
	{"operator = through NULLIF", "SELECT NULLIF(first_name, 'Ann') AS x FROM employees", "operator div_01.=(character varying, character varying)"},
	{"operator || (varchar)", "SELECT first_name || last_name AS x FROM employees", "operator div_01.||(character varying, character varying)"},
	{"operator ~~ (LIKE)", "SELECT id FROM employees WHERE first_name LIKE 'A%'", "operator div_01.~~(character varying, text)"},
	{"cast of the row type, explicit", "SELECT e::text AS x FROM employees e", "cast (employees AS text)"},
	{"cast of the row type, CAST", "SELECT CAST(e AS text) AS x FROM employees e", "cast (employees AS text)"},
	{"implicit cast of an enum column", "SELECT left(lvl, 100) AS x FROM employees", "cast (level AS text)"},
	{"explicit cast of an enum column", "SELECT lvl::text AS x FROM employees", "cast (level AS text)"},
	{"cast to a domain checked by a user function", "SELECT 'x'::div_01.code AS x", "domain code"},
	{"view calling a look-alike by a bare name", "SELECT x FROM v_lower", "rule of v_lower calls div_01.lower(character varying)"},
	{"view over a view calling a look-alike", "SELECT x FROM v_lower2", "rule of v_lower calls div_01.lower(character varying)"},
	{"view calling a user function", "SELECT note FROM v_note", "rule of v_note calls div_01.note()"},
	{"operator = through IS DISTINCT FROM", "SELECT id FROM employees WHERE first_name IS DISTINCT FROM 'Ann'", "operator div_01.=(character varying, character varying)"},
	{"operator = through JOIN USING", "SELECT a.id FROM employees a JOIN employees b USING (first_name)", "operator div_01.=(character varying, character varying)"},
	{"operator = through IN (subquery)", "SELECT id FROM employees WHERE first_name IN (SELECT last_name FROM employees)", "operator div_01.=(character varying, character varying)"},
	{"operator = through ANY (array)", "SELECT id FROM employees WHERE first_name = ANY (ARRAY['Ann'::varchar])", "operator div_01.=(character varying, character varying)"},
	{"row-level security policy", "SELECT body FROM notes", "a policy on notes"},
	{"index expression inlined by the planner", "SELECT id FROM badges", "an index of badges"},
	{"function in public, later on the path", "SELECT initcap(first_name) AS x FROM employees", "public.initcap(character varying)"},
	{"functional notation t.f", "SELECT e.length AS n FROM employees e", "div_01.length(employees)"},
}

// Fixture is a database holding the tenants' schemas and look-alikes.
type Fixture struct {
	// DSN connects as the engine: a login role that may read every
	// tenant's tables and is subject to row-level security, as an
	// application's role is.
	DSN string
	// AdminDSN connects as the cluster's superuser.
	AdminDSN string
	// Tenant is the role owning div_01.
	Tenant, Engine string
}

// New creates the roles (dropped at the end) and a fresh database with the
// tenants' data and div_01's look-alikes.
func New(t testing.TB) *Fixture {
	t.Helper()
	var b [4]byte
	_, _ = rand.Read(b[:])
	suffix := hex.EncodeToString(b[:])
	f := &Fixture{Tenant: "tenant_" + suffix, Engine: "engine_" + suffix}
	admin := pgtest.AdminDSN(t)
	pgtest.Exec(t, admin, "CREATE ROLE "+f.Tenant+" NOLOGIN; CREATE ROLE "+f.Engine+" LOGIN")
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if c, err := pgx.Connect(ctx, admin); err == nil {
			_, _ = c.Exec(ctx, "DROP ROLE IF EXISTS "+f.Tenant+"; DROP ROLE IF EXISTS "+f.Engine)
			_ = c.Close(ctx)
		}
	})
	f.AdminDSN = pgtest.NewDatabase(t)
	pgtest.Exec(t, f.AdminDSN, strings.NewReplacer("TENANT", f.Tenant, "ENGINE", f.Engine).Replace(script))
	f.DSN = strings.Replace(f.AdminDSN, "postgres://"+userOf(f.AdminDSN)+"@", "postgres://"+f.Engine+"@", 1)
	if !strings.Contains(f.DSN, f.Engine) {
		t.Fatalf("lookalikes: cannot set the user of %s", f.AdminDSN)
	}
	return f
}

// Pool opens a pool as the engine, closed when the test ends.
func (f *Fixture) Pool(t testing.TB) *pgxpool.Pool { return pgtest.Pool(t, f.DSN) }

// Leaked reports whether s holds the secret or the marker: a look-alike ran.
func Leaked(s string) bool { return strings.Contains(s, Secret) || strings.Contains(s, Marker) }

func userOf(dsn string) string {
	rest, ok := strings.CutPrefix(dsn, "postgres://")
	if !ok {
		return ""
	}
	user, _, _ := strings.Cut(rest, "@")
	return user
}

// script builds the database as the superuser, then plants as the tenant.
// pwn() returns 'ok' to the tenant (so that its own inserts and index
// builds pass) and raises Marker with div_02's secret to anyone else.
const script = `
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE SCHEMA div_01 AUTHORIZATION TENANT;
CREATE SCHEMA div_02;
CREATE TABLE div_02.bank_accounts (id int, iban text);
INSERT INTO div_02.bank_accounts VALUES (1, 'SECRET-IBAN-0042');
GRANT USAGE ON SCHEMA div_01, div_02 TO ENGINE;
GRANT SELECT ON div_02.bank_accounts TO ENGINE;
GRANT CREATE ON SCHEMA public TO TENANT;
SET check_function_bodies = off;
SET ROLE TENANT;
SET search_path = div_01, public;
CREATE TYPE div_01.level AS ENUM ('junior', 'senior');
CREATE FUNCTION div_01.pwn() RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	IF current_user = 'TENANT' THEN RETURN 'ok'; END IF;
	RAISE EXCEPTION 'PWNED %', (SELECT string_agg(iban, ',') FROM div_02.bank_accounts);
END $$;
CREATE FUNCTION div_01.chk(text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$ SELECT $1 = 'plant' OR div_01.pwn() = 'ok' $$;
CREATE DOMAIN div_01.code AS text CHECK (div_01.chk(VALUE));
CREATE TABLE div_01.employees (id int PRIMARY KEY, first_name varchar(40), last_name varchar(40), lvl div_01.level);
INSERT INTO div_01.employees VALUES (1, 'Ann', 'Lee', 'junior'), (2, 'Bob', 'Kim', 'senior');
CREATE FUNCTION div_01.lower(varchar) RETURNS text LANGUAGE sql STABLE AS $$ SELECT iban FROM div_02.bank_accounts LIMIT 1 $$;
CREATE FUNCTION div_01.upper(varchar) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN RETURN div_01.pwn(); END $$;
CREATE FUNCTION div_01.max_step(text, varchar) RETURNS text LANGUAGE plpgsql AS $$ BEGIN RETURN div_01.pwn(); END $$;
CREATE AGGREGATE div_01.max(varchar) (SFUNC = div_01.max_step, STYPE = text);
CREATE FUNCTION div_01.eq(varchar, varchar) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN RETURN div_01.pwn() = $1; END $$;
CREATE OPERATOR div_01.= (LEFTARG = varchar, RIGHTARG = varchar, FUNCTION = div_01.eq);
CREATE FUNCTION div_01.cat(varchar, varchar) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT div_01.pwn() $$;
CREATE OPERATOR div_01.|| (LEFTARG = varchar, RIGHTARG = varchar, FUNCTION = div_01.cat);
CREATE FUNCTION div_01.like(varchar, text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$ SELECT div_01.pwn() = $2 $$;
CREATE OPERATOR div_01.~~ (LEFTARG = varchar, RIGHTARG = text, FUNCTION = div_01.like);
CREATE FUNCTION div_01.emp_text(div_01.employees) RETURNS text LANGUAGE sql STABLE AS $$ SELECT iban FROM div_02.bank_accounts LIMIT 1 $$;
CREATE CAST (div_01.employees AS text) WITH FUNCTION div_01.emp_text(div_01.employees);
CREATE FUNCTION div_01.level_text(div_01.level) RETURNS text LANGUAGE sql STABLE AS $$ SELECT iban FROM div_02.bank_accounts LIMIT 1 $$;
CREATE CAST (div_01.level AS text) WITH FUNCTION div_01.level_text(div_01.level) AS IMPLICIT;
CREATE FUNCTION div_01.length(div_01.employees) RETURNS text LANGUAGE sql STABLE AS $$ SELECT iban FROM div_02.bank_accounts LIMIT 1 $$;
CREATE VIEW div_01.v_lower AS SELECT lower(first_name) AS x FROM div_01.employees;
CREATE VIEW div_01.v_lower2 AS SELECT x FROM div_01.v_lower;
CREATE FUNCTION div_01.note() RETURNS text LANGUAGE sql STABLE AS $$ SELECT iban FROM div_02.bank_accounts LIMIT 1 $$;
CREATE VIEW div_01.v_note AS SELECT id, div_01.note() AS note FROM div_01.employees;
CREATE TABLE div_01.notes (id int, body text);
INSERT INTO div_01.notes VALUES (1, 'hello');
ALTER TABLE div_01.notes ENABLE ROW LEVEL SECURITY;
CREATE FUNCTION div_01.peek(int) RETURNS boolean LANGUAGE sql STABLE AS $$ SELECT div_01.pwn() = 'ok' $$;
CREATE POLICY p ON div_01.notes USING (div_01.peek(id));
CREATE FUNCTION div_01.boom() RETURNS int LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN RETURN length(div_01.pwn()); END $$;
CREATE FUNCTION div_01.idx(int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT $1 + div_01.boom() $$;
CREATE TABLE div_01.plain (id int, name text);
INSERT INTO div_01.plain VALUES (1, 'Ann'), (2, 'Bob');
CREATE TABLE div_01.badges (id int);
INSERT INTO div_01.badges VALUES (1);
CREATE INDEX ON div_01.badges (div_01.idx(id));
CREATE FUNCTION public.initcap(varchar) RETURNS text LANGUAGE sql STABLE AS $$ SELECT iban FROM div_02.bank_accounts LIMIT 1 $$;
GRANT SELECT ON ALL TABLES IN SCHEMA div_01 TO ENGINE;
RESET ROLE;
`
