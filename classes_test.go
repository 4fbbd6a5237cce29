package nl2sql_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestRunClasses: caller-written SQL the validator refuses is unsafe only
// when it breaks the policy; a slip (a typo in a table name, a syntax
// error) is invalid_sql, never reported as an attack.
func TestRunClasses(t *testing.T) {
	eng, err := nl2sql.New(pgtest.Pool(t, erptest.Single(t)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		sql   string
		class nl2sql.Class
		code  string
	}{
		{"SELECT count(*) FROM employes", nl2sql.ClassInvalid, "V012"},
		{"SELEC count(*) FROM employees", nl2sql.ClassInvalid, "V001"},
		{"SELECT count(*) FROM public.nosuchtable", nl2sql.ClassInvalid, "V012"},
		{"DELETE FROM employees", nl2sql.ClassUnsafe, "V004"},
		{"SELECT pg_sleep(1)", nl2sql.ClassUnsafe, "V010"},
		{"SELECT * FROM pg_catalog.pg_authid", nl2sql.ClassUnsafe, "V013"},
		{"SELECT t::text FROM (VALUES (pg_typeof(1)), ('pg_authid')) v(t)", nl2sql.ClassUnsafe, "V013"},
		{"SELECT age(xmin) FROM employees", nl2sql.ClassUnsafe, "V026"},
		{"SELECT 1; SELECT 2", nl2sql.ClassUnsafe, "V003"},
	} {
		res, err := eng.Run(ctx, c.sql)
		var ne *nl2sql.Error
		if !errors.As(err, &ne) || ne.Class != c.class || ne.Code != c.code || res.Error == nil || res.Error.Class != c.class {
			t.Errorf("%s: %v, want %s [%s]", c.sql, err, c.class, c.code)
		}
		if want := map[nl2sql.Class]error{nl2sql.ClassInvalid: nl2sql.ErrInvalid, nl2sql.ClassUnsafe: nl2sql.ErrUnsafe}[c.class]; !errors.Is(err, want) {
			t.Errorf("%s: %v does not match %v", c.sql, err, want)
		}
	}
	if _, err := eng.Learn(ctx, nl2sql.Example("How many employees?", "SELECT count(*) FROM employes")); !errors.Is(err, nl2sql.ErrInvalid) {
		t.Errorf("Learn with a typo: %v, want ErrInvalid", err)
	}
	if _, err := eng.Learn(ctx, nl2sql.Example("How many employees?", "SELECT count(*)::regclass FROM employees")); !errors.Is(err, nl2sql.ErrUnsafe) && !errors.Is(err, nl2sql.ErrInvalid) {
		t.Errorf("Learn with a refused plan: %v", err)
	}
}
