// Package datasets locates the shared evaluation datasets
// (../shared/datasets/<name> beside the repository), which are never
// copied into it: tests that use them skip when Locate reports them absent.
package datasets

import (
	"os"
	"path/filepath"
)

// Locate finds dataset name: the directory in environment variable env when
// set, else ../shared/datasets/<name> relative to the repository root found
// by walking up from the working directory (the directory holding go.mod).
// valid says whether a directory holds the dataset.
func Locate(env, name string, valid func(dir string) bool) (string, bool) {
	if d := os.Getenv(env); d != "" {
		return d, valid(d)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(filepath.Dir(dir), "shared", "datasets", name)
			if valid(d) {
				return d, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
