package semantic_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/semantic"
)

func TestBind(t *testing.T) {
	m := read(t, `verified_questions:
  - question: Top {n} customers in {segment} between {period}
    sql: SELECT {n}, {segment}, {period.from}, {period.to}, {n}
    parameters:
      - {name: n, kind: top_n, examples: ["5"]}
      - {name: segment, kind: value, column: customers.segment, examples: ["O'Brien & Co"]}
      - {name: period, kind: date_range, examples: ["2024-01-01/2024-04-01"]}
`)
	q := m.VerifiedQuestions[0]
	sql, args, err := q.Bind(q.Examples()[0])
	if err != nil {
		t.Fatal(err)
	}
	from, _ := time.Parse(time.DateOnly, "2024-01-01")
	to, _ := time.Parse(time.DateOnly, "2024-04-01")
	if sql != "SELECT $1, $2, $3, $4, $1" || len(args) != 4 || args[0] != 5 || args[1] != "O'Brien & Co" || args[2] != from || args[3] != to {
		t.Errorf("Bind = %q %v", sql, args)
	}
	for _, bad := range []map[string]string{
		{"n": "0", "segment": "x", "period": "2024-01-01/2024-04-01"},
		{"n": "5", "segment": "x", "period": "2024-04-01/2024-01-01"},
		{"n": "5", "segment": "", "period": "2024-01-01/2024-04-01"},
		{"n": "5", "period": "2024-01-01/2024-04-01"},
	} {
		if _, _, err := q.Bind(bad); !errors.Is(err, semantic.ErrParameter) {
			t.Errorf("Bind(%v) = %v, want ErrParameter", bad, err)
		}
	}
	if got := len(read(t, strings.Replace(model("", ""), `examples: ["2024"]`, `examples: ["2023", "2024", "2025"]`, 1)).VerifiedQuestions[0].Examples()); got != 3 {
		t.Errorf("Examples: %d bindings, want 3", got)
	}
}
