package console

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
)

func TestFormatSQL(t *testing.T) {
	in := "SELECT d.dept_name, count(*) AS n, left(d.dept_cd, 2) FROM employees e LEFT JOIN departments d ON d.dept_id = e.dept_id WHERE e.status = 'Active FROM x' AND e.emp_id IN (SELECT emp_id FROM x WHERE extract(year FROM hire_date) > 2020) GROUP BY 1 ORDER BY n DESC LIMIT 5"
	want := `SELECT d.dept_name, count(*) AS n, left(d.dept_cd, 2)
FROM employees e
LEFT JOIN departments d ON d.dept_id = e.dept_id
WHERE e.status = 'Active FROM x' AND e.emp_id IN (
  SELECT emp_id
  FROM x
  WHERE extract(year FROM hire_date) > 2020
)
GROUP BY 1
ORDER BY n DESC
LIMIT 5`
	if got := formatSQL(in); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Only whitespace changes.
	strip := func(s string) string { return strings.Join(strings.Fields(s), "") }
	if strip(formatSQL(in)) != strip(in) {
		t.Error("formatting changed more than whitespace")
	}
}

func TestShape(t *testing.T) {
	col := func(n, ty string) nl2sql.Column { return nl2sql.Column{Name: n, Type: ty} }
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		res  *nl2sql.Result
		want string
	}{
		{&nl2sql.Result{Columns: []nl2sql.Column{col("n", "int8")}, Rows: [][]any{{int64(3)}}}, "figure"},
		{&nl2sql.Result{Columns: []nl2sql.Column{col("d", "text"), col("n", "int8")}, Rows: [][]any{{"a", int64(1)}, {"b", int64(2)}}}, "bars"},
		{&nl2sql.Result{Columns: []nl2sql.Column{col("d", "date"), col("n", "numeric"), col("m", "float8")}, Rows: [][]any{{"2024-01-02", "1.5", 2.0}, {"2024-01-01", "2", 1.0}}}, "lines"},
		{&nl2sql.Result{Columns: []nl2sql.Column{col("t", "timestamptz"), col("n", "int4")}, Rows: [][]any{{day, int64(1)}, {day.Add(time.Hour), int64(2)}}}, "lines"},
		{&nl2sql.Result{Columns: []nl2sql.Column{col("a", "text"), col("b", "text")}, Rows: [][]any{{"a", "b"}}}, ""},
		{&nl2sql.Result{Columns: []nl2sql.Column{col("a", "text"), col("b", "text"), col("n", "int4")}, Rows: [][]any{{"a", "b", int64(1)}}}, ""},
		{&nl2sql.Result{Columns: []nl2sql.Column{col("n", "int8")}}, ""},
	} {
		ch := shape(tc.res)
		got := ""
		if ch != nil {
			got = ch.Kind
			if got != "figure" {
				svg, err := ch.svg()
				if err != nil || !strings.Contains(string(svg), "<svg") {
					t.Errorf("%s: svg %v", got, err)
				}
			}
		}
		if got != tc.want {
			t.Errorf("%v: got %q, want %q", tc.res.Columns, got, tc.want)
		}
	}
	// Labels are escaped in the SVG.
	ch := shape(&nl2sql.Result{Columns: []nl2sql.Column{col("d", "text"), col("n", "int8")}, Rows: [][]any{{"<script>x</script>", int64(1)}, {"b", int64(2)}}})
	svg, _ := ch.svg()
	if strings.Contains(string(svg), "<script>") {
		t.Error("unescaped label in the SVG")
	}
}

func TestPageRows(t *testing.T) {
	res := &nl2sql.Result{Columns: []nl2sql.Column{{Name: "n", Type: "int8"}}, RowCap: 120, Truncated: true, TruncatedBy: "row_cap"}
	for i := range 120 {
		res.Rows = append(res.Rows, []any{int64(i)})
	}
	v := pageRows(res, 3, "/a/x")
	if v.Page != 3 || v.Pages != 3 || v.First != 101 || v.Last != 120 || len(v.Rows) != 20 || v.Rows[0][0] != "100" {
		t.Errorf("page 3: %+v", v)
	}
	if v.Prev != "/a/x?page=2" || v.Next != "" || !strings.Contains(v.Truncation, "row cap is 120") {
		t.Errorf("links %q %q, truncation %q", v.Prev, v.Next, v.Truncation)
	}
	if v := pageRows(res, 99, ""); v.Page != 3 {
		t.Errorf("a page past the end: %d", v.Page)
	}
}

func TestPosition(t *testing.T) {
	p := position("SELECT a,\n  emp_nam FROM t", 12)
	if p == nil || p.Line != 2 || p.Col != 3 || p.Mark != "emp_nam" || p.Before != "  " || p.After != " FROM t" {
		t.Errorf("%+v", p)
	}
	if position("x", -1) != nil || position("x", 5) != nil {
		t.Error("out of range")
	}
}

// TestChartIntegerTicks: a chart of counts (whole numbers) is marked at
// whole numbers only (daily counts of 1 and 2 had ticks at 1.0, 1.5 and
// 2.0); a measure with fractions keeps the default ticks.
func TestChartIntegerTicks(t *testing.T) {
	col := func(n, ty string) nl2sql.Column { return nl2sql.Column{Name: n, Type: ty} }
	counts := &nl2sql.Result{Columns: []nl2sql.Column{col("day", "date"), col("n", "int8")},
		Rows: [][]any{{"2024-01-01", int64(1)}, {"2024-01-02", int64(2)}, {"2024-01-03", int64(1)}}}
	bars := &nl2sql.Result{Columns: []nl2sql.Column{col("d", "text"), col("n", "int8")}, Rows: [][]any{{"a", int64(1)}, {"b", int64(2)}}}
	for _, res := range []*nl2sql.Result{counts, bars} {
		svg, err := shape(res).svg()
		if err != nil {
			t.Fatal(err)
		}
		if labels := tickLabels(string(svg)); slices.ContainsFunc(labels, func(l string) bool { return strings.Contains(l, ".") }) ||
			!slices.Contains(labels, "1") || !slices.Contains(labels, "2") {
			t.Errorf("%s chart of counts: tick labels %v, want whole numbers 1 and 2", shape(res).Kind, labels)
		}
	}
	frac := &nl2sql.Result{Columns: []nl2sql.Column{col("day", "date"), col("x", "float8")},
		Rows: [][]any{{"2024-01-01", 1.0}, {"2024-01-02", 1.5}, {"2024-01-03", 2.0}}}
	svg, err := shape(frac).svg()
	if err != nil {
		t.Fatal(err)
	}
	if labels := tickLabels(string(svg)); !slices.Contains(labels, "1.5") {
		t.Errorf("fractions: tick labels %v, want 1.5 among them", labels)
	}
	// Whole ticks when the default has fewer than two: a span under one.
	if ticks := (intTicks{}).Ticks(3, 3.4); len(ticks) != 1 || ticks[0].Label != "3" {
		t.Errorf("ticks of [3, 3.4]: %+v", ticks)
	}
	if ticks := (intTicks{}).Ticks(0, 2); len(ticks) != 3 || ticks[2].Label != "2" {
		t.Errorf("ticks of [0, 2]: %+v", ticks)
	}
}

// tickLabels are the numeric texts of an SVG chart (its tick labels).
func tickLabels(svg string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`>(-?[0-9][0-9.]*)</text>`).FindAllStringSubmatch(svg, -1) {
		out = append(out, m[1])
	}
	return out
}
