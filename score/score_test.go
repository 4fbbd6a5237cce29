package score_test

import (
	"context"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/score"
)

// TestRepeatedRowsOfGroups: a repeated row counts against a candidate when
// it comes from a join that fans out, not when each row is a group (two
// groups may show the same values).
func TestRepeatedRowsOfGroups(t *testing.T) {
	in := &score.Input{Question: "Names of students with likes, and how many each", Candidates: []score.Candidate{
		{SQL: "SELECT s.name FROM likes l JOIN students s ON s.id = l.student_id", Votes: 1, Agreement: -1, OrderedAgreement: -1, ResultRows: 10, DuplicateRows: true},
		{SQL: "SELECT s.name, count(*) FROM likes l JOIN students s ON s.id = l.student_id GROUP BY l.student_id, s.name", Votes: 1, Agreement: -1, OrderedAgreement: -1, ResultRows: 10, DuplicateRows: true, Grouped: true},
		{SQL: "SELECT s.name, count(*) FROM likes l JOIN students s ON s.id = l.student_id GROUP BY l.student_id, s.name", Votes: 1, Agreement: -1, OrderedAgreement: -1, ResultRows: 10, Grouped: true},
	}}
	s := score.Default{}.Score(context.Background(), in)
	if s[1] != s[2] {
		t.Errorf("repeated rows of a grouped query scored %v, the same query without them %v", s[1], s[2])
	}
	plain := *in
	plain.Candidates = []score.Candidate{in.Candidates[0], in.Candidates[0]}
	plain.Candidates[1].DuplicateRows = false
	if p := (score.Default{}).Score(context.Background(), &plain); p[0] >= p[1] {
		t.Errorf("repeated rows of a fanning join not penalised: %v", p)
	}
}

// TestDistinctQuestionShape: a question asking for the different (unique,
// distinct) values prefers the candidate that lists each once (DISTINCT,
// or one row per group) when nothing else tells them apart; a question
// that does not ask for it is indifferent.
func TestDistinctQuestionShape(t *testing.T) {
	cand := func(sql string, grouped bool) score.Candidate {
		return score.Candidate{SQL: sql, Votes: 1, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, Grouped: grouped}
	}
	cands := []score.Candidate{
		cand("SELECT year FROM cars", false),
		cand("SELECT DISTINCT year FROM cars", false),
		cand("SELECT year FROM cars GROUP BY year", true),
		cand("SELECT count(DISTINCT year) FROM cars", false),
	}
	for _, q := range []string{"What are the different years of the cars?", "Which UNIQUE years do cars have?", "List the distinct years"} {
		s := score.Default{}.Score(context.Background(), &score.Input{Question: q, Candidates: cands})
		if s[0] >= s[1] || s[0] >= s[2] || s[0] >= s[3] {
			t.Errorf("%q: scores %v, want the plain list below the three that list each year once", q, s)
		}
	}
	s := score.Default{}.Score(context.Background(), &score.Input{Question: "List the years of the cars", Candidates: cands[:2]})
	if s[0] != s[1] {
		t.Errorf("a question that does not ask for distinct values scored %v", s)
	}
}

// TestDefaultPrefersPlannedJoins: of two candidates alike but for their
// join, the one following the planner's join edge scores higher; "how
// many" prefers the count.
func TestDefaultPrefersPlannedJoins(t *testing.T) {
	planned := []plan.JoinEdge{{From: "public.orders.customer_id", To: "public.customers.id"}}
	in := &score.Input{
		Question: "Revenue per customer",
		Joins:    planned,
		Candidates: []score.Candidate{
			{SQL: "SELECT c.name, sum(o.total) FROM orders o JOIN customers c ON c.id = o.sales_rep_id GROUP BY c.name", Votes: 1, Agreement: -1,
				Joins: []plan.JoinEdge{{From: "public.customers.id", To: "public.orders.sales_rep_id"}}},
			{SQL: "SELECT c.name, sum(o.total) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.name", Votes: 1, Agreement: -1,
				Joins: []plan.JoinEdge{{From: "public.customers.id", To: "public.orders.customer_id"}}},
		},
	}
	s := score.Default{}.Score(context.Background(), in)
	if s[1] <= s[0] {
		t.Errorf("planned join not preferred: %v", s)
	}
	// Shape: "how many" wants COUNT.
	in = &score.Input{Question: "How many orders?", Candidates: []score.Candidate{
		{SQL: "SELECT id FROM orders", Votes: 1, Agreement: -1}, {SQL: "SELECT count(*) FROM orders", Votes: 1, Agreement: -1}}}
	if s := (score.Default{}).Score(context.Background(), in); s[1] <= s[0] {
		t.Errorf("COUNT not preferred for how many: %v", s)
	}
}

