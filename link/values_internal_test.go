package link

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestMatchInScanEqualsPostings: scoring the entries of every column
// directly (the path used with candidate tables) must give exactly what the
// postings walk gives, for exact, word, misspelt and unrelated phrases.
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
		if len(a) > 0 {
			matched++
		}
	}
	if matched < 300 {
		t.Errorf("only %d of 400 phrases matched anything", matched)
	}
}
