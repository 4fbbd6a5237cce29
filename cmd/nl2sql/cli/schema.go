package cli

import (
	"context"
	"io"
	"strings"

	"github.com/nl2sqlgo/nl2sql/schema"
)

func runSchema(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s := newSub("schema", "usage: nl2sql schema [flags] [TABLE...]\n\nPrints the catalog (or the named tables, schema.table) as M-Schema, or as JSON with --json.", stdout, stderr)
	fs := s.fs
	var include, exclude stringsFlag
	fs.Var(&include, "include", "only schemas matching this pattern (repeatable; path.Match syntax, e.g. div_*)")
	fs.Var(&exclude, "exclude", "skip schemas matching this pattern (repeatable)")
	dbid := fs.String("db-id", "", "【DB_ID】 line of the M-Schema (default: the database name)")
	tables, err := s.parse(args)
	if err != nil {
		return err
	}
	pool, err := s.connect(ctx)
	if err != nil {
		return err
	}
	defer s.close()

	opts := []schema.IntrospectOption{schema.WithoutSchemas(exclude...)}
	if s := append(scopeSchemas(s.scope), include...); len(s) > 0 {
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
				t = cat.Resolve(name, searchPath(s.scope))
			}
			if t == nil {
				return usageErr("unknown table %q", name)
			}
			names = append(names, t.QualifiedName())
		}
		cat = cat.Subset(names)
	}
	if s.json {
		return writeJSON(stdout, struct {
			Fingerprint string `json:"fingerprint"`
			*schema.Catalog
		}{cat.Fingerprint(), cat})
	}
	if *dbid == "" {
		_ = pool.QueryRow(ctx, "SELECT current_database()").Scan(dbid)
	}
	var ropts []schema.RenderOption
	ropts = append(ropts, schema.WithDBID(*dbid))
	if s.scope != "" {
		ropts = append(ropts, schema.WithUnqualified(s.scope))
	}
	_, err = io.WriteString(stdout, cat.MSchema(ropts...))
	return err
}
