package schema

import (
	"strconv"
	"strings"
)

// RenderOption configures M-Schema rendering.
type RenderOption interface{ applyRender(*renderConfig) }

type renderConfig struct {
	dbID          string
	examples      map[string][]string
	maxExamples   int
	rowEstimates  bool
	omit          map[string]bool
	maxCommentLen int
	maxExampleLen int
}

type renderOptionFunc func(*renderConfig)

func (f renderOptionFunc) applyRender(c *renderConfig) { f(c) }

// WithDBID sets the 【DB_ID】 header line (omitted when empty).
func WithDBID(id string) RenderOption {
	return renderOptionFunc(func(c *renderConfig) { c.dbID = id })
}

// WithExamples supplies example values per column, keyed by
// "schema.table.column". Values are shown in the given order.
func WithExamples(examples map[string][]string) RenderOption {
	return renderOptionFunc(func(c *renderConfig) { c.examples = examples })
}

// WithMaxExamples caps the example values shown per column (default 3).
func WithMaxExamples(n int) RenderOption {
	return renderOptionFunc(func(c *renderConfig) { c.maxExamples = n })
}

// WithRowEstimates appends the planner's row estimate to each table line.
func WithRowEstimates(on bool) RenderOption {
	return renderOptionFunc(func(c *renderConfig) { c.rowEstimates = on })
}

// WithUnqualified renders tables of these schemas unqualified (for a prompt
// whose SQL runs with that search_path).
func WithUnqualified(schemas ...string) RenderOption {
	return renderOptionFunc(func(c *renderConfig) {
		for _, s := range schemas {
			c.omit[s] = true
		}
	})
}

// WithMaxCommentLen truncates comments to n runes (default 160; 0 keeps them whole).
func WithMaxCommentLen(n int) RenderOption {
	return renderOptionFunc(func(c *renderConfig) { c.maxCommentLen = n })
}

// MSchema renders the catalog's tables in M-Schema form.
func (c *Catalog) MSchema(opts ...RenderOption) string { return MSchema(c.Tables, opts...) }

