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
}

func newUses() *uses {
	return &uses{calls: map[string]bool{}, ops: map[string]bool{}, own: map[string]bool{},
		rels: map[[2]string]bool{}, types: map[[2]string]bool{}}
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

// operatorList is the operators set, sorted, as a text[] parameter.
var operatorList = arrayLiteral(slices.Sorted(maps.Keys(operators)))

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
}

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

// LookalikeQuery returns the catalog query that finds what res's names
// could resolve to besides the built-ins, and its parameters (text
// format): run it in the request's own transaction, with its search path
// and role, before EXPLAIN (the planner folds immutable functions on
// constants, so a look-alike would run during the EXPLAIN itself), and give
// its rows (three text columns) to CheckLookalikes. With res nil (a query
// not validated), every allowed name counts as used.
//
// It finds, among schemas of the search path other than pg_catalog,
// functions (aggregates too) under an allowed or used name and operators
// under an allowed symbol; and, for the relations res reads (and those
// their views and policies read, recursively) and the types it names, user
// functions and operators their view rules, row-level security policies,
// indexes, constraints, statistics or partition keys call, casts that run
// a user function from or to one of their types (row types, column types,
// array, element and base types, recursively) and domains whose
// constraints call one. A user function is one outside pg_catalog and
// information_schema that is not a member of an extension owned by a
// superuser. Every operator and function of the query itself is qualified
// with pg_catalog: it runs under the request's search path.
func (v *Validator) LookalikeQuery(res *Result) (string, []string) {
	u := newUses()
	if res != nil && res.uses != nil {
		u = res.uses
	}
	names := maps.Clone(v.allowedNames())
	for n := range u.calls {
		if !v.cfg.allowFuncs[n] || defaultFunctions[n] {
			names[n] = true
		}
	}
	var relSchemas, relNames, typeSchemas, typeNames []string
	for _, r := range slices.SortedFunc(maps.Keys(u.rels), compareNames) {
		relSchemas, relNames = append(relSchemas, r[0]), append(relNames, r[1])
	}
	for _, t := range slices.SortedFunc(maps.Keys(u.types), compareNames) {
		typeSchemas, typeNames = append(typeSchemas, t[0]), append(typeNames, t[1])
	}
	return lookalikeSQL, []string{arrayLiteral(slices.Sorted(maps.Keys(names))), operatorList,
		arrayLiteral(relSchemas), arrayLiteral(relNames), arrayLiteral(typeSchemas), arrayLiteral(typeNames)}
}

func compareNames(a, b [2]string) int {
	if c := strings.Compare(a[0], b[0]); c != 0 {
		return c
	}
	return strings.Compare(a[1], b[1])
}

// allowedNames are the built-in names the policy allows: what a plan may
// call without a V015. A name WithFunctions adds (a user function the
// configuration trusts, as WithFunctions("f")) is not checked: qualify it
// (WithFunctions("public.f")) to pin its schema.
func (v *Validator) allowedNames() map[string]bool {
	v.namesOnce.Do(func() {
		v.names = map[string]bool{}
		for n := range defaultFunctions {
			if !v.cfg.denyFuncs[n] {
				v.names[n] = true
			}
		}
	})
	return v.names
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
	var objects []string
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
		msgs = append(msgs, o+", a function outside pg_catalog and the extensions; the query cannot run here")
	}
	if len(msgs) == 0 {
		return l, nil
	}
	sql := ""
	if res != nil {
		sql = res.SQL
	}
	v.cfg.logger.Debug("validate: look-alikes on the search path", "issues", len(msgs))
	return l, &Error{SQL: sql, Issues: lookalikeIssues(msgs)}
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

