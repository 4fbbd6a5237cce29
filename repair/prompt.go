package repair

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// Prompt returns the text of a targeted repair request for an LLM, for when
// Fix has nothing: the server's error, where it happened, the exact columns
// of the tables the query reads, the tables one foreign key away with their
// JOIN conditions, and advice for the SQLSTATE.
func Prompt(sql string, f Failure, cat *schema.Catalog, opts ...Option) string {
	return New(cat, opts...).Prompt(sql, f)
}

// Prompt is the package-level Prompt with the Repairer's catalog and options.
func (r *Repairer) Prompt(sql string, f Failure) string {
	var b strings.Builder
	b.WriteString("The following PostgreSQL query failed.\n\n")
	fmt.Fprintf(&b, "Error (SQLSTATE %s): %s\n", f.SQLState, f.Message)
	if f.Detail != "" {
		fmt.Fprintf(&b, "Detail: %s\n", f.Detail)
	}
	if f.Hint != "" {
		fmt.Fprintf(&b, "Hint: %s\n", f.Hint)
	}
	b.WriteString("\nQuery:\n")
	b.WriteString(strings.TrimSpace(sql))
	b.WriteString("\n")
	if near := snippet(sql, f.Position); near != "" {
		fmt.Fprintf(&b, "\nThe error is here: %s\n", near)
	}

	tables := r.queryTables(sql)
	if len(tables) > 0 {
		b.WriteString("\nTables in the query, with all their columns (use only these names):\n")
		for _, t := range tables {
			writeTable(&b, t, "")
		}
		seen := map[*schema.Table]bool{}
		for _, t := range tables {
			seen[t] = true
		}
		var lines []string
		var more []*schema.Table
		for _, t := range tables {
			for _, fk := range t.ForeignKeys {
				if n := r.cat.Lookup(fk.RefSchema, fk.RefTable); n != nil && !seen[n] {
					seen[n] = true
					more = append(more, n)
					lines = append(lines, joinHint(t, fk.Columns, n, fk.RefColumns))
				}
			}
			for _, ref := range r.cat.ReferencedBy(t.QualifiedName()) {
				if !seen[ref.From] {
					seen[ref.From] = true
					more = append(more, ref.From)
					lines = append(lines, joinHint(ref.From, ref.FK.Columns, t, ref.FK.RefColumns))
				}
			}
		}
		if len(more) > 0 {
			b.WriteString("\nTables one foreign key away (JOIN one of them if the column you need lives there):\n")
			for i, t := range more {
				writeTable(&b, t, lines[i])
			}
		}
	} else if f.SQLState == "42P01" {
		b.WriteString("\nExisting tables:\n")
		names := make([]string, 0, len(r.cat.Tables))
		for _, t := range r.cat.Tables {
			names = append(names, t.QualifiedName())
		}
		sort.Strings(names)
		b.WriteString(strings.Join(names, ", "))
		b.WriteString("\n")
	}
	b.WriteString("\n")
	b.WriteString(advice(f.SQLState))
	b.WriteString("\nReturn only the corrected SQL query, for PostgreSQL, with no explanation.\n")
	return b.String()
}

func writeTable(b *strings.Builder, t *schema.Table, join string) {
	cols := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = quoteIdent(c.Name) + " " + c.Type
	}
	fmt.Fprintf(b, "- %s(%s)", t.QuoteQualified(), strings.Join(cols, ", "))
	if join != "" {
		fmt.Fprintf(b, "\n  JOIN ON %s", join)
	}
	b.WriteString("\n")
}

func joinHint(from *schema.Table, fromCols []string, to *schema.Table, toCols []string) string {
	conds := make([]string, len(fromCols))
	for i := range fromCols {
		conds[i] = fmt.Sprintf("%s.%s = %s.%s", quoteIdent(from.Name), quoteIdent(fromCols[i]), quoteIdent(to.Name), quoteIdent(toCols[i]))
	}
	return strings.Join(conds, " AND ")
}

// queryTables returns the catalog tables the query reads, in order of
// appearance.
func (r *Repairer) queryTables(sql string) []*schema.Table {
	tree, _, _, err := r.parse(sql)
	if err != nil {
		return nil
	}
	d := &doc{r: r, sql: sql, tree: tree}
	var out []*schema.Table
	seen := map[*schema.Table]bool{}
	for _, h := range d.findAll(tree.ProtoReflect(), isRangeVar) {
		sc := d.scopeAt(h.path)
		rv := h.node.GetRangeVar()
		var t *schema.Table
		if sc != nil {
			for _, rl := range sc.rels {
				if rl.rv == rv {
					t = rl.table
				}
			}
		} else if rv.Schemaname != "" {
			t = r.cat.Lookup(rv.Schemaname, rv.Relname)
		} else {
			t = r.cat.Resolve(rv.Relname, r.cfg.searchPath)
		}
		if t != nil && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// snippet shows the text around a 1-based character position.
func snippet(sql string, pos int) string {
	rs := []rune(sql)
	if pos <= 0 || pos > len(rs) {
		return ""
	}
	from, to := max(0, pos-1-30), min(len(rs), pos-1+30)
	s := string(rs[from:pos-1]) + "⟶" + string(rs[pos-1:to])
	return strings.Join(strings.Fields(s), " ")
}

func advice(state string) string {
	switch state {
	case "42703":
		return "The column does not exist where it is used. Use a column listed above; if it belongs to another table, JOIN that table with the condition shown and qualify the column."
	case "42P01":
		return "A table or alias is unknown. Use a listed table and declare every alias you use in FROM or JOIN."
	case "42702":
		return "A column name is ambiguous: qualify it with the alias of the table it should come from."
	case "42803":
		return "Every selected column must be aggregated or listed in GROUP BY."
	case "42883":
		return "A function or operator got the wrong argument types: add explicit casts (e.g. round(x::numeric, 2), text_col::date) or use the PostgreSQL function."
	case "42804":
		return "An expression has the wrong data type: add a cast or a comparison so the types match."
	case "42601":
		return "The query is not valid PostgreSQL syntax: rewrite any MySQL, SQLite or T-SQL idioms."
	}
	return "Fix the query so it runs on PostgreSQL."
}
