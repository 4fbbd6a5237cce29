package cli

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// Result comparison for the exam: values are reduced to canonical keys so
// that the same answer compares equal however the query spelled it (1, 1.00,
// "1.0"; a date and the same day as a midnight timestamp; NULL = NULL).

// compareResults reports whether pred answers like gold. strict: same column
// count and order and the same rows; loose: every gold column is found among
// pred's columns (a one-to-one mapping, searched greedily with backtracking)
// and the row counts are equal. Rows are compared as multisets unless
// ordered (the gold query sorts at its top level), then as sequences.
func compareResults(gold, pred [][]any, goldCols, predCols int, ordered bool) (strict, loose bool) {
	if len(gold) != len(pred) {
		return false, false
	}
	g, p := normRows(gold), normRows(pred)
	strict = goldCols == predCols && sameRows(g, p, ordered)
	if strict {
		return true, true
	}
	if predCols < goldCols {
		return false, false
	}
	return false, mapColumns(g, p, goldCols, predCols, ordered)
}

// sameRows compares rows of keys as sequences or multisets.
func sameRows(a, b [][]string, ordered bool) bool {
	if len(a) != len(b) {
		return false
	}
	ra, rb := rowKeys(a), rowKeys(b)
	if !ordered {
		slices.Sort(ra)
		slices.Sort(rb)
	}
	return slices.Equal(ra, rb)
}

func rowKeys(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Join(r, "\x1f")
	}
	return out
}

// mapColumns looks for a one-to-one mapping of gold columns to pred columns
// under which the projected pred rows equal the gold rows. Candidates for a
// gold column are pred columns holding the same values (as a sequence or a
// multiset); the search tries them in order and backtracks, within a budget.
func mapColumns(g, p [][]string, goldCols, predCols int, ordered bool) bool {
	col := func(rows [][]string, j int) []string {
		out := make([]string, len(rows))
		for i, r := range rows {
			if j < len(r) {
				out[i] = r[j]
			}
		}
		if !ordered {
			slices.Sort(out)
		}
		return out
	}
	cands := make([][]int, goldCols)
	for j := range goldCols {
		gc := col(g, j)
		for k := range predCols {
			if slices.Equal(gc, col(p, k)) {
				cands[j] = append(cands[j], k)
			}
		}
		if len(cands[j]) == 0 {
			return false
		}
	}
	used := make([]bool, predCols)
	mapping := make([]int, goldCols)
	budget := 10000
	var search func(j int) bool
	search = func(j int) bool {
		if budget--; budget < 0 {
			return false
		}
		if j == goldCols {
			proj := make([][]string, len(p))
			for i, r := range p {
				proj[i] = make([]string, goldCols)
				for jj, k := range mapping {
					proj[i][jj] = r[k]
				}
			}
			return sameRows(g, proj, ordered)
		}
		for _, k := range cands[j] {
			if used[k] {
				continue
			}
			used[k], mapping[j] = true, k
			if search(j + 1) {
				return true
			}
			used[k] = false
		}
		return false
	}
	return search(0)
}

func normRows(rows [][]any) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = make([]string, len(r))
		for j, v := range r {
			out[i][j] = normValue(v)
		}
	}
	return out
}

// normValue is the canonical key of a result value (see execute.Result.Rows
// for the types): numbers rounded to 4 decimal places ("n:"), instants in
// UTC with midnight shown as a plain date ("t:"), NULL, and text as is.
func normValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "b:" + strconv.FormatBool(x)
	case int64:
		return normFloat(float64(x))
	case int:
		return normFloat(float64(x))
	case float64:
		return normFloat(x)
	case json.Number:
		return normString(string(x))
	case time.Time:
		return normTime(x)
	case json.RawMessage:
		var j any
		if err := json.Unmarshal(x, &j); err != nil {
			return "j:" + string(x)
		}
		b, _ := json.Marshal(j) // map keys come out sorted
		return "j:" + string(b)
	case []byte:
		return "x:" + hex.EncodeToString(x)
	case []any:
		var b bytes.Buffer
		b.WriteString("a:[")
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(normValue(e)))
		}
		b.WriteByte(']')
		return b.String()
	case string:
		return normString(x)
	}
	return "s:" + fmt.Sprint(v)
}

// normString recognises numbers and dates written as text.
func normString(s string) string {
	if isDecimal(s) {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return normFloat(f)
		}
	}
	if len(s) >= 10 && s[4] == '-' && s[7] == '-' {
		for _, layout := range timeLayouts {
			if t, err := time.Parse(layout, s); err == nil {
				return normTime(t)
			}
		}
	}
	return "s:" + s
}

var timeLayouts = []string{
	time.DateOnly,
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07",
	"2006-01-02 15:04:05.999999999Z07:00",
	time.RFC3339Nano,
}

// isDecimal accepts [+-]digits[.digits][e[+-]digits] (not "Inf", hex or
// digit separators, which strconv.ParseFloat would take).
func isDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	n := digits()
	if i < len(s) && s[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

func normFloat(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "s:" + strconv.FormatFloat(f, 'g', -1, 64)
	}
	if math.Abs(f) < 1e15 {
		f = math.Round(f*1e4) / 1e4
	}
	if f == 0 {
		f = 0 // -0
	}
	return "n:" + strconv.FormatFloat(f, 'g', 15, 64)
}

func normTime(t time.Time) string {
	t = t.UTC()
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return "t:" + t.Format(time.DateOnly)
	}
	return "t:" + t.Format("2006-01-02T15:04:05.999999999")
}

// ordersRows reports whether sql (one statement) sorts its result at the top
// level: an ORDER BY on the outermost SELECT (or set operation).
func ordersRows(sql string) (bool, error) {
	tree, err := pgparse.Parse(sql)
	if err != nil {
		return false, err
	}
	if len(tree.Stmts) != 1 {
		return false, fmt.Errorf("want one statement, got %d", len(tree.Stmts))
	}
	sel := tree.Stmts[0].GetStmt().GetSelectStmt()
	return sel != nil && len(sel.GetSortClause()) > 0, nil
}
