package gloss

import (
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// find returns the related term of word with the given text.
func find(th *Thesaurus, word, text string) (Term, bool) {
	for _, t := range th.Related(word) {
		if t.Text == text {
			return t, true
		}
	}
	return Term{}, false
}

func texts(ts []Term) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Text)
	}
	return out
}

func TestDefault(t *testing.T) {
	th := DefaultThesaurus()
	if th != DefaultThesaurus() {
		t.Error("Default is parsed more than once")
	}
	if n := th.Len(); n < 1200 {
		t.Errorf("Len() = %d, want the curated list and WordNet (> 1200 words)", n)
	}
	seen := map[Source]bool{}
	for _, g := range th.groups {
		seen[g.source] = true
	}
	if !seen[Curated] || !seen[WordNet] || seen[User] {
		t.Errorf("sources %v, want curated and wordnet only", seen)
	}
}

// TestCuratedLinks checks the links the retriever relies on: question words
// to schema words, whatever the case or number.
func TestCuratedLinks(t *testing.T) {
	th := DefaultThesaurus()
	for _, c := range []struct{ word, want string }{
		{"staff", "employee"},
		{"Staff", "employee"},
		{"headcount", "employee"},
		{"personnel", "employee"},
		{"workforce", "employee"},
		{"people", "employee"},
		{"people", "population"}, // "how many people live in Asia"
		{"clients", "customer"},
		{"client", "customer"},
		{"account holder", "customer"},
		{"buyers", "customer"},
		{"vendor", "supplier"},
		{"supplier", "vendor"},
		{"Suppliers", "vendor"},
		{"revenue", "sales order"},
		{"revenue", "invoice"},
		{"turnover", "invoice"},
		{"tenure", "hire date"},
		{"seniority", "hire date"},
		{"hire_date", "date of hire"},
		{"deal", "opportunity"},
		{"deals", "opportunity"},
		{"pipeline", "opportunity"},
		{"prospects", "opportunity"},
		{"spend", "purchase order"},
		{"purchases", "purchase order"},
		{"procurement", "purchase order"},
		{"wages", "salary"},
		{"compensation", "salary"},
		{"payroll", "salary"},
		{"salary", "pay"},
		{"stock", "inventory"},
		{"inventory", "stock"},
		{"salesperson", "sales rep"},
		{"sales reps", "salesperson"},
		{"account manager", "sales rep"},
		{"Sales_Orders", "customer order"},
		{"salespeople", "sales rep"}, // WordNet's exception list, then curated
	} {
		got, ok := find(th, c.word, c.want)
		if !ok {
			t.Errorf("Related(%q) = %v, want %q", c.word, texts(th.Related(c.word)), c.want)
			continue
		}
		if got.Source != Curated || got.Weight != 1 {
			t.Errorf("Related(%q): %q from %v weight %v, want curated weight 1", c.word, c.want, got.Source, got.Weight)
		}
	}
}

// TestWordNetLinks checks synonyms only WordNet gives.
func TestWordNetLinks(t *testing.T) {
	th := DefaultThesaurus()
	for _, c := range []struct{ word, want string }{
		{"proprietor", "owner"},
		{"owner", "proprietor"},
		{"vendee", "buyer"},
		{"emptor", "purchaser"},
		{"cargo", "freight"},
		{"ledger", "account book"},
		{"bought", "purchase"}, // buy (verb.exc) -> purchase
		{"payer", "remunerator"},
	} {
		got, ok := find(th, c.word, c.want)
		if !ok {
			t.Errorf("Related(%q) = %v, want %q", c.word, texts(th.Related(c.word)), c.want)
			continue
		}
		if got.Source != WordNet || got.Weight != 0.5 {
			t.Errorf("Related(%q): %q from %v weight %v, want wordnet weight 0.5", c.word, c.want, got.Source, got.Weight)
		}
	}
}

// TestRareSensesExcluded checks that WordNet senses foreign to business
// text did not make it into the data.
func TestRareSensesExcluded(t *testing.T) {
	th := DefaultThesaurus()
	for _, c := range []struct {
		word string
		not  []string
	}{
		{"deal", []string{"hand", "heap", "lot", "softwood", "batch"}}, // cards, "a great deal", wood
		{"staff", []string{"stave", "rod", "faculty"}},
		{"bill", []string{"measure", "banknote", "beak", "billhook"}},
		{"contractor", []string{"declarer"}},
		{"account", []string{"story", "history", "chronicle"}},
		{"teller", []string{"edward teller"}},
		{"stock", []string{"broth", "gunstock", "lineage"}},
		{"founder", []string{"laminitis"}},
		{"job", []string{"line"}}, // too vague a word to link
		{"left", []string{"leave of absence"}},
	} {
		got := texts(th.Related(c.word))
		for _, n := range c.not {
			if slices.Contains(got, n) {
				t.Errorf("Related(%q) holds %q: %v", c.word, n, got)
			}
		}
	}
}

