package workload

import (
	"cmp"
	"log/slog"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/internal/sqlrefs"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// Edge is a learned join: an equality between two columns
// ("schema.table.column", From < To) and the calls of the statements that
// made it. It is plan.LearnedEdge, so k.Edges goes to plan.WithLearnedEdges.
type Edge = plan.LearnedEdge

// Usage counts how often a table or column ("schema.table[.column]") is read.
type Usage struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Shape is a frequent query shape: statements equal up to constants.
// It is a candidate example, not a verified one (see the package doc).
type Shape struct {
	Fingerprint string   `json:"fingerprint"` // libpg_query fingerprint
	SQL         string   `json:"sql"`         // the most called text of the shape
	Count       int      `json:"count"`       // calls of all its statements
	Statements  int      `json:"statements"`  // distinct texts
	Tables      []string `json:"tables"`      // qualified, sorted
}

// Knowledge is what a workload taught: see the package doc.
type Knowledge struct {
	Statements int `json:"statements"` // read
	Kept       int `json:"kept"`       // accepted by the validator
	Rejected   int `json:"rejected"`   // not read-only, not over the catalog, or not parsable
	Calls      int `json:"calls"`      // calls of the kept statements

	Edges   []Edge  `json:"edges"`   // count descending, then From, To
	Columns []Usage `json:"columns"` // count descending, then name
	Tables  []Usage `json:"tables"`  // count descending, then name
	Shapes  []Shape `json:"shapes"`  // the most frequent, count descending
}

// TableUsage returns table -> count, for retrieve.WithUsage.
func (k *Knowledge) TableUsage() map[string]int { return usageMap(k.Tables) }

// ColumnUsage returns column -> count.
func (k *Knowledge) ColumnUsage() map[string]int { return usageMap(k.Columns) }

func usageMap(us []Usage) map[string]int {
	out := make(map[string]int, len(us))
	for _, u := range us {
		out[u.Name] = u.Count
	}
	return out
}

// Option configures Learn.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	validator *validate.Validator
	path      []string
	shapes    int
	logger    *slog.Logger
}

// WithValidator sets the validator that decides which statements are kept
// (default: validate.New with the catalog's tables and the search path).
// An Engine's policy (scope, types) can be passed this way.
func WithValidator(v *validate.Validator) Option {
	return optionFunc(func(c *config) { c.validator = v })
}

// WithSearchPath sets the schemas unqualified names resolve in (default
// "public").
func WithSearchPath(schemas ...string) Option {
	return optionFunc(func(c *config) { c.path = schemas })
}

// WithMaxShapes sets how many shapes are kept (default 20; 0 for none).
func WithMaxShapes(n int) Option { return optionFunc(func(c *config) { c.shapes = n }) }

// WithLogger logs each rejected statement at debug level (silent by
// default; nil keeps the default).
func WithLogger(l *slog.Logger) Option {
	return optionFunc(func(c *config) {
		if l != nil {
			c.logger = l
		}
	})
}

