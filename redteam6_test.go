package nl2sql_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// rt6Pick picks sql on the database dsn (an Engine on a fresh pool, its
// logs in logs when not nil) and returns the result.
func rt6Pick(t *testing.T, dsn, question, sql string, logs *bytes.Buffer, opts ...nl2sql.AskOption) *nl2sql.PickResult {
	t.Helper()
	var eopts []nl2sql.Option
	if logs != nil {
		eopts = append(eopts, nl2sql.WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	}
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), eopts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	res, err := eng.Pick(context.Background(), question, []string{sql}, opts...)
	if err != nil {
		t.Fatalf("Pick(%q): %v", sql, err)
	}
	if res.Chosen != 0 {
		t.Fatalf("Pick(%q) chose %d: the candidate did not run", sql, res.Chosen)
	}
	return res
}

// rt6Case is one candidate and whether its cut is really inside a tie.
type rt6Case struct {
	name, sql string
	tied      bool
}

// rt6OnData runs cases on a fresh database made by script.
func rt6OnData(t *testing.T, script, question string, cases []rt6Case) {
	t.Helper()
	pgtest.SkipShort(t)
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, script)
	rt6Run(t, dsn, question, cases)
}

func rt6Run(t *testing.T, dsn, question string, cases []rt6Case) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := rt6Pick(t, dsn, question, tc.sql, nil)
			if res.Signals.Tied != tc.tied {
				t.Errorf("%s: Signals.Tied = %v, want %v (ran %s, candidates %+v)", tc.sql, res.Signals.Tied, tc.tied, res.SQL, res.Candidates)
			}
		})
	}
}

// TestRedteam6ValuesProbeComparesWrongColumn: a top-level VALUES sorted by
// column1 keeps one row whose column1 (1) differs from the next one's (2):
// no tie. pg_query's deparser drops the target list NewTieProbe appends to
// a VALUES statement, so the probe's "last Keys columns" are column2, which
// is 'x' in both rows: a false tie.
// redteam6: BYPASS (fixed: the probe is the query WITH TIES, run only when cheap)
func TestRedteam6ValuesProbeComparesWrongColumn(t *testing.T) {
	rt6OnData(t, `CREATE TABLE sizes (id int PRIMARY KEY, label text NOT NULL);
		INSERT INTO sizes VALUES (1, 'small'), (2, 'large')`,
		"Which size is smallest?", []rt6Case{
			{"values", "VALUES (1, 'x'), (2, 'x') ORDER BY column1 LIMIT 1", false},
			{"values-desc", "VALUES (1, 'small', 'x'), (2, 'large', 'x') ORDER BY column1 DESC LIMIT 1", false},
		})
}

// TestRedteam6ImplicitOutputNameMissesTie: ORDER BY score, where the
// only output column PostgreSQL names "score" is CAST(score AS int) (a
// cast takes its argument's name), sorts by the rounded value: 9.6 and
// 10.4 both sort as 10, the cut is inside a tie. NewTieProbe matches a
// bare name only to aliases and plain column references, so its key is
// the raw score, 10.4 against 9.6: no tie reported. The same holds for
// a COLLATE clause, an array subscript or a scalar subquery's column
// name.
// redteam6: BYPASS (fixed: the probe is the query WITH TIES, run only when cheap)
func TestRedteam6ImplicitOutputNameMissesTie(t *testing.T) {
	rt6OnData(t, `CREATE TABLE players (id int PRIMARY KEY, name text NOT NULL, score numeric NOT NULL);
		INSERT INTO players VALUES (1, 'Ann', 10.4), (2, 'Bob', 9.6), (3, 'Cy', 3)`,
		"Which player has the highest score?", []rt6Case{
			{"cast", "SELECT name, CAST(score AS int) FROM players ORDER BY score DESC LIMIT 1", true},
			{"colon-cast", "SELECT name, score::int FROM players ORDER BY score DESC LIMIT 1", true},
			{"typmod", "SELECT name, score::numeric(3,0) FROM players ORDER BY score DESC LIMIT 1", true},
		})
}