// TestAnalysesFollowTheInput: an Input carries the caller's analyses of
// its question; a Scorer that changes Question or Evidence gets an
// analysis of the new text, never the stale one, and the words are the
// question's then the evidence's, as reading question + " " + evidence
// would give.
func TestAnalysesFollowTheInput(t *testing.T) {
	in := &score.Input{Question: "How many orders per customer?", Evidence: "orders means sales_orders"}
	in.QuestionAnalysis, in.EvidenceAnalysis = gloss.Analyze(in.Question), gloss.Analyze(in.Evidence)
	if q, e := in.Analyses(); q != in.QuestionAnalysis || e != in.EvidenceAnalysis {
		t.Fatal("the carried analyses were not used")
	}
	var words []string
	for _, w := range in.Words() {
		words = append(words, w.Text)
	}
	if want := gloss.Fields(in.Question + " " + in.Evidence); !slices.Equal(words, want) {
		t.Errorf("words %q, want %q", words, want)
	}
	if got, want := in.Terms(), gloss.Terms(in.Question+" "+in.Evidence); !slices.Equal(got, want) {
		t.Errorf("terms %q, want %q", got, want)
	}
	in.Question = "How many invoices?"
	if q, _ := in.Analyses(); q == in.QuestionAnalysis || q.Text != in.Question {
		t.Errorf("a changed question kept the old analysis %q", q.Text)
	}
	in.Question, in.Evidence = "How many orders per customer?", ""
	if _, e := in.Analyses(); e == in.EvidenceAnalysis || e.Text != "" {
		t.Error("a changed evidence kept the old analysis")
	}
	in.QuestionAnalysis = nil
	if q, _ := in.Analyses(); q == nil || q.Text != in.Question {
		t.Error("no analysis carried: the question was not read")
	}
	var none score.Input
	if w := none.Words(); len(w) != 0 {
		t.Errorf("an empty input has words %v", w)
	}
}

// TestValueCountsWhereItIsStored: a stored value the question names
// counts for the candidate that compares it with a column holding it,
// not for one that writes the same constant against another column; when
// the input does not say where the value is stored (no ValueColumns, or
// not one per value), both count as before.
func TestValueCountsWhereItIsStored(t *testing.T) {
	cand := func(sql string, cols ...string) score.Candidate {
		return score.Candidate{SQL: sql, Votes: 1, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, Columns: cols}
	}
	in := &score.Input{
		Question: "How many models did American Motor Company make?",
		Values:   []string{"American Motor Company"},
		Candidates: []score.Candidate{
			cand("SELECT count(*) FROM t1 JOIN t2 ON t1.a = t2.a WHERE t2.x = 'American Motor Company'", "public.t1.a", "public.t2.a", "public.t2.x"),
			cand("SELECT count(*) FROM t1 JOIN t3 ON t1.b = t3.b WHERE t3.y = 'American Motor Company'", "public.t1.b", "public.t3.b", "public.t3.y"),
		},
	}
	if s := (score.Default{}).Score(context.Background(), in); s[0] != s[1] {
		t.Fatalf("without ValueColumns the two score %v, want equal", s)
	}
	in.ValueColumns = []string{"public.t3.y"}
	if s := (score.Default{}).Score(context.Background(), in); s[1] <= s[0] {
		t.Errorf("the value compared where it is stored scored %v, another column %v", s[1], s[0])
	}
	in.ValueColumns = []string{"public.t3.y", "public.t2.x"} // not one per value: unknown
	if s := (score.Default{}).Score(context.Background(), in); s[0] != s[1] {
		t.Errorf("ValueColumns of another length than Values: scores %v, want equal", s)
	}
	in.ValueColumns = []string{"public.t3.y"}
	in.Candidates[0].Columns = nil // columns unknown: no evidence against it
	if s := (score.Default{}).Score(context.Background(), in); s[0] != s[1] {
		t.Errorf("a candidate whose columns are unknown: scores %v, want equal", s)
	}
}

