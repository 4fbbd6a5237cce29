package validate_test

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// corpusCase is one SQL text of a testdata corpus with its expected code.
type corpusCase struct {
	file   string
	line   int
	code   string
	sql    string
	server serverCheck // what PostgreSQL must say about the SQL (attack_server_test.go)
}

// serverCheck is a case's "-- server:" line: "plan" (EXPLAIN must succeed,
// so the spelling is real PostgreSQL), "plan N" (the same on a server of
// major version N or later; skipped, and logged, on older ones), or "error
// SQLSTATE" (planning must fail with that SQLSTATE). Cases without the line
// are never sent to a server.
type serverCheck struct {
	mode     string // "", "plan" or "error"
	minMajor int    // plan: the oldest major version that can plan it (0: any)
	sqlstate string // error: the expected SQLSTATE
}

func parseServerCheck(s string) (serverCheck, bool) {
	f := strings.Fields(s)
	switch {
	case len(f) == 1 && f[0] == "plan":
		return serverCheck{mode: "plan"}, true
	case len(f) == 2 && f[0] == "plan":
		n, err := strconv.Atoi(f[1])
		return serverCheck{mode: "plan", minMajor: n}, err == nil && n > 0
	case len(f) == 2 && f[0] == "error" && len(f[1]) == 5:
		return serverCheck{mode: "error", sqlstate: f[1]}, true
	}
	return serverCheck{}, false
}

// readCorpus parses testdata/<dir>/*.sql: "-- expect: CODE" starts a case,
// the SQL follows up to the next such line. A "-- server: ..." line inside
// a case (see serverCheck) is not part of its SQL.
func readCorpus(t testing.TB, dir string) []corpusCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files in testdata/%s: %v", dir, err)
	}
	var out []corpusCase
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		var cur *corpusCase
		var body []string
		flush := func() {
			if cur != nil {
				cur.sql = strings.TrimSpace(strings.Join(body, "\n"))
				out = append(out, *cur)
			}
			body = nil
		}
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if code, ok := strings.CutPrefix(line, "-- expect:"); ok {
				flush()
				cur = &corpusCase{file: filepath.Base(f), line: n, code: strings.TrimSpace(code)}
				continue
			}
			if spec, ok := strings.CutPrefix(line, "-- server:"); ok {
				sc, valid := parseServerCheck(spec)
				switch {
				case cur == nil:
					t.Fatalf("%s:%d: -- server: line before the first case", f, n)
				case !valid:
					t.Fatalf("%s:%d: bad line %q: want \"-- server: plan\", \"-- server: plan MAJOR\" or \"-- server: error SQLSTATE\"", f, n, line)
				case cur.server.mode != "":
					t.Fatalf("%s:%d: second -- server: line in the case of line %d", f, n, cur.line)
				}
				cur.server = sc
				continue
			}
			body = append(body, line)
		}
		flush()
		fh.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// shopTables is the allowed set the corpus is checked against.
var shopTables = []validate.Table{
	{Schema: "public", Name: "users", Columns: []string{"id", "name", "email", "created_at"}},
	{Schema: "public", Name: "orders", Columns: []string{"id", "user_id", "amount", "status", "created_at"}},
	{Schema: "public", Name: "products", Columns: []string{"id", "name", "price"}},
}

func shopValidator(opts ...validate.Option) *validate.Validator {
	return validate.New(append([]validate.Option{validate.WithTables(shopTables...), validate.WithMaxLimit(1000)}, opts...)...)
}

// columnCodes need the allowed tables and their columns: the zero-config
// validator cannot tell a relation outside the allowed set (V012), a field
// selection that names no column (V014) or an unknown type (V016).
var columnCodes = map[string]bool{
	validate.CodeTableNotAllowed: true,
	validate.CodeFuncNotation:    true,
	validate.CodeType:            true,
}

// TestAttackCorpus: every attack is rejected with its expected code, by the
// configured validator and (except for the codes that need the allowed
// tables, columnCodes) by the zero-config one, with a message and a location
// inside the SQL.
func TestAttackCorpus(t *testing.T) {
	cases := readCorpus(t, "attacks")
	if len(cases) < 150 {
		t.Errorf("attack corpus has %d cases, want at least 150", len(cases))
	}
	strict, zero := shopValidator(), validate.New()
	codes := map[string]int{}
	for _, c := range cases {
		codes[c.code]++
		check := func(name string, v *validate.Validator) {
			res, err := v.Validate(c.sql)
			if err == nil {
				t.Errorf("%s:%d (%s): accepted, want %s\nSQL: %s\nresult: %s", c.file, c.line, name, c.code, c.sql, res.SQL)
				return
			}
			var ve *validate.Error
			if !errors.As(err, &ve) || !errors.Is(err, validate.ErrRejected) {
				t.Errorf("%s:%d: error %T %v is not a *validate.Error matching ErrRejected", c.file, c.line, err, err)
				return
			}
			if !ve.Has(c.code) {
				t.Errorf("%s:%d (%s): rejected with %v, want code %s\nSQL: %s", c.file, c.line, name, ve.Violations(), c.code, c.sql)
			}
			for _, is := range ve.Violations() {
				if is.Message == "" || is.Location < -1 || is.Location > len(c.sql) {
					t.Errorf("%s:%d: bad issue %+v", c.file, c.line, is)
				}
			}
		}
		check("strict", strict)
		if !columnCodes[c.code] {
			check("zero-config", zero)
		}
	}
	t.Logf("%d attack cases by code: %v", len(cases), codes)
}

// TestLegitCorpus: tricky but legitimate queries are accepted, with exactly
// the lint findings expected.
func TestLegitCorpus(t *testing.T) {
	v := shopValidator()
	for _, c := range readCorpus(t, "legit") {
		res, err := v.Validate(c.sql)
		if err != nil {
			t.Errorf("%s:%d: rejected: %v\nSQL: %s", c.file, c.line, err, c.sql)
			continue
		}
		var lint []string
		for _, is := range res.Issues {
			if is.Severity == validate.SeverityWarning {
				lint = append(lint, is.Code)
			}
		}
		switch {
		case c.code == "ok" && len(lint) > 0:
			t.Errorf("%s:%d: unexpected lint %v\nSQL: %s", c.file, c.line, res.Issues, c.sql)
		case c.code != "ok" && !slices.Contains(lint, c.code):
			t.Errorf("%s:%d: want lint %s, got %v\nSQL: %s", c.file, c.line, c.code, res.Issues, c.sql)
		}
	}
}