// TestRedteam6EqualKeysPrintedDifferentlyMissTie: the probe compares the
// keys' printed values (JSON of execute's values), while ORDER BY compares
// them with the type's own equality: numeric 2.0 = 2 (sum of 1.5 and 0.5
// against a sum of 2), interval '1 mon' = '30 days', float8 -0 = 0 and
// text under a nondeterministic (case-insensitive) collation 'ann' =
// 'ANN' all sort as ties and print differently: each cut is inside a tie
// and the probe reports none.
// redteam6: BYPASS (fixed: the probe is the query WITH TIES, run only when cheap)
func TestRedteam6EqualKeysPrintedDifferentlyMissTie(t *testing.T) {
	rt6OnData(t, `CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
		CREATE TABLE orders (id int PRIMARY KEY, customer text NOT NULL, amount numeric NOT NULL);
		INSERT INTO orders VALUES (1, 'Ann', 1.5), (2, 'Ann', 0.5), (3, 'Bob', 2), (4, 'Cy', 1);
		CREATE TABLE members (id int PRIMARY KEY, name text NOT NULL, tenure interval NOT NULL, balance float8 NOT NULL,
			email text COLLATE ci NOT NULL);
		INSERT INTO members VALUES (1, 'Ann', '1 mon', '-0'::float8, 'ann@x.org'), (2, 'Bob', '30 days', 0, 'ANN@X.ORG'),
			(3, 'Cy', '1 day', 5, 'cy@x.org')`,
		"Which customer spent the most?", []rt6Case{
			{"numeric-scale", "SELECT customer FROM orders GROUP BY customer ORDER BY sum(amount) DESC LIMIT 1", true},
			{"interval", "SELECT name FROM members ORDER BY tenure DESC LIMIT 1", true},
			{"negative-zero", "SELECT name FROM members ORDER BY balance LIMIT 1", true},
			{"nondeterministic-collation", "SELECT name FROM members ORDER BY email LIMIT 1", true},
		})
}

// TestRedteam6InputColumnNamedLikeProbeKey: a table with a column named
// nl2sql_tie_key_1 sorted by (b, nl2sql_tie_key_1) keeps two rows
// (1, 1), (1, 1) and cuts (1, 2): no tie. The probe appends
// "b AS nl2sql_tie_key_1", and its ORDER BY nl2sql_tie_key_1 now names
// that output column (an output name wins in ORDER BY): it sorts by b, b,
// the cut lands between two (1, 1) rows and a tie is reported. NewTieProbe
// refuses an output column with its prefix but not an input one.
// redteam6: BYPASS (fixed: the probe is the query WITH TIES, run only when cheap)
func TestRedteam6InputColumnNamedLikeProbeKey(t *testing.T) {
	rt6OnData(t, `CREATE TABLE items (id int PRIMARY KEY, b int NOT NULL, nl2sql_tie_key_1 int NOT NULL);
		INSERT INTO items VALUES (1, 1, 2), (2, 1, 1), (3, 1, 1)`,
		"Which items come first?", []rt6Case{
			{"shadowed", "SELECT id FROM items ORDER BY b, nl2sql_tie_key_1 LIMIT 2", false},
			{"quoted", `SELECT id FROM items ORDER BY b, "nl2sql_tie_key_1" LIMIT 2`, false},
			{"escaped", `SELECT id FROM items ORDER BY b, U&"nl2sql\005ftie_key_1" LIMIT 2`, false},
		})
}