// lookalikeSQL is LookalikeQuery's query. It runs under the request's
// search path, where a look-alike of an operator or function it uses would
// run too: every operator is written OPERATOR(pg_catalog.op) ({op} below),
// every function, type and relation is qualified
// (TestLookalikeQueryQualified).
var lookalikeSQL = strings.NewReplacer("{=}", "OPERATOR(pg_catalog.=)", "{<>}", "OPERATOR(pg_catalog.<>)",
	"{>}", "OPERATOR(pg_catalog.>)", "\n\t", " ", "\n", " ").Replace(`WITH RECURSIVE
sys(oid) AS (SELECT n.oid FROM pg_catalog.pg_namespace n
	WHERE n.nspname {=} ANY ('{pg_catalog,information_schema}'::pg_catalog.name[])),
path(oid, nspname) AS (SELECT n.oid, n.nspname FROM pg_catalog.pg_namespace n
	WHERE n.nspname {=} ANY (pg_catalog.current_schemas(false)) AND n.nspname {<>} 'pg_catalog'),
relobj(rel, cls, obj, what) AS NOT MATERIALIZED (
	SELECT r.ev_class, 'pg_catalog.pg_rewrite'::pg_catalog.regclass, r.oid, 'rule of' FROM pg_catalog.pg_rewrite r
	UNION ALL SELECT p.polrelid, 'pg_catalog.pg_policy'::pg_catalog.regclass, p.oid, pg_catalog.format('policy %I on', p.polname)
	FROM pg_catalog.pg_policy p
	UNION ALL SELECT i.indrelid, 'pg_catalog.pg_class'::pg_catalog.regclass, i.indexrelid, 'an index on' FROM pg_catalog.pg_index i
	UNION ALL SELECT k.conrelid, 'pg_catalog.pg_constraint'::pg_catalog.regclass, k.oid, pg_catalog.format('constraint %I on', k.conname)
	FROM pg_catalog.pg_constraint k
	UNION ALL SELECT s.stxrelid, 'pg_catalog.pg_statistic_ext'::pg_catalog.regclass, s.oid, 'statistics on' FROM pg_catalog.pg_statistic_ext s
	UNION ALL SELECT h.inhparent, 'pg_catalog.pg_class'::pg_catalog.regclass, h.inhrelid, 'a child of' FROM pg_catalog.pg_inherits h
	UNION ALL SELECT c.oid, 'pg_catalog.pg_class'::pg_catalog.regclass, c.oid, 'relation' FROM pg_catalog.pg_class c),
rels(oids) AS (
	SELECT ARRAY(SELECT c.oid FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid {=} c.relnamespace
		JOIN ROWS FROM (pg_catalog.unnest($3::pg_catalog.text[]), pg_catalog.unnest($4::pg_catalog.text[])) AS q(s, r)
		ON c.relname {=} q.r WHERE n.nspname {=} q.s OR n.oid {=} ANY (ARRAY(SELECT oid FROM path)))
	UNION ALL SELECT z.oids FROM rels x, LATERAL (SELECT ARRAY(SELECT pg_catalog.unnest(x.oids)
		UNION SELECT o.obj FROM relobj o WHERE o.rel {=} ANY (x.oids) AND o.cls {=} 'pg_catalog.pg_class'::pg_catalog.regclass
		UNION SELECT d.refobjid FROM relobj o JOIN pg_catalog.pg_depend d ON d.classid {=} o.cls AND d.objid {=} o.obj
		WHERE o.rel {=} ANY (x.oids) AND d.refclassid {=} 'pg_catalog.pg_class'::pg_catalog.regclass)) z(oids)
	WHERE pg_catalog.cardinality(z.oids) {>} pg_catalog.cardinality(x.oids)),
relset(oid) AS MATERIALIZED (SELECT pg_catalog.unnest(x.oids)
	FROM (SELECT oids FROM rels ORDER BY pg_catalog.cardinality(oids) DESC LIMIT 1) x),
types(oids) AS (
	SELECT ARRAY(SELECT c.reltype FROM relset x JOIN pg_catalog.pg_class c ON c.oid {=} x.oid WHERE c.reltype {<>} 0
		UNION SELECT a.atttypid FROM relset x JOIN pg_catalog.pg_attribute a ON a.attrelid {=} x.oid WHERE a.attnum {>} 0
		UNION SELECT t.oid FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid {=} t.typnamespace
		JOIN ROWS FROM (pg_catalog.unnest($5::pg_catalog.text[]), pg_catalog.unnest($6::pg_catalog.text[])) AS q(s, t)
		ON t.typname {=} q.t WHERE n.nspname {=} q.s
		OR (q.s {=} '' AND (n.nspname {=} 'pg_catalog' OR n.oid {=} ANY (ARRAY(SELECT oid FROM path))))
		UNION SELECT d.refobjid FROM relset x JOIN relobj o ON o.rel {=} x.oid
		JOIN pg_catalog.pg_depend d ON d.classid {=} o.cls AND d.objid {=} o.obj
		WHERE d.refclassid {=} 'pg_catalog.pg_type'::pg_catalog.regclass)
	UNION ALL SELECT z.oids FROM types x, LATERAL (SELECT ARRAY(SELECT pg_catalog.unnest(x.oids)
		UNION SELECT u.oid FROM pg_catalog.pg_type t, LATERAL (SELECT t.typbasetype UNION ALL SELECT t.typelem
			UNION ALL SELECT t.typarray UNION ALL SELECT a.atttypid FROM pg_catalog.pg_attribute a
			WHERE a.attrelid {=} t.typrelid AND a.attnum {>} 0) u(oid)
		WHERE t.oid {=} ANY (x.oids) AND u.oid {<>} 0)) z(oids)
	WHERE pg_catalog.cardinality(z.oids) {>} pg_catalog.cardinality(x.oids)),
typeset(oid) AS MATERIALIZED (SELECT pg_catalog.unnest(x.oids)
	FROM (SELECT oids FROM types ORDER BY pg_catalog.cardinality(oids) DESC LIMIT 1) x),
objs(cls, obj, what) AS (
	SELECT o.cls, o.obj, pg_catalog.format('%s %s', o.what, x.oid::pg_catalog.regclass)
	FROM relset x JOIN relobj o ON o.rel {=} x.oid
	UNION ALL SELECT 'pg_catalog.pg_constraint'::pg_catalog.regclass, k.oid, pg_catalog.format('domain %s', k.contypid::pg_catalog.regtype)
	FROM typeset y JOIN pg_catalog.pg_constraint k ON k.contypid {=} y.oid
	UNION ALL SELECT 'pg_catalog.pg_cast'::pg_catalog.regclass, k.oid,
	pg_catalog.format('cast (%s AS %s)', k.castsource::pg_catalog.regtype, k.casttarget::pg_catalog.regtype)
	FROM pg_catalog.pg_cast k WHERE EXISTS (SELECT FROM typeset y JOIN pg_catalog.pg_type t ON t.oid {=} y.oid
		WHERE (y.oid {=} k.castsource OR y.oid {=} k.casttarget) AND NOT (t.typnamespace {=} ANY (ARRAY(SELECT oid FROM sys)))))
SELECT 'function', p.proname::pg_catalog.text, ` + procWhat + `
FROM pg_catalog.pg_proc p JOIN path n ON n.oid {=} p.pronamespace
WHERE p.proname {=} ANY ($1::pg_catalog.text[]::pg_catalog.name[]) AND ` + userProc + `
UNION ALL SELECT 'operator', o.oprname::pg_catalog.text, ` + opWhat + `
FROM pg_catalog.pg_operator o JOIN path n ON n.oid {=} o.oprnamespace
WHERE o.oprname {=} ANY ($2::pg_catalog.text[]::pg_catalog.name[]) AND ` + userOp + `
UNION ALL SELECT 'object', ` + procWhat + `, o.what FROM objs o
JOIN pg_catalog.pg_depend d ON d.classid {=} o.cls AND d.objid {=} o.obj
AND d.refclassid {=} 'pg_catalog.pg_proc'::pg_catalog.regclass
JOIN pg_catalog.pg_proc p ON p.oid {=} d.refobjid JOIN pg_catalog.pg_namespace n ON n.oid {=} p.pronamespace
WHERE ` + userProc + `
UNION ALL SELECT 'object', 'operator ' OPERATOR(pg_catalog.||) ` + opWhat + `, x.what FROM objs x
JOIN pg_catalog.pg_depend d ON d.classid {=} x.cls AND d.objid {=} x.obj
AND d.refclassid {=} 'pg_catalog.pg_operator'::pg_catalog.regclass
JOIN pg_catalog.pg_operator o ON o.oid {=} d.refobjid JOIN pg_catalog.pg_namespace n ON n.oid {=} o.oprnamespace
WHERE ` + userOp)

