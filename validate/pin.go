package validate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// Pinning closes the window between the catalog checks and the query's own
// name resolution. PostgreSQL resolves a bare function or operator name
// against the latest committed catalog whenever it analyses a statement, not
// against the transaction's snapshot: a tenant who can create objects in a
// schema of the search path can create a look-alike after the check has
// passed (holding a lock on its own table makes the engine's EXPLAIN wait
// for as long as it likes) and the query then calls it. So the query runs
// under a search path of trusted schemas only: pg_catalog, then the schemas
// of the request's path in which no role but a superuser or the database's
// owner can create anything. Relations and types are qualified with the
// schema the server resolves them to under the request's path (the
// validator's own resolution where it has a table list, which must agree),
// so the query reads what it read before; functions and operators can then
// only resolve to objects nobody but the database's owners can change.
//
// What a tenant owns can still change, and no lock a read-only role may
// take stops all of it: an index whose expression the planner folds
// (CREATE INDEX takes a SHARE lock, which does not wait for ACCESS SHARE),
// extended statistics, a child table, a policy, a view. So a relation whose
// owner is not trusted is read only by a request running as that owner
// (AsRole), whose own code then runs with its own privileges; as any other
// role it is refused (V029), directly or reached through a view or policy
// (the objects query). Such a relation, read by its owner, and the
// relations of untrusted schemas are still locked (ACCESS SHARE, which
// CREATE OR REPLACE VIEW, CREATE POLICY and ALTER TABLE wait for) before
// the definitions check, so what the check reads is what the plan uses.
// CREATE CAST takes no lock, so an explicit cast from or to a type an
// untrusted role other than the request's owns (an enum, a domain, a
// table's row type) is refused: its function could be created after any
// check. A string literal cast to such an enum runs the type's input
// function, not a cast, and stays allowed.

// LookalikeTTL is how long the rows of the look-alike query
// (LookalikeQuery) run under a pinned search path may be kept and reused:
// the path holds only schemas whose trusted owners can create objects in
// them, so a kept answer misses at most what they created in that time.
const LookalikeTTL = 10 * time.Second

// relSite is a relation the query names: where, and as written.
type relSite struct {
	loc          int
	schema, name string
	// checked is the schema the validator resolved a bare name to through
	// its table list ("" without one).
	checked string
}

// typeSite is a type the query names outside the built-ins, as written.
type typeSite struct {
	loc          int
	schema, name string
}

// castSite is an explicit cast (x::t, CAST(x AS t), t(x) for a built-in t).
type castSite struct {
	loc     int
	target  [2]string // schema as written, name; zero for a built-in type
	literal bool      // the argument is a string literal: the type's input function runs, no cast
	cols    []string  // the last names of the column references in the argument
	singles []string  // one-name references, which may name a range item's whole row
	star    bool      // t.* or * in the argument: a whole row
}

// castUse records an explicit cast of arg to the type tn (nil tn: a
// built-in). Only a type such a role owns matters (pinSites).
func (u *uses) castUse(loc int, arg *pg.Node, tn *pg.TypeName) {
	cs := castSite{loc: loc}
	if tn != nil {
		qn := splitName(tn.Names)
		elem := strings.TrimPrefix(qn.name, "_")
		if !((qn.schema == "" || qn.schema == "pg_catalog") && builtinTypes[elem]) {
			cs.target = [2]string{qn.schema, elem}
		}
	}
	if c := arg.GetAConst(); c != nil && c.GetSval() != nil {
		cs.literal = true
	}
	var visit func(m proto.Message)
	visit = func(m proto.Message) {
		if n, ok := m.(*pg.Node); ok {
			inner, _ := nodeMessage(n)
			if inner == nil {
				return
			}
			m = inner
		}
		if cr, ok := m.(*pg.ColumnRef); ok && len(cr.Fields) > 0 {
			last := cr.Fields[len(cr.Fields)-1]
			switch {
			case last.GetAStar() != nil:
				cs.star = true
			case last.GetString_() != nil:
				cs.cols = append(cs.cols, last.GetString_().Sval)
				if len(cr.Fields) == 1 {
					cs.singles = append(cs.singles, last.GetString_().Sval)
				}
			}
		}
		eachChild(m, func(_ string, child proto.Message) { visit(child) })
	}
	visit(arg)
	u.casts = append(u.casts, cs)
}

