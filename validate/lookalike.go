package validate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// uses are the names a query leaves to the server's resolution: what the
// look-alike check (LookalikeQuery) asks the catalog about.
type uses struct {
	calls map[string]bool    // bare function names, and the names functional notation may call
	ops   map[string]bool    // bare operator symbols
	own   map[string]bool    // every function name and operator symbol written, bare or qualified
	rels  map[[2]string]bool // relations: schema (as resolved), name
	types map[[2]string]bool // types named: schema as written ("" when bare), name

	// What pinning (pin.go) resolves on the server and checks.
	relSites  []relSite
	typeSites []typeSite
	casts     []castSite
	ranges    map[string]bool // names and aliases of range items
	derived   bool            // a CTE, subquery, function or aliased join in FROM: columns may be renamed
	base      int             // where Result.SQL starts in the text the sites' locations count in
}

func newUses() *uses {
	return &uses{calls: map[string]bool{}, ops: map[string]bool{}, own: map[string]bool{},
		rels: map[[2]string]bool{}, types: map[[2]string]bool{}, ranges: map[string]bool{}}
}

// notation records the names of t.f and (x).f: PostgreSQL calls f(t) when
// f is no column.
func (u *uses) notation(fields []*pg.Node) {
	for _, f := range fields {
		if s := f.GetString_(); s != nil {
			u.calls[s.Sval] = true
		}
	}
}

// implied records the operators BETWEEN looks up (its name is the
// keyword); the other A_Expr kinds name theirs.
func (u *uses) implied(e *pg.A_Expr) {
	switch e.Kind {
	case pg.A_Expr_Kind_AEXPR_BETWEEN, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN,
		pg.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		for _, op := range []string{"<", "<=", ">", ">="} {
			u.ops[op] = true
		}
	}
}

// Lookalikes is what the server's catalog holds on a request's search path
// that a bare name could resolve to instead of the built-in: functions and
// operators outside pg_catalog that are not a superuser's extension members,
// under a name the policy allows. CheckLookalikes returns it for CheckPlan
// (Against), which refuses a plan calling one of these names unqualified.
type Lookalikes struct {
	funcs map[string][]string // bare name -> the objects that name
	ops   map[string][]string
	// own are the names the query writes itself, judged before the plan:
	// the plan prints a call of the built-in by its bare name whenever the
	// look-alike would not win for its argument types, so only names the
	// plan alone shows (a view's, an inlined function's) are judged there.
	own map[string]bool
	// objects: the database holds user functions or operators, so the
	// objects the query reaches must be checked (LookalikeObjectsQuery).
	objects bool
	// untrusted: the objects query reached a relation or type of an
	// untrusted schema or owner (Reusable).
	untrusted bool
}

// Reusable reports, for the rows of an objects query (LookalikeObjectsQuery,
// PinnedObjectsQuery) that CheckLookalikes read, whether every relation
// and type they reached belongs to a trusted owner in a trusted schema:
// then only those owners can change what the rows say, and they may be
// kept for LookalikeTTL.
func (l *Lookalikes) Reusable() bool { return l != nil && !l.untrusted }

// NeedsObjects reports whether LookalikeObjectsQuery must run too: the
// database holds a user function or operator, a view, a policy or a
// domain constraint.
func (l *Lookalikes) NeedsObjects() bool { return l.objects }

// PlanOption configures one CheckPlan call.
type PlanOption interface{ applyPlan(*planConfig) }

type planConfig struct{ lookalikes *Lookalikes }

type planOptionFunc func(*planConfig)

func (f planOptionFunc) applyPlan(c *planConfig) { f(c) }

// Against makes CheckPlan refuse a plan that calls, by a bare name, a
// function or operator l found on the search path (a view's or an inlined
// function's, which the query's own names did not show).
func Against(l *Lookalikes) PlanOption {
	return planOptionFunc(func(c *planConfig) { c.lookalikes = l })
}