// TestRedteam6ProbeStaysInTheRolesReach (held): the probe runs as the
// request's role, under its settings and row-level security. Tenant a's
// cut (10 kept, 9 cut) is no tie though tenant b holds another 10; an
// alias named like the tenant column, a scalar subquery over the same
// table and a bare name that the probe reads as a whole row of a table
// (a column the role may not read) neither see b's rows nor put a value
// of b, or the unreadable column, in a log line, reason or error; nor does
// a cast that fails on the row the probe reads past the candidate's cut.
func TestRedteam6ProbeStaysInTheRolesReach(t *testing.T) {
	pgtest.SkipShort(t)
	role := pgtest.RoleName(t, "rt6_")
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE ROLE `+role+` NOBYPASSRLS;
		CREATE TABLE scores (id int PRIMARY KEY, tenant text NOT NULL, name text NOT NULL, score int NOT NULL, secret text NOT NULL,
			code text NOT NULL);
		INSERT INTO scores VALUES (1, 'a', 'Ann', 10, 'hush-a1', '7'), (2, 'a', 'Bob', 9, 'hush-a2', 'hush-code-a2'),
			(3, 'b', 'Zed', 10, 'hush-b1', '8'), (4, 'b', 'Quy', 10, 'hush-b2', 'hush-code-b');
		ALTER TABLE scores ENABLE ROW LEVEL SECURITY;
		CREATE POLICY own ON scores USING (tenant = current_setting('app.tenant', true));
		GRANT SELECT (id, tenant, name, score, code) ON scores TO `+role)
	as := func(tenant string) []nl2sql.AskOption {
		return []nl2sql.AskOption{nl2sql.AsRole(role), nl2sql.Setting("app.tenant", tenant)}
	}
	for i, sql := range []string{
		"SELECT name FROM scores ORDER BY score DESC LIMIT 1",
		"SELECT name, score AS tenant FROM scores ORDER BY tenant DESC LIMIT 1",
		`SELECT "name" FROM public.scores ORDER BY U&"scor\0065" DESC LIMIT 1`,
		"SELECT name FROM scores s ORDER BY (SELECT count(*) FROM scores s2 WHERE s2.score >= s.score) LIMIT 1",
		"WITH x AS (SELECT name, score FROM scores) SELECT name FROM x ORDER BY score DESC LIMIT 1",
		"SELECT lower(name) FROM scores AS lower ORDER BY lower DESC LIMIT 1",
		// The probe reads one row more than the candidate: its cast fails
		// with that row's value in the server's message.
		"SELECT name, code::int AS c FROM scores ORDER BY id LIMIT 1",
	} {
		var logs bytes.Buffer
		eng, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithSettings("app.tenant"),
			nl2sql.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
		if err != nil {
			t.Fatal(err)
		}
		if err := eng.Prepare(context.Background()); err != nil {
			t.Fatal(err)
		}
		res, err := eng.Pick(context.Background(), "Who scored highest?", []string{sql}, as("a")...)
		if err != nil {
			t.Fatalf("Pick(%q): %v", sql, err)
		}
		if res.Signals.Tied {
			t.Errorf("%s: Tied as tenant a (tenant b's rows counted?)", sql)
		}
		// The control: tenant b's two 10s are a tie the probe sees (the
		// last query sorts by lower(name), which never ties here).
		b, err := eng.Pick(context.Background(), "Who scored highest?", []string{sql}, as("b")...)
		if err != nil {
			t.Fatalf("Pick(%q) as b: %v", sql, err)
		}
		if want := i < 5; b.Signals.Tied != want {
			t.Errorf("%s: Tied = %v as tenant b, want %v", sql, b.Signals.Tied, want)
		}
		seen := logs.String() + strings.Join(res.Reasons, "\n") + fmt.Sprintf("%+v", res.Candidates)
		for _, leak := range []string{"Zed", "Quy", "hush-"} {
			if strings.Contains(seen, leak) {
				t.Errorf("%s: %q in the logs, reasons or candidates", sql, leak)
			}
		}
	}
}

// TestRedteam6ProbeMeansTheCandidatesKeys (held): the tie reported is the
// candidate's own at its cut, whatever the sort key is spelt as: an alias
// of a volatile expression (PostgreSQL gives the copy the sorted value),
// of a window function or a frame, of a set-returning function, an alias
// that is also an input column's name (the output column wins), NULLS
// FIRST, USING, an ordinal, grouping, DISTINCT, COLLATE, a CTE with
// LATERAL. Each pair of LIMITs holds one cut inside a tie and one outside.
func TestRedteam6ProbeMeansTheCandidatesKeys(t *testing.T) {
	rt6OnData(t, `CREATE TABLE ev (id int PRIMARY KEY, grp int NOT NULL, tag text);
		INSERT INTO ev SELECT g, CASE WHEN g <= 2 THEN 1 ELSE g END, CASE WHEN g > 2 THEN 't' || g END FROM generate_series(1, 40) g`,
		"Which events come first?", []rt6Case{
			{"volatile-alias", "SELECT id, floor(random() * 2) AS r FROM ev ORDER BY r LIMIT 1", true},
			{"window-alias", "SELECT id, dense_rank() OVER (ORDER BY grp) AS dr FROM ev ORDER BY dr LIMIT 1", true},
			{"window-alias-past", "SELECT id, dense_rank() OVER (ORDER BY grp) AS dr FROM ev ORDER BY dr LIMIT 2", false},
			{"window-frame", "SELECT id, sum(grp) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM ev ORDER BY s LIMIT 1", false},
			{"srf-alias", "SELECT id, unnest(ARRAY[grp, grp]) AS u FROM ev ORDER BY u LIMIT 3", true},
			{"srf-alias-past", "SELECT id, unnest(ARRAY[grp, grp]) AS u FROM ev ORDER BY u LIMIT 4", false},
			{"nulls-first", "SELECT id FROM ev ORDER BY tag NULLS FIRST LIMIT 1", true},
			{"nulls-first-past", "SELECT id FROM ev ORDER BY tag NULLS FIRST LIMIT 2", false},
			{"using", "SELECT id FROM ev ORDER BY grp USING < LIMIT 1", true},
			{"alias-shadows-input", "SELECT id, -grp AS grp FROM ev ORDER BY grp DESC LIMIT 1", true},
			{"alias-shadows-input-past", "SELECT id, -grp AS grp FROM ev ORDER BY grp DESC LIMIT 2", false},
			{"quoted-alias", `SELECT id, -grp AS "Grp" FROM ev ORDER BY "Grp" DESC LIMIT 1`, true},
			{"ordinal", "SELECT grp, id FROM ev ORDER BY 1 LIMIT 1", true},
			{"grouped", "SELECT grp AS g, count(*) AS n FROM ev GROUP BY grp ORDER BY n LIMIT 1", true},
			{"grouped-past", "SELECT grp AS g, count(*) AS n FROM ev GROUP BY grp ORDER BY n DESC LIMIT 1", false},
			{"distinct", "SELECT DISTINCT grp FROM ev ORDER BY grp LIMIT 1", false},
			{"collate", `SELECT id FROM ev ORDER BY tag COLLATE "C" NULLS LAST LIMIT 1`, false},
			{"cte-lateral", "WITH c AS (SELECT grp FROM ev) SELECT e.id FROM ev e, LATERAL (SELECT count(*) AS n FROM c WHERE c.grp = e.grp) l ORDER BY l.n DESC LIMIT 1", true},
			{"cte-lateral-past", "WITH c AS (SELECT grp FROM ev) SELECT e.id FROM ev e, LATERAL (SELECT count(*) AS n FROM c WHERE c.grp = e.grp) l ORDER BY l.n DESC LIMIT 2", false},
			{"offset", "SELECT id FROM ev ORDER BY grp OFFSET 38 LIMIT 1", false},
			{"offset-overflow", "SELECT id FROM ev ORDER BY grp OFFSET 2147483647 LIMIT 1000", false},
		})
}

// TestRedteam6EngineRunsAmplifiedProbe: Pick runs the probe of a candidate
// sorted twenty times by the alias of a correlated count under DISTINCT
// (see rewrite's TestRedteam6ProbeCostAmplification): the probe the
// executor logs costs the planner about twenty times the candidate, and
// nothing but the statement timeout bounds it.
// redteam6: BYPASS (fixed: the probe is the query WITH TIES, run only when cheap)
func TestRedteam6EngineRunsAmplifiedProbe(t *testing.T) {
	pgtest.SkipShort(t)
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE TABLE big (v int PRIMARY KEY); INSERT INTO big SELECT generate_series(1, 3000);
		CREATE TABLE people (id int PRIMARY KEY, name text NOT NULL, v int NOT NULL);
		INSERT INTO people SELECT g, 'n' || (g % 50), g FROM generate_series(1, 300) g;
		ANALYZE big; ANALYZE people`)
	sql := "SELECT DISTINCT name, (SELECT count(*) FROM big b WHERE b.v + 0 <= p.v) AS m FROM people p ORDER BY " +
		strings.Repeat("m, ", 19) + "m LIMIT 1"
	var logs bytes.Buffer
	rt6Pick(t, dsn, "Which name has the fewest smaller values?", sql, &logs)
	probeSQL := rt6LoggedQuery(t, logs.String(), "WITH TIES")
	if probeSQL == "" {
		t.Log("no probe ran (the candidate is too dear to run twice)")
		return
	}
	pool := pgtest.Pool(t, dsn)
	cost := func(q string) float64 { return pgtest.PlanCost(t, pool, q) }
	c, pc := cost(sql), cost(probeSQL)
	t.Logf("candidate cost %.0f, the probe the Engine ran %.0f", c, pc)
	if pc > 2*c {
		t.Errorf("the Engine ran a probe costing %.1f times its candidate: %s", pc/c, probeSQL)
	}
}