// Learn analyses the statements over cat and returns what they teach.
func Learn(cat *schema.Catalog, stmts []Statement, opts ...Option) *Knowledge {
	cfg := config{path: []string{"public"}, shapes: 20, logger: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o.apply(&cfg)
	}
	if len(cfg.path) == 0 {
		cfg.path = []string{"public"}
	}
	if cfg.validator == nil {
		cfg.validator = validate.New(validate.WithTables(Tables(cat)...), validate.WithSearchPath(cfg.path...))
	}
	k := &Knowledge{Statements: len(stmts)}
	edges := map[Edge]int{}
	cols, tables := map[string]int{}, map[string]int{}
	type shapeAcc struct {
		Shape
		best  int // calls of the representative text
		texts map[string]int
		first int
	}
	shapes := map[string]*shapeAcc{}
	for i, st := range stmts {
		calls := max(st.Calls, 1)
		text := Unparameterize(st.SQL)
		if _, err := cfg.validator.Validate(text); err != nil {
			k.Rejected++
			cfg.logger.Debug("workload: statement rejected", "statement", i, "error", err)
			continue
		}
		refs, err := sqlrefs.Extract(text, cat, cfg.path)
		if err != nil {
			k.Rejected++
			continue
		}
		k.Kept++
		k.Calls += calls
		for _, j := range refs.Joins {
			edges[Edge{From: j.From, To: j.To}] += calls
		}
		for _, c := range refs.Columns {
			cols[c] += calls
		}
		for _, t := range refs.Tables {
			tables[t] += calls
		}
		if cfg.shapes <= 0 {
			continue
		}
		fp, err := pg_query.Fingerprint(text)
		if err != nil {
			continue
		}
		s := shapes[fp]
		if s == nil {
			s = &shapeAcc{Shape: Shape{Fingerprint: fp, SQL: st.SQL, Tables: refs.Tables}, texts: map[string]int{}, first: i}
			shapes[fp] = s
		}
		s.Count += calls
		s.texts[st.SQL] += calls
		if n := s.texts[st.SQL]; n > s.best {
			s.best, s.SQL = n, st.SQL
		}
	}
	for e, n := range edges {
		k.Edges = append(k.Edges, Edge{From: e.From, To: e.To, Count: n})
	}
	slices.SortFunc(k.Edges, func(a, b Edge) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.From, b.From), strings.Compare(a.To, b.To))
	})
	k.Columns, k.Tables = sortedUsage(cols), sortedUsage(tables)
	var all []*shapeAcc
	for _, s := range shapes {
		s.Statements = len(s.texts)
		all = append(all, s)
	}
	slices.SortFunc(all, func(a, b *shapeAcc) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.first, b.first))
	})
	for _, s := range all[:min(len(all), cfg.shapes)] {
		k.Shapes = append(k.Shapes, s.Shape)
	}
	return k
}

func sortedUsage(m map[string]int) []Usage {
	out := make([]Usage, 0, len(m))
	for n, c := range m {
		out = append(out, Usage{Name: n, Count: c})
	}
	slices.SortFunc(out, func(a, b Usage) int { return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Name, b.Name)) })
	return out
}

// Tables returns cat's tables as the validator's allow-list.
func Tables(cat *schema.Catalog) []validate.Table {
	out := make([]validate.Table, 0, len(cat.Tables))
	for _, t := range cat.Tables {
		vt := validate.Table{Schema: t.Schema, Name: t.Name, Columns: t.ColumnNames(), PrimaryKey: t.PrimaryKey, Unique: t.Unique}
		for _, fk := range t.ForeignKeys {
			vt.ForeignKeys = append(vt.ForeignKeys, validate.ForeignKey{Columns: fk.Columns, RefSchema: fk.RefSchema, RefTable: fk.RefTable, RefColumns: fk.RefColumns})
		}
		out = append(out, vt)
	}
	return out
}

// Unparameterize replaces the parameters of a pg_stat_statements text ($1,
// $2, ...) by the untyped literal '0', outside string literals, quoted
// identifiers and comments, so the text validates; it is for analysis only.
// Not NULL: the validator rejects "col = NULL" (lint L005), which is what
// "col = $1" would become.
func Unparameterize(sql string) string {
	if !strings.Contains(sql, "$") {
		return sql
	}
	var b strings.Builder
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(sql) {
				if sql[j] == c {
					if j+1 < len(sql) && sql[j+1] == c { // doubled quote
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, len(sql))
			b.WriteString(sql[i:j])
			i = j
		case c == '-' && strings.HasPrefix(sql[i:], "--"):
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				j = len(sql) - i
			}
			b.WriteString(sql[i : i+j])
			i += j
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			j := strings.Index(sql[i+2:], "*/")
			end := len(sql)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			b.WriteString(sql[i:end])
			i = end
		case c == '$' && i+1 < len(sql) && sql[i+1] >= '0' && sql[i+1] <= '9' && (i == 0 || !identChar(sql[i-1])):
			j := i + 1
			for j < len(sql) && sql[j] >= '0' && sql[j] <= '9' {
				j++
			}
			b.WriteString("'0'")
			i = j
		case c == '$' && (i == 0 || !identChar(sql[i-1])): // dollar quote $tag$...$tag$
			j := i + 1
			for j < len(sql) && identChar(sql[j]) {
				j++
			}
			if j < len(sql) && sql[j] == '$' {
				tag := sql[i : j+1]
				end := strings.Index(sql[j+1:], tag)
				if end < 0 {
					b.WriteString(sql[i:])
					return b.String()
				}
				stop := j + 1 + end + len(tag)
				b.WriteString(sql[i:stop])
				i = stop
				continue
			}
			b.WriteByte(c)
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

func identChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
