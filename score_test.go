package nl2sql_test

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/describe"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/score"
)

// inputRecorder is score.Default, keeping the last input it scored.
type inputRecorder struct {
	mu sync.Mutex
	in *score.Input
}

func (r *inputRecorder) Score(ctx context.Context, in *score.Input) []float64 {
	r.mu.Lock()
	r.in = in
	r.mu.Unlock()
	return score.Default{}.Score(ctx, in)
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

// describeRecorder is score.Default, keeping the descriptions the Engine
// gave the candidates and then replacing them (a Scorer may change its
// input; the Result's description must not follow).
type describeRecorder struct {
	mu   sync.Mutex
	sqls []string
	got  []*describe.Description
}

func (r *describeRecorder) Score(ctx context.Context, in *score.Input) []float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range in.Candidates {
		r.sqls, r.got = append(r.sqls, c.SQL), append(r.got, c.Description)
	}
	s := score.Default{}.Score(ctx, in)
	for i := range in.Candidates {
		in.Candidates[i].Description = &describe.Description{Text: "Not what it returns."}
	}
	return s
}

// TestEngineDescribesEachCandidate: the Engine hands the Scorer each
// candidate's description (describe.SQL of its SQL), and the Result's
// description is the chosen one's, whatever the Scorer did to its input;
// Pick describes a query given twice once.
func TestEngineDescribesEachCandidate(t *testing.T) {
	const a, b = "SELECT count(*) FROM employees WHERE status = 'Active'", "SELECT count(emp_id) FROM employees WHERE status = 'Active'"
	rec := &describeRecorder{}
	eng, _ := engine(t, func(n int, r *llmfake.Request) llmfake.Reply {
		if *r.Temperature == 0.5 {
			return fenced(b)
		}
		return fenced(a)
	}, nl2sql.WithK(3, 3, 3), nl2sql.WithScorer(rec))
	res, err := eng.Ask(context.Background(), "How many employees are active?")
	if err != nil {
		t.Fatalf("%v\n%+v", err, res.Candidates)
	}
	if len(rec.sqls) != 2 {
		t.Fatalf("scored %q, want the two queries", rec.sqls)
	}
	for i, sql := range rec.sqls {
		want, err := describe.SQL(sql)
		if err != nil || rec.got[i] == nil || !reflect.DeepEqual(rec.got[i], want) {
			t.Errorf("%q: the Engine's description %+v, want %+v (%v)", sql, rec.got[i], want, err)
		}
	}
	if want, _ := describe.SQL(res.SQL); want == nil || res.Description != want.Text {
		t.Errorf("Result.Description %q, want the description of %q", res.Description, res.SQL)
	}
	// Pick's candidates with the same SQL share one description.
	rec.sqls, rec.got = nil, nil
	if _, err := eng.Pick(context.Background(), "How many employees are active?", []string{a, b, a}); err != nil {
		t.Fatal(err)
	}
	if len(rec.got) != 3 || rec.sqls[0] != rec.sqls[2] || rec.got[0] == nil || rec.got[0] != rec.got[2] || rec.got[1] == rec.got[0] {
		t.Errorf("Pick of %q, %q and %q again: descriptions %+v, want the first shared by the third", a, b, a, rec.got)
	}
}