func TestRelatedNeverSelf(t *testing.T) {
	th := DefaultThesaurus()
	for _, w := range []string{"staff", "Clients", "sales", "sales orders", "people", "vendor"} {
		self := normalize(w)
		for _, x := range th.Related(w) {
			if x.Text == self || x.Text == strings.TrimSuffix(self, "s") {
				t.Errorf("Related(%q) holds %q", w, x.Text)
			}
		}
	}
	for k := range th.index {
		for _, x := range th.Related(k) {
			if x.Text == k {
				t.Fatalf("Related(%q) holds itself", k)
			}
		}
	}
}

func TestRelatedOrder(t *testing.T) {
	th := DefaultThesaurus()
	got := th.Related("vendor")
	if len(got) == 0 || got[0].Text != "supplier" {
		t.Fatalf("Related(vendor) = %v, want supplier first", texts(got))
	}
	for k := range th.index {
		r := th.Related(k)
		if !slices.IsSortedFunc(r, byWeight) {
			t.Fatalf("Related(%q) not by weight: %v", k, r)
		}
		seen := map[string]bool{}
		for _, x := range r {
			if seen[x.Text] {
				t.Fatalf("Related(%q) repeats %q", k, x.Text)
			}
			seen[x.Text] = true
		}
	}
}

// TestDeterminism builds the default thesaurus twice and requires the same
// answers for every word, in the same order.
func TestDeterminism(t *testing.T) {
	build := func() *Thesaurus {
		c, err := parse(strings.NewReader(curatedText), Curated)
		if err != nil {
			t.Fatal(err)
		}
		w, err := parse(strings.NewReader(wordnetText), WordNet)
		if err != nil {
			t.Fatal(err)
		}
		return MergeThesauri(c, w)
	}
	a, b := build(), build()
	for k := range a.index {
		for _, w := range []string{k, k + "s", strings.ToUpper(k)} {
			if x, y := a.Related(w), b.Related(w); !reflect.DeepEqual(x, y) {
				t.Fatalf("Related(%q) differs:\n%v\n%v", w, x, y)
			}
		}
	}
}

func TestRelatedEdgeCases(t *testing.T) {
	th := DefaultThesaurus()
	for _, w := range []string{"", " ", "_", "zzzzqqq", strings.Repeat("employee ", 1000), "\xff\xfe", "s", "es", "ies"} {
		if got := th.Related(w); got != nil {
			t.Errorf("Related(%.20q) = %v, want nil", w, got)
		}
	}
	var nilT *Thesaurus
	if nilT.Related("staff") != nil || nilT.Len() != 0 {
		t.Error("nil Thesaurus is not empty")
	}
	if MergeThesauri().Len() != 0 || MergeThesauri(nil, nil).Related("staff") != nil {
		t.Error("empty Merge is not empty")
	}
	// The result is the caller's: changing it changes nothing inside.
	r := th.Related("staff")
	r[0].Text = "changed"
	if th.Related("staff")[0].Text == "changed" {
		t.Error("Related shares its result")
	}
}

func TestParse(t *testing.T) {
	src := "\ufeff# my list\r\nWidget, Gizmo_Thing  # comment\r\n\r\nfoo, bar -> baz\r\ngeese = goose\ngoose, gander\n"
	th, err := ParseThesaurus(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		word string
		want []string
	}{
		{"widget", []string{"gizmo thing"}},
		{"gizmo things", []string{"widget"}},
		{"foo", []string{"baz"}},
		{"bar", []string{"baz"}},
		{"baz", nil},
		{"geese", []string{"gander"}},
	} {
		if got := texts(th.Related(c.word)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Related(%q) = %v, want %v", c.word, got, c.want)
		}
	}
	if got := th.Related("widget"); got[0].Source != User || got[0].Weight != 1 {
		t.Errorf("user term %+v, want source user weight 1", got[0])
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		src  string
		line int
		msg  string
	}{
		{"a, b\nvendor\n", 2, "two terms"},
		{"a,,b", 1, "empty term"},
		{"a, b,", 1, "empty term"},
		{"# ok\n\na ->\n", 3, "empty term"},
		{"-> b", 1, "empty term"},
		{"a -> b -> c", 1, "more than one ->"},
		{"a => b", 1, "no arrow"},
		{"a <- b", 1, "invalid character"},
		{"a = b = c", 1, "more than one ="},
		{"a, b = c", 1, "one term on each side"},
		{"a = b -> c", 1, "not both"},
		{"= b", 1, "empty term"},
		{"a = A", 1, "itself"},
		{"a, b\nc, d\ne; f\n", 3, "invalid character"},
		{"a, b\x00c", 1, "invalid character"},
		{"ok, fine\n\xff, b", 2, "invalid UTF-8"},
		{"a, " + strings.Repeat("x", maxTermLen+1), 1, "longer than"},
		{"a, b\n" + strings.Repeat("x", maxLineLen+10), 2, "longer than"},
	} {
		_, err := ParseThesaurus(strings.NewReader(c.src))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("ParseThesaurus(%.30q) = %v, want a *ParseError", c.src, err)
			continue
		}
		if pe.Line != c.line || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("ParseThesaurus(%.30q) = %v, want line %d: ...%s...", c.src, err, c.line, c.msg)
		}
		if !strings.HasPrefix(err.Error(), "gloss: thesaurus line ") {
			t.Errorf("error %q does not name the line", err)
		}
	}
}

