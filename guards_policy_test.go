package nl2sql_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestKeyWalksThroughEngine: the recursion guard accepts a walk along a
// table's key only when it knows the key; the Engine gives the validator
// its catalog's primary keys, so the demo ERP's org chart (down
// employees.manager_id) and department tree (up departments.parent_dept_id)
// pass Check and run, spelt out or with stars, while a walk whose key
// never moves is refused (V020).
func TestKeyWalksThroughEngine(t *testing.T) {
	eng := policyEngine(t, pgtest.Pool(t, erptest.Single(t)))
	ctx := context.Background()
	for _, sql := range []string{
		`WITH RECURSIVE org AS (SELECT emp_id, manager_id, 0 AS depth FROM employees WHERE manager_id IS NULL UNION ALL SELECT e.emp_id, e.manager_id, o.depth + 1 FROM employees e JOIN org o ON e.manager_id = o.emp_id) SELECT count(*) FROM org`,
		`WITH RECURSIVE org AS (SELECT * FROM employees WHERE manager_id IS NULL UNION ALL SELECT e.* FROM employees e JOIN org o ON e.manager_id = o.emp_id) SELECT count(*) FROM org`,
		`WITH RECURSIVE up AS (SELECT dept_id, parent_dept_id FROM departments WHERE dept_id = 5 UNION ALL SELECT d.dept_id, d.parent_dept_id FROM departments d JOIN up ON d.dept_id = up.parent_dept_id) SELECT count(*) FROM up`,
	} {
		if r, err := eng.Check(ctx, sql); err != nil || !r.OK {
			t.Errorf("Check refused a key walk: %+v %v\nSQL: %s", r, err, sql)
			continue
		}
		if _, err := eng.Run(ctx, sql); err != nil {
			t.Errorf("Run: %v\nSQL: %s", err, sql)
		}
	}
	for _, sql := range []string{
		`WITH RECURSIVE org AS (SELECT emp_id, manager_id FROM employees WHERE manager_id IS NULL UNION ALL SELECT o.emp_id, o.manager_id FROM org o JOIN employees e ON e.emp_id = o.emp_id) SELECT count(*) FROM org`,
		`WITH RECURSIVE org AS (SELECT emp_id, 0 AS depth FROM employees UNION ALL SELECT o.emp_id, o.depth + 1 FROM org o JOIN employees e ON e.manager_id = o.emp_id WHERE o.depth < 50) SELECT count(*) FROM org`,
	} {
		_, err := eng.Run(ctx, sql)
		var ve *validate.Error
		if !errors.As(err, &ve) || !ve.Has(validate.CodeRecursion) {
			t.Errorf("Run: %v, want V020\nSQL: %s", err, sql)
		}
	}
}
