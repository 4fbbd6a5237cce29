package erp

import (
	"encoding/csv"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Question is one exam item: a natural-language question with its gold SQL.
type Question struct {
	QID        string // unique id, e.g. "hr-01"
	Difficulty string // easy, medium or hard
	Module     string // main module (see ModuleNames)
	Question   string
	Evidence   string // optional hint a user would give, may be empty
	GoldSQL    string // read-only SELECT/WITH with unqualified table names
	Scope      string // schema scope the question is asked in ("public")
}

// Difficulties lists the allowed Question.Difficulty values.
var Difficulties = []string{"easy", "medium", "hard"}

// ErrExam is returned (wrapped) when the embedded exam is malformed.
var ErrExam = errors.New("erp: malformed exam.csv")

var examHeader = []string{"qid", "difficulty", "module", "question", "evidence", "gold_sql", "scope"}

// Exam parses the embedded exam.csv.
func Exam() ([]Question, error) {
	f, err := files.Open("exam.csv")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrExam, err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = len(examHeader)
	recs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrExam, err)
	}
	if len(recs) == 0 || !slices.Equal(recs[0], examHeader) {
		return nil, fmt.Errorf("%w: header must be %s", ErrExam, strings.Join(examHeader, ","))
	}
	seen := map[string]bool{}
	out := make([]Question, 0, len(recs)-1)
	for i, rec := range recs[1:] {
		q := Question{QID: rec[0], Difficulty: rec[1], Module: rec[2], Question: rec[3],
			Evidence: rec[4], GoldSQL: strings.TrimSpace(rec[5]), Scope: rec[6]}
		switch {
		case q.QID == "" || seen[q.QID]:
			return nil, fmt.Errorf("%w: line %d: empty or duplicate qid %q", ErrExam, i+2, q.QID)
		case !slices.Contains(Difficulties, q.Difficulty):
			return nil, fmt.Errorf("%w: %s: unknown difficulty %q", ErrExam, q.QID, q.Difficulty)
		case !slices.Contains(ModuleNames(), q.Module):
			return nil, fmt.Errorf("%w: %s: unknown module %q", ErrExam, q.QID, q.Module)
		case q.Question == "" || q.GoldSQL == "" || q.Scope == "":
			return nil, fmt.Errorf("%w: %s: empty question, gold_sql or scope", ErrExam, q.QID)
		}
		seen[q.QID] = true
		out = append(out, q)
	}
	return out, nil
}
