package link

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestMatchInScanEqualsPostings: scoring the entries of every column
// directly (the path used with candidate tables) must give exactly what the
// postings walk gives, and so must the postings of the candidate columns
// alone (matchIndexed, for questions with many phrases), for exact, word,
// misspelt and unrelated phrases.
func TestMatchInScanEqualsPostings(t *testing.T) {
	words := []string{"closed", "won", "lost", "open", "negotiation", "on", "leave", "active", "terminated",
		"billing", "escalations", "hardware", "O'Reilly", "partners", "north", "east", "wholesale", "retail",
		"express", "standard", "overnight", "Zürich", "São", "Paulo", "void", "paid", "draft"}
	r := rand.New(rand.NewPCG(1, 2))
	phrase := func(n int) string {
		s := ""
		for i := 0; i < n; i++ {
			if i > 0 {
				s += " "
			}
			s += words[r.IntN(len(words))]
		}
		return s
	}
	var cols []ValueColumn
	for i := 0; i < 60; i++ {
		c := ValueColumn{Table: fmt.Sprintf("s%d.t%d", i%5, i/5), Column: fmt.Sprintf("c%d", i)}
		for j := 0; j < 25; j++ {
			c.Values = append(c.Values, phrase(1+r.IntN(3)))
		}
		cols = append(cols, c)
	}
	vi := NewValueIndex(cols)
	all := make([]int32, len(cols))
	for i := range all {
		all[i] = int32(i)
	}
	typo := func(s string) string {
		b := []rune(s)
		if len(b) > 3 {
			i := 1 + r.IntN(len(b)-2)
			b = append(b[:i], b[i+1:]...)
		}
		return string(b)
	}
	var some []int32
	for i := int32(0); i < int32(len(cols)); i += 3 {
		some = append(some, i)
	}
	ix, ixAll := vi.indexColumns(some), vi.indexColumns(all)
	matched := 0
	for i := 0; i < 400; i++ {
		var p string
		switch i % 4 {
		case 0:
			p = cols[r.IntN(len(cols))].Values[r.IntN(25)] // a stored value
		case 1:
			p = words[r.IntN(len(words))] // one word of many values
		case 2:
			p = typo(cols[r.IntN(len(cols))].Values[r.IntN(25)])
		default:
			p = phrase(2)
		}
		a, b := vi.matchIn(p, nil), vi.matchIn(p, all)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%q: postings %v\nscan %v", p, a, b)
		}
		// The candidate columns' own postings (a long question's path)
		// give what scanning them gives, for some columns and for all.
		if c := vi.matchIndexed(p, ix); !reflect.DeepEqual(c, vi.matchIn(p, some)) {
			t.Fatalf("%q: column postings %v\nscan %v", p, c, vi.matchIn(p, some))
		}
		if c := vi.matchIndexed(p, ixAll); !reflect.DeepEqual(c, b) {
			t.Fatalf("%q: column postings of every column %v\nscan %v", p, c, b)
		}
		if len(a) > 0 {
			matched++
		}
	}
	if matched < 300 {
		t.Errorf("only %d of 400 phrases matched anything", matched)
	}
}

// TestSamplePercent: halving steps from 50%, the largest reading at most
// the target, not below 0.01%.
func TestSamplePercent(t *testing.T) {
	for _, tt := range []struct {
		rows, target int64
		pct          float64
		ok           bool
	}{
		{100, 1000, 0, false},
		{1000, 1000, 0, false},
		{1001, 1000, 50, true},
		{2000, 1000, 50, true},
		{2001, 1000, 25, true},
		{158_434, 100_000, 50, true},
		{10_000_000, 100_000, 0.78125, true},
		{1 << 40, 100_000, 100.0 / 8192, true}, // floor 0.01%
		{-1, 1000, 0, false},
		{5000, 0, 0, false},
	} {
		pct, ok := samplePercent(tt.rows, tt.target)
		if pct != tt.pct || ok != tt.ok {
			t.Errorf("samplePercent(%d, %d) = %v, %v; want %v, %v", tt.rows, tt.target, pct, ok, tt.pct, tt.ok)
		}
	}
}

// TestProvesHighCardinality checks the bound behind provesHighCardinality
// against ANALYZE's own estimator: with more than 2m^2+m non-NULL sampled
// rows, no column of at most m distinct values gets an estimate above m,
// whatever the sample; with fewer, some does.
func TestProvesHighCardinality(t *testing.T) {
	// ANALYZE's estimate (compute_scalar_stats, Haas & Stokes' Duj1).
	estimate := func(n, d, f1, bigN float64) float64 {
		e := n * d / (n - f1 + f1*n/bigN)
		e = max(e, d)
		e = min(e, bigN)
		return math.Floor(e + 0.5)
	}
	worst := func(n float64, m int) float64 { // the largest estimate for at most m distinct values
		w := 0.0
		for d := 1; d <= m; d++ {
			for f1 := 0; f1 <= d; f1++ {
				if float64(f1) > n {
					continue
				}
				w = max(w, estimate(n, float64(d), float64(f1), 1e12))
			}
		}
		return w
	}
	for _, m := range []int{3, 10, 50} {
		bound := 2*m*m + m
		row := statRow{sampleRows: int64(bound + 1)}
		if !provesHighCardinality(row, 1e9, m) || worst(float64(bound+1), m) > float64(m) {
			t.Errorf("m=%d: %d non-NULL sampled rows should prove it (worst estimate %v)", m, bound+1, worst(float64(bound+1), m))
		}
		row.sampleRows = int64(bound)
		if provesHighCardinality(row, 1e9, m) {
			t.Errorf("m=%d: %d sampled rows should not prove it", m, bound)
		}
		if w := worst(float64(m*m), m); w <= float64(m) {
			t.Errorf("m=%d: with %d sampled rows the worst estimate %v does not exceed m: the bound is not needed", m, m*m, w)
		}
		// NULLs do not count; nor rows the table does not have.
		row = statRow{sampleRows: int64(4 * bound), nullFrac: 0.9}
		if provesHighCardinality(row, 1e9, m) || provesHighCardinality(statRow{sampleRows: int64(4 * bound)}, int64(bound), m) {
			t.Errorf("m=%d: NULLs or a small table counted", m)
		}
	}
}
