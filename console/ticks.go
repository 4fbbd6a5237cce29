package console

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// intTicks marks an axis of whole numbers (counts) at whole numbers only:
// plot.DefaultTicks puts a count of 1 to 2 at 1.0, 1.5 and 2.0.
type intTicks struct{}

// Ticks implements plot.Ticker: the default ticks that are whole, or, when
// fewer than two are, one every ceil(span/5) (at least 1) from ceil(min).
func (intTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (plot.DefaultTicks{}).Ticks(min, max) {
		if t.Label != "" && t.Value == math.Trunc(t.Value) {
			out = append(out, plot.Tick{Value: t.Value, Label: strconv.FormatFloat(t.Value, 'f', -1, 64)})
		}
	}
	if len(out) >= 2 {
		return out
	}
	out = out[:0]
	step := math.Max(1, math.Ceil((max-min)/5))
	for v := math.Ceil(min); v <= max; v += step {
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	return out
}

// whole reports whether every value of the series is a whole number (NaN,
// a NULL, aside).
func whole(series [][]float64) bool {
	for _, s := range series {
		for _, v := range s {
			if !math.IsNaN(v) && v != math.Trunc(v) {
				return false
			}
		}
	}
	return true
}