// MSchema renders tables in M-Schema, the compact schema text the LLM reads:
//
//	【DB_ID】 erp
//	【Schema】
//	# Table: public.employees, People employed by the company
//	[
//	(emp_id:INTEGER, Primary Key, Employee number),
//	(dept_cd:CHAR(4), Department code, Examples: [FIN, HR]),
//	(status:employee_status, Values: [Active, On leave, Terminated])
//	]
//	【Foreign keys】
//	public.employees.dept_cd=public.departments.dept_cd
//
// Tables come in the given order; foreign keys are listed when both ends are
// among the tables. The output depends only on its input.
func MSchema(tables []*Table, opts ...RenderOption) string {
	cfg := renderConfig{maxExamples: 3, omit: map[string]bool{}, maxCommentLen: 160, maxExampleLen: 40}
	for _, o := range opts {
		o.applyRender(&cfg)
	}
	// Names are rendered as SQL identifiers (quoted when PostgreSQL needs
	// it), because the model copies them into the query.
	name := func(schemaName, table string) string {
		if cfg.omit[schemaName] {
			return QuoteIdent(table)
		}
		return QuoteIdent(schemaName) + "." + QuoteIdent(table)
	}
	cols := func(cs []string) string {
		q := make([]string, len(cs))
		for i, c := range cs {
			q[i] = QuoteIdent(c)
		}
		return strings.Join(q, ", ")
	}
	var b strings.Builder
	if cfg.dbID != "" {
		b.WriteString("【DB_ID】 " + cfg.dbID + "\n")
	}
	b.WriteString("【Schema】\n")
	in := make(map[string]bool, len(tables))
	for _, t := range tables {
		in[t.QualifiedName()] = true
	}
	for _, t := range tables {
		label := "Table"
		switch t.Kind {
		case KindView:
			label = "View"
		case KindMaterializedView:
			label = "Materialized view"
		}
		b.WriteString("# " + label + ": " + name(t.Schema, t.Name))
		if t.Comment != "" {
			b.WriteString(", " + clip(t.Comment, cfg.maxCommentLen))
		}
		if cfg.rowEstimates && t.EstimatedRows >= 0 {
			b.WriteString(" (~" + strconv.FormatInt(t.EstimatedRows, 10) + " rows)")
		}
		b.WriteString("\n[\n")
		for i, col := range t.Columns {
			b.WriteString("(" + QuoteIdent(col.Name) + ":" + CompactType(col.Type))
			if col.PrimaryKey {
				b.WriteString(", Primary Key")
			}
			if col.Comment != "" {
				b.WriteString(", " + clip(col.Comment, cfg.maxCommentLen))
			}
			if len(col.EnumLabels) > 0 {
				b.WriteString(", Values: [" + strings.Join(col.EnumLabels, ", ") + "]")
			} else if ex := cfg.examples[t.QualifiedName()+"."+col.Name]; len(ex) > 0 && cfg.maxExamples > 0 {
				if len(ex) > cfg.maxExamples {
					ex = ex[:cfg.maxExamples]
				}
				clipped := make([]string, len(ex))
				for j, v := range ex {
					clipped[j] = exampleValue(clip(v, cfg.maxExampleLen))
				}
				b.WriteString(", Examples: [" + strings.Join(clipped, ", ") + "]")
			}
			b.WriteString(")")
			if i < len(t.Columns)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("]\n")
	}
	var fks []string
	for _, t := range tables {
		for _, fk := range t.ForeignKeys {
			if !in[fk.Ref()] {
				continue
			}
			from, to := name(t.Schema, t.Name), name(fk.RefSchema, fk.RefTable)
			if len(fk.Columns) == 1 {
				fks = append(fks, from+"."+cols(fk.Columns)+"="+to+"."+cols(fk.RefColumns))
			} else {
				fks = append(fks, from+".("+cols(fk.Columns)+")="+to+".("+cols(fk.RefColumns)+")")
			}
		}
	}
	if len(fks) > 0 {
		b.WriteString("【Foreign keys】\n")
		for _, l := range fks {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// exampleValue quotes a value as an SQL literal when it would be ambiguous in
// a comma-separated list.
func exampleValue(v string) string {
	if v == "" || strings.ContainsAny(v, ",[]'") || strings.TrimSpace(v) != v {
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	}
	return v
}

// clip shortens s to n runes (n <= 0: no limit) and folds newlines.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if n <= 0 {
		return s
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

var compactTypes = []struct{ long, short string }{
	{"character varying", "VARCHAR"},
	{"timestamp with time zone", "TIMESTAMPTZ"},
	{"timestamp without time zone", "TIMESTAMP"},
	{"time with time zone", "TIMETZ"},
	{"time without time zone", "TIME"},
	{"double precision", "FLOAT8"},
	{"character", "CHAR"},
	{"integer", "INTEGER"},
	{"smallint", "SMALLINT"},
	{"bigint", "BIGINT"},
	{"numeric", "NUMERIC"},
	{"boolean", "BOOL"},
	{"text", "TEXT"},
	{"date", "DATE"},
	{"real", "REAL"},
	{"jsonb", "JSONB"},
	{"json", "JSON"},
	{"uuid", "UUID"},
	{"bytea", "BYTEA"},
	{"interval", "INTERVAL"},
	{"inet", "INET"},
	{"money", "MONEY"},
}

// CompactType shortens a format_type() name for prompts: "character
// varying(40)" -> "VARCHAR(40)", "timestamp with time zone" -> "TIMESTAMPTZ".
// Unknown types (enums, domains, extension types) are returned unchanged.
func CompactType(t string) string {
	arr := ""
	for strings.HasSuffix(t, "[]") {
		arr += "[]"
		t = strings.TrimSuffix(t, "[]")
	}
	for _, c := range compactTypes {
		if t == c.long {
			return c.short + arr
		}
		if strings.HasPrefix(t, c.long+"(") {
			mod := t[len(c.long):]
			// "timestamp(3) with time zone" style modifiers sit mid-name; only
			// trailing modifiers are handled here.
			return c.short + mod + arr
		}
	}
	if strings.HasPrefix(t, "timestamp(") && strings.HasSuffix(t, ") with time zone") {
		return "TIMESTAMPTZ" + t[len("timestamp"):len(t)-len(" with time zone")] + arr
	}
	if strings.HasPrefix(t, "timestamp(") && strings.HasSuffix(t, ") without time zone") {
		return "TIMESTAMP" + t[len("timestamp"):len(t)-len(" without time zone")] + arr
	}
	return t + arr
}
