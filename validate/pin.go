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
// extended statistics, an inheritance child or attached partition, a
// domain constraint added NOT VALID. So a relation whose owner is not
// trusted is read only by a request running as that owner (AsRole), whose
// own code then runs with its own privileges; as any other role it is
// refused (V029), directly or reached through a view or policy (the
// objects query), and a type such an owner holds is judged as below only
// for the other roles. Relations of untrusted schemas or owners are still
// locked (ACCESS SHARE, which CREATE OR REPLACE VIEW, CREATE POLICY and
// ALTER TABLE wait for) before the definitions check, so what the check
// reads is what the plan uses; so are the views the query names (even
// trusted ones: locking a view locks what it reads) and the relations
// that row-level security policies read in subqueries (the rewriter would
// lock those only after the check). CREATE CAST takes no lock, so a cast
// from or to a type another untrusted role owns (an enum, a domain, a
// table's row type) is refused: its function could be created after any
// check. A string literal cast to an enum runs the type's input function,
// not a cast, and stays allowed.
//
// An implicit cast added later can change a resolution that succeeded,
// and the server parses the query again after the EXPLAIN (the statement
// that runs, and on every plan invalidation): m = 'ok' on a tenant's enum
// is =(anyenum, anyenum) until an implicit cast to text makes the unknown
// literal's string preference pick =(text, text), which calls the cast's
// function. So an untyped literal beside a column of such a type is
// refused; with two typed operands no built-in is preferred for an enum
// or a composite, and a new cast only makes the choice ambiguous (an
// error). A domain resolves as its base type. See docs/redteam4.md.

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
	cs.cols, cs.singles, cs.star = columnRefs(arg, cs.cols, cs.singles, cs.star)
	u.casts = append(u.casts, cs)
}

// columnRefs appends the last names of the column references in n to
// cols, the one-name ones (which may name a range item's whole row) to
// singles, and tells a t.* or * too.
func columnRefs(n proto.Message, cols, singles []string, star bool) ([]string, []string, bool) {
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
				star = true
			case last.GetString_() != nil:
				cols = append(cols, last.GetString_().Sval)
				if len(cr.Fields) == 1 {
					singles = append(singles, last.GetString_().Sval)
				}
			}
		}
		eachChild(m, func(_ string, child proto.Message) { visit(child) })
	}
	visit(n)
	return cols, singles, star
}

// literalOperands records the column references of the operands of one
// operator, comparison, CASE x WHEN or call that has an untyped literal
// (a string or NULL) among its operands: which operator or function the
// server picks for a value of a tenant's enum, composite, range or array
// type and an unknown literal depends on the implicit casts from that
// type, which the tenant can create at any time (m = 'ok' is
// =(anyenum, anyenum) until a cast to text makes it =(text, text), which
// calls the cast's function), and the engine parses the query again after
// its checks (TestRedteam4ImplicitCastAfterExplain). Row constructors and
// lists (IN, BETWEEN) are flattened: (m, id) = ('ok', 1) compares m with
// 'ok'.
func (u *uses) literalOperands(ops []*pg.Node) {
	var flat []*pg.Node
	var add func(n *pg.Node)
	add = func(n *pg.Node) {
		switch {
		case n == nil:
		case n.GetList() != nil:
			for _, i := range n.GetList().Items {
				add(i)
			}
		case n.GetRowExpr() != nil:
			for _, i := range n.GetRowExpr().Args {
				add(i)
			}
		default:
			flat = append(flat, n)
		}
	}
	for _, o := range ops {
		add(o)
	}
	lit := false
	for _, o := range flat {
		if c := o.GetAConst(); c != nil && (c.GetSval() != nil || c.Isnull) {
			lit = true
		}
	}
	if !lit {
		return
	}
	for _, o := range flat {
		u.litCols, u.litSingles, u.litStar = columnRefs(o, u.litCols, u.litSingles, u.litStar)
	}
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

// Forward maps a 0-based byte offset in the query as validated to the
// offset of the same byte in p.SQL (text inserted at the offset comes
// before it); a nil Pin maps every offset to itself.
func (p *Pin) Forward(pos int) int {
	if p == nil {
		return pos
	}
	out, inserted := pos, 0
	for _, s := range p.shifts {
		if s.at-inserted <= pos {
			out += s.n
		}
		inserted += s.n
	}
	return out
}

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
	resolved := map[string]bool{} // hooked columns whose type resolution a tenant's implicit cast can change
	var reached [][2]string
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
		case "objects":
			p.objects = true
		case "hooked":
			hooked[r[2]] = true
			if r[3] == "x" {
				resolved[r[2]] = true
			}
		case "reach":
			reached = append(reached, [2]string{r[2], r[3]})
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
		} else if strings.Contains(flags, "v") && strings.Contains(flags, "s") && !slices.Contains(lock, q) {
			lock = append(lock, q)
		}
		if s.schema == "" {
			inserts = append(inserts, ins{s.loc, pgx.Identifier{schema}.Sanitize() + "."})
		}
	}
	lock, msgs = lockReached(reached, lock, msgs)
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
	msgs = append(msgs, literalOperandIssues(u, resolved, untrustedRows)...)
	msgs = append(msgs, inputIssues(u, typeFlags, len(hooked) > 0)...)
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