// rangeItem records the name or alias of a range item (its whole-row
// reference) and, for a derived one, that columns may be renamed.
func (u *uses) rangeItem(name string, alias *pg.Alias, derived bool) {
	if name != "" {
		u.ranges[name] = true
	}
	if alias != nil && alias.Aliasname != "" {
		u.ranges[alias.Aliasname] = true
	}
	u.derived = u.derived || derived
}

// Pin is how a query runs once its name resolution is pinned (PinQuery).
type Pin struct {
	// SQL is the query with every relation and non-built-in type the
	// query names qualified with the schema the server resolved it to.
	SQL string
	// SearchPath is the search_path value to run it under: the trusted
	// schemas of the request's path, then pg_temp.
	SearchPath string
	// Lock locks the relations of untrusted schemas or owners the query
	// names (ACCESS SHARE; "" when there are none): run it before the
	// definitions check (PinnedObjectsQuery), in the same transaction.
	Lock string

	objects bool        // the objects query must run
	rels    [][2]string // the relations named, as resolved
	types   [][2]string // the types named, as resolved
	shifts  []shift
}

// NeedsObjects reports whether the objects query (PinnedObjectsQuery)
// must run: the database holds a user function or operator, a policy, a
// view or a domain constraint of its own.
func (p *Pin) NeedsObjects() bool { return p.objects }

// shift is text inserted into SQL at byte offset at.
type shift struct{ at, n int }

// Position maps a 1-based byte position in p.SQL (a server error's) back
// to the query as validated; 0 stays 0.
func (p *Pin) Position(pos int) int {
	if p == nil || pos <= 0 {
		return pos
	}
	out := pos
	for _, s := range p.shifts {
		if s.at < pos-1 { // inserted before the position
			out -= min(s.n, pos-1-s.at)
		}
	}
	return max(out, 1)
}

// PinQuery returns the catalog query that pins res's name resolution and
// its parameters (text format). Run it in the request's own transaction,
// with its search path and role, first; give its rows (four text columns)
// to Pin. Every function, operator and type it uses is qualified with
// pg_catalog: it runs under the request's search path.
func (v *Validator) PinQuery(res *Result) (string, []string) {
	u := newUses()
	if res != nil && res.uses != nil {
		u = res.uses
	}
	var rs, rn, ts, tn []string
	for _, r := range u.relSites {
		rs, rn = append(rs, r.schema), append(rn, r.name)
	}
	for _, t := range u.typeSites {
		ts, tn = append(ts, t.schema), append(tn, t.name)
	}
	return pinSQL, []string{arrayLiteral(rs), arrayLiteral(rn), arrayLiteral(ts), arrayLiteral(tn)}
}

