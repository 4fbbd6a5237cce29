package repair

import "testing"

// FuzzNormalizeFix checks that arbitrary text never panics the tokenizer,
// Normalize or Fix (go test runs the seeds; go test -fuzz explores).
func FuzzNormalizeFix(f *testing.F) {
	for _, s := range []string{
		"SELECT `a` FROM t LIMIT 1, 2", "SELECT TOP (3) x FROM t", "SELECT 'unterminated", `SELECT "x`, "/* /* nested */ */ SELECT 1",
		"SELECT $tag$ body $tag$, E'\\'' FROM t", "SELECT INTERVAL -3 DAY", "SELECT TOP 5", "SELECT (SELECT TOP 1 a FROM t",
		"SELECT IFNULL(a, b), YEAR(c), strftime('%Y', d), DATE_FORMAT(e, '%q') FROM t", "SELECT if(a, b, c) FROM t",
		"SELECT julianday(a) - julianday(b), TIMESTAMPDIFF(DAY, a, b), date('now', '-1 day', 'start of month') FROM t",
		"SELECT max(a), b FROM t WHERE a - b BETWEEN INTERVAL '1 day' AND INTERVAL '3' DAY",
	} {
		f.Add(s, 10)
	}
	r := New(nil)
	f.Fuzz(func(t *testing.T, sql string, pos int) {
		_, _, _ = r.Normalize(sql)
		for _, st := range []string{"42703", "42P01", "42702", "42803", "42883", "42804"} {
			_, _ = r.Fix(sql, Failure{SQLState: st, Message: "column x does not exist", Position: pos})
		}
		_ = r.Prompt(sql, Failure{SQLState: "42703", Position: pos})
	})
}
