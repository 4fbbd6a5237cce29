package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
)

// TestLearnBesideCLI runs this server (--index F) and the nl2sql CLI as
// separate processes on one index file: neither loses what the other
// learnt, the knowledge resource lists what the CLI taught, what the CLI
// forgot stays forgotten when the server writes next, and every
// acknowledged learn is in the file after the server is killed (kill -9).
func TestLearnBesideCLI(t *testing.T) {
	dsn := erptest.Single(t)
	t.Setenv("NL2SQL_STORE_DSN", "")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	idx := filepath.Join(t.TempDir(), "erp.idx")
	if err := mustEngine(t, dsn, nl2sql.WithValueIndex(false)).SaveIndexFile(ctx, idx); err != nil {
		t.Fatal(err)
	}
	cliBin := filepath.Join(t.TempDir(), "nl2sql")
	if out, err := exec.Command("go", "-C", "../..", "build", "-o", cliBin, "./cmd/nl2sql").CombinedOutput(); err != nil {
		t.Fatalf("go build nl2sql: %v\n%s", err, out)
	}
	nl2sqlCLI := func(args ...string) []byte {
		t.Helper()
		out, err := exec.Command(cliBin, append(args, "--dsn", dsn, "--index", idx, "--json")...).Output()
		if err != nil {
			t.Fatalf("nl2sql %v: %v", args, err)
		}
		return out
	}
	server := exec.Command(buildBinary(t), "--dsn", dsn, "--llm", "none", "--index", idx)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: server}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { server.Process.Kill() })
	learn := func(args map[string]any) string {
		t.Helper()
		return decode[LearnOutput](t, call(t, cs, "learn", args)).ID
	}
	fileIDs := func() []string {
		t.Helper()
		var ks []nl2sql.Knowledge
		if err := json.Unmarshal(nl2sqlCLI("knowledge", "list"), &ks); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, k := range ks {
			ids = append(ids, k.ID)
		}
		return slices.Sorted(slices.Values(ids))
	}

	a := learn(map[string]any{"kind": "doc", "text": "Salaries are paid monthly.", "table": "employees"})
	var b nl2sql.Knowledge
	if err := json.Unmarshal(nl2sqlCLI("learn", "How many employees are there?", "SELECT count(*) FROM employees"), &b); err != nil {
		t.Fatal(err)
	}
	c := learn(map[string]any{"kind": "term", "term": "crew", "targets": []string{"employees"}})
	want := slices.Sorted(slices.Values([]string{a, b.ID, c}))
	if got := fileIDs(); !slices.Equal(got, want) {
		t.Fatalf("the file holds %v, want %v (the server overwrote the CLI's learn?)", got, want)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: knowledgeURI})
	if err != nil {
		t.Fatal(err)
	}
	var listed []LearnOutput
	if err := json.Unmarshal([]byte(rr.Contents[0].Text), &listed); err != nil || len(listed) != 3 {
		t.Errorf("the knowledge resource lists %s (%v), want the CLI's example too", rr.Contents[0].Text, err)
	}

	nl2sqlCLI("knowledge", "forget", a)
	d := learn(map[string]any{"question": "How many projects are there?", "sql": "SELECT count(*) FROM projects"})
	if err := server.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	server.Wait()
	want = slices.Sorted(slices.Values([]string{b.ID, c, d}))
	if got := fileIDs(); !slices.Equal(got, want) {
		t.Errorf("after the server's kill -9 the file holds %v, want %v (the CLI's forget of %s undone, or a learn lost)", got, want, a)
	}
}
