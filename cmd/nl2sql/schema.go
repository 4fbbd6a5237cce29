package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nl2sqlgo/nl2sql/schema"
)

func runSchema(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("schema", stderr)
	var c commonFlags
	c.register(fs)
	var include, exclude stringsFlag
	fs.Var(&include, "include", "only schemas matching this pattern (repeatable; path.Match syntax, e.g. div_*)")
	fs.Var(&exclude, "exclude", "skip schemas matching this pattern (repeatable)")
	dbid := fs.String("db-id", "", "【DB_ID】 line of the M-Schema (default: the database name)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: nl2sql schema [flags] [TABLE...]\n\nPrints the catalog (or the named tables, schema.table) as M-Schema, or as JSON with --json.")
		fs.PrintDefaults()
	}
	tables, err := parse(fs, args)
	if err != nil {
		return err
	}
	pool, err := c.connect(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()

	opts := []schema.IntrospectOption{schema.WithoutSchemas(exclude...)}
	if s := append(c.scopeSchemas(), include...); len(s) > 0 {
		opts = append(opts, schema.WithSchemas(s...))
	}
	cat, err := schema.Introspect(ctx, pool, opts...)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if len(tables) > 0 {
		// Bare names resolve along the scope's search path, like SQL.
		names := make([]string, 0, len(tables))
		for _, name := range tables {
			t := cat.Table(name)
			if !strings.Contains(name, ".") {
				t = cat.Resolve(name, searchPath(c.scope))
			}
			if t == nil {
				return usageErr("unknown table %q", name)
			}
			names = append(names, t.QualifiedName())
		}
		cat = cat.Subset(names)
	}
	if c.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Fingerprint string `json:"fingerprint"`
			*schema.Catalog
		}{cat.Fingerprint(), cat})
	}
	if *dbid == "" {
		_ = pool.QueryRow(ctx, "SELECT current_database()").Scan(dbid)
	}
	var ropts []schema.RenderOption
	ropts = append(ropts, schema.WithDBID(*dbid))
	if c.scope != "" {
		ropts = append(ropts, schema.WithUnqualified(c.scope))
	}
	_, err = io.WriteString(stdout, cat.MSchema(ropts...))
	return err
}