func TestMerge(t *testing.T) {
	user, err := ParseThesaurus(strings.NewReader("staff, crew member\nwidget, gizmo\n"))
	if err != nil {
		t.Fatal(err)
	}
	th := MergeThesauri(user, DefaultThesaurus())
	got := th.Related("staff")
	if len(got) < 2 || got[0].Text != "crew member" || got[0].Source != User {
		t.Errorf("Related(staff) = %v, want the user's term first", got)
	}
	if _, ok := find(th, "staff", "employee"); !ok {
		t.Error("the default links are lost")
	}
	if _, ok := find(th, "widget", "gizmo"); !ok {
		t.Error("the user's links are lost")
	}
	if _, ok := find(DefaultThesaurus(), "widget", "gizmo"); ok {
		t.Error("Merge changed Default")
	}
	// Forms merge too.
	forms, err := ParseThesaurus(strings.NewReader("kine = cow\ncow, cattle\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := find(MergeThesauri(DefaultThesaurus(), forms), "kine", "cattle"); !ok {
		t.Error("merged forms are lost")
	}
}

func TestDefaultConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, w := range []string{"staff", "clients", "revenue", "deals"} {
				if len(DefaultThesaurus().Related(w)) == 0 {
					t.Errorf("Related(%q) empty", w)
				}
			}
		})
	}
	wg.Wait()
}

// TestCuratedClean requires curated.txt to be written as it is read: lower
// case, single spaces, no repeated group.
func TestCuratedClean(t *testing.T) {
	seen := map[string]int{}
	for i, line := range strings.Split(curatedText, "\n") {
		body, _, _ := strings.Cut(line, "#")
		body = strings.TrimSpace(body)
		if body == "" {
			continue
		}
		if body != strings.ToLower(body) || strings.Contains(body, "  ") || strings.Contains(body, "_") {
			t.Errorf("curated.txt:%d: write terms lower case, single-spaced: %q", i+1, body)
		}
		if prev, dup := seen[body]; dup {
			t.Errorf("curated.txt:%d: repeats line %d", i+1, prev)
		}
		seen[body] = i + 1
	}
}

// TestSeedFile checks seed.txt without WordNet.
func TestSeedFile(t *testing.T) {
	src, err := os.ReadFile("seed.txt")
	if err != nil {
		t.Fatal(err)
	}
	seeds, excluded, err := parseSeeds(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(seeds) < 300 || len(excluded) == 0 {
		t.Errorf("%d seeds, %d excluded words", len(seeds), len(excluded))
	}
	for _, bad := range []string{"word: x3", "word: n0", ": n1", "a\na\n", "a\n-a\n", "-\n"} {
		if _, _, err := parseSeeds([]byte(bad)); err == nil {
			t.Errorf("parseSeeds(%q) accepted", bad)
		}
	}
}

func FuzzRelated(f *testing.F) {
	for _, s := range []string{"staff", "Sales_Orders", "people", "", "men", "ies", "a b c", "\xff"} {
		f.Add(s)
	}
	th := DefaultThesaurus()
	f.Fuzz(func(t *testing.T, w string) {
		for _, x := range th.Related(w) {
			if x.Text == "" || x.Weight <= 0 {
				t.Fatalf("Related(%q): bad term %+v", w, x)
			}
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"a, b", "a -> b, c", "a = b", "a,,b", "# x\n", "a => b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		th, err := ParseThesaurus(strings.NewReader(src))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("ParseThesaurus(%q) = %v, want a *ParseError with a line", src, err)
			}
			return
		}
		for k := range th.index {
			th.Related(k)
		}
	})
}

func BenchmarkRelated(b *testing.B) {
	th := DefaultThesaurus()
	words := []string{"staff", "clients", "revenue", "Sales_Orders", "deals", "tenure", "widget", "purchases", "people", "invoice"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		th.Related(words[i%len(words)])
	}
}