// literalOperandIssues refuses an untyped literal compared with, or
// passed along with, a column whose type resolution a role other than the
// database's owners can change (resolved: its type, or one it holds, is
// that role's enum, composite, range or array type), a whole row of such
// a role's relation, or a column of a subquery, CTE or function while the
// query reads such a column (see literalOperands). A literal written with
// its type ('ok'::mood) resolves to the built-in or fails: a new cast
// makes the choice ambiguous, never another one.
func literalOperandIssues(u *uses, resolved map[string]bool, untrustedRows bool) []string {
	var msgs []string
	for _, col := range u.litCols {
		if resolved[col] {
			msgs = append(msgs, fmt.Sprintf("column %s is compared with (or passed along with) an untyped literal, and its type is a role's other than the database's owners, "+
				"which can add an implicit cast at any time that changes the operator or function chosen and runs its own function; write the literal with its type ('...'::type)", col))
		}
	}
	whole := u.litStar
	for _, s := range u.litSingles {
		whole = whole || u.ranges[s]
	}
	if whole && untrustedRows {
		msgs = append(msgs, "a whole row of a relation whose owner can add an implicit cast from its row type at any time is compared with an untyped literal; compare its columns instead")
	}
	if len(resolved) > 0 && u.derived && len(u.litCols) > 0 {
		msgs = append(msgs, "the query compares a column of a subquery, CTE or function with an untyped literal while it reads a column of a type whose owner can add an implicit cast "+
			"at any time that changes the operator chosen; write the literal with its type ('...'::type)")
	}
	return msgs
}

// populates are the functions that read a row of a given row type from
// JSON: every field through its type's input function.
var populates = setOf("json_populate_record", "jsonb_populate_record", "json_populate_recordset", "jsonb_populate_recordset")

// inputIssues refuses what reads a value into a domain a role other than
// the database's owners owns (or into a row type of such a role, whose
// fields may be of one) through an input function, which runs the
// domain's constraints: that role can add a constraint calling its own
// function at any time (ALTER DOMAIN ... NOT VALID takes no lock the
// query holds) and the engine parses and runs the query after its checks
// (TestRedteam4DomainConstraintAfterCheck). That is naming such a type
// anywhere (a column definition list of json_to_record, a literal of the
// row type), and the json populate functions in a query that reads a
// column of such a role's type.
func inputIssues(u *uses, typeFlags []string, hooked bool) []string {
	var msgs []string
	for i, t := range u.typeSites {
		if f := typeFlags[i]; strings.Contains(f, "u") && (strings.Contains(f, "d") || strings.Contains(f, "c")) {
			msgs = append(msgs, fmt.Sprintf("type %s is a domain or a row type a role other than the database's owners owns: a value read into it runs "+
				"domain constraints that role can change at any time; name a built-in type", qualified(t.schema, t.name)))
		}
	}
	if hooked {
		for name := range u.own {
			if populates[name] {
				msgs = append(msgs, name+" reads a row whose fields may be of a domain a role other than the database's owners can change at any time; "+
					"read the JSON fields with ->> and casts to built-in types")
			}
		}
	}
	return msgs
}

