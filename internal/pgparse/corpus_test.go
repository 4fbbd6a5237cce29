package pgparse

import (
	"bufio"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/nl2sqlgo/nl2sql/internal/defog"
)

// repoRoot is the module root, relative to this package's directory.
const repoRoot = "../.."

// readExpectCorpus reads validate's testdata corpora: "-- expect: CODE"
// starts a case, the SQL follows up to the next such line.
func readExpectCorpus(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot, "validate", "testdata", dir, "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files in validate/testdata/%s: %v", dir, err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var body []string
		started := false
		flush := func() {
			if started {
				out = append(out, strings.TrimSpace(strings.Join(body, "\n")))
			}
			body = nil
		}
		sc := bufio.NewScanner(strings.NewReader(string(b)))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "-- expect:") {
				flush()
				started = true
				continue
			}
			body = append(body, sc.Text())
		}
		flush()
	}
	return out
}

// readFuzzCorpus reads go test fuzz v1 files holding one string(...) value.
func readFuzzCorpus(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fuzz corpus in %s: %v", dir, err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != 2 || lines[0] != "go test fuzz v1" {
			t.Fatalf("%s: not a one-value go fuzz corpus file", f)
		}
		lit, ok := strings.CutPrefix(lines[1], "string(")
		lit, ok2 := strings.CutSuffix(lit, ")")
		if !ok || !ok2 {
			t.Fatalf("%s: not a string value: %s", f, lines[1])
		}
		s, err := strconv.Unquote(lit)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, s)
	}
	return out
}

// scriptAndStatements returns the SQL script in file whole and split into
// its statements.
func scriptAndStatements(t testing.TB, file string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	stmts, err := pg.SplitWithParser(string(b), true)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return append([]string{string(b)}, stmts...)
}

// readCSVColumn returns the named column of a CSV file with a header.
func readCSVColumn(t testing.TB, file, column string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(recs) < 2 {
		t.Fatalf("%s: no rows", file)
	}
	col := -1
	for i, h := range recs[0] {
		if h == column {
			col = i
		}
	}
	if col < 0 {
		t.Fatalf("%s: no column %s", file, column)
	}
	var out []string
	for _, r := range recs[1:] {
		out = append(out, r[col])
	}
	return out
}

// corpus is a named set of SQL texts.
type corpus struct {
	name string
	sqls []string
}

// corpora returns every corpus of the repository (and the defog dataset
// when it is there, which the report notes otherwise).
func corpora(t testing.TB) (out []corpus, defogSkipped bool) {
	t.Helper()
	out = append(out,
		corpus{"validate/testdata/attacks", readExpectCorpus(t, "attacks")},
		corpus{"validate/testdata/legit", readExpectCorpus(t, "legit")},
		corpus{"validate/testdata/fuzz/FuzzValidate", readFuzzCorpus(t, filepath.Join(repoRoot, "validate", "testdata", "fuzz", "FuzzValidate"))},
		corpus{"repair/testdata", scriptAndStatements(t, filepath.Join(repoRoot, "repair", "testdata", "erp.sql"))},
		corpus{"examples/erp/exam.csv gold_sql", readCSVColumn(t, filepath.Join(repoRoot, "examples", "erp", "exam.csv"), "gold_sql")},
	)
	scripts, err := filepath.Glob(filepath.Join(repoRoot, "examples", "erp", "sql", "*.sql"))
	if err != nil {
		t.Fatal(err)
	}
	var erpSQL []string
	for _, f := range scripts {
		erpSQL = append(erpSQL, scriptAndStatements(t, f)...)
	}
	out = append(out, corpus{"examples/erp/sql scripts", erpSQL})
	out = append(out, corpus{"tricky (hand-written)", trickyQueries})

	if _, ok := defog.Dir(); !ok {
		return out, true
	}
	qs, err := defog.Questions()
	if err != nil {
		t.Fatal(err)
	}
	var gold []string
	for _, q := range qs {
		gold = append(gold, q.Query) // as written: alternatives separated by ';'
		gold = append(gold, defog.Expand(q.Query)...)
	}
	out = append(out, corpus{"defog questions (gold SQL, raw and expanded)", gold})
	dbs, err := defog.Databases()
	if err != nil {
		t.Fatal(err)
	}
	var dumps []string
	for _, db := range dbs {
		s, err := defog.Script(db)
		if err != nil {
			t.Fatal(err)
		}
		dumps = append(dumps, s)
	}
	out = append(out, corpus{"defog database dumps", dumps})
	return out, false
}

// checkSame parses sql with Parse and with pg.Parse and reports any
// difference. For SQL that pg.Parse accepts, the fast path must have been
// taken. It returns whether pg.Parse accepted the SQL.
func checkSame(t testing.TB, sql string) bool {
	t.Helper()
	if len(sql) > MaxLen {
		// Refused before parsing; the decoder is still compared below.
		if _, err := Parse(sql); !errors.Is(err, ErrTooLong) {
			t.Errorf("%d bytes: Parse returns %v, want ErrTooLong", len(sql), err)
		}
	}
	want, wantErr := pg.Parse(sql)
	if wantErr != nil {
		// On error, Parse returns either pg.Parse's partial tree (when it
		// fell back) or none.
		got, err := Parse(sql)
		if len(sql) > MaxLen {
			return false
		}
		if got != nil && !proto.Equal(got, want) || !sameError(err, wantErr) {
			t.Errorf("pg.Parse fails with %#v, Parse returns %v, %#v\nSQL: %q", wantErr, got, err, sql)
		}
		return false
	}
	js, err := pg.ParseToJSON(sql)
	if err != nil {
		t.Errorf("pg.ParseToJSON fails where pg.Parse does not: %v\nSQL: %q", err, sql)
		return true
	}
	got, err := decode(js)
	if err != nil {
		t.Errorf("decoder refused the JSON (Parse would fall back): %v\nSQL: %q\nJSON: %s", err, sql, js)
		return true
	}
	if !proto.Equal(got, want) {
		t.Errorf("decoded tree differs from pg.Parse's\nSQL: %q\nJSON: %s", sql, js)
		return true
	}
	if len(sql) > MaxLen {
		return true
	}
	if got, err := Parse(sql); err != nil || !proto.Equal(got, want) {
		t.Errorf("Parse differs from pg.Parse (err %v)\nSQL: %q", err, sql)
	}
	return true
}

// sameError reports whether two errors have the same type and value
// (for errors without comparable fields, such as proto.Unmarshal's, the
// same text).
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return reflect.TypeOf(a) == reflect.TypeOf(b) && (reflect.DeepEqual(a, b) || a.Error() == b.Error())
}

// TestEquivalenceCorpora: for every SQL text of every corpus that pg.Parse
// accepts, the decoder takes the fast path and its tree is proto.Equal to
// pg.Parse's; for the others, Parse returns pg.Parse's error.
func TestEquivalenceCorpora(t *testing.T) {
	cs, defogSkipped := corpora(t)
	for _, c := range cs {
		accepted := 0
		for _, sql := range c.sqls {
			if checkSame(t, sql) {
				accepted++
			}
		}
		if accepted == 0 {
			t.Errorf("%s: no query accepted by pg.Parse: the corpus was not read right", c.name)
		}
		t.Logf("%s: %d texts, %d parsed and decoded identically, %d rejected by pg.Parse with the same error", c.name, len(c.sqls), accepted, len(c.sqls)-accepted)
	}
	if defogSkipped {
		t.Skip("defog dataset not available (../shared/datasets/defog): its part was skipped")
	}
}
