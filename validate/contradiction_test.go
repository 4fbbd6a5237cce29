package validate_test

import (
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestContradiction: a column equated to two different constants in one
// AND chain is reported (L011) in every spelling; conditions that can hold
// are not.
func TestContradiction(t *testing.T) {
	v := validate.New(validate.WithTables(
		validate.Table{Schema: "public", Name: "countrylanguage", Columns: []string{"countrycode", "language", "isofficial", "percentage"}},
		validate.Table{Schema: "public", Name: "country", Columns: []string{"code", "name", "indepyear"}},
		validate.Table{Schema: "Geo", Name: "Lang", Columns: []string{"Code", "Language"}},
	))
	cases := []struct {
		name string
		sql  string
		want int // L011 warnings
	}{
		{"two languages", "SELECT count(*) FROM countrylanguage WHERE language = 'English' AND language = 'Dutch'", 1},
		{"qualified, aliased", "SELECT c.name FROM country c JOIN countrylanguage l ON l.countrycode = c.code WHERE l.language = 'English' AND l.isofficial = 'T' AND l.language = 'French'", 1},
		{"constant first", "SELECT 1 FROM countrylanguage WHERE 'English' = language AND language = 'Dutch'", 1},
		{"upper case, parenthesised", "SELECT 1 FROM COUNTRYLANGUAGE WHERE (LANGUAGE = 'English') AND (LANGUAGE = 'Dutch')", 1},
		{"quoted, other schema", `SELECT 1 FROM "Geo"."Lang" g WHERE g."Language" = 'English' AND g."Language" = 'Dutch'`, 1},
		{"unicode escape", `SELECT 1 FROM countrylanguage WHERE U&"l\0061nguage" = 'English' AND language = 'Dutch'`, 1},
		{"numbers", "SELECT 1 FROM country WHERE indepyear = 1970 AND indepyear = 1980", 1},
		{"cast", "SELECT 1 FROM countrylanguage WHERE language = 'English'::text AND language = 'Dutch'::text", 1},
		{"in a subquery", "SELECT name FROM country WHERE code IN (SELECT countrycode FROM countrylanguage WHERE language = 'English' AND language = 'Dutch')", 1},

		{"or", "SELECT 1 FROM countrylanguage WHERE language = 'English' OR language = 'Dutch'", 0},
		{"in", "SELECT 1 FROM countrylanguage WHERE language IN ('English', 'Dutch')", 0},
		{"same value twice", "SELECT 1 FROM countrylanguage WHERE language = 'English' AND language = 'English'", 0},
		{"case only", "SELECT 1 FROM countrylanguage WHERE language = 'English' AND language = 'english'", 0},
		{"same number spelt twice", "SELECT 1 FROM country WHERE indepyear = 1970 AND indepyear = '1970'", 0},
		{"dates may be spelt two ways", "SELECT 1 FROM country WHERE indepyear = '2020-01-01' AND indepyear = '2020-1-1'", 0},
		{"a boolean spelt two ways", "SELECT 1 FROM countrylanguage WHERE isofficial = 'T' AND isofficial = 'yes'", 0},
		{"a boolean spelt two ways, upper case, cast", "SELECT 1 FROM countrylanguage WHERE isofficial = 'TRUE'::text AND isofficial = ' on '", 0},
		{"false spelt two ways", "SELECT 1 FROM countrylanguage WHERE isofficial = 'f' AND isofficial = 'No'", 0},
		{"a date spelt two ways", "SELECT 1 FROM country WHERE indepyear = 'now' AND indepyear = 'today'", 0},
		{"a boolean word and another word", "SELECT 1 FROM countrylanguage WHERE language = 'Yes' AND language = 'Dutch'", 0},
		{"two columns", "SELECT 1 FROM countrylanguage WHERE language = 'English' AND isofficial = 'T'", 0},
		{"two tables joined twice", "SELECT a.countrycode FROM countrylanguage a JOIN countrylanguage b ON a.countrycode = b.countrycode WHERE a.language = 'English' AND b.language = 'Dutch'", 0},
		{"separate levels", "SELECT 1 FROM countrylanguage WHERE language = 'English' AND countrycode IN (SELECT countrycode FROM countrylanguage WHERE language = 'Dutch')", 0},
	}
	for _, tc := range cases {
		got := issuesOf(t, v, tc.name, tc.sql, validate.CodeContradiction, "never true")
		if len(got) != tc.want {
			t.Errorf("%s: %d L011 warnings, want %d (%v)", tc.name, len(got), tc.want, got)
		}
	}
}

// issuesOf validates sql with v and returns its issues of code, each a
// warning whose message holds says (an error of validation or another
// severity or message is reported against name).
func issuesOf(t *testing.T, v *validate.Validator, name, sql, code, says string) []validate.Issue {
	t.Helper()
	res, err := v.Validate(sql)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return nil
	}
	var out []validate.Issue
	for _, is := range res.Issues {
		if is.Code == code {
			out = append(out, is)
			if !strings.Contains(is.Message, says) || is.Severity != validate.SeverityWarning {
				t.Errorf("%s: %s", name, is)
			}
		}
	}
	return out
}