// lockReached adds to lock the relations that the policies of the query's
// relations read (reach rows: name, flags) and the role may lock, and
// refuses those of an untrusted schema or owner it may not lock: the
// rewriter locks them only after the definitions check, so a tenant
// holding one could change it (replace a view, add a policy) in between
// (TestRedteam4PolicySubqueryViewReplaced).
func lockReached(reached [][2]string, lock, msgs []string) ([]string, []string) {
	for _, r := range reached {
		switch {
		case strings.Contains(r[1], "s"):
			if !slices.Contains(lock, r[0]) {
				lock = append(lock, r[0])
			}
		case strings.Contains(r[1], "u"):
			msgs = append(msgs, fmt.Sprintf("relation %s, which a row-level security policy of the query's relations reads, belongs to a schema or owner "+
				"that can change it while the query is checked, and the role may read only some of its columns, so it cannot be locked; grant SELECT on the relation", r[0]))
		}
	}
	return lock, msgs
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
// trustedNS(x) tells a schema only they can create in. An owner that is
// not a superuser is trusted only while no other role but a superuser can
// become it: a member of it (even NOINHERIT, which has_schema_privilege
// does not count, may SET ROLE to it), or a role with CREATEROLE, which
// may grant itself the membership at any time (before PostgreSQL 16)
// (TestRedteam4TenantBecomesOwner).
const trustedRolesCTE = `db AS (SELECT d.datdba AS oid, o.rolsuper OR NOT EXISTS (SELECT FROM pg_catalog.pg_roles m
	WHERE NOT m.rolsuper AND m.oid {<>} o.oid AND (m.rolcreaterole OR pg_catalog.pg_has_role(m.oid, o.oid, 'MEMBER'))) AS sole
	FROM pg_catalog.pg_database d JOIN pg_catalog.pg_roles o ON o.oid {=} d.datdba WHERE d.datname {=} pg_catalog.current_database()),
tr(oids) AS (SELECT ARRAY(SELECT r.oid FROM pg_catalog.pg_roles r, db WHERE r.rolsuper
	OR (db.sole AND (r.oid {=} db.oid OR r.rolname {=} 'pg_database_owner'))))`

// pinSQL is PinQuery's query. Rows (kind, i, a, b), ordered:
//   - path, i, schema, t|f: the request's path but pg_catalog, in order, and
//     whether only trusted roles can create in each schema;
//   - rel, i, schema, flags: where the i-th relation named resolves ("" when
//     it does not); flags u (an untrusted schema or owner), w (an untrusted
//     owner other than the request's role), s (the role holds
//     SELECT on the whole relation, so it may lock it), v (a view, locked
//     even when trusted: locking a view locks what it reads, which may be
//     a tenant's);
//   - reach, 0, relation (quoted, qualified), flags: a relation a row-level
//     security policy of those relations (or of what their views and
//     policies read, recursively) reads in a subquery; flags u and s as
//     for rel. The query locks nothing of these until its rewriter runs,
//     after the definitions check;
//   - hooked, 0, column, x|"": a column of those relations whose type (or
//     its base or element type) an untrusted role other than the request's
//     owns, and so may create casts for; x when one of those types is not a domain (an enum, composite,
//     range or array type), whose casts take part in resolving operators
//     and functions;
//   - type, i, schema, flags: where the i-th type named resolves; flags u
//     (untrusted, as above), d (a domain), c (a row type);
//   - objects, 0, "", "": the database holds a user function or operator,
//     a policy, a view or a domain constraint of its own, so the objects
//     query must run (NeedsObjects).
var pinSQL = sqlText(`WITH RECURSIVE ` + trustedRolesCTE + `,
supers(oids) AS (SELECT ARRAY(SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolsuper)),
me(oid) AS (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname {=} CURRENT_USER),
q AS (SELECT * FROM ROWS FROM (pg_catalog.unnest($1::pg_catalog.text[]), pg_catalog.unnest($2::pg_catalog.text[])) WITH ORDINALITY q(s, r, i)),
rels AS MATERIALIZED (SELECT q.i, c.oid, c.relnamespace, c.relowner FROM q LEFT JOIN LATERAL (SELECT c.oid, c.relnamespace, c.relowner
	FROM pg_catalog.pg_class c WHERE c.oid {=} pg_catalog.to_regclass(CASE WHEN q.s {=} '' THEN pg_catalog.quote_ident(q.r)
	ELSE pg_catalog.concat(pg_catalog.quote_ident(q.s), '.', pg_catalog.quote_ident(q.r)) END) OFFSET 0) c ON true),
qt AS (SELECT * FROM ROWS FROM (pg_catalog.unnest($3::pg_catalog.text[]), pg_catalog.unnest($4::pg_catalog.text[])) WITH ORDINALITY q(s, t, i)),
typs AS MATERIALIZED (SELECT qt.i, t.oid, t.typnamespace, t.typtype FROM qt LEFT JOIN LATERAL (SELECT t.oid, t.typnamespace, t.typtype
	FROM pg_catalog.pg_type t WHERE t.oid {=} pg_catalog.to_regtype(CASE WHEN qt.s {=} '' THEN pg_catalog.quote_ident(qt.t)
	ELSE pg_catalog.concat(pg_catalog.quote_ident(qt.s), '.', pg_catalog.quote_ident(qt.t)) END) OFFSET 0) t ON true),
reach(oid, pol) AS (SELECT r.oid, false FROM rels r WHERE r.oid IS NOT NULL
	UNION SELECT d.refobjid, o.classid {=} 3256 FROM reach x JOIN pg_catalog.pg_depend o ON o.refclassid {=} {pg_class}
	AND o.refobjid {=} x.oid AND o.classid {=} ANY ('{2618,3256}'::pg_catalog.oid[]) AND o.deptype {=} ANY ('{a,i}'::pg_catalog."char"[])
	JOIN pg_catalog.pg_depend d ON d.classid {=} o.classid AND d.objid {=} o.objid AND d.refclassid {=} {pg_class}
	AND d.refobjid {<>} x.oid),
policed AS MATERIALIZED (SELECT DISTINCT c.oid, c.relname, c.relnamespace, c.relowner FROM reach x JOIN pg_catalog.pg_class c ON c.oid {=} x.oid WHERE x.pol),
cols AS MATERIALIZED (SELECT a.attname, a.atttypid AS root FROM rels r, LATERAL (SELECT a.attname, a.atttypid
	FROM pg_catalog.pg_attribute a WHERE a.attrelid {=} r.oid AND a.attnum {>} 0 AND NOT a.attisdropped OFFSET 0) a),
chain(root, oid) AS (SELECT c.root, c.root FROM cols c UNION SELECT t.oid, t.oid FROM typs t WHERE t.oid IS NOT NULL
	UNION SELECT ch.root, v.u FROM chain ch, LATERAL (SELECT t.typbasetype, t.typelem FROM pg_catalog.pg_type t
	WHERE t.oid {=} ch.oid OFFSET 0) t, LATERAL (VALUES (t.typbasetype), (t.typelem)) v(u) WHERE v.u {<>} 0),
nss AS (SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname {=} ANY (pg_catalog.current_schemas(false))
	UNION SELECT r.relnamespace FROM rels r WHERE r.oid IS NOT NULL UNION SELECT p.relnamespace FROM policed p),
nstrust AS MATERIALIZED (SELECT s.oid, (s.oid {=} 11 OR (n.nspowner {=} ANY (tr.oids) AND NOT EXISTS (SELECT FROM pg_catalog.pg_roles r
	WHERE NOT r.oid {=} ANY (tr.oids) AND pg_catalog.has_schema_privilege(r.oid, s.oid, 'CREATE')))) AS ok
	FROM nss s JOIN pg_catalog.pg_namespace n ON n.oid {=} s.oid, tr),
bad AS (SELECT ch.root, pg_catalog.bool_or(t.typtype {<>} 'd') AS x FROM tr, chain ch, LATERAL (SELECT t.typtype, t.typowner
	FROM pg_catalog.pg_type t WHERE t.oid {=} ch.oid OFFSET 0) t WHERE NOT t.typowner {=} ANY (tr.oids)
	AND NOT EXISTS (SELECT FROM me WHERE me.oid {=} t.typowner) GROUP BY ch.root)
SELECT x.kind, x.i::pg_catalog.text, x.a, x.b FROM (
SELECT 'path' AS kind, s.i, s.name::pg_catalog.text AS a, CASE WHEN k.ok THEN 't' ELSE 'f' END AS b
FROM pg_catalog.unnest(pg_catalog.current_schemas(false)) WITH ORDINALITY s(name, i)
JOIN pg_catalog.pg_namespace n ON n.nspname {=} s.name JOIN nstrust k ON k.oid {=} n.oid WHERE n.oid {<>} 11
UNION ALL SELECT 'rel', r.i, COALESCE(n.nspname::pg_catalog.text, ''), CASE WHEN r.oid IS NULL THEN ''
	ELSE pg_catalog.concat(CASE WHEN NOT k.ok OR NOT r.relowner {=} ANY (tr.oids) THEN 'u' END,
	CASE WHEN NOT r.relowner {=} ANY (tr.oids) AND NOT EXISTS (SELECT FROM me WHERE me.oid {=} r.relowner) THEN 'w' END,
	CASE WHEN pg_catalog.has_table_privilege(r.oid, 'SELECT') THEN 's' END,
	CASE WHEN (SELECT c.relkind FROM pg_catalog.pg_class c WHERE c.oid {=} r.oid) {=} 'v' THEN 'v' END) END
FROM tr, rels r LEFT JOIN pg_catalog.pg_namespace n ON n.oid {=} r.relnamespace LEFT JOIN nstrust k ON k.oid {=} r.relnamespace
UNION ALL SELECT 'reach', 0, pg_catalog.format('%I.%I', n.nspname, p.relname), pg_catalog.concat(
	CASE WHEN NOT k.ok OR NOT p.relowner {=} ANY (tr.oids) THEN 'u' END, CASE WHEN pg_catalog.has_table_privilege(p.oid, 'SELECT') THEN 's' END)
FROM tr, policed p JOIN pg_catalog.pg_namespace n ON n.oid {=} p.relnamespace JOIN nstrust k ON k.oid {=} p.relnamespace
UNION ALL SELECT DISTINCT 'hooked', 0, c.attname::pg_catalog.text, CASE WHEN b.x THEN 'x' ELSE '' END FROM cols c JOIN bad b ON b.root {=} c.root
UNION ALL SELECT 'type', t.i, COALESCE(n.nspname::pg_catalog.text, ''),
	pg_catalog.concat(CASE WHEN b.root IS NOT NULL THEN 'u' END, CASE WHEN t.typtype {=} 'd' THEN 'd' END, CASE WHEN t.typtype {=} 'c' THEN 'c' END)
FROM typs t LEFT JOIN pg_catalog.pg_namespace n ON n.oid {=} t.typnamespace LEFT JOIN bad b ON b.root {=} t.oid
UNION ALL SELECT 'objects', 0, '', '' WHERE ` + objectsExist + `
) x ORDER BY x.kind, x.i, x.a`)
