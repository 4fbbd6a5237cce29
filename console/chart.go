package console

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/nl2sqlgo/nl2sql"
)

// maxBars and maxMeasures bound a chart; a result with more categories is
// charted on its first maxBars rows (and the chart says so).
const (
	maxBars     = 40
	maxMeasures = 6
)

// chart is the chartable shape of a result: "figure" (one number), "bars"
// (one category and measures) or "lines" (one date/time and measures).
type chart struct {
	Kind     string
	Figure   string // for "figure"
	Label    string // the figure's column, or the x axis
	Measures []string
	Note     string // when not every row is charted

	x      []string    // bars: categories
	t      []float64   // lines: unix seconds
	series [][]float64 // per measure; NaN for NULL
}

var palette = []color.Color{
	color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0xff, 0x7f, 0x0e, 0xff}, color.RGBA{0x2c, 0xa0, 0x2c, 0xff},
	color.RGBA{0xd6, 0x27, 0x28, 0xff}, color.RGBA{0x94, 0x67, 0xbd, 0xff}, color.RGBA{0x8c, 0x56, 0x4b, 0xff},
}

func numericType(t string) bool {
	switch t {
	case "int2", "int4", "int8", "float4", "float8", "numeric", "oid":
		return true
	}
	return false
}

func timeType(t string) bool {
	switch t {
	case "date", "timestamp", "timestamptz":
		return true
	}
	return false
}

// number reads a result value as a number (NaN for NULL or non-numbers).
func number(x any) float64 {
	switch v := x.(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	case json.Number:
		f, err := v.Float64()
		if err == nil {
			return f
		}
	case string:
		f, err := strconv.ParseFloat(v, 64)
		if err == nil {
			return f
		}
	}
	return math.NaN()
}

func instant(x any) (float64, bool) {
	switch v := x.(type) {
	case time.Time:
		return float64(v.Unix()), true
	case string:
		if t, err := time.Parse("2006-01-02", v); err == nil {
			return float64(t.Unix()), true
		}
	}
	return 0, false
}

// shape is the chart of res, nil when it has no chartable shape.
func shape(res *nl2sql.Result) *chart {
	if res == nil || len(res.Rows) == 0 || len(res.Columns) == 0 {
		return nil
	}
	var measures, times, cats []int
	for i, c := range res.Columns {
		switch {
		case numericType(c.Type):
			measures = append(measures, i)
		case timeType(c.Type):
			times = append(times, i)
		default:
			cats = append(cats, i)
		}
	}
	if len(res.Rows) == 1 && len(res.Columns) == 1 && len(measures) == 1 {
		f := number(res.Rows[0][0])
		if math.IsNaN(f) {
			return nil
		}
		return &chart{Kind: "figure", Figure: cell(res.Rows[0][0]), Label: res.Columns[0].Name}
	}
	if len(measures) == 0 || len(measures) > maxMeasures || len(times)+len(cats) != 1 {
		return nil
	}
	ch := &chart{}
	for _, m := range measures {
		ch.Measures = append(ch.Measures, res.Columns[m].Name)
	}
	ch.series = make([][]float64, len(measures))
	if len(times) == 1 {
		if len(res.Rows) < 2 {
			return nil
		}
		ch.Kind, ch.Label = "lines", res.Columns[times[0]].Name
		type point struct {
			t float64
			v []float64
		}
		var pts []point
		for _, row := range res.Rows {
			t, ok := instant(row[times[0]])
			if !ok {
				continue
			}
			p := point{t: t}
			for _, m := range measures {
				p.v = append(p.v, number(row[m]))
			}
			pts = append(pts, p)
		}
		if len(pts) < 2 {
			return nil
		}
		sort.SliceStable(pts, func(i, j int) bool { return pts[i].t < pts[j].t })
		for _, p := range pts {
			ch.t = append(ch.t, p.t)
			for k := range measures {
				ch.series[k] = append(ch.series[k], p.v[k])
			}
		}
		return ch
	}
	ch.Kind, ch.Label = "bars", res.Columns[cats[0]].Name
	rows := res.Rows
	if len(rows) > maxBars {
		ch.Note = fmt.Sprintf("the chart shows the first %d of %d rows", maxBars, len(rows))
		rows = rows[:maxBars]
	}
	for _, row := range rows {
		ch.x = append(ch.x, truncLabel(cell(row[cats[0]])))
		for k, m := range measures {
			ch.series[k] = append(ch.series[k], number(row[m]))
		}
	}
	return ch
}

