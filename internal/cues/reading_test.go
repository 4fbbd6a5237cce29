package cues

import (
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// TestReading: the words of a reading are its tokens' ASCII words, in any
// case; a phrase's words are one space apart; the question and its
// evidence read as one text joined by a space.
func TestReading(t *testing.T) {
	r := Read(gloss.Analyze("What is the phone number of Students in sales.count, top 5?"), gloss.Analyze("3.5 and 1,200"))
	m, ok := r.Find(Count)
	if !ok || m.Text != "number of" {
		t.Fatalf("Count found %q (%v), want \"number of\"", m.Text, ok)
	}
	before, after, hasBefore, hasAfter := r.WordAround(m)
	if !hasBefore || before.Text != "phone" || !hasAfter || after.Stem != "student" {
		t.Errorf("around %q: %q (%v) and %q (%v), want phone and student", m.Text, before.Text, hasBefore, after.Stem, hasAfter)
	}
	if all := r.FindAll(Count); len(all) != 2 || all[1].Text != "count" {
		t.Errorf("FindAll(Count) = %v, want number of, count", all)
	}
	if got := r.Numbers(); !slices.Equal(got, []Number{{"5", 5, true, false}, {"3.5", 3.5, true, false}, {"1,200", 1200, true, false}}) {
		t.Errorf("Numbers() = %v", got)
	}
	if got := r.Lead(3); !slices.Equal(got, []string{"what", "is", "the"}) {
		t.Errorf("Lead(3) = %q", got)
	}
	if got := Read(gloss.Analyze("Why?")).Lead(2); !slices.Equal(got, []string{"why"}) {
		t.Errorf("Lead(2) of one word = %q", got)
	}
	if got := r.Names(); !slices.Equal(got, []string{"Students"}) {
		t.Errorf("Names() = %q, want Students (the first word dropped)", got)
	}
	if a, b, ok := r.Pair(func(a, b string) bool { return a == "top" && Digits(b) }); !ok || a != "top" || b != "5" {
		t.Errorf("Pair: %q %q %v", a, b, ok)
	}
	if !Read(gloss.Analyze("How"), gloss.Analyze("many?")).Has(Count) {
		t.Error(`"How" and "many?" joined by a space: no count`)
	}
	if Read(gloss.Analyze("How  many")).Has(Count) || Read(gloss.Analyze("how-many")).Has(Count) {
		t.Error(`"how  many" or "how-many" read as "how many"`)
	}
	if Read(gloss.Analyze("at least 3")).Without(NewCue("at least")).Has(TopN) {
		t.Error(`"least" of "at least" kept`)
	}
	near := func(w string) bool { return w == "last" }
	unit := func(w string) bool { return w == "year" }
	if !Read(gloss.Analyze("the last fiscal year")).Near(near, unit, 12) || Read(gloss.Analyze("the last. year")).Near(near, unit, 12) ||
		Read(gloss.Analyze("the last of all those years and the year")).Near(near, unit, 12) {
		t.Error("Near: a period within 12 characters, no sentence end between")
	}
	if !Read(gloss.Analyze("Orders from Acme Corp.")).Contains("acme corp") || Read(gloss.Analyze("Acme Corporation")).Contains("acme corp") {
		t.Error("Contains: a value written out between word boundaries")
	}
	if got := Read(gloss.Analyze(`status "Open" or 'Closed'`)).Quoted(); !slices.Equal(got, []string{"Open", "Closed"}) {
		t.Errorf("Quoted() = %q", got)
	}
	most := NewCue("most")
	if r := Read(gloss.Analyze(`the most orders of 'Most Wanted'`)).Unquoted(); len(r.FindAll(most)) != 1 || Read(gloss.Analyze(`the item 'Most Wanted'`)).Unquoted().Has(most) {
		t.Error("Unquoted: the words of a quoted value are left out, the others kept")
	}
	avg := NewCue("average")
	for text, want := range map[string]string{
		"the average patient height in cm":      "patient height in cm",
		"the average year-end balance, by year": "year end balance",
		"the average sales.amount":              "sales",
		"the average":                           "",
		"the average. Height":                   "",
	} {
		r := Read(gloss.Analyze(text))
		m, _ := r.Find(avg)
		if got := strings.Join(r.After(m, 4), " "); got != want {
			t.Errorf("After(%q) = %q, want %q", text, got, want)
		}
	}
	for text, want := range map[string]string{"the average total": "average", "total": "", "sales, total": "", "year-end total": "end"} {
		r := Read(gloss.Analyze(text))
		m, _ := r.Find(NewCue("total"))
		if got := r.Before(m); got != want {
			t.Errorf("Before(%q) = %q, want %q", text, got, want)
		}
	}
	top := NewCue("top")
	for text, want := range map[string]bool{"When was Top Gun released?": true, "Top 5 customers": false, "Which are the top 5? Top 3 of them.": false, "the top_speed": false} {
		r := Read(gloss.Analyze(text))
		if m, ok := r.Find(top); ok && r.InName(m) != want {
			t.Errorf("InName(%q) = %v, want %v", text, !want, want)
		}
	}
	var empty Reading
	if empty.Has(Count) || empty.Numbers() != nil || Read(nil).Names() != nil {
		t.Error("an empty reading found something")
	}
}

func TestNumbers(t *testing.T) {
	for _, c := range []struct {
		text string
		want []Number
	}{
		{"sales over $30,000", []Number{{"30,000", 30000, true, false}}},
		{"ids 1, 200 and 1,2000", []Number{{"1", 1, true, false}, {"200", 200, true, false}, {"1", 1, true, false}, {"2000", 2000, true, false}}},
		{"fewer than a hundred thousand people", []Number{{"a hundred thousand", 1e5, false, false}}},
		{"more than 2 million", []Number{{"2 million", 2e6, true, false}}},
		{"less than 70 percent of their seats", []Number{{"70", 70, true, true}}},
		{"above 12.5% or at least two", []Number{{"12.5", 12.5, true, true}, {"two", 2, false, false}}},
		{"a share of 40%", []Number{{"40", 40, true, true}}},
		{"12 percentage points, 5 Percent", []Number{{"12", 12, true, false}, {"5", 5, true, true}}},
		{"a cat and an owner", nil},
		{"the 2nd quarter, Q3", nil},
	} {
		if got := Read(gloss.Analyze(c.text)).Numbers(); !slices.Equal(got, c.want) {
			t.Errorf("Numbers(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestParenthesised: what the text writes in parentheses right after a
// phrase, in any case of the phrase; nothing elsewhere.
func TestParenthesised(t *testing.T) {
	r := Read(gloss.Analyze("Flights from Chicago (ORD) to new york ( JFK ) and to Boston"))
	for phrase, want := range map[string]string{"Chicago": "ORD", "New York": "JFK", "Boston": "", "flights": "", "": ""} {
		if got := r.Parenthesised(phrase); got != want {
			t.Errorf("Parenthesised(%q) = %q, want %q", phrase, got, want)
		}
	}
}
