package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func runIndex(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("index", stderr)
	var c commonFlags
	c.register(fs)
	out := fs.String("out", "", "write the index to FILE (required)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: nl2sql index --out FILE [flags]\n\nIntrospects and indexes the database (catalog, value index, schema index) and saves it for --index.")
		fs.PrintDefaults()
	}
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usageErr("index needs --out FILE")
	}
	eng, pool, err := openEngine(ctx, &c, nil, stderr)
	if err != nil {
		return err
	}
	defer pool.Close()
	// Write next to the target and rename, so a failed run never leaves a
	// truncated index where a good one was.
	tmp, err := os.CreateTemp(filepath.Dir(*out), ".nl2sql-index-*")
	if err != nil {
		return usageErr("%v", err)
	}
	defer os.Remove(tmp.Name())
	if err := eng.SaveIndex(ctx, tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), *out); err != nil {
		return err
	}
	cat, _ := eng.Catalog(ctx)
	st, _ := os.Stat(*out)
	if c.json {
		return writeJSON(stdout, map[string]any{"file": *out, "tables": len(cat.Tables), "fingerprint": cat.Fingerprint(), "bytes": st.Size()})
	}
	fmt.Fprintf(stdout, "indexed %d tables into %s (%d bytes)\n", len(cat.Tables), *out, st.Size())
	return nil
}
