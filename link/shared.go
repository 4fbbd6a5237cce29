package link

import (
	"slices"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// A value index shared between requests (the Engine's: value hints, the
// column samples of prompts, the literal fixes, the scorer's known values)
// holds no table with row-level security (schema.Table.RowSecurity): which
// of its rows a reader sees depends on the reader, and the role that built
// the index sees them as no request does. Such a table's values are left
// out, not read as each reader: that would be one index per identity (per
// tenant), each built by sampling every column (pg_stats hides the
// statistics of a table whose policies apply), and every tenant's values
// cached in one process. Enum labels stay: the catalog holds them, not the
// rows.

// SharedTables are the tables of cat without row-level security, for
// WithValueTables.
func SharedTables(cat *schema.Catalog) []string {
	out := make([]string, 0, len(cat.Tables))
	for _, t := range cat.Tables {
		if !t.RowSecurity {
			out = append(out, t.QualifiedName())
		}
	}
	return out
}

// Shared is vi without the columns of cat's tables with row-level
// security, but for enum labels (an index built before the policies were
// enabled, or loaded from a file, holds them too): vi itself when it has
// none, nil for a nil vi.
func (vi *ValueIndex) Shared(cat *schema.Catalog) *ValueIndex {
	if vi == nil {
		return nil
	}
	rls := func(c ValueColumn) bool {
		t := cat.Table(c.Table)
		return t != nil && t.RowSecurity && c.Source != SourceEnum
	}
	if !slices.ContainsFunc(vi.Columns, rls) {
		return vi
	}
	out := NewValueIndex(slices.DeleteFunc(slices.Clone(vi.Columns), rls))
	out.Stats = vi.Stats
	return out
}
