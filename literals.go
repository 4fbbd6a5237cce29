package nl2sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
	"github.com/nl2sqlgo/nl2sql/link"
)

// valueSets holds the complete sets of distinct values the value index
// knows, by "schema.table.column".
type valueSets map[string]map[string]bool

func newValueSets(vi *link.ValueIndex) valueSets {
	if vi == nil {
		return nil
	}
	out := valueSets{}
	for _, c := range vi.Columns {
		set := make(map[string]bool, len(c.Values))
		for _, v := range c.Values {
			set[v] = true
		}
		out[c.Table+"."+c.Column] = set
	}
	return out
}

// unknownValues counts the string literals sql compares a column with
// (col = 'x', 'x' = col, col IN ('x', ...)) that the column holds in no row,
// for the columns whose every value the index knows. A model that writes
// 'Jetblue Airways' where the data says 'JetBlue Airways' gets an empty
// answer that looks like a real one; a candidate naming stored values is
// more likely right. tables are the relations sql reads (qualified).
func (vs valueSets) unknownValues(sql string, tables []string) int {
	if len(vs) == 0 {
		return 0
	}
	tree, err := pgparse.Parse(sql)
	if err != nil {
		return 0
	}
	// Aliases and names of the relations, over the whole statement: a name
	// bound to two different tables is left unresolved.
	byName := map[string]string{}
	walkMessages(tree.ProtoReflect(), func(m protoreflect.Message) {
		rv, ok := m.Interface().(*pg_query.RangeVar)
		if !ok {
			return
		}
		qn := qualify(rv, tables)
		if qn == "" {
			return
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
	n := 0
	walkMessages(tree.ProtoReflect(), func(m protoreflect.Message) {
		e, ok := m.Interface().(*pg_query.A_Expr)
		if !ok || len(e.Name) != 1 || e.Name[0].GetString_().GetSval() != "=" {
			return
		}
		col, lits := e.Lexpr.GetColumnRef(), literals(e.Rexpr)
		if col == nil {
			col, lits = e.Rexpr.GetColumnRef(), literals(e.Lexpr)
		}
		if col == nil || len(lits) == 0 {
			return
		}
		set := vs.column(col, byName, tables)
		if set == nil {
			return
		}
		for _, l := range lits {
			if !set[l] {
				n++
				return
			}
		}
	})
	return n
}

// column returns the value set of the column ref resolves to, or nil.
func (vs valueSets) column(ref *pg_query.ColumnRef, byName map[string]string, tables []string) map[string]bool {
	var names []string
	for _, f := range ref.Fields {
		s := f.GetString_()
		if s == nil {
			return nil
		}
		names = append(names, s.Sval)
	}
	switch len(names) {
	case 1:
		var found map[string]bool
		for _, t := range tables {
			if set := vs[t+"."+names[0]]; set != nil {
				if found != nil {
					return nil // ambiguous
				}
				found = set
			}
		}
		return found
	case 2:
		if t := byName[names[0]]; t != "" {
			return vs[t+"."+names[1]]
		}
	}
	return nil
}

// literals returns the string constants of n: one ('x') or a list (IN).
func literals(n *pg_query.Node) []string {
	if c := n.GetAConst(); c != nil {
		if s := c.GetSval(); s != nil {
			return []string{s.Sval}
		}
		return nil
	}
	var out []string
	for _, item := range n.GetList().GetItems() {
		c := item.GetAConst()
		if c == nil || c.GetSval() == nil {
			return nil
		}
		out = append(out, c.GetSval().Sval)
	}
	return out
}

// qualify returns the qualified name among tables that rv names.
// It returns "" when none or several do (the same name in two schemas).
func qualify(rv *pg_query.RangeVar, tables []string) string {
	found := ""
	for _, t := range tables {
		schemaName, name, _ := strings.Cut(t, ".")
		if name == rv.Relname && (rv.Schemaname == "" || rv.Schemaname == schemaName) {
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
	fn(m)
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				walkMessages(l.Get(i).Message(), fn)
			}
		case fd.Message() != nil && !fd.IsMap():
			walkMessages(v.Message(), fn)
		}
		return true
	})
}
