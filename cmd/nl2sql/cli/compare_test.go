package cli

import (
	"encoding/json"
	"testing"
	"time"
)

func TestCompareResults(t *testing.T) {
	day := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	noon := time.Date(2024, 3, 1, 12, 30, 0, 0, time.FixedZone("CET", 3600))
	tests := []struct {
		name          string
		gold, pred    [][]any
		goldCols      int
		predCols      int
		ordered       bool
		strict, loose bool
	}{
		{"identical", [][]any{{int64(1), "a"}}, [][]any{{int64(1), "a"}}, 2, 2, false, true, true},
		{"numeric scale", [][]any{{json.Number("1.00")}, {json.Number("2.5")}}, [][]any{{int64(1)}, {"2.50"}}, 1, 1, false, true, true},
		{"float vs numeric", [][]any{{json.Number("0.3")}}, [][]any{{0.1 + 0.2}}, 1, 1, false, true, true},
		{"rounding to 4 places", [][]any{{json.Number("3.14159")}}, [][]any{{3.1416}}, 1, 1, false, true, true},
		{"different numbers", [][]any{{json.Number("3.14")}}, [][]any{{3.15}}, 1, 1, false, false, false},
		{"number is not text", [][]any{{int64(7)}}, [][]any{{"seven"}}, 1, 1, false, false, false},
		{"nulls equal", [][]any{{nil, "x"}}, [][]any{{nil, "x"}}, 2, 2, false, true, true},
		{"null is not zero", [][]any{{nil}}, [][]any{{int64(0)}}, 1, 1, false, false, false},
		{"null is not empty text", [][]any{{nil}}, [][]any{{""}}, 1, 1, false, false, false},
		{"date vs midnight timestamp", [][]any{{"2024-03-01"}}, [][]any{{day}}, 1, 1, false, true, true},
		{"timestamp text vs instant", [][]any{{"2024-03-01 11:30:00"}}, [][]any{{noon}}, 1, 1, false, true, true},
		{"timestamptz text vs instant", [][]any{{"2024-03-01 12:30:00+01"}}, [][]any{{noon}}, 1, 1, false, true, true},
		{"different days", [][]any{{"2024-03-02"}}, [][]any{{day}}, 1, 1, false, false, false},
		{"order ignored without ORDER BY", [][]any{{int64(1)}, {int64(2)}}, [][]any{{int64(2)}, {int64(1)}}, 1, 1, false, true, true},
		{"order matters with ORDER BY", [][]any{{int64(1)}, {int64(2)}}, [][]any{{int64(2)}, {int64(1)}}, 1, 1, true, false, false},
		{"ordered and equal", [][]any{{int64(1)}, {int64(2)}}, [][]any{{int64(1)}, {json.Number("2.0")}}, 1, 1, true, true, true},
		{"extra column: loose only", [][]any{{"Finance", int64(3)}}, [][]any{{int64(10), "Finance", int64(3)}}, 2, 3, false, false, true},
		{"swapped columns: loose only", [][]any{{"a", int64(1)}}, [][]any{{int64(1), "a"}}, 2, 2, false, false, true},
		{"missing gold column", [][]any{{"a", int64(1)}}, [][]any{{"a"}}, 2, 1, false, false, false},
		{"row count differs", [][]any{{int64(1)}}, [][]any{{int64(1)}, {int64(1)}}, 1, 1, false, false, false},
		{"duplicates are a multiset", [][]any{{int64(1)}, {int64(1)}, {int64(2)}}, [][]any{{int64(1)}, {int64(2)}, {int64(2)}}, 1, 1, false, false, false},
		{"duplicates equal", [][]any{{int64(1)}, {int64(2)}, {int64(1)}}, [][]any{{int64(1)}, {int64(1)}, {int64(2)}}, 1, 1, false, true, true},
		// Columns that match one by one but pair rows differently.
		{"columns match, rows do not", [][]any{{"a", int64(1)}, {"b", int64(2)}}, [][]any{{"a", int64(2)}, {"b", int64(1)}}, 2, 2, false, false, false},
		// Two identical predicted columns: the search must pick the one that pairs rows right.
		{"backtracking", [][]any{{int64(1), "x"}, {int64(2), "y"}},
			[][]any{{int64(2), int64(1), "x"}, {int64(1), int64(2), "y"}}, 2, 3, false, false, true},
		{"empty results", nil, nil, 1, 1, false, true, true},
		{"json by value", [][]any{{json.RawMessage(`{"b":1,"a":2}`)}}, [][]any{{json.RawMessage(`{"a":2, "b":1}`)}}, 1, 1, false, true, true},
		{"arrays", [][]any{{[]any{int64(1), json.Number("2.0")}}}, [][]any{{[]any{int64(1), int64(2)}}}, 1, 1, false, true, true},
		{"booleans", [][]any{{true}}, [][]any{{false}}, 1, 1, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			strict, loose := compareResults(tt.gold, tt.pred, tt.goldCols, tt.predCols, tt.ordered)
			if strict != tt.strict || loose != tt.loose {
				t.Errorf("strict, loose = %v, %v; want %v, %v", strict, loose, tt.strict, tt.loose)
			}
		})
	}
}

func TestOrdersRows(t *testing.T) {
	tests := []struct {
		sql  string
		want bool
	}{
		{"SELECT a FROM t ORDER BY a", true},
		{"SELECT a FROM t", false},
		{"SELECT a FROM (SELECT a FROM t ORDER BY a LIMIT 3) s", false},
		{"WITH x AS (SELECT a FROM t ORDER BY a) SELECT a FROM x", false},
		{"SELECT a FROM t UNION SELECT b FROM u ORDER BY 1", true},
		{"SELECT 'ORDER BY' AS a FROM t", false},
		{"WITH x AS (SELECT 1 AS a) SELECT a FROM x ORDER BY a DESC", true},
	}
	for _, tt := range tests {
		got, err := ordersRows(tt.sql)
		if err != nil || got != tt.want {
			t.Errorf("ordersRows(%q) = %v, %v; want %v", tt.sql, got, err, tt.want)
		}
	}
	if _, err := ordersRows("SELECT FROM WHERE"); err == nil {
		t.Error("syntax error accepted")
	}
}

func TestIsDecimal(t *testing.T) {
	for s, want := range map[string]bool{"1": true, "-1.50": true, ".5": true, "1e3": true, "2.": true,
		"Inf": false, "NaN": false, "0x10": false, "1_000": false, "": false, "-": false, "1e": false, "12a": false} {
		if got := isDecimal(s); got != want {
			t.Errorf("isDecimal(%q) = %v", s, got)
		}
	}
}