// xmlText is s as SVG text may hold it: XML 1.0 forbids C0 control
// characters but tab, newline and carriage return (and U+FFFE, U+FFFF);
// they, and invalid UTF-8, become U+FFFD, so a value or a column name
// cannot make the chart a document the browser refuses to draw.
func xmlText(s string) string {
	ok := func(r rune) bool {
		return r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r != 0xFFFE && r != 0xFFFF && r != utf8.RuneError
	}
	if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return !ok(r) }) {
		return s
	}
	var b strings.Builder
	for _, r := range s { // invalid bytes come as utf8.RuneError
		if !ok(r) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
	}
	return b.String()
}

func truncLabel(s string) string {
	if r := []rune(s); len(r) > 24 {
		return string(r[:23]) + "…"
	}
	return s
}

// svg renders the chart as SVG with gonum.org/v1/plot.
func (ch *chart) svg() ([]byte, error) {
	p := plot.New()
	measures := make([]string, len(ch.Measures))
	for i, m := range ch.Measures {
		measures[i] = xmlText(m)
	}
	p.X.Label.Text = xmlText(ch.Label)
	if len(measures) == 1 {
		p.Y.Label.Text = measures[0]
	}
	grid := plotter.NewGrid()
	height := 4 * vg.Inch
	if ch.Kind == "bars" {
		grid.Horizontal.Color = nil
	}
	p.Add(grid)
	switch ch.Kind {
	case "bars":
		// Horizontal bars, first row on top: category labels stay
		// readable however long they are.
		n := len(ch.series)
		cats := len(ch.x)
		w := vg.Points(math.Max(2, math.Min(18, 260/float64(cats*n))))
		for k, s := range ch.series {
			vals := make(plotter.Values, cats)
			for i, v := range s {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					vals[cats-1-i] = v
				}
			}
			b, err := plotter.NewBarChart(vals, w)
			if err != nil {
				return nil, err
			}
			b.Horizontal = true
			b.LineStyle.Width = 0
			b.Color = palette[k%len(palette)]
			b.Offset = -w * vg.Length(float64(k)-float64(n-1)/2)
			p.Add(b)
			if n > 1 {
				p.Legend.Add(measures[k], b)
			}
		}
		labels := make([]string, cats)
		for i, x := range ch.x {
			labels[cats-1-i] = xmlText(x)
		}
		p.NominalY(labels...)
		p.Y.Label.Text = ""
		p.X.Label.Text = strings.Join(measures, ", ")
		p.Y.Min, p.Y.Max = -0.5-float64(n)*0.1, float64(cats)-0.5+float64(n)*0.1
		if p.X.Min > 0 {
			p.X.Min = 0
		}
		p.X.Max += (p.X.Max - p.X.Min) * 0.05
		if whole(ch.series) {
			p.X.Tick.Marker = intTicks{}
		}
		height = vg.Length(math.Max(2.5, 0.3*float64(cats)*math.Max(1, float64(n)/2)+1)) * vg.Inch
	case "lines":
		for k, s := range ch.series {
			xys := make(plotter.XYs, 0, len(s))
			for i, v := range s {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					xys = append(xys, plotter.XY{X: ch.t[i], Y: v})
				}
			}
			if len(xys) == 0 {
				continue
			}
			l, err := plotter.NewLine(xys)
			if err != nil {
				return nil, err
			}
			l.Color = palette[k%len(palette)]
			l.Width = vg.Points(1.5)
			p.Add(l)
			if len(ch.series) > 1 {
				p.Legend.Add(measures[k], l)
			}
		}
		format := "2006-01-02"
		if len(ch.t) > 1 && ch.t[len(ch.t)-1]-ch.t[0] < 3*86400 {
			format = "01-02 15:04"
		}
		p.X.Tick.Marker = plot.TimeTicks{Format: format}
		p.Y.Max += (p.Y.Max - p.Y.Min) * 0.05
		if whole(ch.series) {
			p.Y.Tick.Marker = intTicks{}
		}
	default:
		return nil, fmt.Errorf("no chart for %q", ch.Kind)
	}
	p.Legend.Top = true
	if err := useChartFont(p); err != nil {
		return nil, err
	}
	wt, err := p.WriterTo(9*vg.Inch, height, "svg")
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Title is a short description of the chart.
func (ch *chart) Title() string {
	return strings.Join(ch.Measures, ", ") + " by " + ch.Label
}
