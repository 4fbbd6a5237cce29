package pgparse

import "testing"

// FuzzParse: for any input, Parse returns what pg.Parse returns (the same
// error for input it rejects), and for input pg.Parse accepts, the fast
// path (JSON and the generated decoder) gives a proto.Equal tree without
// falling back. See checkSame.
func FuzzParse(f *testing.F) {
	cs, _ := corpora(f)
	for _, c := range cs {
		for _, sql := range c.sqls {
			if len(sql) < 4096 { // whole scripts only slow the fuzzer down
				f.Add(sql)
			}
		}
	}
	f.Fuzz(func(t *testing.T, sql string) {
		checkSame(t, sql)
	})
}
