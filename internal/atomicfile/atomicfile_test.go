package atomicfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestWrite: the new content replaces the old whole; a failed write leaves
// the old file and no temporary file; a missing folder is ErrCreate.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "old"); return err }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := Write(path, func(w io.Writer) error { io.WriteString(w, "half"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("failed write: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("after a failed write the file holds %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("file holds %q, want new", b)
	}
	if err := Write(filepath.Join(dir, "missing", "f"), func(io.Writer) error { return nil }); !errors.Is(err, ErrCreate) {
		t.Errorf("missing folder: %v, want ErrCreate", err)
	}
}

// TestWriteSymlink: writing through a symlink replaces its target and
// keeps the link; the target's permissions stay; a dangling link is
// refused (ErrCreate) rather than replaced by a file.
func TestWriteSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("target", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("the target holds %q", b)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Errorf("the target's mode is %v, want 0640", fi.Mode().Perm())
	}
	if got, err := Target(link); err != nil || got != target {
		t.Errorf("Target(link) = %q, %v", got, err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("nowhere", dangling); err != nil {
		t.Fatal(err)
	}
	if err := Write(dangling, func(io.Writer) error { return nil }); !errors.Is(err, ErrCreate) {
		t.Errorf("a dangling link: %v, want ErrCreate", err)
	}
	if fi, _ := os.Lstat(dangling); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the dangling link was replaced")
	}
}

// TestLock: the lock excludes every other taker (a separate open file, as
// another process's) until unlock; a wait ends with its context; a folder
// it cannot create the lock file in is ErrCreate.
func TestLock(t *testing.T) {
	target := filepath.Join(t.TempDir(), "f")
	unlock, err := Lock(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Lock(ctx, target); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a second lock while one is held: %v", err)
	}
	got := make(chan error, 1)
	go func() {
		u, err := Lock(context.Background(), target) // waits for unlock
		if err == nil {
			u()
		}
		got <- err
	}()
	unlock()
	if err := <-got; err != nil {
		t.Errorf("the lock after unlock: %v", err)
	}
	if _, err := Lock(context.Background(), filepath.Join(t.TempDir(), "missing", "f")); !errors.Is(err, ErrCreate) {
		t.Errorf("a missing folder: %v, want ErrCreate", err)
	}
}

// TestRemoveStale removes the temporary files of its file only.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "f")
	keep := []string{"f", "f.lock", "other", ".g" + tempSuffix + "1", ".f.nl2sql-1"}
	stale := []string{".f" + tempSuffix + "1", ".f" + tempSuffix + "2"}
	for _, n := range append(slices.Clone(keep), stale...) {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := RemoveStale(target); err != nil {
		t.Fatal(err)
	}
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if !slices.Equal(slices.Sorted(slices.Values(left)), slices.Sorted(slices.Values(keep))) {
		t.Errorf("left %v, want %v", left, keep)
	}
}
