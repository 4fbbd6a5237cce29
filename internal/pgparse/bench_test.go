package pgparse

import (
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"
)

const benchSimple = "SELECT u.name, sum(o.amount) AS total FROM users u JOIN orders o ON o.user_id = u.id WHERE o.created_at > now() - interval '30 days' GROUP BY u.name ORDER BY total DESC LIMIT 10"

const benchJ10 = `SELECT t1.id, t2.name, t3.amount, count(*) FROM t1
	JOIN t2 ON t2.t1_id = t1.id JOIN t3 ON t3.t2_id = t2.id JOIN t4 ON t4.t3_id = t3.id
	JOIN t5 ON t5.t4_id = t4.id JOIN t6 ON t6.t5_id = t5.id JOIN t7 ON t7.t6_id = t6.id
	JOIN t8 ON t8.t7_id = t7.id JOIN t9 ON t9.t8_id = t8.id JOIN t10 ON t10.t9_id = t9.id
	JOIN t11 ON t11.t10_id = t10.id
	WHERE t1.created_at >= '2024-01-01' AND t5.status IN ('a', 'b') AND t11.flag
	GROUP BY t1.id, t2.name, t3.amount HAVING count(*) > 1 ORDER BY 4 DESC LIMIT 50`

var benchQueries = []struct{ name, sql string }{{"simple", benchSimple}, {"j10", benchJ10}}

// BenchmarkParse is the fast path: C JSON output plus the generated
// decoder. Compare with BenchmarkPGParse.
func BenchmarkParse(b *testing.B) {
	for _, q := range benchQueries {
		b.Run(q.name, func(b *testing.B) {
			b.ReportAllocs()
			before := Fallbacks()
			for b.Loop() {
				if _, err := Parse(q.sql); err != nil {
					b.Fatal(err)
				}
			}
			if Fallbacks() != before {
				b.Fatal("Parse fell back to pg.Parse")
			}
		})
	}
}

// BenchmarkPGParse is pg_query_go's own path: C protobuf output plus
// proto.Unmarshal.
func BenchmarkPGParse(b *testing.B) {
	for _, q := range benchQueries {
		b.Run(q.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := pg.Parse(q.sql); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseToJSON is the C part of the fast path alone.
func BenchmarkParseToJSON(b *testing.B) {
	for _, q := range benchQueries {
		b.Run(q.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := pg.ParseToJSON(q.sql); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecode is the Go part of the fast path alone.
func BenchmarkDecode(b *testing.B) {
	for _, q := range benchQueries {
		js, err := pg.ParseToJSON(q.sql)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(q.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(js)))
			for b.Loop() {
				if _, err := decode(js); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