// procWhat and opWhat name a function p and an operator o of schema n;
// userProc and userOp tell a user's function or operator (p, o) from a
// built-in or a superuser's extension member.
const (
	procWhat = `pg_catalog.format('%I.%I(%s)', n.nspname, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid))`
	opWhat   = `pg_catalog.format('%I.%s(%s, %s)', n.nspname, o.oprname, pg_catalog.format_type(o.oprleft, NULL),
	pg_catalog.format_type(o.oprright, NULL))`
	userProc = `NOT (p.pronamespace {=} ANY (ARRAY(SELECT oid FROM sys))) AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend e
	JOIN pg_catalog.pg_roles r ON r.oid {=} p.proowner WHERE e.classid {=} 'pg_catalog.pg_proc'::pg_catalog.regclass
	AND e.objid {=} p.oid AND e.deptype {=} 'e' AND r.rolsuper)`
	userOp = `NOT (o.oprnamespace {=} ANY (ARRAY(SELECT oid FROM sys))) AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend e
	JOIN pg_catalog.pg_roles r ON r.oid {=} o.oprowner WHERE e.classid {=} 'pg_catalog.pg_operator'::pg_catalog.regclass
	AND e.objid {=} o.oid AND e.deptype {=} 'e' AND r.rolsuper)`
)
