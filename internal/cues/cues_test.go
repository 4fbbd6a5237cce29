package cues

import (
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestNamedTables: a table is named when every term of its name is one
// of the question's; the schema does not count, nor does a table one of
// whose words the question leaves out.
func TestNamedTables(t *testing.T) {
	tables := []string{"public.car_makers", "public.has_pet", "public.car_names", "sales.makers"}
	got := NamedTables(gloss.Terms("Which car makers own pets?"), tables)
	if want := []string{"public.car_makers", "public.has_pet", "sales.makers"}; !slices.Equal(got, want) {
		t.Errorf("named %v, want %v", got, want)
	}
	if got := NamedTables(nil, tables); got != nil {
		t.Errorf("no question terms named %v", got)
	}
}

func TestCoverage(t *testing.T) {
	for _, c := range []struct {
		have, want []string
		share      float64
	}{
		{[]string{"a", "b"}, []string{"a", "c"}, 0.5},
		{nil, []string{"a"}, 0},
		{[]string{"a"}, nil, 0},
		{[]string{"b", "a"}, []string{"a", "b"}, 1},
	} {
		if got := Coverage(c.have, c.want); got != c.share {
			t.Errorf("Coverage(%v, %v) = %v, want %v", c.have, c.want, got, c.share)
		}
	}
}

// TestShapes: the patterns both the scorer and the signals read, on the
// questions they are for and on look-alikes they must not match.
func TestShapes(t *testing.T) {
	if !Defect(validate.CodeFanTrap) || !Defect(validate.CodeContradiction) || Defect("V001") {
		t.Error("Defect: want the fan trap and the contradiction only")
	}
	has := func(c Cue) func(string) bool {
		return func(q string) bool { return Read(gloss.Analyze(q)).Has(c) }
	}
	for _, c := range []struct {
		name  string
		match func(string) bool
		yes   []string
		no    []string
	}{
		{"Count", has(Count), []string{"How many orders?", "the number of orders", "Count the orders"}, []string{"List the accounts", "countries"}},
		{"Distinct", has(Distinct), []string{"the different years", "UNIQUE names", "distinct cities"}, []string{"differently", "the years"}},
		{"Existence", has(Existence), []string{"Is there an order?", "whether it exists", "orders, if any"}, []string{"How many orders?"}},
		{"TopN", has(TopN), []string{"the top 5", "the highest price"}, []string{"stop", "the price"}},
		{"GroupBy", has(GroupBy), []string{"orders per customer", "for each city"}, []string{"peruse the bylaws"}},
		{"StringLiteral", StringLiteral.MatchString, []string{"WHERE name = 'it''s'"}, []string{"WHERE n = 1"}},
	} {
		for _, q := range c.yes {
			if !c.match(q) {
				t.Errorf("%s: %q not matched", c.name, q)
			}
		}
		for _, q := range c.no {
			if c.match(q) {
				t.Errorf("%s: %q matched", c.name, q)
			}
		}
	}
	if got := StringLiteral.FindAllString("a = 'it''s' AND b = 'x'", -1); !slices.Equal(got, []string{"'it''s'", "'x'"}) {
		t.Errorf("literals %q", got)
	}
}
