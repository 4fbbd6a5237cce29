package spider

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

// Normalize turns rows as pgx returns them (rows.Values()) into the
// dataset's result form: distinct rows sorted, each a list of its values as
// strings followed by its multiplicity. A value that reads as a number is
// rounded to 3 decimals and written as Python writes a float ("6.0",
// "2.333"), NULL is "None", true/false are numbers (SQLite has no booleans),
// text is itself.
func Normalize(rows [][]any) [][]string {
	count := map[string]int{}
	byKey := map[string][]string{}
	for _, row := range rows {
		vals := make([]string, len(row))
		for i, v := range row {
			vals[i] = value(v)
		}
		k := strings.Join(vals, "\x00")
		count[k]++
		byKey[k] = vals
	}
	out := make([][]string, 0, len(count))
	for k, vals := range byKey {
		out = append(out, append(vals, strconv.Itoa(count[k])))
	}
	sortRows(out)
	return out
}

// Equal reports whether two normalised results hold the same rows with the
// same multiplicities, in any order.
func Equal(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = sorted(a), sorted(b)
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if a[i][j] != b[i][j] {
				return false
			}
		}
	}
	return true
}

func sorted(rows [][]string) [][]string {
	c := append([][]string(nil), rows...)
	sortRows(c)
	return c
}

func sortRows(rows [][]string) {
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		for k := 0; k < len(a) && k < len(b); k++ {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return len(a) < len(b)
	})
}

func value(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case string:
		return text(x)
	case []byte:
		return text(string(x))
	case bool:
		if x {
			return "1.0"
		}
		return "0.0"
	case int64:
		return pyFloat(float64(x))
	case int32:
		return pyFloat(float64(x))
	case int16:
		return pyFloat(float64(x))
	case float64:
		return pyFloat(x)
	case float32:
		return pyFloat(float64(x))
	case pgtype.Numeric:
		f, err := x.Float64Value()
		if err != nil || !f.Valid {
			return "None"
		}
		return pyFloat(f.Float64)
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return x.Format("2006-01-02")
		}
		return x.Format("2006-01-02 15:04:05")
	default:
		return text(fmt.Sprint(x))
	}
}

// text is a text value: a number when Python's float() would read it.
func text(s string) string {
	t := strings.TrimSpace(s)
	if t == "" || strings.ContainsAny(t, "xX_") {
		return s
	}
	switch strings.ToLower(strings.TrimLeft(t, "+-")) {
	case "inf", "infinity", "nan":
		f, err := strconv.ParseFloat(t, 64)
		if err == nil {
			return pyFloat(f)
		}
		return s
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return s
	}
	return pyFloat(f)
}

// pyFloat writes str(round(f, 3)) as Python does.
func pyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	if r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'f', 3, 64), 64); err == nil {
		f = r
	}
	a := math.Abs(f)
	if a != 0 && (a < 1e-4 || a >= 1e16) {
		return strconv.FormatFloat(f, 'e', -1, 64)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
