package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
)

func TestSemanticCommand(t *testing.T) {
	t.Setenv("NL2SQL_DSN", "")
	t.Setenv("DATABASE_URL", "")
	erpModel := filepath.Join("..", "..", "..", "examples", "erp", "semantic.yaml")
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("entities:\n  - name: sales_orders\n    measures:\n      - {name: revenue, agg: sum, expr: pg_sleep(1)}\n      - {name: late, agg: sum, expr: no_such_column}\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// Without a database: the shape only.
	code, out, _ := cli(t, "semantic", "check", erpModel)
	if code != 0 || !strings.Contains(out, "ok (shape)") {
		t.Errorf("offline check of the ERP model: exit %d %q", code, out)
	}
	if code, _, _ := cli(t, "semantic", "check"); code != 2 {
		t.Errorf("no file: exit %d, want 2", code)
	}
	if code, _, _ := cli(t, "semantic", "import-dbt", "x"); code != 2 {
		t.Errorf("import-dbt without a database: exit %d, want 2", code)
	}

	dsn := erptest.Single(t)
	code, out, _ = cli(t, "semantic", "check", "--dsn", dsn, erpModel)
	if code != 0 || !strings.Contains(out, "ok (catalog)") || !strings.Contains(out, "21 verified questions") {
		t.Errorf("ERP model: exit %d %q", code, out)
	}
	code, out, _ = cli(t, "semantic", "check", "--dsn", dsn, bad)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 2 || !strings.Contains(lines[0], bad+":4: measure revenue: V010") || !strings.Contains(lines[1], bad+":5: measure late: L009") {
		t.Errorf("bad model: exit %d\n%s", code, out)
	}
	code, out, _ = cli(t, "semantic", "check", "--json", "--dsn", dsn, bad)
	m := decode(t, out)
	errs, _ := m["errors"].([]any)
	if code != 1 || m["ok"] != false || len(errs) != 2 || errs[0].(map[string]any)["kind"] != "unsafe" || errs[1].(map[string]any)["kind"] != "unknown_name" {
		t.Errorf("bad model, JSON: exit %d %s", code, out)
	}
	code, out, _ = cli(t, "semantic", "import-dbt", "--dsn", dsn, filepath.Join("..", "..", "..", "examples", "erp", "dbt"))
	if code != 0 || !strings.Contains(out, "unmapped: ") || !strings.Contains(out, "semantic_model web_sessions") || !strings.Contains(out, "ok (catalog)") {
		t.Errorf("import-dbt: exit %d\n%s", code, out)
	}
}
