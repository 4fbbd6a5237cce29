package confidence

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/cues"
	"github.com/nl2sqlgo/nl2sql/internal/defog"
	"github.com/nl2sqlgo/nl2sql/internal/spider"
)

// The regular expressions the cues were before they read the analysis
// (issue 28, item 3): the reference TestCuesReadAsTheRegexesDid holds the
// cues to.
var (
	oldTopN      = regexp.MustCompile(`(?i)\b(top|highest|lowest|most|least|largest|smallest|best|worst|biggest)\b`)
	oldCount     = regexp.MustCompile(`(?i)\b(how many|number of|count)\b`)
	oldGroupBy   = regexp.MustCompile(`(?i)\b(per|by|each|for every)\b`)
	oldDistinct  = regexp.MustCompile(`(?i)\b(different|distinct|unique)\b`)
	oldExistence = regexp.MustCompile(`(?i)\b(is there|are there|whether|exists?|if any)\b`)
	oldAverage   = regexp.MustCompile(`(?i)\b(average|mean)\b`)
	oldTotal     = regexp.MustCompile(`(?i)\b(total|sum)\b`)
	oldPerGroup  = regexp.MustCompile(`(?i)\b(each|per|for every|every)\b`)
	periodTop    = regexp.MustCompile(`(?i)\b(?:top|first|last)\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:(?:calendar|fiscal|business|working|trading|full|complete)\s+)?(?:years?|quarters?|months?|weeks?|days?)\b`)
	oldTopNCount = regexp.MustCompile(`(?i)\b(?:top|first|last)\s+(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b|\b(\d+|three|four|five|six|seven|eight|nine|ten)\s+(?:most|least|highest|lowest|largest|smallest|best|worst|biggest|oldest|youngest)\b`)
	oldSuperl    = regexp.MustCompile(`(?i)\b(most|least|fewest|greatest|highest|lowest|largest|smallest|best|worst|biggest|maximum|minimum|oldest|youngest|newest|latest|earliest|cheapest|longest|shortest)\b`)
	oldProper    = regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*(?:[ -][A-Z][A-Za-z0-9]*)*\b`)
	oldFirst     = regexp.MustCompile(`(?i)\b(first|last|top|\w+est)\b`)
	oldQuoted    = regexp.MustCompile(`"([^"]{1,80})"|(?:^|[^\pL\pN])'([^']{1,80})'(?:$|[^\pL\pN])`)
	oldBound     = regexp.MustCompile(`(?i)\bat (least|most)\b`)
	oldSorted    = regexp.MustCompile(`(?i)\b(order|ordered|sorted|ascending|descending)\b`)
	oldRelative  = regexp.MustCompile(`\b(this|last|next|previous|current|past|prior|coming)\b[^.?!]{0,12}\b(year|quarter|month|week|day)s?\b|\b(today|yesterday|tomorrow|ytd|year to date|ago|recent|recently)\b`)
)

