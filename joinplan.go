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
var neededReasons = []string{"name", "thesaurus", "glossary", "bridge", "header", "lines", "child", "backward"}

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
func (e *Engine) planJoins(ctx context.Context, st *state, c *Context, names []string) joinPlan {
	var jp joinPlan
	for _, t := range c.Tables {
		if len(jp.core) < maxJoined && slices.ContainsFunc(t.Reasons, func(r string) bool { return slices.Contains(neededReasons, r) }) {
			jp.core = append(jp.core, t.Name)
		}
	}
	if len(jp.core) == 0 && len(names) > 0 {
		jp.core = append(jp.core, names[0])
	}
	for _, cl := range c.Links.Columns {
		if len(jp.core) >= maxJoined {
			break
		}
		if cl.Score >= 0.7 && !slices.Contains(jp.core, cl.Table) && slices.Contains(names, cl.Table) {
			jp.core = append(jp.core, cl.Table)
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
	jp.skeleton = tree.Skeleton(plan.WithSearchPath(c.SearchPath...))
	jp.warnings = fanOutWarnings(st.cat, c.Question, c.Links, names, tree.FanOuts())
	return jp
}

// fanOutWarnings warns of the joins of a skeleton that repeat rows the
// question aggregates: a measure it links (a numeric column) on the
// repeated side of a one-to-many join and a sum or average asked for, or
// rows of the question's main table counted across such a join.
func fanOutWarnings(cat *schema.Catalog, question string, links *link.Result, names []string, fans []plan.FanOut) []string {
	q := " " + strings.ToLower(question) + " "
	sums := containsAny(q, " total ", " sum ", " average ", " avg ", " mean ", " how much ")
	counts := containsAny(q, " how many ", " number of ", " count ")
	var out []string
	for _, f := range fans {
		why := ""
		if sums {
			for _, cl := range links.Columns {
				if slices.Contains(f.Multiplied, cl.Table) && numericColumn(cat, cl.Table, cl.Column) {
					why = fmt.Sprintf("a sum or average of %s.%s", shortName(cl.Table), cl.Column)
					break
				}
			}
		}
		if why == "" && counts && len(names) > 0 && slices.Contains(f.Multiplied, names[0]) {
			why = "a count of " + shortName(names[0]) + " rows"
		}
		if why == "" {
			continue
		}
		out = append(out, fmt.Sprintf("Joining %s repeats each %s row once per matching %s row, so %s over the join is inflated: aggregate %s in a subquery grouped by its key before joining, or count DISTINCT keys.",
			shortName(f.Many), shortName(f.One), shortName(f.Many), why, shortName(f.Many)))
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
