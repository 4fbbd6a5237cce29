package nl2sql

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// maxJoined bounds the tables a skeleton requests.
const maxJoined = 6

// neededReasons are the retrieval reasons that say the question needs a
// table: it names it, or the table joins or completes ones it names.
var neededReasons = []string{"name", "thesaurus", "glossary", "bridge", "header", "lines", "child", "backward", reasonHistory}

// joinPlan is the JOIN skeleton of a context and its fan-out warnings.
type joinPlan struct {
	core     []string
	joins    []plan.JoinEdge
	skeleton string
	warnings []string
}

// planJoins joins the tables the question needs (those retrieval says it
// names or that join them, else the best one, plus the tables of its
// strongest column links), only through tables of the context: the
// skeleton names nothing the prompt does not show, and a table the question
// does not need is not joined in to multiply the rows of the others. When
// a join repeats the rows a question aggregates (the fan trap), it says so.
func (e *Engine) planJoins(ctx context.Context, st *state, c *SchemaContext, names []string) joinPlan {
	var jp joinPlan
	for _, t := range c.Tables {
		if len(jp.core) < maxJoined && slices.ContainsFunc(t.Reasons, func(r string) bool { return slices.Contains(neededReasons, r) }) {
			jp.core = append(jp.core, t.Name)
		}
	}
	if len(jp.core) == 0 && len(names) > 0 {
		jp.core = append(jp.core, names[0])
	}
	// A phrase a needed table answers does not pull in another table with
	// a column of the same name ("total amount" of sales_orders, not also
	// of quotes).
	answered := map[string]bool{}
	for _, cl := range c.Links.Columns {
		if slices.Contains(jp.core, cl.Table) {
			answered[cl.Phrase] = true
		}
	}
	for _, cl := range c.Links.Columns {
		if len(jp.core) >= maxJoined {
			break
		}
		if cl.Score >= 0.7 && !answered[cl.Phrase] && !slices.Contains(jp.core, cl.Table) && slices.Contains(names, cl.Table) {
			jp.core = append(jp.core, cl.Table)
			answered[cl.Phrase] = true
		}
	}
	if len(jp.core) < 2 {
		return jp
	}
	popts := []plan.SearchOption{plan.MaxHops(3), plan.Among(names...)}
	if c.Scoped {
		// The query may only read these schemas: do not join through others.
		popts = append(popts, plan.Within(c.SearchPath...))
	}
	tree, err := st.graph.Connect(jp.core, popts...)
	if tree == nil {
		e.cfg.logger.DebugContext(ctx, "nl2sql: no join plan", "err", err)
		return jp
	}
	jp.joins = tree.Edges()
	jp.skeleton = tree.Skeleton(plan.SearchPath(c.SearchPath...))
	jp.warnings = fanOutWarnings(st.cat, c.Question, c.Links, tree.FanOuts())
	return jp
}

// fanOutWarnings warns of the joins of a skeleton that repeat rows the
// question aggregates: a sum or average asked for, and a measure it links
// (a numeric column, not a key) on the repeated side of a one-to-many join.
func fanOutWarnings(cat *schema.Catalog, question string, links *link.Result, fans []plan.FanOut) []string {
	q := " " + strings.ToLower(question) + " "
	if !containsAny(q, " total ", " sum ", " average ", " avg ", " mean ", " how much ") {
		return nil
	}
	var out []string
	for _, f := range fans {
		for _, cl := range links.Columns {
			if slices.Contains(f.Multiplied, cl.Table) && numericColumn(cat, cl.Table, cl.Column) {
				out = append(out, fmt.Sprintf("Joining %s repeats each %s row once per matching %s row, so a sum or average of %s.%s over the join counts it several times: aggregate %s in a subquery grouped by its key before joining, or leave it out if the question does not need it.",
					shortName(f.Many), shortName(f.One), shortName(f.Many), shortName(cl.Table), cl.Column, shortName(f.Many)))
				break
			}
		}
	}
	return out
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// numericColumn reports whether a column holds numbers one sums (not a key).
func numericColumn(cat *schema.Catalog, table, column string) bool {
	t := cat.Table(table)
	if t == nil {
		return false
	}
	c := t.Column(column)
	if c == nil || c.PrimaryKey {
		return false
	}
	for _, fk := range t.ForeignKeys {
		if slices.Contains(fk.Columns, column) {
			return false
		}
	}
	typ := strings.ToLower(c.Type)
	for _, n := range []string{"numeric", "integer", "bigint", "smallint", "double", "real", "money", "decimal"} {
		if strings.HasPrefix(typ, n) {
			return true
		}
	}
	return false
}

// shortName drops the schema of a qualified table name.
func shortName(q string) string {
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		return q[i+1:]
	}
	return q
}
