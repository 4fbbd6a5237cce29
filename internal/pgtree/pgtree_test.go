package pgtree

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"
	"github.com/pganalyze/pg_query_go/v6/parser"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/defog"
)

// root is the repository root, from this package's directory.
const root = "../.."

// same requires Parse(sql) to behave as pg.Parse(sql): the equal tree,
// decoded without falling back, or the same error. It reports whether sql
// parsed.
func same(t testing.TB, name, sql string) bool {
	t.Helper()
	want, werr := pg.Parse(sql)
	before := Fallbacks()
	got, gerr := Parse(sql)
	if Fallbacks() != before {
		js, _ := pg.ParseToJSON(sql)
		t.Errorf("%s: fell back to pg.Parse\nSQL: %.300s\nJSON: %.2000s", name, sql, js)
		return werr == nil
	}
	if werr != nil || gerr != nil {
		if !sameError(gerr, werr) {
			t.Errorf("%s: error %v, pg.Parse: %v\nSQL: %.300s", name, gerr, werr, sql)
		}
		return false
	}
	if !proto.Equal(got, want) {
		t.Errorf("%s: tree differs from pg.Parse\nSQL: %.300s\ngot:  %.3000s\nwant: %.3000s", name, sql,
			prototext.Format(got), prototext.Format(want))
	}
	return true
}

// sameError reports whether two parse errors are equal: the same
// *parser.Error values, or the same message for other errors.
func sameError(a, b error) bool {
	var pa, pb *parser.Error
	if errors.As(a, &pa) || errors.As(b, &pb) {
		return errors.As(a, &pa) && errors.As(b, &pb) && *pa == *pb
	}
	return a != nil && b != nil && a.Error() == b.Error()
}

// statements returns a script's statements and the whole script. The
// validator's corpora are split at their "-- expect:" lines, anything else
// by the scanner (on semicolons outside literals).
func statements(t testing.TB, script string) []string {
	t.Helper()
	if strings.Contains(script, "-- expect:") {
		var parts []string
		for _, c := range strings.Split(script, "\n-- expect:") {
			if _, body, ok := strings.Cut(c, "\n"); ok {
				parts = append(parts, body)
			}
		}
		return append(parts, script)
	}
	parts, err := pg.SplitWithScanner(script, true)
	if err != nil {
		return []string{script}
	}
	return append(parts, script)
}

// corpus is every SQL text of the project: attack and legit corpora, fuzz
// inputs, the repair corpus, the demo ERP's DDL and exam.
func corpus(t testing.TB) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	files, _ := filepath.Glob(filepath.Join(root, "validate/testdata/*/*.sql"))
	more, _ := filepath.Glob(filepath.Join(root, "repair/testdata/*.sql"))
	ddl, _ := filepath.Glob(filepath.Join(root, "examples/erp/sql/*.sql"))
	files = append(append(files, more...), ddl...)
	if len(files) < 10 {
		t.Fatalf("only %d corpus files found", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		key := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		out[key] = statements(t, string(b))
	}
	fuzz, _ := filepath.Glob(filepath.Join(root, "validate/testdata/fuzz/*/*"))
	for _, f := range fuzz {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if arg, ok := strings.CutPrefix(line, "string("); ok {
				if s, err := strconv.Unquote(strings.TrimSuffix(arg, ")")); err == nil {
					out["fuzz"] = append(out["fuzz"], s)
				}
			}
		}
	}
	exam, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range exam {
		out["erp exam"] = append(out["erp exam"], q.GoldSQL)
	}
	return out
}

// TestCorpusEquivalence: over every SQL text of the project, Parse returns
// pg.Parse's tree (or error) without falling back.
func TestCorpusEquivalence(t *testing.T) {
	total := 0
	for name, sqls := range corpus(t) {
		parsed := 0
		for i, sql := range sqls {
			if same(t, name+"#"+strconv.Itoa(i), sql) {
				parsed++
			}
		}
		if parsed == 0 {
			t.Errorf("%s: nothing parsed", name)
		}
		total += parsed
		t.Logf("%s: %d texts, %d parsed", name, len(sqls), parsed)
	}
	if total < 1000 {
		t.Errorf("only %d texts parsed", total)
	}
}

