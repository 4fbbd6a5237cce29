package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// MaxJoined bounds the tables a question's join plan requests.
const MaxJoined = 6

// Question is what a question's join plan is drawn from: its schema
// context as retrieval and linking left it.
type Question struct {
	// Text is the question: when it asks for a sum or an average, the plan
	// warns of the joins that repeat the rows it aggregates.
	Text string
	// Needed are the tables of the context the question needs (it names
	// them, or they join or complete ones it names), best first.
	Needed []string
	// Tables are the context's tables, best first: the plan joins only
	// through them, so the skeleton names nothing a prompt does not show.
	Tables []string
	// Columns are the question's column links, best first.
	Columns []link.ColumnLink
	// SearchPath is the path the skeleton's names are relative to; when
	// Scoped, the plan joins only through its schemas.
	SearchPath []string
	Scoped     bool
}

// QuestionPlan is the JOIN skeleton of a question and its fan-out
// warnings.
type QuestionPlan struct {
	// Core are the tables the plan set out to join (at most MaxJoined).
	Core     []string
	Joins    []JoinEdge
	Skeleton string
	// Warnings are the fan traps of the skeleton the question falls into,
	// as sentences for a prompt.
	Warnings []string
}

// PlanQuestion joins the tables q needs (Needed, else the best table, plus
// the tables of its strongest column links), only through q's Tables: a
// table the question does not need is not joined in to multiply the rows
// of the others. When a join repeats the rows a question aggregates (the
// fan trap), a warning says so. With fewer than two tables to join the
// plan has only its Core; when they cannot be joined, the error is
// Connect's and the plan has only its Core.
func (g *Graph) PlanQuestion(q Question) (QuestionPlan, error) {
	var qp QuestionPlan
	qp.Core = append(qp.Core, q.Needed[:min(MaxJoined, len(q.Needed))]...)
	if len(qp.Core) == 0 && len(q.Tables) > 0 {
		qp.Core = append(qp.Core, q.Tables[0])
	}
	// A phrase a needed table answers does not pull in another table with
	// a column of the same name ("total amount" of sales_orders, not also
	// of quotes).
	answered := map[string]bool{}
	for _, cl := range q.Columns {
		if slices.Contains(qp.Core, cl.Table) {
			answered[cl.Phrase] = true
		}
	}
	for _, cl := range q.Columns {
		if len(qp.Core) >= MaxJoined {
			break
		}
		if cl.Score >= 0.7 && !answered[cl.Phrase] && !slices.Contains(qp.Core, cl.Table) && slices.Contains(q.Tables, cl.Table) {
			qp.Core = append(qp.Core, cl.Table)
			answered[cl.Phrase] = true
		}
	}
	if len(qp.Core) < 2 {
		return qp, nil
	}
	opts := []SearchOption{MaxHops(3), Among(q.Tables...)}
	if q.Scoped {
		// The query may only read these schemas: do not join through others.
		opts = append(opts, Within(q.SearchPath...))
	}
	tree, err := g.Connect(qp.Core, opts...)
	if tree == nil {
		return qp, err
	}
	qp.Joins = tree.Edges()
	qp.Skeleton = tree.Skeleton(SearchPath(q.SearchPath...))
	qp.Warnings = fanOutWarnings(g.cat, q.Text, q.Columns, tree.FanOuts())
	return qp, nil
}

// fanOutWarnings warns of the joins of a skeleton that repeat rows the
// question aggregates: a sum or average asked for, and a measure it links
// (a numeric column, not a key) on the repeated side of a one-to-many join.
func fanOutWarnings(cat *schema.Catalog, question string, columns []link.ColumnLink, fans []FanOut) []string {
	q := " " + strings.ToLower(question) + " "
	if !containsAny(q, " total ", " sum ", " average ", " avg ", " mean ", " how much ") {
		return nil
	}
	var out []string
	for _, f := range fans {
		for _, cl := range columns {
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