// TestRedteam6OrdinalAfterStar: ORDER BY 2 names the second output
// column after a star is expanded (here players.name), but sortKey counts
// the star as one target, so the key is the second item written: the
// constant 0 of "0 AS zero", or the score. The names differ (no tie); the
// probe compares 0 with 0, a tie, or the scores.
// redteam6: BYPASS (fixed: the probe is the query WITH TIES, run only when cheap)
func TestRedteam6OrdinalAfterStar(t *testing.T) {
	rt6OnData(t, `CREATE TABLE players (id int PRIMARY KEY, name text NOT NULL, score int NOT NULL);
		INSERT INTO players VALUES (1, 'Ann', 5), (2, 'Bob', 5), (3, 'Cy', 7)`,
		"Which player comes first by name?", []rt6Case{
			{"constant", "SELECT *, 0 AS zero FROM players ORDER BY 2 LIMIT 1", false},
			{"qualified-star", "SELECT p.*, p.score FROM players p ORDER BY 2 LIMIT 1", false},
		})
}

// TestRedteam6InvalidUTF8KeysTie: in a SQL_ASCII database a text key may
// hold bytes that are not UTF-8; encoding/json writes every invalid byte
// as U+FFFD, so Tied sees 'caf\xe8' and 'caf\xe9' (which sort apart) as
// equal: a false tie.
// redteam6: BYPASS (fixed: the probe is the query WITH TIES, run only when cheap)
func TestRedteam6InvalidUTF8KeysTie(t *testing.T) {
	pgtest.SkipShort(t)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, pgtest.AdminDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	name := strings.ToLower(pgtest.RoleName(t, "rt6ascii_")) // a unique name; no role is made
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name+" ENCODING 'SQL_ASCII' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), pgtest.AdminDSN(t))
		if err == nil {
			_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			c.Close(context.Background())
		}
	})
	dsn, err := pgtest.WithDatabase(pgtest.AdminDSN(t), name)
	if err != nil {
		t.Fatal(err)
	}
	pgtest.Exec(t, dsn, `CREATE TABLE tags (id int PRIMARY KEY, label text NOT NULL);
		INSERT INTO tags VALUES (1, E'caf\xe9'), (2, E'caf\xe8'), (3, 'zzz')`)
	rt6Run(t, dsn, "Which tag comes first?", []rt6Case{
		{"latin1-bytes", "SELECT id FROM tags ORDER BY label LIMIT 1", false},
	})
}

