package describe

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// ErrInvalid is returned (wrapped) when the SQL does not parse, or is not
// exactly one SELECT (or WITH ... SELECT, or VALUES) statement.
var ErrInvalid = errors.New("describe: invalid SQL")

// Description says in words what a query returns. Text is the sentence
// for a person; the other fields are its parts, each already in words, for
// a program that lays them out differently. Fields of a query part that
// is absent are empty.
type Description struct {
	// Text is one or a few short sentences: the final query first, then
	// one sentence per named step (WITH) it uses.
	Text string `json:"text"`
	// Columns says what each output column is, in order.
	Columns []string `json:"columns"`
	// Measures are the output columns that aggregate rows (a count, a
	// total, an average...), a subset of Columns.
	Measures []string `json:"measures,omitempty"`
	// Tables are the tables (or steps, or subqueries) read, the first one
	// being what is counted or listed.
	Tables []string `json:"tables,omitempty"`
	// Joins say how each table after the first is combined.
	Joins []string `json:"joins,omitempty"`
	// Distinct is set when duplicate rows are removed; DistinctOn then
	// lists the expressions of DISTINCT ON, if any (one row per value).
	Distinct   bool     `json:"distinct,omitempty"`
	DistinctOn []string `json:"distinct_on,omitempty"`
	// Filters are the row conditions (WHERE), one per AND-ed condition.
	Filters []string `json:"filters,omitempty"`
	// GroupBy are the grouping keys: one result row per combination.
	GroupBy []string `json:"group_by,omitempty"`
	// Having are the conditions on groups, one per AND-ed condition.
	Having []string `json:"having,omitempty"`
	// Order are the sort keys, each with its direction in words.
	Order []string `json:"order,omitempty"`
	// Limit is the number of rows kept (nil: all); Offset the number
	// skipped first (nil: none). A limit that is not a constant shows in
	// Text only.
	Limit  *int64 `json:"limit,omitempty"`
	Offset *int64 `json:"offset,omitempty"`
	// SetOp is "union", "union all", "intersect" or "except" when the
	// query combines the rows of several queries, described in Parts.
	SetOp string `json:"set_op,omitempty"`
	// Parts are the named steps (WITH) and, for a set operation, its
	// branches, in the order written.
	Parts []Part `json:"parts,omitempty"`
}

// Part is a step of a query: a named WITH query, or one branch of a set
// operation.
type Part struct {
	Name        string       `json:"name"` // the step's name in words, or "first", "second"...
	Description *Description `json:"description"`
}

// Option configures SQL.
type Option func(*config)

type config struct {
	glosser gloss.Glosser
}

// WithGlosser sets how identifiers become words; the default is
// gloss.Words ("tot_amt" reads "total amount"). A database with
// abbreviations of its own passes gloss.Abbreviations(...).
func WithGlosser(g gloss.Glosser) Option {
	return func(c *config) {
		if g != nil {
			c.glosser = g
		}
	}
}

// SQL describes the one query in sql. It fails only when sql does not
// parse or is not a single query; any valid query gets a description,
// with the constructs it does not know put in general words ("an
// expression"). The result depends on sql and the glosser only.
func SQL(sql string, opts ...Option) (*Description, error) {
	c := config{glosser: gloss.Words}
	for _, o := range opts {
		o(&c)
	}
	tree, err := pgparse.Parse(sql)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	stmts := tree.GetStmts()
	if len(stmts) != 1 {
		return nil, fmt.Errorf("%w: %d statements, want one query", ErrInvalid, len(stmts))
	}
	sel := stmts[0].GetStmt().GetSelectStmt()
	if sel == nil {
		return nil, fmt.Errorf("%w: not a query", ErrInvalid)
	}
	if sel.GetIntoClause() != nil {
		return nil, fmt.Errorf("%w: SELECT INTO creates a table", ErrInvalid)
	}
	w := &writer{glosser: c.glosser}
	d := w.query(sel, nil)
	d.Text = capitalize(d.Text)
	return d, nil
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// words returns an identifier in words.
func (w *writer) words(ident string) string {
	ws := w.glosser(ident)
	if len(ws) == 0 {
		return ident
	}
	return strings.Join(ws, " ")
}

// list joins items as English: "a", "a and b", "a, b and c".
func list(items []string, conj string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conj + " " + items[len(items)-1]
}

// singular returns the singular of an English noun phrase (its last word).
func singular(s string) string {
	i := strings.LastIndexByte(s, ' ')
	head, last := s[:i+1], s[i+1:]
	switch {
	case strings.HasSuffix(last, "ies") && len(last) > 3:
		last = last[:len(last)-3] + "y"
	case strings.HasSuffix(last, "sses"), strings.HasSuffix(last, "ches"), strings.HasSuffix(last, "shes"), strings.HasSuffix(last, "xes"):
		last = last[:len(last)-2]
	case strings.HasSuffix(last, "ss"), strings.HasSuffix(last, "us"), strings.HasSuffix(last, "is"):
	case strings.HasSuffix(last, "s") && len(last) > 1:
		last = last[:len(last)-1]
	}
	return head + last
}

// plural returns the plural of an English noun phrase (its last word).
func plural(s string) string {
	if s == "" {
		return s
	}
	if singular(s) != s {
		return s // already plural
	}
	i := strings.LastIndexByte(s, ' ')
	head, last := s[:i+1], s[i+1:]
	switch {
	case strings.HasSuffix(last, "y") && len(last) > 1 && !strings.ContainsRune("aeiou", rune(last[len(last)-2])):
		last = last[:len(last)-1] + "ies"
	case strings.HasSuffix(last, "s"), strings.HasSuffix(last, "x"), strings.HasSuffix(last, "ch"), strings.HasSuffix(last, "sh"):
		last += "es"
	default:
		last += "s"
	}
	return head + last
}
