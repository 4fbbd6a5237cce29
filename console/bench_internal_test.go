package console

import (
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
)

// result1000 is a 1,000-row result: a category (or a date) and two
// measures.
func result1000(dates bool) *nl2sql.Result {
	res := &nl2sql.Result{Question: "q", SQL: "SELECT k, a, b FROM t", RowCap: 1000, Confidence: 0.9,
		Timings: nl2sql.Timings{"retrieve": time.Millisecond, "generate": 50 * time.Millisecond, "total": 60 * time.Millisecond}}
	kt := "text"
	if dates {
		kt = "date"
	}
	res.Columns = []nl2sql.Column{{Name: "k", Type: kt}, {Name: "a", Type: "int8"}, {Name: "b", Type: "numeric"}}
	day := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 1000 {
		var k any = fmt.Sprintf("customer %04d", i)
		if dates {
			k = day.AddDate(0, 0, i).Format("2006-01-02")
		}
		res.Rows = append(res.Rows, []any{k, int64(i * 7 % 113), fmt.Sprintf("%d.%02d", i%97, i%100)})
	}
	return res
}

// BenchmarkRender1000 is the server's work to show a 1,000-row answer:
// the answer page (its first page of rows) and its chart as SVG, from a
// fresh result each time (no cached chart).
func BenchmarkRender1000(b *testing.B) {
	for _, kind := range []string{"lines", "bars"} {
		b.Run(kind, func(b *testing.B) {
			c := New(nil)
			res := result1000(kind == "lines")
			for b.Loop() {
				e := &entry{Kind: "ask", Question: "q", Res: res}
				c.results.put(e)
				w := httptest.NewRecorder()
				c.ServeHTTP(w, httptest.NewRequest("GET", "http://127.0.0.1/a/"+e.ID, nil))
				if w.Code != 200 {
					b.Fatal(w.Code)
				}
				w = httptest.NewRecorder()
				c.ServeHTTP(w, httptest.NewRequest("GET", "http://127.0.0.1/a/"+e.ID+"/chart.svg", nil))
				if w.Code != 200 || w.Body.Len() < 1000 {
					b.Fatal(w.Code, w.Body.String())
				}
			}
		})
	}
}
