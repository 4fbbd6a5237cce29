package cues

import (
	"slices"
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
	if got := r.Numbers(); !slices.Equal(got, []string{"5", "3.5", "1", "200"}) {
		t.Errorf("Numbers() = %q", got)
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
	var empty Reading
	if empty.Has(Count) || empty.Numbers() != nil || Read(nil).Names() != nil {
		t.Error("an empty reading found something")
	}
}
