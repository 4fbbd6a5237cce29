package validate_test

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/corpus"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// corpusCase is one SQL text of a testdata corpus with its expected code
// and, for attacks, what PostgreSQL must make of it (attack_server_test.go).
type corpusCase = corpus.Case

// readCorpus reads testdata/<dir>/*.sql (format: internal/corpus).
func readCorpus(t testing.TB, dir string) []corpusCase {
	t.Helper()
	cases, err := corpus.Read(filepath.Join("testdata", dir))
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// shopTables is the allowed set the corpus is checked against.
var shopTables = []validate.Table{
	{Schema: "public", Name: "users", Columns: []string{"id", "name", "email", "created_at"}, PrimaryKey: []string{"id"}},
	{Schema: "public", Name: "orders", Columns: []string{"id", "user_id", "amount", "status", "created_at"}, PrimaryKey: []string{"id"}},
	{Schema: "public", Name: "products", Columns: []string{"id", "name", "price"}, PrimaryKey: []string{"id"}},
}

func shopValidator(opts ...validate.Option) *validate.Validator {
	return validate.New(append([]validate.Option{validate.WithTables(shopTables...), validate.WithMaxRows(1000)}, opts...)...)
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
		codes[c.Code]++
		check := func(name string, v *validate.Validator) {
			res, err := v.Validate(c.SQL)
			if err == nil {
				t.Errorf("%s:%d (%s): accepted, want %s\nSQL: %s\nresult: %s", c.File, c.Line, name, c.Code, c.SQL, res.SQL)
				return
			}
			var ve *validate.Error
			if !errors.As(err, &ve) || !errors.Is(err, validate.ErrRejected) {
				t.Errorf("%s:%d: error %T %v is not a *validate.Error matching ErrRejected", c.File, c.Line, err, err)
				return
			}
			if !ve.Has(c.Code) {
				t.Errorf("%s:%d (%s): rejected with %v, want code %s\nSQL: %s", c.File, c.Line, name, ve.Violations(), c.Code, c.SQL)
			}
			for _, is := range ve.Violations() {
				if is.Message == "" || is.Location < -1 || is.Location > len(c.SQL) {
					t.Errorf("%s:%d: bad issue %+v", c.File, c.Line, is)
				}
			}
		}
		check("strict", strict)
		if !columnCodes[c.Code] {
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
		res, err := v.Validate(c.SQL)
		if err != nil {
			t.Errorf("%s:%d: rejected: %v\nSQL: %s", c.File, c.Line, err, c.SQL)
			continue
		}
		var lint []string
		for _, is := range res.Issues {
			if is.Severity == validate.SeverityWarning {
				lint = append(lint, is.Code)
			}
		}
		switch {
		case c.Code == "ok" && len(lint) > 0:
			t.Errorf("%s:%d: unexpected lint %v\nSQL: %s", c.File, c.Line, res.Issues, c.SQL)
		case c.Code != "ok" && !slices.Contains(lint, c.Code):
			t.Errorf("%s:%d: want lint %s, got %v\nSQL: %s", c.File, c.Line, c.Code, res.Issues, c.SQL)
		}
	}
}
