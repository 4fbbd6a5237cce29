package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopyBuilds copies this folder into a module of another path and
// builds it there, changing nothing but go.mod's module line and replace:
// the server must use only the library's public packages (Go refuses
// internal/ to a module outside github.com/nl2sqlgo/nl2sql), so it can be
// taken as the start of one's own server. No network: the module cache
// serves the SDK (GOPROXY=off).
func TestCopyBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the server in a copied module: skipped under -short")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	copyTree(t, ".", dst)

	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	goCmd := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dst, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s in the copy: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	goCmd("mod", "edit", "-module", "example.com/mymcp", "-replace", "github.com/nl2sqlgo/nl2sql="+root,
		"-replace", "github.com/nl2sqlgo/nl2sql/otel="+filepath.Join(root, "otel"))
	if mod := goCmd("list", "-m"); strings.TrimSpace(mod) != "example.com/mymcp" {
		t.Fatalf("copy's module is %q, want example.com/mymcp", mod)
	}
	// The server's own imports: the library's public packages only (the
	// build below would refuse an internal one; this names it).
	imports := goCmd("list", "-f", `{{join .Imports "\n"}}`, ".")
	for _, p := range strings.Fields(imports) {
		if strings.HasPrefix(p, "github.com/nl2sqlgo/nl2sql/") && strings.Contains(p+"/", "/internal/") {
			t.Errorf("the server imports %s, which a copy cannot", p)
		}
	}
	if !strings.Contains(imports, "github.com/nl2sqlgo/nl2sql/cliflags") {
		t.Fatalf("the copy does not import the library's cliflags; imports:\n%s", imports)
	}
	bin := filepath.Join(dst, "mcp-server")
	goCmd("build", "-o", bin, ".")

	// The copy is the server: its flags are the ones cliflags registers.
	out, _ := exec.Command(bin, "-h").CombinedOutput()
	for _, flag := range []string{"-dsn", "-llm", "-llm-url", "-timeout"} {
		if !strings.Contains(string(out), flag) {
			t.Errorf("the copied server's -h lacks %s:\n%s", flag, out)
		}
	}
}

// copyTree copies the regular files under src to dst, leaving out
// executables (a server built in place).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dst, path)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() || info.Mode()&0o111 != 0 {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
