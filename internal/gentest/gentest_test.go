package gentest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestTreeMessages(t *testing.T) {
	var names []string
	for _, md := range TreeMessages() {
		names = append(names, string(md.Name()))
	}
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Error("not sorted by name, or with duplicates")
	}
	for _, want := range []string{"ParseResult", "RawStmt", "Node", "SelectStmt", "A_Const", "JsonTable"} {
		if !slices.Contains(names, want) {
			t.Errorf("%s missing", want)
		}
	}
	for _, not := range []string{"ScanResult", "ScanToken", "SummaryResult"} {
		if slices.Contains(names, not) {
			t.Errorf("%s is not part of a parse tree", not)
		}
	}
}

func TestUpToDate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x_gen.go")
	UpToDate(t, path, []byte("a"), true, "")
	UpToDate(t, path, []byte("a"), false, "")
	if b, _ := os.ReadFile(path); string(b) != "a" {
		t.Errorf("file holds %q", b)
	}
	stale := &testing.T{}
	done := make(chan struct{})
	go func() { // Fatalf ends the goroutine it runs in
		defer close(done)
		UpToDate(stale, path, []byte("b"), false, "go generate")
	}()
	<-done
	if !stale.Failed() {
		t.Error("a stale file passed")
	}
}