// Pin reads the rows of PinQuery's query. It refuses res (a *Error with
// code CodeMutable) where the server resolves a relation to another schema
// than the validator checked, where a relation of an untrusted schema or
// owner cannot be locked (the role has column privileges only), and where
// res casts from or to a type a role other than the database's owners owns.
func (v *Validator) Pin(res *Result, rows [][]string) (*Pin, error) {
	if res == nil || res.uses == nil {
		return nil, fmt.Errorf("validate: pin: no validated query")
	}
	u := res.uses
	p := &Pin{}
	var path []string
	relSchema := make([]string, len(u.relSites))
	relFlags := make([]string, len(u.relSites))
	typeSchema := make([]string, len(u.typeSites))
	typeFlags := make([]string, len(u.typeSites))
	hooked := map[string]bool{}
	for _, r := range rows {
		if len(r) != 4 {
			return nil, fmt.Errorf("validate: pin: %d columns, want 4", len(r))
		}
		i, err := strconv.Atoi(r[1])
		if err != nil {
			return nil, fmt.Errorf("validate: pin: row number %q", r[1])
		}
		switch r[0] {
		case "path":
			if r[3] == "t" {
				path = append(path, r[2])
			}
		case "rel", "type":
			ss, fs := relSchema, relFlags
			if r[0] == "type" {
				ss, fs = typeSchema, typeFlags
			}
			if i < 1 || i > len(ss) {
				return nil, fmt.Errorf("validate: pin: %s %d of %d", r[0], i, len(ss))
			}
			ss[i-1], fs[i-1] = r[2], r[3]
		case "hooked":
			hooked[r[2]] = true
		case "objects":
			p.objects = true
		default:
			return nil, fmt.Errorf("validate: pin: unknown kind %q", r[0])
		}
	}
	var msgs []string
	var lock []string
	untrustedRows := false
	type ins struct {
		at   int
		text string
	}
	var inserts []ins
	for i, s := range u.relSites {
		schema, flags := relSchema[i], relFlags[i]
		display := qualified(s.schema, s.name)
		if schema == "" {
			continue // not found: the EXPLAIN says so
		}
		if s.checked != "" && s.checked != schema {
			msgs = append(msgs, fmt.Sprintf("relation %s resolves to %s.%s on the server, not to the %s.%s the query was checked against; qualify it",
				display, schema, s.name, s.checked, s.name))
			continue
		}
		p.rels = append(p.rels, [2]string{schema, s.name})
		q := pgx.Identifier{schema, s.name}.Sanitize()
		if strings.Contains(flags, "w") {
			msgs = append(msgs, fmt.Sprintf("relation %s belongs to a role other than the database's owners, who can attach code to it "+
				"(an index expression, a policy, statistics, a child table) that would run with this role's privileges; "+
				"run the request as its owner, or give the relation to the database's owner", display))
			continue
		}
		if strings.Contains(flags, "u") {
			untrustedRows = true
			if !strings.Contains(flags, "s") {
				msgs = append(msgs, fmt.Sprintf("relation %s belongs to a schema or owner that can change it while the query is checked, "+
					"and the role may read only some of its columns, so it cannot be locked; grant SELECT on the relation", display))
			} else if !slices.Contains(lock, q) {
				lock = append(lock, q)
			}
		}
		if s.schema == "" {
			inserts = append(inserts, ins{s.loc, pgx.Identifier{schema}.Sanitize() + "."})
		}
	}
	for i, s := range u.typeSites {
		schema := typeSchema[i]
		if schema == "" {
			continue
		}
		p.types = append(p.types, [2]string{schema, s.name})
		if s.schema == "" && schema != "pg_catalog" {
			inserts = append(inserts, ins{s.loc, pgx.Identifier{schema}.Sanitize() + "."})
		}
	}
	for _, c := range u.casts {
		if c.target != ([2]string{}) {
			for i, s := range u.typeSites {
				if s.schema != c.target[0] || s.name != c.target[1] || typeSchema[i] == "" {
					continue
				}
				flags := typeFlags[i]
				if strings.Contains(flags, "d") && strings.Contains(flags, "u") {
					msgs = append(msgs, fmt.Sprintf("the cast to domain %s runs its constraints, which a role other than the database's owners can change; cast to its base type", qualified(c.target[0], c.target[1])))
				} else if strings.Contains(flags, "u") && !c.literal {
					msgs = append(msgs, fmt.Sprintf("the cast to %s may run a cast function a role other than the database's owners can create at any time; compare with a literal of the type instead", qualified(c.target[0], c.target[1])))
				}
				break
			}
		}
		for _, col := range c.cols {
			if hooked[col] {
				msgs = append(msgs, fmt.Sprintf("the cast of column %s may run a cast function a role other than the database's owners can create at any time (its type is theirs); compare it without a cast", col))
				break
			}
		}
		if len(hooked) > 0 && u.derived && len(c.cols) > 0 {
			msgs = append(msgs, "the query casts a column of a subquery, CTE or function while it reads a column of a type a role other than the database's owners owns, whose cast function that role can create at any time; cast the column where the table is read, or not at all")
		}
		whole := c.star
		for _, s := range c.singles {
			whole = whole || u.ranges[s]
		}
		if whole && untrustedRows {
			msgs = append(msgs, "the cast of a whole row may run a cast function the owner of its table can create at any time; cast its columns instead")
		}
	}
	if len(msgs) > 0 {
		slices.Sort(msgs)
		msgs = slices.Compact(msgs)
		issues := make([]Issue, len(msgs))
		for i, m := range msgs {
			issues[i] = Issue{Code: CodeMutable, Severity: SeverityError, Message: m, Location: -1}
		}
		return nil, &Error{SQL: res.SQL, Issues: issues}
	}
	for i := range inserts {
		inserts[i].at -= u.base
	}
	slices.SortStableFunc(inserts, func(a, b ins) int { return a.at - b.at })
	var b strings.Builder
	last := 0
	for _, in := range inserts {
		if in.at < last || in.at >= len(res.SQL) || !identStart(res.SQL[in.at:]) {
			return nil, fmt.Errorf("validate: pin: no name at byte %d of the query", in.at)
		}
		b.WriteString(res.SQL[last:in.at])
		b.WriteString(in.text)
		p.shifts = append(p.shifts, shift{at: b.Len() - len(in.text), n: len(in.text)})
		last = in.at
	}
	b.WriteString(res.SQL[last:])
	p.SQL = b.String()
	p.SearchPath = searchPathSetting(path)
	if len(lock) > 0 {
		p.Lock = "LOCK TABLE " + strings.Join(lock, ", ") + " IN ACCESS SHARE MODE"
	}
	return p, nil
}

