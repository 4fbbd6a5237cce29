package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestCheckScope: check --scope (and "scope" in batch mode) refuses
// another tenant's tables however they are named, with a database (the
// Engine's policy) and without one (the scope's schemas).
func TestCheckScope(t *testing.T) {
	t.Setenv("NL2SQL_DSN", "")
	t.Setenv("DATABASE_URL", "")
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE SCHEMA div_01; CREATE SCHEMA div_02;
		CREATE TABLE div_01.employees (id int, name text); CREATE TABLE div_02.employees (id int, name text);
		CREATE TABLE div_02.bank_accounts (id int, iban text); CREATE TABLE public.currencies (code text);`)
	cross := []string{
		"SELECT * FROM div_02.employees",
		`SELECT * FROM "div_02"."bank_accounts"`,
		"SELECT e.name FROM div_01.employees e JOIN div_02.employees f ON f.id = e.id",
		"SELECT NULL::div_02.bank_accounts",
		"SELECT * FROM employees WHERE id IN (SELECT id FROM div_02.bank_accounts)",
	}
	for _, withDB := range []bool{true, false} {
		args := []string{"check", "--scope", "div_01"}
		if withDB {
			args = append(args, "--dsn", dsn)
		}
		for _, sql := range cross {
			code, out, errOut := cli(t, append(args, sql)...)
			m := decode(t, out)
			if code != 1 || m["ok"] != false || !strings.Contains(out, `"V012"`) {
				t.Errorf("db=%v %s: exit %d %s %s", withDB, sql, code, out, errOut)
			}
		}
		code, out, _ := cli(t, append(args, "SELECT e.name FROM employees e JOIN currencies c ON true ORDER BY 1")...)
		if code != 0 || decode(t, out)["ok"] != true {
			t.Errorf("db=%v in-scope query: exit %d %s", withDB, code, out)
		}
		// Batch mode: the per-line scope applies the same way.
		var lines []string
		for _, sql := range cross {
			lines = append(lines, `{"id":"x","scope":"div_01","sql":`+quote(sql)+`}`)
		}
		in := filepath.Join(t.TempDir(), "in.jsonl")
		os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		batch := []string{"check", "--jsonl", in}
		if withDB {
			batch = append(batch, "--dsn", dsn)
		}
		_, out, _ = cli(t, batch...)
		got := strings.Split(strings.TrimSpace(out), "\n")
		if len(got) != len(cross) {
			t.Fatalf("db=%v batch: %d lines\n%s", withDB, len(got), out)
		}
		for i, l := range got {
			if m := decode(t, l); m["ok"] != false || !strings.Contains(l, `"V012"`) {
				t.Errorf("db=%v batch line %d accepted: %s", withDB, i, l)
			}
		}
	}
}

func quote(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}