// LookalikeQuery returns the first catalog query of the look-alike check
// and its parameters (text format): run it in the request's own
// transaction, with its search path and role, before EXPLAIN (the planner
// folds immutable functions on constants, so a look-alike would run during
// the EXPLAIN itself), and give its rows (three text columns) to
// CheckLookalikes; when the Lookalikes it returns NeedsObjects, run
// LookalikeObjectsQuery too, before EXPLAIN, and give its rows to
// CheckLookalikes again.
//
// The first query finds, among the schemas of the search path other than
// pg_catalog, the user functions (aggregates too) and operators, one row
// per name (the names are not sent: an array of hundreds of names costs
// the planner more than reading the path's functions), and tells whether
// the database holds a user function or operator, or a view, policy or
// domain constraint outside the system schemas, at all. A user function
// is one outside pg_catalog and information_schema that is not a member
// of an extension owned by a superuser. Every operator and function of the
// queries is qualified with pg_catalog: they run under the request's
// search path.
func (v *Validator) LookalikeQuery(res *Result) (string, []string) { return lookalikeSQL, nil }

// LookalikeObjectsQuery returns the second catalog query of the check (see
// LookalikeQuery) and its parameters: for the relations res reads (and
// those their views, policies and inheritance reach, recursively) and the
// types it names, the user functions and operators their view rules,
// row-level security policies, indexes, constraints, statistics or
// partition keys call, the casts that run a user function from or to one
// of their types (row types, column types, array, element, base and field
// types, recursively) and the domains among them whose constraints call
// one. With res nil (a query not validated) there are no relations.
func (v *Validator) LookalikeObjectsQuery(res *Result) (string, []string) {
	u := newUses()
	if res != nil && res.uses != nil {
		u = res.uses
	}
	var relSchemas, relNames, typeSchemas, typeNames []string
	for _, r := range slices.SortedFunc(maps.Keys(u.rels), compareNames) {
		relSchemas, relNames = append(relSchemas, r[0]), append(relNames, r[1])
	}
	for _, t := range slices.SortedFunc(maps.Keys(u.types), compareNames) {
		typeSchemas, typeNames = append(typeSchemas, t[0]), append(typeNames, t[1])
	}
	return objectsSQL, []string{arrayLiteral(relSchemas), arrayLiteral(relNames), arrayLiteral(typeSchemas), arrayLiteral(typeNames)}
}

func compareNames(a, b [2]string) int {
	if c := strings.Compare(a[0], b[0]); c != 0 {
		return c
	}
	return strings.Compare(a[1], b[1])
}

