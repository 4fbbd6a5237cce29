package nl2sql

import (
	"slices"

	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// The values the engine reads once, as its own login role, and shares
// between requests (the value index behind value hints, the column value
// samples of prompts, the literal fixes and the scorer's known values)
// hold no table with row-level security (schema.Table.RowSecurity): which
// of its rows a reader sees depends on the reader, and the pool role's
// view of it is not a request's. Such a table's values are left out, not
// read as each request's identity: that would be one index per identity
// (per tenant), each built by sampling every column (pg_stats hides the
// statistics of a table whose policies apply), and a cache of every
// tenant's values in the process. Enum labels stay: the catalog holds
// them, not the rows.

// sharedTables are the catalog's tables without row-level security, for
// link.WithValueTables.
func sharedTables(cat *schema.Catalog) []string {
	out := make([]string, 0, len(cat.Tables))
	for _, t := range cat.Tables {
		if !t.RowSecurity {
			out = append(out, t.QualifiedName())
		}
	}
	return out
}

// sharedValues is vi without the columns of tables with row-level
// security, but for enum labels: an index built before the policies were
// enabled, or loaded from a file, holds them too.
func sharedValues(vi *link.ValueIndex, cat *schema.Catalog) *link.ValueIndex {
	if vi == nil {
		return nil
	}
	rls := func(c link.ValueColumn) bool {
		t := cat.Table(c.Table)
		return t != nil && t.RowSecurity && c.Source != link.SourceEnum
	}
	if !slices.ContainsFunc(vi.Columns, rls) {
		return vi
	}
	out := link.NewValueIndex(slices.DeleteFunc(slices.Clone(vi.Columns), rls))
	out.Stats = vi.Stats
	return out
}