// TestDefogEquivalence does the same over the defog databases' scripts
// (DDL and bulk INSERTs) and gold queries.
func TestDefogEquivalence(t *testing.T) {
	dbs, err := defog.Databases()
	if errors.Is(err, defog.ErrNotFound) {
		t.Skip("defog dataset not found")
	}
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, db := range dbs {
		script, err := defog.Script(db)
		if err != nil {
			t.Fatal(err)
		}
		for i, sql := range statements(t, script) {
			if same(t, db+"#"+strconv.Itoa(i), sql) {
				n++
			}
		}
	}
	qs, err := defog.Questions()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		for _, sql := range defog.Expand(q.Query) {
			if same(t, q.File+":"+strconv.Itoa(q.Line), sql) {
				n++
			}
		}
	}
	t.Logf("defog: %d texts parsed", n)
	if n < 400 {
		t.Errorf("only %d defog texts parsed", n)
	}
}

// tricky covers escapes, literals and statement kinds beyond the corpora.
var tricky = []string{
	`SELECT 'it''s', E'tab\tnl\nbs\\ q\' nul-ish \x01 \u00e9 \U0001F600', $$dollar "quoted" \n$$, $tag$ x $tag$`,
	`SELECT U&"d\0061t\+000061" AS "weird ""name""", U&'\0441\043B\043E\043D', 'é日本語😀', '"\/'`,
	"SELECT '\x01\x02\x1f', 'a\r\nb', E'\\b\\f'",
	`SELECT 9223372036854775807, 9223372036854775808, -2147483648, 2147483648, 1e308, 1.5e-10, .5, 0x1F, 0o17, 0b101, 1_000_000`,
	`SELECT B'1010', X'1F', -1::int, +2, -(-3), NULL, TRUE, FALSE, 'x'::text COLLATE "C"`,
	`WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n+1 FROM t WHERE n < 10) SEARCH DEPTH FIRST BY n SET ord CYCLE n SET is_cycle USING path SELECT * FROM t`,
	`SELECT a, rank() OVER w, sum(b) FILTER (WHERE c) OVER (PARTITION BY d ORDER BY e ROWS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE TIES) FROM x WINDOW w AS (ORDER BY a)`,
	`SELECT * FROM a, LATERAL (SELECT * FROM b WHERE b.id = a.id) s, ROWS FROM (generate_series(1,3), unnest(ARRAY[1])) WITH ORDINALITY f(x, y, o) TABLESAMPLE SYSTEM (10) REPEATABLE (1)`,
	`SELECT a FROM t GROUP BY GROUPING SETS ((a), (b, c), ()), CUBE (d), ROLLUP (e) HAVING GROUPING(a) = 0`,
	`SELECT JSON_OBJECT('a': 1 ABSENT ON NULL), JSON_ARRAYAGG(x ORDER BY x RETURNING jsonb), x IS JSON OBJECT WITH UNIQUE KEYS, JSON_QUERY(j, '$.a' WITH WRAPPER), JSON_VALUE(j, '$.b' RETURNING int DEFAULT 0 ON EMPTY) FROM t`,
	`SELECT * FROM JSON_TABLE(jsonb '[1,2]', '$[*]' COLUMNS (id FOR ORDINALITY, v int PATH '$', NESTED PATH '$.x' COLUMNS (z text)))`,
	`SELECT xmlelement(name foo, xmlattributes(1 AS bar), 'x'), xmlforest(a, b), XMLPARSE(DOCUMENT '<a/>'), xmlserialize(content x AS text) FROM t`,
	`SELECT CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END, COALESCE(a, b), NULLIF(a, b), GREATEST(1, 2), a BETWEEN SYMMETRIC 1 AND 2, a IS DISTINCT FROM b, a <> ALL (SELECT 1), EXISTS (SELECT 1), ARRAY(SELECT 1), a[1:2], (row(1,2)).f1, current_date, current_user, localtimestamp(3)`,
	`SELECT * FROM t FOR UPDATE OF t SKIP LOCKED; SELECT * INTO new FROM t; SELECT DISTINCT ON (a) a FROM t ORDER BY a USING <, b DESC NULLS FIRST OFFSET 5 ROWS FETCH FIRST 3 ROWS WITH TIES`,
	`INSERT INTO t (a, b) VALUES (1, DEFAULT), (2, 3) ON CONFLICT (a) DO UPDATE SET b = EXCLUDED.b WHERE t.b < 0 RETURNING *`,
	`UPDATE t SET (a, b) = (SELECT 1, 2), c = DEFAULT FROM u WHERE t.id = u.id RETURNING a; DELETE FROM t USING u WHERE t.id = u.id AND CURRENT OF c`,
	`MERGE INTO t USING s ON t.id = s.id WHEN MATCHED AND s.x THEN UPDATE SET v = s.v WHEN NOT MATCHED BY SOURCE THEN DELETE WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v) RETURNING merge_action(), t.*`,
	`CREATE TABLE IF NOT EXISTS s.t (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, a numeric(10,2) NOT NULL DEFAULT 0 CHECK (a >= 0), b text COLLATE "C" UNIQUE, c int REFERENCES u(id) ON DELETE CASCADE, d tsvector GENERATED ALWAYS AS (to_tsvector('english', b)) STORED, EXCLUDE USING gist (c WITH =)) PARTITION BY RANGE (id) WITH (fillfactor = 70)`,
	`CREATE FUNCTION f(a int, OUT b text) RETURNS SETOF record LANGUAGE plpgsql STABLE PARALLEL SAFE AS $fn$ BEGIN RETURN QUERY SELECT 1; END $fn$; CREATE FUNCTION g(int) RETURNS int RETURN $1 + 1; DO $$ BEGIN PERFORM 1; END $$`,
	`ALTER TABLE t ADD COLUMN x int, DROP COLUMN y CASCADE, ALTER COLUMN z TYPE bigint USING z::bigint, ADD CONSTRAINT c FOREIGN KEY (a) REFERENCES u (b) NOT VALID; ALTER TABLE t ATTACH PARTITION p FOR VALUES FROM (1) TO (10)`,
	`CREATE INDEX CONCURRENTLY IF NOT EXISTS i ON t USING btree (lower(a) DESC NULLS LAST) INCLUDE (b) WHERE c; CREATE VIEW v WITH (security_barrier) AS SELECT 1 WITH CHECK OPTION; CREATE MATERIALIZED VIEW m AS SELECT 1 WITH NO DATA`,
	`COPY t (a, b) FROM STDIN WITH (FORMAT csv, HEADER true); COPY (SELECT 1) TO '/tmp/x'; GRANT SELECT ON ALL TABLES IN SCHEMA s TO r WITH GRANT OPTION; REVOKE ALL ON t FROM PUBLIC`,
	`BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY; SAVEPOINT s; ROLLBACK TO SAVEPOINT s; COMMIT AND CHAIN; SET LOCAL search_path = a, "B"; RESET ALL; SHOW work_mem; LISTEN c; NOTIFY c, 'x'; VACUUM (ANALYZE, VERBOSE) t (a); EXPLAIN (ANALYZE, FORMAT JSON) SELECT 1; PREPARE p(int) AS SELECT $1; EXECUTE p(1); DEALLOCATE ALL; LOCK TABLE t IN ACCESS EXCLUSIVE MODE NOWAIT; TRUNCATE t RESTART IDENTITY CASCADE; DROP TABLE IF EXISTS a, b CASCADE; DECLARE c CURSOR WITH HOLD FOR SELECT 1; FETCH FORWARD 5 FROM c; CLOSE c; CHECKPOINT; DISCARD ALL; LOAD 'x'; REINDEX TABLE t; CLUSTER t USING i; CALL p(1)`,
	`CREATE TYPE mood AS ENUM ('sad', 'ok'); CREATE DOMAIN d AS int CHECK (VALUE > 0); CREATE SEQUENCE s START 1 INCREMENT BY 2 CACHE 10; CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public; COMMENT ON COLUMN t.a IS 'x'; CREATE TRIGGER tr BEFORE INSERT OR UPDATE OF a ON t FOR EACH ROW WHEN (NEW.a > 0) EXECUTE FUNCTION f(); CREATE POLICY p ON t FOR SELECT TO r USING (a = current_user); CREATE ROLE r LOGIN PASSWORD 'x' VALID UNTIL 'infinity'; ALTER DEFAULT PRIVILEGES IN SCHEMA s GRANT SELECT ON TABLES TO r; CREATE PUBLICATION p FOR TABLE t WHERE (a > 0); CREATE STATISTICS st (dependencies) ON a, b FROM t`,
	`SELECT $1, $2::int, a.b.c.d, t.*, (t).*, array[[1,2],[3,4]], '{1,2}'::int[], interval '1 day' hour to second, timestamp with time zone '2024-01-01', 1 OPERATOR(pg_catalog.+) 2, a ~~* 'x%', a SIMILAR TO 'b' ESCAPE '!', a AT TIME ZONE 'UTC', a COLLATE "de_DE", overlay(a placing 'x' from 1 for 2), position('a' in b), substring(a from 1 for 2), trim(both 'x' from a), extract(epoch from now()), cast(a as varchar(10)), treat(a as int)`,
	"",
	"   ;  ; ",
	"-- only a comment",
	"SELECT 1; /* block */ SELECT 2 -- trailing",
}

