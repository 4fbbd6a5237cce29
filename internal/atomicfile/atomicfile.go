// Package atomicfile writes a file so that readers see the old content or
// the new, never a truncated mix: the index files of the Engine and the
// CLI's saved results. Lock and RemoveStale make a read-modify-write of a
// file one writer's at a time, across processes (see Lock).
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ErrCreate is wrapped by Write's error when the temporary file could not
// be created beside path (a missing or read-only folder): a fault of the
// path given, before anything was written.
var ErrCreate = errors.New("cannot create a file in its folder")

// tempSuffix is in the name of every temporary file Write creates, so
// RemoveStale recognises the ones a killed writer left.
const tempSuffix = ".nl2sql-tmp-"

// PauseEnv names a file; when set, Write creates it after the temporary
// file is written and synced, and waits a minute before the rename: the
// moment the tests kill a writer (kill -9) to show the file stays whole.
const PauseEnv = "NL2SQL_TEST_PAUSE_BEFORE_RENAME"

// Target is the file path stands for: a symlink's target (followed to the
// end), so writing it replaces the target and keeps the link; path itself
// when it is no link or names nothing yet.
func Target(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err == nil {
		return real, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("%s is a symlink to nothing: %w", path, err)
		}
		return path, nil
	}
	return "", err
}

// Write writes path (its Target) through write: into a temporary file
// beside it, synced, then renamed over it, and the folder synced, so the
// new content survives a crash once Write returns. On any failure path is
// left as it was. The file keeps its permissions.
func Write(path string, write func(io.Writer) error) error {
	target, err := Target(path)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCreate, err)
	}
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+tempSuffix+"*")
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCreate, err)
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing to remove
	if fi, err := os.Stat(target); err == nil {
		_ = tmp.Chmod(fi.Mode().Perm()) // best effort: 0600 otherwise
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	pauseForTest()
	if err := os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// pauseForTest is PauseEnv's hook.
func pauseForTest() {
	if mark := os.Getenv(PauseEnv); mark != "" {
		if os.WriteFile(mark, nil, 0o600) == nil {
			time.Sleep(time.Minute)
		}
	}
}

// RemoveStale removes the temporary files of target (a Target) that a
// writer killed before its rename left. Call it holding target's Lock:
// then no live writer has one.
func RemoveStale(target string) error {
	entries, err := os.ReadDir(filepath.Dir(target))
	if err != nil {
		return err
	}
	prefix := "." + filepath.Base(target) + tempSuffix
	var errs []error
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) && e.Type().IsRegular() {
			if err := os.Remove(filepath.Join(filepath.Dir(target), e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}
