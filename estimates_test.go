package nl2sql_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/internal/rlstest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestCheckHidesEstimatesUnderRowSecurity: a plan that reads a table with
// row-level security, directly or through a security_invoker view, gives
// the caller no cost and a budget refusal without figures (the planner's
// statistics cover other tenants' rows); a plan over plain tables keeps
// both. The budget still refuses.
func TestCheckHidesEstimatesUnderRowSecurity(t *testing.T) {
	db := rlstest.New(t)
	pgtest.Exec(t, db.DSN, `CREATE VIEW note_texts WITH (security_invoker = true) AS SELECT id, body FROM notes;
GRANT SELECT ON note_texts TO `+db.Reader)
	ctx := context.Background()
	one := []nl2sql.AskOption{nl2sql.AsRole(db.Reader), nl2sql.Setting(rlstest.Setting, "1")}
	for _, budget := range []validate.PlanBudget{{}, {Cost: 0.001}} {
		eng, err := nl2sql.New(pgtest.Pool(t, db.DSN), nl2sql.WithSettings(rlstest.Setting), nl2sql.WithValueIndex(false), nl2sql.WithPlanBudget(budget))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			sql    string
			hidden bool
		}{
			{"SELECT body FROM notes WHERE body = 'two-secret'", true},
			{"SELECT body FROM note_texts WHERE body = 'two-secret'", true},
			{"SELECT p.name FROM " + rlstest.T1 + ".plans p WHERE EXISTS (SELECT FROM notes n WHERE n.id = p.id)", true},
			{"SELECT name FROM " + rlstest.T1 + ".plans WHERE name = 'x'", false},
		} {
			chk, err := eng.Check(ctx, c.sql, one...)
			if err != nil {
				t.Fatalf("%s: %v", c.sql, err)
			}
			if chk.EstimatesHidden != c.hidden {
				t.Errorf("%s: estimates hidden %v, want %v", c.sql, chk.EstimatesHidden, c.hidden)
			}
			if budget.Cost == 0 {
				if !chk.OK || (chk.Cost == 0) != c.hidden {
					t.Errorf("%s: ok %v, cost %v (hidden %v)", c.sql, chk.OK, chk.Cost, c.hidden)
				}
				continue
			}
			var refused string
			for _, is := range chk.Issues {
				if is.Code == validate.CodeBudget {
					refused = is.Message
				}
			}
			if chk.OK || refused == "" {
				t.Fatalf("%s: the budget did not refuse: %+v", c.sql, chk)
			}
			if named := strings.Contains(refused, "estimated to cost"); named == c.hidden {
				t.Errorf("%s: refusal %q (figures should be hidden: %v)", c.sql, refused, c.hidden)
			}
			// Run's refusal (the executor's own plan check) says the same.
			_, err = eng.Run(ctx, c.sql, one...)
			var ne *nl2sql.Error
			if !errors.As(err, &ne) || ne.Code != validate.CodeBudget {
				t.Fatalf("%s: run: %v, want a %s refusal", c.sql, err, validate.CodeBudget)
			}
			if named := strings.Contains(err.Error(), "estimated to cost"); named == c.hidden {
				t.Errorf("%s: run's refusal %q (figures should be hidden: %v)", c.sql, err, c.hidden)
			}
		}
	}
}
