package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// indexJSON is the JSON of index.
type indexJSON struct {
	File        string `json:"file"`
	Tables      int    `json:"tables"`
	Fingerprint string `json:"fingerprint"`
	Bytes       int64  `json:"bytes"`
}

func runIndex(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s := newSub("index", "usage: nl2sql index --out FILE [flags]\n\nIntrospects and indexes the database (catalog, value index, schema index) and saves it for --index.", stdout, stderr)
	out := s.fs.String("out", "", "write the index to FILE (required)")
	if _, err := s.parse(args); err != nil {
		return err
	}
	if *out == "" {
		return usageErr("index needs --out FILE")
	}
	// A scoped index holds that scope's and the shared schemas' tables
	// only: the filter of schema --scope.
	var opts []nl2sql.Option
	if s.scope != "" {
		opts = append(opts, nl2sql.WithIntrospectOptions(schema.WithSchemas(scopeSchemas(s.scope)...)))
	}
	eng, err := s.open(ctx, nil, opts...)
	if err != nil {
		return err
	}
	defer s.close()
	if err := saveIndex(ctx, eng, *out); err != nil {
		return err
	}
	cat, _ := eng.Catalog(ctx)
	st, _ := os.Stat(*out)
	if s.json {
		return writeJSON(stdout, indexJSON{File: *out, Tables: len(cat.Tables), Fingerprint: cat.Fingerprint(), Bytes: st.Size()})
	}
	fmt.Fprintf(stdout, "indexed %d tables into %s (%d bytes)\n", len(cat.Tables), *out, st.Size())
	return nil
}