// oldProperNames is properNouns's reading of the question before the
// analysis: every capitalised run, the first word of the text dropped.
func oldProperNames(q string) []string {
	var out []string
	for _, loc := range oldProper.FindAllStringIndex(q, -1) {
		m := q[loc[0]:loc[1]]
		// Since session 13 every sentence's first word is dropped, not
		// only the question's.
		if pre := strings.TrimSpace(q[:loc[0]]); pre == "" || strings.ContainsAny(pre[len(pre)-1:], ".?!:;") {
			if i := strings.IndexByte(m, ' '); i >= 0 {
				m = m[i+1:]
			} else {
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

// cueTexts are the look-alikes the cues must read as the regular
// expressions did: ASCII word boundaries inside tokens ("sales.count"),
// spacing of phrases, possessives, quotes, numbers glued to letters,
// non-ASCII letters, capitalised runs.
var cueTexts = []string{
	"How many orders?", "how  many orders", "How\tmany", "the number of orders", "phone number of the student",
	"Count the orders", "countries", "sales.count per region", "count_orders by day", "o'count",
	"the top 5 products", "top  three", "Top\nten", "first 3.5 rows", "the 3 oldest", "two oldest", "the 10 best-selling",
	"top5", "the 2nd highest", "at least 3 orders", "at  least 3", "at most 2, the most orders", "the most at least",
	"in ascending order", "for every city", "for  every city", "Every city", "the per-capita income", "each.What",
	"the largest_city", "the latest test", "interest rate", "the highestés", "écount", "countñ",
	"'Acme Corp' and \"Net 30\"", "don't 'x'", "the 'quoted' value", "it's 'a'b", "(\"paren\")", "x='eq'",
	"“curly”", "‘single’", "`back`", "'  spaced  '", "\"" + strings.Repeat("a", 81) + "\"",
	"1,200 and 3.5 and $100 and -5 and 15%", "2024-01-31", "Q3 2023", "addr2", "1.5x 1.2.3", "version 3.", "٣4",
	"Which Aberdeen flights go to APG?", "  New York City is big", "New-York", "What about New_York and Los Angeles", "iPhone McDonald",
	"Name the O'Brien customers", "the Café Central", "A", "", "   ", "What is the average and the total sum?",
	"is there any order", "whether it exists", "orders, if any", "Is  there", "this year", "the past 3 months",
	"last. year", "this is a very long sentence year", "year to date", "year  to date", "2 days ago", "recently",
	"the mean age of each student", "average salary per department", "distinct UNIQUE Different",
}

// TestCuesReadAsTheRegexesDid: each cue read in the analysis finds what
// the regular expression over the text found, on the look-alikes above
// and on every question of the datasets present (spider-pools, defog).
func TestCuesReadAsTheRegexesDid(t *testing.T) {
	texts := slices.Clone(cueTexts)
	if _, ok := spider.Dir(); ok {
		pools, err := spider.Pools()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pools {
			texts = append(texts, p.Question)
		}
	}
	if _, ok := defog.Dir(); ok {
		qs, err := defog.Questions()
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			texts = append(texts, q.Question, q.Instructions)
		}
	}
	for _, q := range texts {
		r := cues.Read(gloss.Analyze(q))
		for _, c := range []struct {
			name string
			re   *regexp.Regexp
			cue  cues.Cue
		}{
			{"TopN", oldTopN, cues.TopN}, {"Count", oldCount, cues.Count}, {"GroupBy", oldGroupBy, cues.GroupBy},
			{"Distinct", oldDistinct, cues.Distinct}, {"Existence", oldExistence, cues.Existence},
			{"average", oldAverage, cueAverage}, {"total", oldTotal, cueTotal}, {"per group", oldPerGroup, cuePerGroup},
			{"superlative", oldSuperl, cueSuperl}, {"sorted", oldSorted, cueSorted}, {"bound", oldBound, cueBound},
		} {
			m, ok := r.Find(c.cue)
			if want := strings.ToLower(c.re.FindString(q)); ok != c.re.MatchString(q) || m.Text != want && ok {
				t.Errorf("%s in %q: found %q (%v), the pattern %q", c.name, q, m.Text, ok, want)
			}
			var all []string
			for _, m := range r.FindAll(c.cue) {
				all = append(all, m.Text)
			}
			var want []string
			for _, m := range c.re.FindAllString(q, -1) {
				want = append(want, strings.ToLower(m))
			}
			if !slices.Equal(all, want) {
				t.Errorf("%s in %q: all %q, the pattern %q", c.name, q, all, want)
			}
		}
		sq := oldBound.ReplaceAllString(q, "")
		without := r.Without(cueBound)
		if got, want := without.Has(cueSuperl), oldSuperl.MatchString(sq); got != want {
			t.Errorf("superlative past a bound in %q: %v, the pattern %v", q, got, want)
		}
		if got, want := without.Any(firstWord), oldFirst.MatchString(sq); got != want {
			t.Errorf("first rows in %q: %v, the pattern %v", q, got, want)
		}
		n, ok := topN(r)
		want, wantOK := int64(0), false
		// Since session 13 "the last 10 days" is a period, not 10 rows;
		// since session 19 "the last 10 calendar months" too.
		if m := oldTopNCount.FindStringSubmatch(periodTop.ReplaceAllString(q, "")); m != nil {
			wantOK = true
			g := m[1] + m[2]
			if v, small := cues.NumberWord(strings.ToLower(g)); small {
				want = v
			} else {
				want, _ = strconv.ParseInt(g, 10, 64)
			}
		}
		if n != want || ok != wantOK {
			t.Errorf("top N in %q: %d (%v), the pattern %d (%v)", q, n, ok, want, wantOK)
		}
		var got []string
		for _, n := range r.Numbers() {
			if n.Digits {
				got = append(got, strings.Fields(n.Text)[0])
			}
		}
		if want := reGroupedNumber.FindAllString(q, -1); !slices.Equal(got, want) {
			t.Errorf("numbers in %q: %q, the pattern %q", q, got, want)
		}
		if got, want := r.Names(), oldProperNames(q); !slices.Equal(got, want) {
			t.Errorf("names in %q: %q, the pattern %q", q, got, want)
		}
		var quoted []string
		for _, m := range oldQuoted.FindAllStringSubmatch(q, -1) {
			quoted = append(quoted, strings.TrimSpace(m[1]+m[2]))
		}
		if got := r.Quoted(); !slices.Equal(got, quoted) {
			t.Errorf("quoted in %q: %q, the pattern %q", q, got, quoted)
		}
		lower := strings.ToLower(q)
		if got, want := periodNamed(cues.Read(gloss.Analyze(lower)), "1066"), oldRelative.MatchString(lower); got != want {
			t.Errorf("relative period in %q: %v, the pattern %v", q, got, want)
		}
	}
}

// reGroupedNumber is a number in digits, its thousands grouped by commas
// or not.
var reGroupedNumber = regexp.MustCompile(`\b\d+(?:,\d{3})*(?:\.\d+)?\b`)
