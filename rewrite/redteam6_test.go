package rewrite_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/internal/corpus"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/rewrite"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// rt6Shop is the allowed set of the validator's attack corpus
// (validate/corpus_test.go's shopTables).
var rt6Shop = []validate.Table{
	{Schema: "public", Name: "users", Columns: []string{"id", "name", "email", "created_at"}, PrimaryKey: []string{"id"}},
	{Schema: "public", Name: "orders", Columns: []string{"id", "user_id", "amount", "status", "created_at"}, PrimaryKey: []string{"id"}},
	{Schema: "public", Name: "products", Columns: []string{"id", "name", "price"}, PrimaryKey: []string{"id"}},
}

// TestRedteam6ProbeOfAnAttackIsAnAttack (held): every case of the
// validator's attack corpus, as written and nested where a probe takes
// its keys from (a derived table sorted by its whole row, a scalar
// subquery named by an alias the probe copies, an ORDER BY sublink), is
// refused with the same code in its probe: the probe holds the
// candidate's whole text, so what the policy refuses in one it refuses in
// the other, and NewTieProbe does not panic on any of them. (Some probes
// are refused with V001 instead: the deparser garbles their text, which
// fails closed.)
func TestRedteam6ProbeOfAnAttackIsAnAttack(t *testing.T) {
	cases, err := corpus.Read(filepath.Join("..", "validate", "testdata", "attacks"))
	if err != nil {
		t.Fatal(err)
	}
	v := validate.New(validate.WithTables(rt6Shop...), validate.WithMaxRows(1000))
	probes, garbled := 0, 0
	for _, c := range cases {
		inner := strings.TrimRight(strings.TrimSpace(c.SQL), ";")
		for _, sql := range []string{
			c.SQL,
			"SELECT 1 AS one FROM (" + inner + "\n) AS a ORDER BY a LIMIT 3",
			"SELECT (SELECT count(*) FROM (" + inner + "\n) AS a) AS n FROM users ORDER BY n DESC LIMIT 1",
			"SELECT name FROM users ORDER BY (SELECT count(*) FROM (" + inner + "\n) AS a) LIMIT 1",
			"WITH w AS (" + inner + "\n) SELECT name AS x FROM users, LATERAL (SELECT 1 FROM w) l ORDER BY x LIMIT 1",
		} {
			p, ok := rewrite.NewTieProbe(sql)
			if !ok {
				continue
			}
			probes++
			_, cerr := v.Validate(sql)
			var cve *validate.Error
			if !errors.As(cerr, &cve) || !cve.Has(c.Code) {
				continue // the nesting made it another query (or a slip)
			}
			_, perr := v.Validate(p.SQL)
			var pve *validate.Error
			switch {
			case !errors.As(perr, &pve):
				t.Errorf("%s:%d: candidate refused with %s, probe accepted (%v)\ncandidate: %s\nprobe: %s", c.File, c.Line, c.Code, perr, sql, p.SQL)
			case !pve.Has(c.Code):
				// pg_query's deparser wrote text that no longer parses
				// ((1).f as 1.f): refused all the same, a tie missed.
				garbled++
			}
		}
	}
	t.Logf("%d probes of %d attack cases; %d refused with another code than their candidate", probes, len(cases), garbled)
	if probes < len(cases) {
		t.Errorf("only %d probes built from %d attack cases: the test checks too little", probes, len(cases))
	}
}

// rt6Location drops parse-tree locations, which move when text is added.
var rt6Location = regexp.MustCompile(`"location":-?\d+,?`)

// rt6Parts returns a SELECT's parse tree as JSON without locations: its
// target list, and everything else but LIMIT and OFFSET.
func rt6Parts(t *testing.T, sql string) (targets []string, rest string) {
	t.Helper()
	tree, err := pg_query.Parse(sql)
	if err != nil {
		t.Errorf("%s: %v", sql, err)
		return nil, ""
	}
	s := tree.Stmts[0].Stmt.GetSelectStmt()
	for _, n := range s.TargetList {
		b, _ := json.Marshal(n)
		targets = append(targets, rt6Location.ReplaceAllString(string(b), ""))
	}
	s.TargetList, s.LimitCount, s.LimitOffset, s.LimitOption = nil, nil, nil, pg_query.LimitOption_LIMIT_OPTION_DEFAULT
	b, _ := json.Marshal(s)
	return targets, rt6Location.ReplaceAllString(string(b), "")
}

