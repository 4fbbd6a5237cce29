package console

import (
	"sync"

	"codeberg.org/go-fonts/dejavu/dejavusans"
	"golang.org/x/image/font/opentype"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
)

// chartFont is the face charts are measured and drawn with. gonum/plot
// lays text out with the metrics of the font it is given and the SVG only
// names it; a browser without that font draws a substitute. Its default,
// Liberation Serif, is on few machines and narrower than what browsers
// fall back to, so category labels ran over the axis. DejaVu Sans is on
// most Linux desktops (and Debian's Chromium), where the labels are drawn
// exactly as measured, and it is wider than the sans-serif faces others
// substitute (Arial, Helvetica), so there they fit with room to spare.
var chartFont = font.Font{Typeface: "DejaVu", Variant: "Sans"}

// registerChartFont adds DejaVu Sans to gonum/plot's font cache, once. It
// adds a typeface under its own name and changes no default, so other
// users of gonum/plot in the same program are not affected.
var registerChartFont = sync.OnceValue(func() error {
	ttf, err := opentype.Parse(dejavusans.TTF)
	if err != nil {
		return err
	}
	font.DefaultCache.Add(font.Collection{{Font: chartFont, Face: ttf}})
	return nil
})

// useChartFont sets every text of p (title, axis labels, tick labels,
// legend) in chartFont, keeping the sizes.
func useChartFont(p *plot.Plot) error {
	if err := registerChartFont(); err != nil {
		return err
	}
	for _, f := range []*font.Font{
		&p.Title.TextStyle.Font, &p.Legend.TextStyle.Font,
		&p.X.Label.TextStyle.Font, &p.X.Tick.Label.Font,
		&p.Y.Label.TextStyle.Font, &p.Y.Tick.Label.Font,
	} {
		f.Typeface, f.Variant = chartFont.Typeface, chartFont.Variant
	}
	return nil
}
