// Package rlstest gives tests of per-request identity a database whose
// tenants are kept apart by row-level security: table notes has a
// tenant_id column and a policy reading current_setting('app.tenant_id'),
// and a role Reader may read it (and the schemas T1 and T2) under the
// policy. Each tenant's rows hold words no other tenant's do, so a test
// can assert that one tenant's answer never shows another's (Leak).
package rlstest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// Setting is the custom setting the policy reads.
const Setting = "app.tenant_id"

// Two schemas, one per tenant, for scope tests: each has a table plans.
const (
	T1 = "tenant_one"
	T2 = "tenant_two"
)

// Rows are each tenant's note bodies (tenant_id 1 and 2), in body order.
var Rows = map[string][]string{
	"1": {"one-alpha", "one-beta"},
	"2": {"two-secret"},
}

// SQL is a query reading every note the identity may see.
const SQL = "SELECT body FROM notes ORDER BY body"

// DB is the database and the reader role.
type DB struct {
	DSN    string
	Reader string // a role without RLS bypass, with SELECT on notes and the tenant schemas
}

// New creates the database and the role, both dropped when the test ends.
func New(t testing.TB) DB {
	t.Helper()
	pgtest.SkipShort(t)
	reader := pgtest.RoleName(t, "rls_reader_")
	dsn := pgtest.NewDatabase(t)
	var b strings.Builder
	fmt.Fprintf(&b, `CREATE TABLE notes (id int PRIMARY KEY, tenant_id int NOT NULL, body text NOT NULL);
COMMENT ON TABLE notes IS 'notes of the tenants';
ALTER TABLE notes ENABLE ROW LEVEL SECURITY;
CREATE POLICY by_tenant ON notes USING (tenant_id = current_setting('%s', true)::int);
CREATE ROLE %s;
GRANT SELECT ON notes TO %[2]s;
`, Setting, reader)
	id := 1
	for _, tenant := range []string{"1", "2"} {
		for _, body := range Rows[tenant] {
			fmt.Fprintf(&b, "INSERT INTO notes VALUES (%d, %s, '%s');\n", id, tenant, body)
			id++
		}
	}
	for _, s := range []string{T1, T2} {
		fmt.Fprintf(&b, `CREATE SCHEMA %[1]s; CREATE TABLE %[1]s.plans (id int PRIMARY KEY, name text);
INSERT INTO %[1]s.plans VALUES (1, 'plan-of-%[1]s');
GRANT USAGE ON SCHEMA %[1]s TO %[2]s; GRANT SELECT ON %[1]s.plans TO %[2]s;
`, s, reader)
	}
	pgtest.Exec(t, dsn, b.String())
	return DB{DSN: dsn, Reader: reader}
}

// Leak returns the first word of a tenant other than tenant that text
// holds ("" for none): another tenant's note body or plan.
func Leak(text, tenant string) string {
	for _, other := range []string{"1", "2"} {
		if other == tenant {
			continue
		}
		for _, b := range Rows[other] {
			if strings.Contains(text, b) {
				return b
			}
		}
	}
	return ""
}

// Tokens are the bearer tokens of the callers of Callers, by tenant.
var Tokens = map[string]string{"1": "token-of-tenant-one-0123456789abcdef", "2": "token-of-tenant-two-0123456789abcdef"}

// TokenHash is what an identity config stores of tok: its SHA-256, hex.
func TokenHash(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:])
}

// Callers is an identity config (identity.Parse) with head's lines first,
// then callers "one" and "two", each with its token (Tokens), the reader
// role, its tenant id and the lines more[tenant] (indented as a caller's
// keys).
func (db DB) Callers(head string, more map[string]string) string {
	var b strings.Builder
	b.WriteString(head + "callers:\n")
	for _, tenant := range []string{"1", "2"} {
		fmt.Fprintf(&b, "  - name: %s\n    token_sha256: %s\n    role: %s\n    settings: {%s: %q}\n",
			map[string]string{"1": "one", "2": "two"}[tenant], TokenHash(Tokens[tenant]), db.Reader, Setting, tenant)
		if more[tenant] != "" {
			b.WriteString("    " + strings.TrimSpace(more[tenant]) + "\n")
		}
	}
	return b.String()
}
