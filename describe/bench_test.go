package describe_test

import (
	"testing"

	"github.com/nl2sqlgo/nl2sql/describe"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
)

// BenchmarkDescribeERP describes the demo ERP exam's 82 gold queries (one
// op = all of them): what Ask and Run add to every answer.
func BenchmarkDescribeERP(b *testing.B) {
	qs, err := erp.Exam()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, q := range qs {
			if _, err := describe.SQL(q.GoldSQL); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(qs)), "µs/query")
}