// identStart reports whether s starts with an identifier: a letter, an
// underscore, a byte of a multibyte character, a quoted identifier or a
// Unicode-escaped one (U&"...").
func identStart(s string) bool {
	c := s[0]
	switch {
	case c == '"' || c == '_' || c >= 0x80 || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z'):
		return !((c == 'u' || c == 'U') && len(s) > 1 && s[1] == '&') || (len(s) > 2 && s[2] == '"')
	}
	return false
}

// PinnedObjectsQuery is LookalikeObjectsQuery for a pinned query: the
// relations and types as the server resolved them.
func (v *Validator) PinnedObjectsQuery(p *Pin) (string, []string) {
	var rs, rn, ts, tn []string
	for _, r := range p.rels {
		rs, rn = append(rs, r[0]), append(rn, r[1])
	}
	for _, t := range p.types {
		ts, tn = append(ts, t[0]), append(tn, t[1])
	}
	return objectsSQL, []string{arrayLiteral(rs), arrayLiteral(rn), arrayLiteral(ts), arrayLiteral(tn)}
}

// trustedRoles are the roles that may change what a query resolves to:
// superusers, the database's owner and pg_database_owner (public's owner).
// trustedNS(x) tells a schema only they can create in.
const trustedRolesCTE = `tr(oids) AS (SELECT ARRAY(SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolsuper
	OR r.oid {=} (SELECT d.datdba FROM pg_catalog.pg_database d WHERE d.datname {=} pg_catalog.current_database())
	OR r.rolname {=} 'pg_database_owner'))`