// TestRedteam6ProbeKeepsTheCandidate (held): in every spelling (quoting,
// case, U& escapes, dollar quotes, comments, pg_catalog qualification,
// CTEs, VALUES in FROM, sublinks, LATERAL, window frames and named
// windows, grouping sets, FILTER, WITHIN GROUP, COLLATE, USING and
// OPERATOR(), NULLS FIRST/LAST) the probe is the candidate's own tree
// with only its LIMIT made WITH TIES: the same targets, FROM, WHERE,
// GROUP BY, HAVING, WINDOW and ORDER BY, so it reads and calls nothing
// the candidate does not.
func TestRedteam6ProbeKeepsTheCandidate(t *testing.T) {
	for _, sql := range []string{
		`SELECT "Name" FROM "Users" ORDER BY U&"cre\0061ted_at" DESC NULLS LAST LIMIT 1`,
		`SELECT name FROM users WHERE name <> $$x$$ /* c */ ORDER BY -- c
			length(name) LIMIT 2`,
		`SELECT name FROM users ORDER BY pg_catalog.lower(name) COLLATE "C" USING OPERATOR(pg_catalog.<) LIMIT 1`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n AS k FROM r ORDER BY k DESC LIMIT 1`,
		`SELECT v.a FROM (VALUES (1, 'x'), (2, 'y')) AS v(a, b) ORDER BY v.b LIMIT 1`,
		`SELECT u.name, l.c FROM users u, LATERAL (SELECT count(*) AS c FROM orders o WHERE o.user_id = u.id) l ORDER BY l.c DESC LIMIT 1`,
		`SELECT name, sum(id) OVER w AS s FROM users WINDOW w AS (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) ORDER BY s DESC, 1 LIMIT 1`,
		`SELECT status, count(*) FILTER (WHERE amount > 0) AS n FROM orders GROUP BY GROUPING SETS ((status), ()) ORDER BY n DESC NULLS FIRST LIMIT 1`,
		`SELECT status, percentile_cont(0.5) WITHIN GROUP (ORDER BY amount) AS m FROM orders GROUP BY status HAVING count(*) > 1 ORDER BY m LIMIT 1`,
		`SELECT DISTINCT status FROM orders WHERE user_id IN (SELECT id FROM users WHERE EXISTS (SELECT 1 FROM products)) ORDER BY status LIMIT 1`,
		`(SELECT name FROM users ORDER BY (SELECT max(amount) FROM orders o WHERE o.user_id = users.id) DESC LIMIT 1)`,
		`SELECT name AS "Created_At", created_at FROM users ORDER BY "Created_At", created_at LIMIT 1`,
		// Spellings pg_query's deparser rewrites: the tree must not change.
		`SELECT name FROM users ORDER BY (name COLLATE "C")::text, (id)::text COLLATE "C" LIMIT 1`,
		`SELECT name FROM users ORDER BY (- id) ^ 2, 2 ^ 3 ^ id, - - id LIMIT 1`,
		`SELECT name FROM users ORDER BY created_at + interval '1' day, created_at AT TIME ZONE 'UTC' LIMIT 1`,
		`SELECT name FROM users ORDER BY (id IS NULL) = (name IS NULL), NOT id = 1, id IS DISTINCT FROM 2 LIMIT 1`,
		`SELECT name FROM users ORDER BY name || U&'\0041' || E'\x42', (users).name, (ARRAY[id])[1] LIMIT 1`,
		`SELECT name FROM users ORDER BY id OPERATOR(pg_catalog.-) 1, overlay(name placing 'x' from 2), CURRENT_TIMESTAMP(2) LIMIT 1`,
		`SELECT name FROM users ORDER BY CASE WHEN id > 1 THEN 'a' ELSE 'b' END, COALESCE(name, ''), name SIMILAR TO 'a%', name ILIKE 'a%' LIMIT 1`,
	} {
		p, ok := rewrite.NewTieProbe(sql)
		if !ok {
			t.Errorf("no probe for %s", sql)
			continue
		}
		ct, cr := rt6Parts(t, sql)
		pt, pr := rt6Parts(t, p.SQL)
		if cr != pr {
			t.Errorf("%s: the probe is another query beside its targets\ncandidate %s\nprobe     %s", sql, cr, pr)
		}
		if fmt.Sprint(pt) != fmt.Sprint(ct) {
			t.Errorf("%s: probe targets %v, want the candidate's %v", sql, pt, ct)
		}
	}
}

// TestRedteam6ProbeCostAmplification: the probe copies the expression of
// an output column once per ORDER BY item naming it, and PostgreSQL
// evaluates each copy wherever it cannot postpone an output column past
// the LIMIT: under DISTINCT, for a set-returning function, for a window
// function. Twenty repeats of one alias cost the planner about 20 times
// the candidate. (A set-returning function's copies cost 17 times the
// time and the planner sees 1.4 times: no plan budget catches them.)
// Measured (psql, \timing) with 20 repeats on 300 rows and
// a 20000-row correlated count: DISTINCT 0.21 s -> 1.8 s with 8 repeats
// and 10.2 s with 60 (planner cost 1.07e5 -> 6.5e6, far under the default
// plan budget of 1e8); window 0.21 s -> 3.8 s; generate_series 0.02 s ->
// 0.36 s. The Engine runs the probe under the request's context alone
// (score.go tiedAtCut): not verifyTimeout like repeatedKeys, not the
// cheapCost gate of the agreement runs; only the statement timeout (30 s
// by default) stops it.
// redteam6: BYPASS (fixed: the probe is the query WITH TIES)
func TestRedteam6ProbeCostAmplification(t *testing.T) {
	pgtest.SkipShort(t)
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE TABLE big AS SELECT g AS v FROM generate_series(1, 20000) g;
		CREATE TABLE p AS SELECT g AS id, 'n' || (g % 50) AS name, g AS v FROM generate_series(1, 300) g;
		ANALYZE big; ANALYZE p`)
	pool := pgtest.Pool(t, dsn)
	cost := func(q string) float64 { return pgtest.PlanCost(t, pool, q) }
	keys := strings.Repeat("m, ", 19) + "m"
	for _, sql := range []string{
		"SELECT DISTINCT name, (SELECT count(*) FROM big b WHERE b.v <= p.v) AS m FROM p ORDER BY " + keys + " LIMIT 1",
		"SELECT id, sum((SELECT count(*) FROM big b WHERE b.v <= p.v)) OVER (ORDER BY id) AS m FROM p ORDER BY " + keys + " LIMIT 1",
	} {
		p, ok := rewrite.NewTieProbe(sql)
		if !ok {
			t.Errorf("no probe for %s", sql)
			continue
		}
		c, pc := cost(sql), cost(p.SQL)
		t.Logf("candidate cost %.0f, probe cost %.0f (%.1fx): %s", c, pc, pc/c, sql)
		if pc > 2*c {
			t.Errorf("the probe costs %.1f times its candidate (%.0f against %.0f): %s", pc/c, pc, c, sql)
		}
	}
}
