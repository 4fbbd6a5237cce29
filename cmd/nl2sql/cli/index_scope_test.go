package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/scopetest"
)

// TestIndexScope: index --scope div_01 indexes div_01 and public only:
// the file's catalog (tables, schemas, enum types and labels) and value
// index name nothing of div_02, and it has fewer tables than the whole.
func TestIndexScope(t *testing.T) {
	dsn := erptest.Tenants(t)
	dir := t.TempDir()
	whole, scoped := filepath.Join(dir, "whole.idx"), filepath.Join(dir, "div_01.idx")
	code, out, errOut := cli(t, "index", "--dsn", dsn, "--out", whole, "--json")
	if code != 0 {
		t.Fatalf("index: exit %d %s %s", code, out, errOut)
	}
	all := decode(t, out)["tables"].(float64)
	code, out, errOut = cli(t, "index", "--dsn", dsn, "--scope", "div_01", "--out", scoped, "--json")
	if code != 0 {
		t.Fatalf("index --scope: exit %d %s %s", code, out, errOut)
	}
	if n := decode(t, out)["tables"].(float64); n <= 0 || n >= all {
		t.Errorf("index --scope div_01: %v tables of %v", n, all)
	}
	b, err := os.ReadFile(scoped)
	if err != nil {
		t.Fatal(err)
	}
	if leak := scopetest.Leak(string(b)); leak != "" {
		t.Errorf("index --scope div_01 holds %s", leak)
	}
	if b, _ := os.ReadFile(whole); scopetest.Leak(string(b)) == "" {
		t.Error("the whole index names no div_02: the check above proves nothing")
	}
	f, _ := os.Open(scoped)
	defer f.Close()
	if _, err := nl2sql.LoadIndex(f); err != nil {
		t.Errorf("the scoped index does not load: %v", err)
	}
}
