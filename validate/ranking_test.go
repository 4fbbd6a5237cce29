package validate_test

import (
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestUnusedRanking: a ranking a CTE or FROM subquery computes and nothing
// reads is reported (L012) in every spelling; a ranking anything reads,
// or may read unseen, is not.
func TestUnusedRanking(t *testing.T) {
	v := validate.New(validate.WithTables(
		validate.Table{Schema: "public", Name: "employees", Columns: []string{"emp_id", "dept_id", "name", "salary"}},
	))
	const ranked = "SELECT dept_id, name, salary, rank() OVER (PARTITION BY dept_id ORDER BY salary DESC) AS rnk FROM employees"
	cases := []struct {
		name string
		sql  string
		want int // L012 warnings
	}{
		{"CTE", "WITH r AS (" + ranked + ") SELECT dept_id, name FROM r", 1},
		{"CTE read under an alias", "WITH r AS (" + ranked + ") SELECT x.dept_id, x.name FROM r AS x ORDER BY x.salary", 1},
		{"subquery", "SELECT dept_id, name FROM (" + ranked + ") s", 1},
		{"unnamed row_number", "SELECT name FROM (SELECT name, row_number() OVER (PARTITION BY dept_id ORDER BY salary) FROM employees) s", 1},
		{"upper case", "WITH R AS (SELECT NAME, DENSE_RANK() OVER (ORDER BY SALARY DESC) AS RN FROM EMPLOYEES) SELECT NAME FROM R", 1},
		{"qualified built-in", "SELECT name FROM (SELECT name, pg_catalog.ntile(4) OVER (ORDER BY salary) AS quartile FROM employees) s", 1},
		{"named window", "SELECT name FROM (SELECT name, row_number() OVER w AS rn FROM employees WINDOW w AS (PARTITION BY dept_id ORDER BY salary)) s", 1},
		{"CTE nested in a subquery", "SELECT name FROM (WITH r AS (" + ranked + ") SELECT name FROM r) s", 1},
		{"in a sublink", "SELECT emp_id FROM employees WHERE name IN (SELECT name FROM (" + ranked + ") s)", 1},
		{"LATERAL", "SELECT e.emp_id, l.name FROM employees e CROSS JOIN LATERAL (SELECT name, row_number() OVER (ORDER BY salary) AS rn FROM employees x WHERE x.dept_id = e.dept_id) l", 1},
		{"two CTEs, the second reads the first without the rank", "WITH r AS (" + ranked + "), top AS (SELECT dept_id, max(salary) AS m FROM r GROUP BY dept_id) SELECT dept_id, m FROM top", 1},

		{"filtered", "WITH r AS (" + ranked + ") SELECT dept_id, name FROM r WHERE rnk = 1", 0},
		{"filtered, qualified", "WITH r AS (" + ranked + ") SELECT x.name FROM r x WHERE x.rnk <= 3", 0},
		{"filtered, quoted", `WITH r AS (` + ranked + `) SELECT name FROM r WHERE "rnk" = 1`, 0},
		{"filtered, unicode escape", `WITH r AS (` + ranked + `) SELECT name FROM r WHERE U&"\0072nk" = 1`, 0},
		{"filtered in a sublink", "WITH r AS (" + ranked + ") SELECT name FROM employees e WHERE EXISTS (SELECT 1 FROM r WHERE r.name = e.name AND rnk = 1)", 0},
		{"sorted on", "SELECT name FROM (" + ranked + ") s ORDER BY rnk", 0},
		{"returned by a star", "WITH r AS (" + ranked + ") SELECT * FROM r", 0},
		{"returned by a qualified star", "SELECT s.* FROM (" + ranked + ") s", 0},
		{"a whole-row reference", "WITH r AS (" + ranked + ") SELECT x FROM r x", 0},
		{"joined with USING", "WITH r AS (" + ranked + "), k AS (SELECT 1 AS rnk) SELECT name FROM r JOIN k USING (rnk)", 0},
		{"renamed by a column list", "WITH r (d, n, s, k) AS (" + ranked + ") SELECT d, n FROM r", 0},
		{"a CTE nobody reads", "WITH r AS (" + ranked + ") SELECT name FROM employees", 0},
		{"returned at the top", ranked, 0},
		{"a running total", "SELECT name FROM (SELECT name, sum(salary) OVER (ORDER BY salary) AS running FROM employees) s", 0},
		{"a union", "WITH r AS (" + ranked + " UNION ALL " + ranked + ") SELECT name FROM r", 0},
	}
	for _, tc := range cases {
		if got := issuesOf(t, v, tc.name, tc.sql, validate.CodeUnusedRanking, "nothing reads it"); len(got) != tc.want {
			t.Errorf("%s: %d L012 warnings, want %d (%v)", tc.name, len(got), tc.want, got)
		}
	}
}