// arrayLiteral writes names as a text[] literal, every element quoted.
func arrayLiteral(names []string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		for _, r := range n {
			if r == '"' || r == '\\' {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

// CheckLookalikes reads the rows of LookalikeQuery's query. It returns
// the look-alikes found (for CheckPlan's Against) and a *Error with code
// CodeLookalike when res calls one by its bare name, uses one of the
// symbols PostgreSQL looks up (explicitly or through IN, BETWEEN, CASE,
// ...), or reads a relation or names a type that runs a user function.
// The messages are sorted, so the same catalog gives the same error.
func (v *Validator) CheckLookalikes(res *Result, rows [][]string) (*Lookalikes, error) {
	l := &Lookalikes{funcs: map[string][]string{}, ops: map[string][]string{}, own: map[string]bool{}}
	if res != nil && res.uses != nil {
		l.own = res.uses.own
	}
	var objects, defs, foreign []string
	for _, r := range rows {
		if len(r) != 3 {
			return nil, fmt.Errorf("validate: look-alike check: %d columns, want 3", len(r))
		}
		switch r[0] {
		case "function":
			l.funcs[r[1]] = append(l.funcs[r[1]], r[2])
		case "operator":
			l.ops[r[1]] = append(l.ops[r[1]], r[2])
		case "object":
			objects = append(objects, r[2]+" calls "+r[1])
		case "objects":
			l.objects = true
		case "untrusted":
			l.untrusted = true
		case "foreign":
			foreign = append(foreign, fmt.Sprintf("the query reaches %s, which belongs to a role other than the database's owners, "+
				"who can attach code to it that would run with this role's privileges; run the request as its owner", r[1]))
		case "definition":
			objects = append(objects, "")
			defs = append(defs, v.definitionIssues(r[1], r[2])...)
		default:
			return nil, fmt.Errorf("validate: look-alike check: unknown kind %q", r[0])
		}
	}
	var calls, ops map[string]bool
	if res != nil && res.uses != nil {
		calls, ops = res.uses.calls, res.uses.ops
	}
	var msgs []string
	for name, objs := range l.funcs {
		if v.cfg.allowFuncs[name] && !defaultFunctions[name] {
			// A name WithFunctions adds (a user function the configuration
			// trusts, WithFunctions("f")) is not judged: qualify it
			// (WithFunctions("public.f")) to pin its schema.
			delete(l.funcs, name)
			continue
		}
		if calls == nil || calls[name] {
			for _, o := range objs {
				msgs = append(msgs, funcShadowMessage(o, name))
			}
		}
	}
	for op, objs := range l.ops {
		if ops == nil || ops[op] {
			for _, o := range objs {
				msgs = append(msgs, opShadowMessage(o, op))
			}
		}
	}
	for _, o := range objects {
		if o != "" {
			msgs = append(msgs, o+", a function outside pg_catalog and the extensions; the query cannot run here")
		}
	}
	msgs = append(msgs, defs...)
	if len(msgs) == 0 && len(foreign) == 0 {
		return l, nil
	}
	sql := ""
	if res != nil {
		sql = res.SQL
	}
	v.cfg.logger.Debug("validate: look-alikes on the search path", "issues", len(msgs))
	issues := lookalikeIssues(msgs)
	slices.Sort(foreign)
	for _, m := range slices.Compact(foreign) {
		issues = append(issues, Issue{Code: CodeMutable, Severity: SeverityError, Message: m, Location: -1})
	}
	return l, &Error{SQL: sql, Issues: issues}
}

func funcShadowMessage(obj, name string) string {
	return fmt.Sprintf("%s shadows the built-in %s: PostgreSQL may call it for %s(...); call pg_catalog.%s explicitly", obj, name, name, name)
}

func opShadowMessage(obj, op string) string {
	return fmt.Sprintf("operator %s shadows the built-in %s: PostgreSQL may call it for %s; write x OPERATOR(pg_catalog.%s) y (and no IN, BETWEEN, CASE x WHEN, NULLIF, JOIN USING that compare with it)", obj, op, op, op)
}

// maxLookalikeIssues bounds the issues of one refusal: a schema may hold
// any number of look-alikes.
const maxLookalikeIssues = 10

func lookalikeIssues(msgs []string) []Issue {
	slices.Sort(msgs)
	msgs = slices.Compact(msgs)
	if len(msgs) > maxLookalikeIssues {
		msgs = append(msgs[:maxLookalikeIssues-1], fmt.Sprintf("and %d more look-alikes", len(msgs)-maxLookalikeIssues+1))
	}
	out := make([]Issue, len(msgs))
	for i, m := range msgs {
		out[i] = Issue{Code: CodeLookalike, Severity: SeverityError, Message: m, Location: -1}
	}
	return out
}

// planLookalikes reports the look-alikes of l the plan calls by a bare
// name that the query itself does not write.
func (p *planCheck) planLookalikes(l *Lookalikes) {
	for _, name := range slices.Sorted(maps.Keys(p.c.uses.calls)) {
		if l.own[name] {
			continue
		}
		for _, o := range l.funcs[name] {
			p.addCode(CodeLookalike, "the plan calls "+name+": "+funcShadowMessage(o, name))
		}
	}
	for _, op := range slices.Sorted(maps.Keys(p.c.uses.ops)) {
		if l.own[op] {
			continue
		}
		for _, o := range l.ops[op] {
			p.addCode(CodeLookalike, "the plan uses "+op+": "+opShadowMessage(o, op))
		}
	}
}

// sqlText writes the look-alike check's queries, which run under the
// request's search path, where a look-alike of an operator or function
// they use would run too: every operator is written OPERATOR(pg_catalog.op)
// ({op} below), every function, type and relation is qualified
// (TestLookalikeQueryQualified).
var sqlText = strings.NewReplacer("{=}", "OPERATOR(pg_catalog.=)", "{<>}", "OPERATOR(pg_catalog.<>)",
	"{>}", "OPERATOR(pg_catalog.>)", "{pg_class}", "1259", "{pg_proc}", "1255", "{pg_operator}", "2617",
	"{pg_type}", "1247", "{pg_constraint}", "2606", "\n\t\t\t", " ", "\n\t\t", " ", "\n\t", " ", "\n", " ").Replace

// lookalikeCTEs are the schemas of the path but pg_catalog, and the
// superusers.
const lookalikeCTEs = `WITH RECURSIVE

path(oids) AS (SELECT ARRAY(SELECT n.oid FROM pg_catalog.pg_namespace n
	WHERE n.nspname {=} ANY (pg_catalog.current_schemas(false)) AND n.nspname {<>} 'pg_catalog')),
supers(oids) AS (SELECT ARRAY(SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolsuper))
`

// lookalikeSQL is LookalikeQuery's query: the path's user functions and
// operators, one row per name, and a row of kind "objects" when the
// database holds any user function or operator at all (else no view,
// policy, index, cast or domain can call one), or a view, policy or
// domain constraint of its own (whose text may call a built-in the policy
// refuses, definitions.go).
var lookalikeSQL = sqlText(lookalikeCTEs + `,
uprocs AS MATERIALIZED (SELECT p.oid, p.proname, p.pronamespace FROM supers su, pg_catalog.pg_proc p WHERE ` + userProc + `),
uops AS MATERIALIZED (SELECT o.oid, o.oprname, o.oprnamespace, o.oprleft, o.oprright
	FROM supers su, pg_catalog.pg_operator o WHERE ` + userOp + `)
SELECT 'function', p.proname::pg_catalog.text, pg_catalog.min(` + procWhat + `)
FROM path, uprocs p JOIN pg_catalog.pg_namespace n ON n.oid {=} p.pronamespace
WHERE p.pronamespace {=} ANY (path.oids) GROUP BY p.proname
UNION ALL SELECT 'operator', o.oprname::pg_catalog.text, pg_catalog.min(` + opWhat + `)
FROM path, uops o JOIN pg_catalog.pg_namespace n ON n.oid {=} o.oprnamespace
WHERE o.oprnamespace {=} ANY (path.oids) GROUP BY o.oprname
UNION ALL SELECT 'objects', '', '' WHERE ` + objectsExist)

// objectsExist tells whether the database holds a user function or
// operator at all (else no view, policy, index, cast or domain can call
// one), or a view, policy or domain constraint of its own (whose text may
// call a built-in the policy refuses, definitions.go). su is the
// superusers.
var objectsExist = `(EXISTS (SELECT FROM supers su, pg_catalog.pg_proc p WHERE ` + userProc + `)
	OR EXISTS (SELECT FROM supers su, pg_catalog.pg_operator o WHERE ` + userOp + `)
	OR EXISTS (SELECT FROM pg_catalog.pg_policy)
	OR EXISTS (SELECT FROM pg_catalog.pg_rewrite r JOIN pg_catalog.pg_class c ON c.oid {=} r.ev_class WHERE ` + userNamespace("c.relnamespace") + `)
	OR EXISTS (SELECT FROM pg_catalog.pg_constraint k JOIN pg_catalog.pg_type t ON t.oid {=} k.contypid
		WHERE ` + userNamespace("t.typnamespace") + `))`

// objectsSQL is LookalikeObjectsQuery's query.
var objectsSQL = sqlText(lookalikeCTEs + `, ` + trustedRolesCTE + `,
rels(oids) AS (
	SELECT ARRAY(SELECT c.oid FROM path, pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid {=} c.relnamespace
		JOIN ROWS FROM (pg_catalog.unnest($1::pg_catalog.text[]), pg_catalog.unnest($2::pg_catalog.text[])) AS q(s, r)
		ON c.relname {=} q.r WHERE n.nspname {=} q.s OR n.oid {=} ANY (path.oids))
	UNION ALL SELECT z.oids FROM rels x, LATERAL (SELECT ARRAY(SELECT pg_catalog.unnest(x.oids)
		UNION SELECT h.inhrelid FROM pg_catalog.pg_inherits h WHERE h.inhparent {=} ANY (x.oids)
		UNION SELECT d.refobjid FROM pg_catalog.pg_depend o, LATERAL (SELECT d.refobjid FROM pg_catalog.pg_depend d
			WHERE d.classid {=} o.classid AND d.objid {=} o.objid AND d.refclassid {=} {pg_class}) d
		WHERE o.refclassid {=} {pg_class} AND o.refobjid {=} ANY (x.oids) AND o.classid {=} ANY ('{2618,3256}'::pg_catalog.oid[])
		AND o.deptype {=} ANY ('{a,i}'::pg_catalog."char"[]))) z(oids)
	WHERE pg_catalog.cardinality(z.oids) {>} pg_catalog.cardinality(x.oids)),
relset(oids) AS (SELECT oids FROM rels ORDER BY pg_catalog.cardinality(oids) DESC LIMIT 1),
objs(cls, obj, what) AS MATERIALIZED (
	SELECT o.classid, o.objid, pg_catalog.format('%s %s', CASE WHEN o.classid {=} 2618 THEN 'a rule of'
		WHEN o.classid {=} 3256 THEN 'a policy on' WHEN o.classid {=} {pg_class} THEN 'an index of'
		WHEN o.classid {=} {pg_constraint} THEN 'a constraint of' ELSE 'statistics of' END, o.refobjid::pg_catalog.regclass)
	FROM relset x, pg_catalog.pg_depend o WHERE o.refclassid {=} {pg_class} AND o.refobjid {=} ANY (x.oids)
	AND o.classid {=} ANY ('{2618,3256,1259,2606,3381}'::pg_catalog.oid[]) AND o.deptype {=} ANY ('{a,i}'::pg_catalog."char"[])
	UNION ALL SELECT {pg_class}, r.oid, pg_catalog.format('the partition key of %s', r.oid::pg_catalog.regclass)
	FROM relset x, pg_catalog.unnest(x.oids) r(oid)),
types(oids) AS (
	SELECT ARRAY(SELECT c.reltype FROM relset x, pg_catalog.pg_class c WHERE c.oid {=} ANY (x.oids) AND c.reltype {<>} 0
		UNION SELECT a.atttypid FROM relset x, pg_catalog.pg_attribute a WHERE a.attrelid {=} ANY (x.oids) AND a.attnum {>} 0
		UNION SELECT t.oid FROM path, pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid {=} t.typnamespace
		JOIN ROWS FROM (pg_catalog.unnest($3::pg_catalog.text[]), pg_catalog.unnest($4::pg_catalog.text[])) AS q(s, t)
		ON t.typname {=} q.t WHERE n.nspname {=} q.s OR (q.s {=} '' AND (n.nspname {=} 'pg_catalog' OR n.oid {=} ANY (path.oids)))
		UNION SELECT d.refobjid FROM objs o, LATERAL (SELECT d.refobjid FROM pg_catalog.pg_depend d
			WHERE d.classid {=} o.cls AND d.objid {=} o.obj AND d.refclassid {=} {pg_type}) d)
	UNION ALL SELECT z.oids FROM types x, LATERAL (SELECT ARRAY(SELECT pg_catalog.unnest(x.oids)
		UNION SELECT u.oid FROM pg_catalog.pg_type t, LATERAL (SELECT t.typbasetype UNION ALL SELECT t.typelem
			UNION ALL SELECT t.typarray UNION ALL SELECT a.atttypid FROM pg_catalog.pg_attribute a
			WHERE a.attrelid {=} t.typrelid AND a.attnum {>} 0) u(oid)
		WHERE t.oid {=} ANY (x.oids) AND u.oid {<>} 0)) z(oids)
	WHERE pg_catalog.cardinality(z.oids) {>} pg_catalog.cardinality(x.oids)),
typeset(oids) AS (SELECT oids FROM types ORDER BY pg_catalog.cardinality(oids) DESC LIMIT 1),
callers(cls, obj, what) AS (
	SELECT cls, obj, what FROM objs
	UNION ALL SELECT {pg_constraint}, k.oid, pg_catalog.format('domain %s', k.contypid::pg_catalog.regtype)
	FROM typeset y, pg_catalog.pg_constraint k WHERE k.contypid {=} ANY (y.oids))
SELECT 'object', ` + procWhat + `, c.what FROM supers su, callers c, LATERAL (SELECT d.refobjid FROM pg_catalog.pg_depend d
	WHERE d.classid {=} c.cls AND d.objid {=} c.obj AND d.refclassid {=} {pg_proc}) d
JOIN pg_catalog.pg_proc p ON p.oid {=} d.refobjid JOIN pg_catalog.pg_namespace n ON n.oid {=} p.pronamespace
WHERE ` + userProc + `
UNION ALL SELECT 'object', 'operator ' OPERATOR(pg_catalog.||) ` + opWhat + `, c.what FROM supers su, callers c,
LATERAL (SELECT d.refobjid FROM pg_catalog.pg_depend d
	WHERE d.classid {=} c.cls AND d.objid {=} c.obj AND d.refclassid {=} {pg_operator}) d
JOIN pg_catalog.pg_operator o ON o.oid {=} d.refobjid JOIN pg_catalog.pg_namespace n ON n.oid {=} o.oprnamespace
WHERE ` + userOp + `
UNION ALL SELECT 'object', ` + procWhat + `, pg_catalog.format('cast (%s AS %s)', k.castsource::pg_catalog.regtype,
	k.casttarget::pg_catalog.regtype)
FROM supers su, typeset y, pg_catalog.pg_cast k JOIN pg_catalog.pg_proc p ON p.oid {=} k.castfunc
JOIN pg_catalog.pg_namespace n ON n.oid {=} p.pronamespace
JOIN pg_catalog.pg_type ts ON ts.oid {=} k.castsource JOIN pg_catalog.pg_type tt ON tt.oid {=} k.casttarget
WHERE p.pronamespace {<>} 11 AND ((k.castsource {=} ANY (y.oids) AND ts.typnamespace {<>} 11)
	OR (k.casttarget {=} ANY (y.oids) AND tt.typnamespace {<>} 11)) AND ` + userProc + `
UNION ALL SELECT 'definition', pg_catalog.pg_get_viewdef(r.ev_class), c.what FROM callers c
JOIN pg_catalog.pg_rewrite r ON r.oid {=} c.obj JOIN pg_catalog.pg_class v ON v.oid {=} r.ev_class
WHERE c.cls {=} 2618 AND r.ev_type {=} '1' AND ` + userNamespace("v.relnamespace") + `
UNION ALL SELECT 'definition', pg_catalog.pg_get_expr(p.polqual, p.polrelid), c.what FROM callers c
JOIN pg_catalog.pg_policy p ON p.oid {=} c.obj WHERE c.cls {=} 3256 AND p.polqual IS NOT NULL
UNION ALL SELECT 'definition', pg_catalog.pg_get_expr(k.conbin, 0), c.what FROM callers c
JOIN pg_catalog.pg_constraint k ON k.oid {=} c.obj JOIN pg_catalog.pg_type t ON t.oid {=} k.contypid
WHERE c.cls {=} {pg_constraint} AND k.conbin IS NOT NULL AND ` + userNamespace("t.typnamespace") + `
UNION ALL SELECT 'foreign', c.oid::pg_catalog.regclass::pg_catalog.text, '' FROM tr, relset x, pg_catalog.pg_class c
	WHERE c.oid {=} ANY (x.oids) AND NOT c.relowner {=} ANY (tr.oids)
	AND NOT EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.oid {=} c.relowner AND r.rolname {=} CURRENT_USER)
UNION ALL SELECT 'untrusted', '', '' FROM tr WHERE EXISTS (SELECT FROM relset x, pg_catalog.pg_class c
	WHERE c.oid {=} ANY (x.oids) AND NOT (c.relowner {=} ANY (tr.oids) AND ` + trustedNS("c.relnamespace") + `))
	OR EXISTS (SELECT FROM typeset y, pg_catalog.pg_type t
	WHERE t.oid {=} ANY (y.oids) AND NOT (t.typowner {=} ANY (tr.oids) AND ` + trustedNS("t.typnamespace") + `))`)

// trustedNS tells a schema (col) in which only the trusted roles (tr.oids,
// trustedRolesCTE) can create objects.
func trustedNS(col string) string {
	return `(` + col + ` {=} 11 OR EXISTS (SELECT FROM pg_catalog.pg_namespace n WHERE n.oid {=} ` + col + `
	AND n.nspowner {=} ANY (tr.oids) AND NOT EXISTS (SELECT FROM pg_catalog.pg_roles r
	WHERE NOT r.oid {=} ANY (tr.oids) AND pg_catalog.has_schema_privilege(r.oid, n.oid, 'CREATE'))))`
}

// userNamespace tells a schema other than pg_catalog and
// information_schema, whose views and domains are the server's.
func userNamespace(col string) string {
	return "NOT (" + col + ` {=} ANY (ARRAY[11::pg_catalog.oid, 'information_schema'::pg_catalog.regnamespace::pg_catalog.oid]))`
}

// procWhat and opWhat name a function p and an operator o of schema n;
// userProc and userOp tell a user's function or operator (p, o) from a
// built-in or a superuser's extension member.
const (
	procWhat = `pg_catalog.format('%I.%I(%s)', n.nspname, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid))`
	opWhat   = `pg_catalog.format('%I.%s(%s, %s)', n.nspname, o.oprname, pg_catalog.format_type(o.oprleft, NULL),
	pg_catalog.format_type(o.oprright, NULL))`
	userProc = `NOT (p.pronamespace {=} ANY (ARRAY[11::pg_catalog.oid,
	'information_schema'::pg_catalog.regnamespace::pg_catalog.oid]))
	AND NOT (p.proowner {=} ANY (su.oids) AND EXISTS (SELECT FROM pg_catalog.pg_depend e
	WHERE e.classid {=} {pg_proc} AND e.objid {=} p.oid AND e.deptype {=} 'e'))`
	userOp = `NOT (o.oprnamespace {=} ANY (ARRAY[11::pg_catalog.oid,
	'information_schema'::pg_catalog.regnamespace::pg_catalog.oid]))
	AND NOT (o.oprowner {=} ANY (su.oids) AND EXISTS (SELECT FROM pg_catalog.pg_depend e
	WHERE e.classid {=} {pg_operator} AND e.objid {=} o.oid AND e.deptype {=} 'e'))`
)