// pinSQL is PinQuery's query. Rows (kind, i, a, b), ordered:
//   - path, i, schema, t|f: the request's path but pg_catalog, in order, and
//     whether only trusted roles can create in each schema;
//   - rel, i, schema, flags: where the i-th relation named resolves ("" when
//     it does not); flags u (an untrusted schema or owner), w (an untrusted
//     owner other than the request's role), s (the role holds SELECT on the
//     whole relation, so it may lock it);
//   - hooked, 0, column, "": a column of those relations whose type (or its
//     base or element type) an untrusted role other than the request's owns,
//     and so may create casts for;
//   - type, i, schema, flags: where the i-th type named resolves; flags u
//     (untrusted, as above), d (a domain);
//   - objects, 0, "", "": the database holds a user function or operator,
//     a policy, a view or a domain constraint of its own, so the objects
//     query must run (NeedsObjects).
var pinSQL = sqlText(`WITH RECURSIVE ` + trustedRolesCTE + `,
supers(oids) AS (SELECT ARRAY(SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolsuper)),
q AS (SELECT * FROM ROWS FROM (pg_catalog.unnest($1::pg_catalog.text[]), pg_catalog.unnest($2::pg_catalog.text[])) WITH ORDINALITY q(s, r, i)),
rels AS MATERIALIZED (SELECT q.i, c.oid, c.relnamespace, c.relowner FROM q LEFT JOIN LATERAL (SELECT c.oid, c.relnamespace, c.relowner
	FROM pg_catalog.pg_class c WHERE c.oid {=} pg_catalog.to_regclass(CASE WHEN q.s {=} '' THEN pg_catalog.quote_ident(q.r)
	ELSE pg_catalog.concat(pg_catalog.quote_ident(q.s), '.', pg_catalog.quote_ident(q.r)) END) OFFSET 0) c ON true),
qt AS (SELECT * FROM ROWS FROM (pg_catalog.unnest($3::pg_catalog.text[]), pg_catalog.unnest($4::pg_catalog.text[])) WITH ORDINALITY q(s, t, i)),
typs AS MATERIALIZED (SELECT qt.i, t.oid, t.typnamespace, t.typtype FROM qt LEFT JOIN LATERAL (SELECT t.oid, t.typnamespace, t.typtype
	FROM pg_catalog.pg_type t WHERE t.oid {=} pg_catalog.to_regtype(CASE WHEN qt.s {=} '' THEN pg_catalog.quote_ident(qt.t)
	ELSE pg_catalog.concat(pg_catalog.quote_ident(qt.s), '.', pg_catalog.quote_ident(qt.t)) END) OFFSET 0) t ON true),
cols AS MATERIALIZED (SELECT a.attname, a.atttypid AS root FROM rels r, LATERAL (SELECT a.attname, a.atttypid
	FROM pg_catalog.pg_attribute a WHERE a.attrelid {=} r.oid AND a.attnum {>} 0 AND NOT a.attisdropped OFFSET 0) a),
chain(root, oid) AS (SELECT c.root, c.root FROM cols c UNION SELECT t.oid, t.oid FROM typs t WHERE t.oid IS NOT NULL
	UNION SELECT ch.root, v.u FROM chain ch, LATERAL (SELECT t.typbasetype, t.typelem FROM pg_catalog.pg_type t
	WHERE t.oid {=} ch.oid OFFSET 0) t, LATERAL (VALUES (t.typbasetype), (t.typelem)) v(u) WHERE v.u {<>} 0),
chaintypes AS MATERIALIZED (SELECT ch.root, t.typnamespace, t.typowner FROM chain ch, LATERAL (SELECT t.typnamespace, t.typowner
	FROM pg_catalog.pg_type t WHERE t.oid {=} ch.oid OFFSET 0) t),
nss AS (SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname {=} ANY (pg_catalog.current_schemas(false))
	UNION SELECT r.relnamespace FROM rels r WHERE r.oid IS NOT NULL
	UNION SELECT ct.typnamespace FROM chaintypes ct),
nstrust AS MATERIALIZED (SELECT s.oid, (s.oid {=} 11 OR (n.nspowner {=} ANY (tr.oids) AND NOT EXISTS (SELECT FROM pg_catalog.pg_roles r
	WHERE NOT r.oid {=} ANY (tr.oids) AND pg_catalog.has_schema_privilege(r.oid, s.oid, 'CREATE')))) AS ok
	FROM nss s JOIN pg_catalog.pg_namespace n ON n.oid {=} s.oid, tr),
me(oid) AS (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname {=} CURRENT_USER),
bad AS (SELECT DISTINCT ct.root FROM tr, chaintypes ct WHERE NOT ct.typowner {=} ANY (tr.oids)
	AND NOT EXISTS (SELECT FROM me WHERE me.oid {=} ct.typowner))
SELECT x.kind, x.i::pg_catalog.text, x.a, x.b FROM (
SELECT 'path' AS kind, s.i, s.name::pg_catalog.text AS a, CASE WHEN k.ok THEN 't' ELSE 'f' END AS b
FROM pg_catalog.unnest(pg_catalog.current_schemas(false)) WITH ORDINALITY s(name, i)
JOIN pg_catalog.pg_namespace n ON n.nspname {=} s.name JOIN nstrust k ON k.oid {=} n.oid WHERE n.oid {<>} 11
UNION ALL SELECT 'rel', r.i, COALESCE(n.nspname::pg_catalog.text, ''), CASE WHEN r.oid IS NULL THEN ''
	ELSE pg_catalog.concat(CASE WHEN NOT k.ok OR NOT r.relowner {=} ANY (tr.oids) THEN 'u' END,
	CASE WHEN NOT r.relowner {=} ANY (tr.oids) AND NOT EXISTS (SELECT FROM me WHERE me.oid {=} r.relowner) THEN 'w' END,
	CASE WHEN pg_catalog.has_table_privilege(r.oid, 'SELECT') THEN 's' END) END
FROM tr, rels r LEFT JOIN pg_catalog.pg_namespace n ON n.oid {=} r.relnamespace LEFT JOIN nstrust k ON k.oid {=} r.relnamespace
UNION ALL SELECT DISTINCT 'hooked', 0, c.attname::pg_catalog.text, '' FROM cols c JOIN bad b ON b.root {=} c.root
UNION ALL SELECT 'type', t.i, COALESCE(n.nspname::pg_catalog.text, ''),
	pg_catalog.concat(CASE WHEN b.root IS NOT NULL THEN 'u' END, CASE WHEN t.typtype {=} 'd' THEN 'd' END)
FROM typs t LEFT JOIN pg_catalog.pg_namespace n ON n.oid {=} t.typnamespace LEFT JOIN bad b ON b.root {=} t.oid
UNION ALL SELECT 'objects', 0, '', '' WHERE ` + objectsExist + `
) x ORDER BY x.kind, x.i, x.a`)
