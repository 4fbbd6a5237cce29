package rewrite

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// RuleStoredValue is the repair that writes a compared string constant as
// the value the column stores ('Jetblue Airways' -> 'JetBlue Airways').
const RuleStoredValue = "value.stored_case"

// ValueSets holds the complete sets of distinct values a value index
// knows, by "schema.table.column". The zero value knows none and changes
// nothing.
type ValueSets map[string]*valueSet

type valueSet struct {
	exact  map[string]bool
	folded map[string][]string // lower-cased, trimmed -> stored values
}

// NewValueSets reads the complete value sets of vi (nil: none).
func NewValueSets(vi *link.ValueIndex) ValueSets {
	if vi == nil {
		return nil
	}
	out := ValueSets{}
	for _, c := range vi.Columns {
		set := &valueSet{exact: make(map[string]bool, len(c.Values)), folded: map[string][]string{}}
		for _, v := range c.Values {
			set.exact[v] = true
			k := fold(v)
			set.folded[k] = append(set.folded[k], v)
		}
		out[c.Table+"."+c.Column] = set
	}
	return out
}

func fold(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// comparison is a column compared by equality with string constants.
type comparison struct {
	set    *valueSet
	column string // schema.table.column
	consts []*pg_query.A_Const
	// negated is col <> 'x' or col NOT IN (...): a constant no row holds
	// makes it true of every row rather than of none.
	negated bool
}

// comparisons finds col = 'x', 'x' = col, col IN ('x', ...) and their
// negations (<>, NOT IN) in tree
// where col resolves to a column whose values the index knows. resolve maps
// a relation (schema may be "") to its qualified name, "" when unknown.
func (vs ValueSets) comparisons(tree *pg_query.ParseResult, resolve func(schema, name string) string) []comparison {
	// Aliases and names of the relations, over the whole statement: a name
	// bound to two different tables is left unresolved.
	byName := map[string]string{}
	ctes := map[string]bool{}
	walkMessages(tree.ProtoReflect(), func(m protoreflect.Message) {
		if cte, ok := m.Interface().(*pg_query.CommonTableExpr); ok {
			ctes[cte.Ctename] = true
		}
	})
	var read []string
	walkMessages(tree.ProtoReflect(), func(m protoreflect.Message) {
		rv, ok := m.Interface().(*pg_query.RangeVar)
		if !ok || (rv.Schemaname == "" && ctes[rv.Relname]) {
			return
		}
		qn := resolve(rv.Schemaname, rv.Relname)
		if qn == "" {
			return
		}
		if !slices.Contains(read, qn) {
			read = append(read, qn)
		}
		for _, name := range []string{rv.Relname, rv.GetAlias().GetAliasname()} {
			if name == "" {
				continue
			}
			if prev, seen := byName[name]; seen && prev != qn {
				byName[name] = ""
				continue
			}
			byName[name] = qn
		}
	})
	var out []comparison
	walkMessages(tree.ProtoReflect(), func(m protoreflect.Message) {
		e, ok := m.Interface().(*pg_query.A_Expr)
		if !ok || len(e.Name) != 1 {
			return
		}
		op := e.Name[0].GetString_().GetSval()
		if op != "=" && op != "<>" {
			return
		}
		col, consts := e.Lexpr.GetColumnRef(), stringConsts(e.Rexpr)
		if col == nil {
			col, consts = e.Rexpr.GetColumnRef(), stringConsts(e.Lexpr)
		}
		if col == nil || len(consts) == 0 {
			return
		}
		if key := vs.column(col, byName, read); key != "" {
			out = append(out, comparison{set: vs[key], column: key, consts: consts, negated: op == "<>"})
		}
	})
	return out
}

// UnknownValues counts the comparisons of sql whose string constant a
// column holds in no row, for the columns whose every value the index
// knows. A model that writes 'Jetblue Airways' where the data says
// 'JetBlue Airways' gets an empty answer that looks like a real one, and
// one that writes citizenship <> 'French' where the data says 'France' a
// filter that filters nothing; a candidate naming stored values is more
// likely right. tables are the relations sql reads (qualified).
func (vs ValueSets) UnknownValues(sql string, tables []string) int {
	if len(vs) == 0 {
		return 0
	}
	tree, err := pgparse.Parse(sql)
	if err != nil {
		return 0
	}
	n := 0
	for _, c := range vs.comparisons(tree, func(schema, name string) string { return qualify(schema, name, tables) }) {
		for _, k := range c.consts {
			if !c.set.exact[k.GetSval().Sval] {
				n++
				break
			}
		}
	}
	return n
}

// StoredValues rewrites each string constant sql compares a column with
// that the column holds in no row, but that matches exactly one stored
// value when case and surrounding spaces are ignored, to that value
// ('Jetblue Airways' -> 'JetBlue Airways', 'math' -> 'Math'). Only
// constants written as plain '...' literals are touched, in place, so the
// rest of the text is the caller's. It returns sql unchanged and no notes
// when nothing applies; one note per rewrite otherwise.
func (vs ValueSets) StoredValues(sql string, resolve func(schema, name string) string) (string, []string) {
	if len(vs) == 0 {
		return sql, nil
	}
	tree, err := pgparse.Parse(sql)
	if err != nil || len(tree.Stmts) != 1 {
		return sql, nil
	}
	type splice struct {
		at, end int
		with    string
	}
	var edits []splice
	var notes []string
	for _, c := range vs.comparisons(tree, resolve) {
		if c.negated {
			continue // only a value that selects nothing is taken for a slip
		}
		for _, k := range c.consts {
			v := k.GetSval().Sval
			if c.set.exact[v] {
				continue
			}
			stored := c.set.folded[fold(v)]
			if len(stored) != 1 {
				continue // none, or several: do not guess
			}
			lit, at := plainLiteral(v), int(k.Location)
			if at < 0 || at+len(lit) > len(sql) || sql[at:at+len(lit)] != lit {
				continue // E'', $$ or U& spelling: leave it
			}
			edits = append(edits, splice{at: at, end: at + len(lit), with: schema.QuoteLiteral(stored[0])})
			notes = append(notes, lit+" → "+schema.QuoteLiteral(stored[0])+" (the value stored in "+c.column+")")
		}
	}
	if len(edits) == 0 {
		return sql, nil
	}
	slices.SortFunc(edits, func(a, b splice) int { return b.at - a.at })
	out := sql
	for i, e := range edits {
		if i > 0 && e.end > edits[i-1].at {
			return sql, nil // overlapping: cannot happen for distinct constants
		}
		out = out[:e.at] + e.with + out[e.end:]
	}
	return out, notes
}

// plainLiteral is s as a standard '...' literal.
func plainLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// column returns the key of the value set ref resolves to, or "".
func (vs ValueSets) column(ref *pg_query.ColumnRef, byName map[string]string, tables []string) string {
	var names []string
	for _, f := range ref.Fields {
		s := f.GetString_()
		if s == nil {
			return ""
		}
		names = append(names, s.Sval)
	}
	switch len(names) {
	case 1:
		found := ""
		for _, t := range tables {
			if key := t + "." + names[0]; vs[key] != nil {
				if found != "" {
					return "" // ambiguous
				}
				found = key
			}
		}
		return found
	case 2:
		if t := byName[names[0]]; t != "" && vs[t+"."+names[1]] != nil {
			return t + "." + names[1]
		}
	}
	return ""
}

// stringConsts returns the string constants of n: one ('x') or a list
// (IN), nil when n is anything else.
func stringConsts(n *pg_query.Node) []*pg_query.A_Const {
	if c := n.GetAConst(); c != nil {
		if c.GetSval() != nil {
			return []*pg_query.A_Const{c}
		}
		return nil
	}
	var out []*pg_query.A_Const
	for _, item := range n.GetList().GetItems() {
		c := item.GetAConst()
		if c == nil || c.GetSval() == nil {
			return nil
		}
		out = append(out, c)
	}
	return out
}

// qualify returns the qualified name among tables that schema.name (schema
// may be "") names. It returns "" when none or several do (the same name in
// two schemas).
func qualify(schema, rel string, tables []string) string {
	found := ""
	for _, t := range tables {
		schemaName, name, _ := strings.Cut(t, ".")
		if name == rel && (schema == "" || schema == schemaName) {
			if found != "" {
				return ""
			}
			found = t
		}
	}
	return found
}

// walkMessages calls fn on every message of the tree, depth first.
func walkMessages(m protoreflect.Message, fn func(protoreflect.Message)) {
	pgparse.Walk(m, func(m protoreflect.Message) bool { fn(m); return true })
}
