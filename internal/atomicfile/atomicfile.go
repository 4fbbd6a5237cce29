// Package atomicfile writes a file so that readers see the old content or
// the new, never a truncated mix: the index files of the Engine and the
// CLI's saved results.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrCreate is wrapped by Write's error when the temporary file could not
// be created beside path (a missing or read-only folder): a fault of the
// path given, before anything was written.
var ErrCreate = errors.New("cannot create a file in its folder")

// Write writes path through write: into a temporary file beside it, synced,
// then renamed over it. On any failure path is left as it was.
func Write(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".nl2sql-*")
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCreate, err)
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing to remove
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
	return os.Rename(tmp.Name(), path)
}