// rt6LoggedQuery returns the SQL of the last "execute: query" log line
// holding marker, "" when there is none.
func rt6LoggedQuery(t *testing.T, logs, marker string) string {
	t.Helper()
	var line string
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, "execute: query") && strings.Contains(l, marker) {
			line = l
		}
	}
	if line == "" {
		return ""
	}
	_, rest, _ := strings.Cut(line, "sql=")
	sql, err := strconv.Unquote(rest[:strings.Index(rest, " rows=")])
	if err != nil {
		t.Fatalf("%s: %v", rest, err)
	}
	return sql
}

// TestRedteam6PickRunsExpensiveProbe: PickResult says "Pick runs no
// query", and the agreement runs of several candidates are limited to
// those the planner finds cheap (cheapCost, 1e5). The tie probe runs
// whatever the candidate costs: one candidate passed to Pick, which used to
// cost an EXPLAIN, is now executed (as its probe) for up to the statement
// timeout.
// redteam6: BYPASS (fixed: the probe is the query WITH TIES, run only when cheap)
func TestRedteam6PickRunsExpensiveProbe(t *testing.T) {
	pgtest.SkipShort(t)
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE TABLE big (v int PRIMARY KEY); INSERT INTO big SELECT generate_series(1, 10000);
		CREATE TABLE people (id int PRIMARY KEY, name text NOT NULL, v int NOT NULL);
		INSERT INTO people SELECT g, 'n' || g, g * 10 FROM generate_series(1, 1000) g;
		ANALYZE big; ANALYZE people`)
	sql := "SELECT name FROM people p ORDER BY (SELECT count(*) FROM big b WHERE b.v + 0 <= p.v) DESC LIMIT 1"
	var logs bytes.Buffer
	rt6Pick(t, dsn, "Who has the most smaller values?", sql, &logs)
	ran := rt6LoggedQuery(t, logs.String(), "WITH TIES")
	if ran == "" {
		return // no probe: the candidate is dearer than the compare runs allow
	}
	const cheapCost = 1e5 // score.go
	if c := pgtest.PlanCost(t, pgtest.Pool(t, dsn), ran); c > cheapCost {
		t.Errorf("Pick ran a query of cost %.0f (over %.0f): %s", c, cheapCost, ran)
	}
}
