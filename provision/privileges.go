package provision

import (
	"context"
	"fmt"
	"strings"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// riskyRoles are the predefined roles whose membership gives a connection
// more than reading its tables: server files and programs, other sessions,
// every table of the database, other sessions' query texts and every setting.
// Roles a server does not have (older versions) are simply not found.
var riskyRoles = []string{
	"pg_read_server_files", "pg_write_server_files", "pg_execute_server_program",
	"pg_signal_backend", "pg_read_all_data", "pg_write_all_data",
	"pg_monitor", "pg_read_all_settings", "pg_read_all_stats",
}

// privilegeQuery reports, in one set-based round trip, what a role can do
// beyond reading: $1 the role (NULL: current_user); $2 the schemas whose
// tables are checked for writes and which are checked for CREATE, together
// with the session's search path (NULL: every user schema); $3 the roles
// whose membership counts, direct or through other roles, inherited or not
// (NULL: any role); $4, when not NULL, the schemas the role may read: tables
// and schemas outside them on which the role holds a grant of its own are
// reported too. Superusers pass every privilege check, so for them only the
// attribute is reported.
const privilegeQuery = `
WITH me AS (
	SELECT oid, rolname::text AS name, rolsuper, rolcreaterole, rolreplication, rolbypassrls
	FROM pg_catalog.pg_roles WHERE rolname::text = coalesce($1::text, current_user::text)
), nsp AS (
	SELECT n.oid, n.nspname FROM pg_catalog.pg_namespace n
	WHERE CASE WHEN $2::text[] IS NULL THEN n.nspname !~ '^pg_' AND n.nspname <> 'information_schema'
		ELSE n.nspname = ANY ($2::text[]) OR n.nspname = ANY (pg_catalog.current_schemas(false)) END
), mem AS (
	SELECT coalesce(array_agg(r.rolname::text ORDER BY r.rolname), '{}') AS names
	FROM pg_catalog.pg_roles r, me
	WHERE NOT me.rolsuper AND r.oid <> me.oid AND ($3::text[] IS NULL OR r.rolname::text = ANY ($3::text[]))
		AND pg_catalog.pg_has_role(me.oid, r.oid, 'MEMBER')
), wr AS (
	SELECT count(*) AS n, (array_agg(format('%I.%I', nsp.nspname, c.relname) ORDER BY nsp.nspname, c.relname))[1:3] AS sample
	FROM pg_catalog.pg_class c JOIN nsp ON nsp.oid = c.relnamespace, me
	WHERE NOT me.rolsuper AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
		AND (pg_catalog.has_table_privilege(me.oid, c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE')
			OR pg_catalog.has_any_column_privilege(me.oid, c.oid, 'INSERT, UPDATE'))
), cr AS (
	SELECT coalesce(array_agg(nsp.nspname::text ORDER BY nsp.nspname), '{}') AS names
	FROM nsp, me WHERE NOT me.rolsuper AND pg_catalog.has_schema_privilege(me.oid, nsp.oid, 'CREATE')
), other AS (
	SELECT count(*) AS n, (array_agg(obj ORDER BY obj))[1:3] AS sample FROM (
		SELECT format('%I.%I', n.nspname, c.relname) AS obj
		FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace, me
		WHERE $4::text[] IS NOT NULL AND n.nspname <> ALL ($4::text[]) AND n.nspname !~ '^pg_' AND n.nspname <> 'information_schema'
			AND EXISTS (SELECT FROM pg_catalog.aclexplode(c.relacl) a WHERE a.grantee = me.oid)
		UNION ALL
		SELECT format('schema %I', n.nspname)
		FROM pg_catalog.pg_namespace n, me
		WHERE $4::text[] IS NOT NULL AND n.nspname <> ALL ($4::text[]) AND n.nspname !~ '^pg_' AND n.nspname <> 'information_schema'
			AND EXISTS (SELECT FROM pg_catalog.aclexplode(n.nspacl) a WHERE a.grantee = me.oid)
	) o
)
SELECT me.name, me.rolsuper, me.rolcreaterole, me.rolreplication, me.rolbypassrls, mem.names,
	wr.n, coalesce(wr.sample, '{}'), cr.names, other.n, coalesce(other.sample, '{}')
FROM me, mem, wr, cr, other`

// Privileges is what privilegeQuery found for one role: see Findings.
type Privileges struct {
	// Role is the role asked about (the session's, when none was named).
	Role string

	superuser, createRole, replication, bypassRLS bool
	members                                       []string // roles it is a member of (among those asked about)
	writable                                      int      // tables it may INSERT, UPDATE, DELETE or TRUNCATE
	writableSample                                []string
	create                                        []string // schemas it may CREATE in
	other                                         int      // its own grants outside the schemas it may read
	otherSample                                   []string
}

// ReadPrivileges reads what role ("": the session's) may do beyond
// reading: its attributes, its memberships of the predefined roles that
// reach server files, programs, other sessions or every table, the tables
// of schemas it may write, the schemas it may CREATE in, and its own grants
// outside allowed (nil: not asked). schemas are the schemas it is meant to
// read (nil: every schema; empty: its search path only). It fails when the
// role does not exist.
//
// It runs privilegeQuery (see there for the arguments; "" and nil slices
// are NULL), asking about riskyRoles.
func ReadPrivileges(ctx context.Context, q schema.Querier, role string, schemas, allowed []string) (*Privileges, error) {
	var roleArg any
	if role != "" {
		roleArg = role
	}
	rows, err := q.Query(ctx, privilegeQuery, roleArg, nullable(schemas), nullable(riskyRoles), nullable(allowed))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("role %q not found", role)
	}
	var p Privileges
	var writable, other int64
	if err := rows.Scan(&p.Role, &p.superuser, &p.createRole, &p.replication, &p.bypassRLS, &p.members,
		&writable, &p.writableSample, &p.create, &other, &p.otherSample); err != nil {
		return nil, err
	}
	p.writable, p.other = int(writable), int(other)
	rows.Close()
	return &p, rows.Err()
}

// nullable passes a nil slice as SQL NULL.
func nullable(s []string) any {
	if s == nil {
		return nil
	}
	return s
}

// Findings describes, one item each, what the role can do beyond reading;
// none when it can only read.
func (p *Privileges) Findings() []string {
	if p.superuser {
		return []string{"superuser (passes every privilege check: reads server files, runs programs, writes anything)"}
	}
	var out []string
	if p.createRole {
		out = append(out, "CREATEROLE (can grant itself other roles, pg_execute_server_program included)")
	}
	if p.replication {
		out = append(out, "REPLICATION (can stream every database's changes)")
	}
	if p.bypassRLS {
		out = append(out, "BYPASSRLS (row-level security does not apply)")
	}
	if len(p.members) > 0 {
		out = append(out, "member of "+strings.Join(p.members, ", "))
	}
	if p.writable > 0 {
		out = append(out, fmt.Sprintf("INSERT, UPDATE, DELETE or TRUNCATE on %d %s (%s)",
			p.writable, plural(p.writable, "table"), sample(p.writableSample, p.writable)))
	}
	if len(p.create) > 0 {
		out = append(out, fmt.Sprintf("CREATE on %s %s", plural(len(p.create), "schema"), strings.Join(p.create, ", ")))
	}
	if p.other > 0 {
		out = append(out, fmt.Sprintf("grants on %d %s outside its schemas (%s)",
			p.other, plural(p.other, "object"), sample(p.otherSample, p.other)))
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func sample(s []string, n int) string {
	out := strings.Join(s, ", ")
	if n > len(s) {
		out += ", ..."
	}
	return out
}