// languageCounts are two candidates alike but for the order of their
// columns: the language first, and the count first.
func languageCounts() (keyFirst, countFirst score.Candidate) {
	cand := func(sql string) score.Candidate {
		return score.Candidate{SQL: sql, Votes: 1, Agreement: 1, OrderedAgreement: 0, ResultRows: 5, Grouped: true,
			Tables: []string{"public.tv_channel"}, Columns: []string{"public.tv_channel.language"}}
	}
	return cand("SELECT language, count(*) FROM tv_channel GROUP BY language"), cand("SELECT count(*), language FROM tv_channel GROUP BY language")
}

// TestColumnsInTheQuestionsOrder: of two candidates alike but for the
// order of their columns, the one returning what the question names in
// the order it names it scores higher, whichever order that is.
func TestColumnsInTheQuestionsOrder(t *testing.T) {
	keyFirst, countFirst := languageCounts()
	for _, c := range []struct {
		question string
		want     int // the index of the candidate that should win
	}{
		{"For each language, list the number of TV channels that use it.", 0},
		{"How many TV channels use each language?", 1},
	} {
		for _, cands := range [][]score.Candidate{{keyFirst, countFirst}, {countFirst, keyFirst}} {
			s := score.Default{}.Score(context.Background(), &score.Input{Question: c.question, Candidates: cands})
			wantSQL := []score.Candidate{keyFirst, countFirst}[c.want].SQL
			best := 0
			if s[1] > s[0] {
				best = 1
			}
			if cands[best].SQL != wantSQL {
				t.Errorf("%q: scores %v for %q, %q; want %q first", c.question, s, cands[0].SQL, cands[1].SQL, wantSQL)
			}
		}
	}
}

// TestCarriedDescription: the column-order tie-breaker reads the
// description a Candidate carries, not the one describe.SQL would give;
// without one (a program that built the input) it describes the SQL.
func TestCarriedDescription(t *testing.T) {
	keyFirst, countFirst := languageCounts()
	const question = "For each language, list the number of TV channels that use it."
	best := func(cands ...score.Candidate) string {
		s := score.Default{}.Score(context.Background(), &score.Input{Question: question, Candidates: cands})
		if s[1] > s[0] {
			return cands[1].SQL
		}
		return cands[0].SQL
	}
	if got := best(countFirst, keyFirst); got != keyFirst.SQL {
		t.Errorf("no description carried: %q won, want %q (described from its SQL)", got, keyFirst.SQL)
	}
	// Each carries the other's description: the order follows them.
	dk, dc := keyFirst.Describe(), countFirst.Describe()
	if dk == nil || dc == nil || slices.Equal(dk.Columns, dc.Columns) {
		t.Fatalf("descriptions %+v, %+v: want two, of different column orders", dk, dc)
	}
	keyFirst.Description, countFirst.Description = dc, dk
	if got := best(countFirst, keyFirst); got != countFirst.SQL {
		t.Errorf("descriptions swapped: %q won, want %q (the carried description returns the language first)", got, countFirst.SQL)
	}
	if keyFirst.Describe() != dc {
		t.Error("Describe did not return the carried description")
	}
	if (&score.Candidate{SQL: "DELETE FROM tv_channel"}).Describe() != nil {
		t.Error("Describe of no query is not nil")
	}
}
