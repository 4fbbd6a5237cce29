package nl2sql_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// inputRecorder is the DefaultScorer, keeping the last input it scored.
type inputRecorder struct {
	mu sync.Mutex
	in *nl2sql.ScoreInput
}

func (r *inputRecorder) Score(ctx context.Context, in *nl2sql.ScoreInput) []float64 {
	r.mu.Lock()
	r.in = in
	r.mu.Unlock()
	return nl2sql.DefaultScorer{}.Score(ctx, in)
}

// TestAgreementIgnoresColumnOrder: "id, name" and "name, id" are the same
// answer: they agree, but only the candidates with the same column order
// agree in OrderedAgreement, which decides between the two orders.
func TestAgreementIgnoresColumnOrder(t *testing.T) {
	rec := &inputRecorder{}
	pool := pgtest.Pool(t, erptest.Single(t))
	eng, err := nl2sql.New(pool, nl2sql.WithScorer(rec), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Pick(context.Background(), "List the departments", []string{
		"SELECT dept_name, dept_id FROM departments",
		"SELECT dept_id, dept_name FROM departments",
		"SELECT d.dept_id, d.dept_name FROM departments d",
		"SELECT dept_cd FROM departments",
	})
	if err != nil {
		t.Fatal(err)
	}
	var agreement, ordered []float64
	for _, c := range rec.in.Candidates {
		agreement, ordered = append(agreement, c.Agreement), append(ordered, c.OrderedAgreement)
	}
	if want := []float64{2.0 / 3, 2.0 / 3, 2.0 / 3, 0}; !slices.Equal(agreement, want) {
		t.Errorf("agreement = %v, want %v", agreement, want)
	}
	if want := []float64{0, 1.0 / 3, 1.0 / 3, 0}; !slices.Equal(ordered, want) {
		t.Errorf("ordered agreement = %v, want %v", ordered, want)
	}
	if res.Chosen != 1 {
		t.Errorf("chose %d, want 1 (the column order two candidates share)", res.Chosen)
	}
}

// TestRepeatedRowsOfGroups: a repeated row counts against a candidate when
// it comes from a join that fans out, not when each row is a group (two
// groups may show the same values).
func TestRepeatedRowsOfGroups(t *testing.T) {
	in := &nl2sql.ScoreInput{Question: "Names of students with likes, and how many each", Candidates: []nl2sql.ScoreCandidate{
		{SQL: "SELECT s.name FROM likes l JOIN students s ON s.id = l.student_id", Votes: 1, Agreement: -1, OrderedAgreement: -1, ResultRows: 10, DuplicateRows: true},
		{SQL: "SELECT s.name, count(*) FROM likes l JOIN students s ON s.id = l.student_id GROUP BY l.student_id, s.name", Votes: 1, Agreement: -1, OrderedAgreement: -1, ResultRows: 10, DuplicateRows: true, Grouped: true},
		{SQL: "SELECT s.name, count(*) FROM likes l JOIN students s ON s.id = l.student_id GROUP BY l.student_id, s.name", Votes: 1, Agreement: -1, OrderedAgreement: -1, ResultRows: 10, Grouped: true},
	}}
	s := nl2sql.DefaultScorer{}.Score(context.Background(), in)
	if s[1] != s[2] {
		t.Errorf("repeated rows of a grouped query scored %v, the same query without them %v", s[1], s[2])
	}
	plain := *in
	plain.Candidates = []nl2sql.ScoreCandidate{in.Candidates[0], in.Candidates[0]}
	plain.Candidates[1].DuplicateRows = false
	if p := (nl2sql.DefaultScorer{}).Score(context.Background(), &plain); p[0] >= p[1] {
		t.Errorf("repeated rows of a fanning join not penalised: %v", p)
	}
}

// TestFanOutOutweighsAgreement: three candidates average each student once
// per friend (a join with a table that repeats them, known from the data:
// the tables declare no keys); one averages each student once. The one
// wins over the three that agree.
func TestFanOutOutweighsAgreement(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE TABLE highschooler (id int, name text, grade int);
		CREATE TABLE friend (student_id int, friend_id int);
		INSERT INTO highschooler VALUES (1, 'Ann', 9), (2, 'Bob', 12), (3, 'Cy', 10);
		INSERT INTO friend VALUES (1, 2), (1, 3), (1, 4), (2, 1);`)
	rec := &inputRecorder{}
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithScorer(rec))
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Pick(context.Background(), "What is the average grade of students who have friends?", []string{
		"SELECT avg(h.grade) FROM highschooler h JOIN friend f ON h.id = f.student_id",
		"SELECT AVG(highschooler.grade) FROM friend JOIN highschooler ON friend.student_id = highschooler.id",
		"SELECT avg(grade) FROM highschooler, friend WHERE id = student_id",
		"SELECT avg(grade) FROM highschooler WHERE id IN (SELECT student_id FROM friend)",
	})
	if err != nil {
		t.Fatal(err)
	}
	var fan []bool
	for _, c := range rec.in.Candidates {
		fan = append(fan, c.FanOut)
	}
	if want := []bool{true, true, true, false}; !slices.Equal(fan, want) {
		t.Errorf("FanOut = %v, want %v", fan, want)
	}
	if res.Chosen != 3 {
		t.Errorf("chose %d (%s), want 3: the average over each student once", res.Chosen, res.SQL)
	}
}

// TestDistinctQuestionShape: a question asking for the different (unique,
// distinct) values prefers the candidate that lists each once (DISTINCT,
// or one row per group) when nothing else tells them apart; a question
// that does not ask for it is indifferent.
func TestDistinctQuestionShape(t *testing.T) {
	cand := func(sql string, grouped bool) nl2sql.ScoreCandidate {
		return nl2sql.ScoreCandidate{SQL: sql, Votes: 1, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, Grouped: grouped}
	}
	cands := []nl2sql.ScoreCandidate{
		cand("SELECT year FROM cars", false),
		cand("SELECT DISTINCT year FROM cars", false),
		cand("SELECT year FROM cars GROUP BY year", true),
		cand("SELECT count(DISTINCT year) FROM cars", false),
	}
	for _, q := range []string{"What are the different years of the cars?", "Which UNIQUE years do cars have?", "List the distinct years"} {
		s := nl2sql.DefaultScorer{}.Score(context.Background(), &nl2sql.ScoreInput{Question: q, Candidates: cands})
		if s[0] >= s[1] || s[0] >= s[2] || s[0] >= s[3] {
			t.Errorf("%q: scores %v, want the plain list below the three that list each year once", q, s)
		}
	}
	s := nl2sql.DefaultScorer{}.Score(context.Background(), &nl2sql.ScoreInput{Question: "List the years of the cars", Candidates: cands[:2]})
	if s[0] != s[1] {
		t.Errorf("a question that does not ask for distinct values scored %v", s)
	}
}