func TestTricky(t *testing.T) {
	for i, sql := range tricky {
		same(t, "tricky#"+strconv.Itoa(i), sql)
		for j, part := range statements(t, sql) {
			same(t, "tricky#"+strconv.Itoa(i)+"."+strconv.Itoa(j), part)
		}
	}
}

// TestErrors: syntax errors, invalid UTF-8 and NUL bytes give pg.Parse's
// error values.
func TestErrors(t *testing.T) {
	for _, sql := range []string{"SELEC 1", "SELECT (1", "SELECT 'unterminated", "SELECT 1 FROM", "SELECT \xff\xfe", "SELECT 1\x00; DROP TABLE t", "SELECT $$x"} {
		want, werr := pg.Parse(sql)
		got, gerr := Parse(sql)
		if (werr == nil) != (gerr == nil) {
			t.Errorf("%q: error %v, pg.Parse: %v", sql, gerr, werr)
			continue
		}
		if werr == nil {
			if !proto.Equal(got, want) {
				t.Errorf("%q: trees differ", sql)
			}
			continue
		}
		if !sameError(gerr, werr) {
			t.Errorf("%q: error %#v, pg.Parse: %#v", sql, gerr, werr)
		}
		var ge *parser.Error
		if strings.HasPrefix(sql, "SELEC ") && (!errors.As(gerr, &ge) || ge.Cursorpos == 0) {
			t.Errorf("%q: no syntax error with a cursor position: %v", sql, gerr)
		}
	}
}

