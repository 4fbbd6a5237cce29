package validate_test

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// corpusCase is one SQL text of a testdata corpus with its expected code.
type corpusCase struct {
	file string
	line int
	code string
	sql  string
}

// readCorpus parses testdata/<dir>/*.sql: "-- expect: CODE" starts a case,
// the SQL follows up to the next such line.
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

// TestAttackCorpus: every attack is rejected with its expected code, by the
// configured validator and (except for tables outside an allowed set) by the
// zero-config one, with a message and a location inside the SQL.
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
		if c.code != validate.CodeTableNotAllowed {
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
