package nl2sql_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
)

// TestReadmeSnippet compiles and runs README's "Use it from Go" program as
// written, against the demo ERP and a fake OpenAI-compatible server.
func TestReadmeSnippet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	section := readmeSection(t, "Use it from Go")
	_, code, ok := strings.Cut(section, "```go\n")
	code, _, ok2 := strings.Cut(code, "```\n")
	if !ok || !ok2 || !strings.Contains(code, "package main") {
		t.Fatal("the section's first Go block is not a program")
	}
	// Inside the module, so its imports resolve to this checkout.
	dir, err := os.MkdirTemp(".", ".readme-snippet-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	const sql = "SELECT c.customer_name FROM customers c ORDER BY c.customer_name LIMIT 5"
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply { return fenced(sql) })
	cmd := exec.Command("go", "run", "./"+filepath.Base(dir))
	cmd.Env = append(os.Environ(), "NL2SQL_DSN="+erptest.Single(t), "OPENAI_BASE_URL="+srv.BaseURL(), "OPENAI_API_KEY=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "customer_name") || !strings.Contains(string(out), "ORDER BY") {
		t.Errorf("output:\n%s", out)
	}
	if len(srv.Requests()) == 0 {
		t.Error("the program never called the model")
	}
}

// TestReadmeTestCommand: the command .ci/run ends with (README's test
// command) is the one README's Tests section shows.
func TestReadmeTestCommand(t *testing.T) {
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(ci)), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if tests := readmeSection(t, "Tests"); !strings.Contains(tests, "```sh\n"+last+"\n```") {
		t.Errorf("README's Tests section does not show .ci/run's command %q in a sh block", last)
	}
}

// readmeSection is README from the heading "## name" on.
func readmeSection(t *testing.T, name string) string {
	t.Helper()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## "+name+"\n")
	if !ok {
		t.Fatalf("README has no %q section", name)
	}
	return section
}