// TestDecodeRejects: whatever the decoder does not know is an error (Parse
// then falls back), never a guess.
func TestDecodeRejects(t *testing.T) {
	good, err := pg.ParseToJSON("SELECT a FROM t WHERE b = 'x' LIMIT 1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decode(good); err != nil {
		t.Fatalf("valid JSON: %v", err)
	}
	for name, bad := range map[string]string{
		"unknown key":      strings.Replace(good, `"limitCount"`, `"limitCountX"`, 1),
		"unknown node":     strings.Replace(good, `"ColumnRef"`, `"ColumnRefX"`, 1),
		"unknown enum":     strings.Replace(good, `"SETOP_NONE"`, `"SETOP_MAYBE"`, 1),
		"string for int":   strings.Replace(good, `"location":7`, `"location":"7"`, 1),
		"float for int":    strings.Replace(good, `"location":7`, `"location":7.5`, 1),
		"int out of range": strings.Replace(good, `"location":7`, `"location":9999999999`, 1),
		"null":             strings.Replace(good, `"location":7`, `"location":null`, 1),
		"two members":      strings.Replace(good, `{"ColumnRef":`, `{"A_Star":{},"ColumnRef":`, 1),
		"truncated":        good[:len(good)-2],
		"trailing data":    good + "{}",
		"bad escape":       strings.Replace(good, `"x"`, `"\q"`, 1),
		"lone surrogate":   strings.Replace(good, `"x"`, `"\ud800"`, 1),
		"raw control":      strings.Replace(good, `"x"`, "\"\x01\"", 1),
		"array for object": strings.Replace(good, `"whereClause":{`, `"whereClause":[{`, 1),
		"missing colon":    strings.Replace(good, `"version":`, `"version"`, 1),
		"missing comma":    strings.Replace(good, `,"stmts"`, ` "stmts"`, 1),
		"bool for string":  strings.Replace(good, `"relname":"t"`, `"relname":true`, 1),
		"empty":            "",
	} {
		if bad == good {
			t.Fatalf("%s: the replacement did not apply to %s", name, good)
		}
		if tree, err := decode(bad); err == nil {
			t.Errorf("%s: decoded %v", name, tree)
		}
	}
}

// FuzzParse: for any input, Parse agrees with pg.Parse.
func FuzzParse(f *testing.F) {
	for _, sqls := range corpus(f) {
		for _, s := range sqls {
			if len(s) < 2000 {
				f.Add(s)
			}
		}
	}
	for _, s := range tricky {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		same(t, "fuzz", sql)
	})
}
