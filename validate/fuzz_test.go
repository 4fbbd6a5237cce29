package validate_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// FuzzValidate: Validate never panics; whatever it accepts is exactly one
// SELECT, and its rewrite validates again to the same SQL. Each input is also
// mutated on its parse tree (see mutate) and the mutants validated:
//
//   - a mutant that calls a denied function by functional notation ((x).f
//     for f(x)) is rejected;
//   - an array-form mutant (T[] or _T) of a reg*/aclitem type is rejected;
//   - a mutant of an input rejected because of a function (V010/V011) is
//     rejected too, unless the rewrite may have turned the refused call into
//     a real column reference (see notationMayBeColumn);
//   - accepted mutants satisfy the invariants above (one SELECT, fixed point).
func FuzzValidate(f *testing.F) {
	// The attack corpus (functional_notation.sql, types.sql, ... included)
	// and the legitimate queries seed the fuzzer and its mutator.
	for _, dir := range []string{"attacks", "legit"} {
		for _, c := range readCorpus(f, dir) {
			f.Add(c.SQL)
		}
	}
	v := shopValidator()
	zero := validate.New()
	validators := []struct {
		name   string
		v      *validate.Validator
		strict bool
	}{{"strict", v, true}, {"zero-config", zero, false}}
	oracle := newFuncOracle(zero)
	f.Fuzz(func(t *testing.T, sql string) {
		results := make([]error, len(validators))
		for i, val := range validators {
			results[i] = checkAccepted(t, val.v, sql, sql)
		}
		tree, err := pg.Parse(sql)
		if err != nil {
			return
		}
		for _, m := range mutate(tree) {
			for i, val := range validators {
				err := checkAccepted(t, val.v, m.sql, sql)
				if err != nil {
					continue
				}
				switch m.kind {
				case "notation":
					for _, name := range m.names {
						if oracle.class(name) == "denied" {
							t.Errorf("%s: accepted a denied function called by functional notation (.%s)\ninput:  %q\nmutant: %q", val.name, name, sql, m.sql)
						}
					}
				case "array":
					if catalogType(m.names[0]) {
						t.Errorf("%s: accepted an array form (%s) of a catalog-lookup type\ninput:  %q\nmutant: %q", val.name, m.names[0], sql, m.sql)
					}
				}
				if funcRejected(results[i]) && !(m.kind == "notation" && notationMayBeColumn(oracle, val.v, val.strict, tree, m)) {
					t.Errorf("%s: the input was rejected because of a function (%v), its %s mutant is accepted\ninput:  %q\nmutant: %q",
						val.name, results[i], m.kind, sql, m.sql)
				}
			}
		}
	})
}

// checkAccepted validates sql and, when v accepts it, checks that the result
// is exactly one SELECT that validates again to itself. It returns
// Validate's error.
func checkAccepted(t *testing.T, v *validate.Validator, sql, input string) error {
	t.Helper()
	res, err := v.Validate(sql)
	if err != nil {
		return err
	}
	tree, perr := pg.Parse(res.SQL)
	if perr != nil {
		t.Fatalf("accepted SQL does not parse: %v\ninput: %q\nvalidated: %q\nresult: %q", perr, input, sql, res.SQL)
	}
	if len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetSelectStmt() == nil {
		t.Fatalf("accepted SQL is not exactly one SELECT\ninput: %q\nvalidated: %q\nresult: %q", input, sql, res.SQL)
	}
	again, err := v.Validate(res.SQL)
	if err != nil {
		t.Fatalf("rewrite does not re-validate: %v\ninput: %q\nvalidated: %q\nresult: %q", err, input, sql, res.SQL)
	}
	if again.SQL != res.SQL {
		t.Fatalf("rewrite not a fixed point\ninput: %q\nvalidated: %q\nfirst: %q\nagain: %q", input, sql, res.SQL, again.SQL)
	}
	return nil
}

// funcRejected reports whether err rejects the query because of a function.
func funcRejected(err error) bool {
	var ve *validate.Error
	return errors.As(err, &ve) && (ve.Has(validate.CodeFuncDenied) || ve.Has(validate.CodeFuncNotAllowed))
}

// catalogType reports whether a type name (as in the tree: folded, without
// schema) is a catalog-lookup type or its array type. regconfig and
// regdictionary are allowed.
func catalogType(name string) bool {
	switch strings.TrimPrefix(name, "_") {
	case "regclass", "regproc", "regprocedure", "regoper", "regoperator", "regtype", "regrole",
		"regnamespace", "regcollation", "aclitem":
		return true
	}
	return false
}

// funcOracle asks a validator how it classifies a function name: "denied"
// (V010), "refused" (V011) or "allowed", by validating a call of it.
type funcOracle struct {
	v     *validate.Validator
	mu    sync.Mutex
	cache map[*validate.Validator]map[string]string
}

func newFuncOracle(v *validate.Validator) *funcOracle {
	return &funcOracle{v: v, cache: map[*validate.Validator]map[string]string{}}
}

// class classifies name with the oracle's validator.
func (o *funcOracle) class(name string) string { return o.classWith(o.v, name) }

func (o *funcOracle) classWith(v *validate.Validator, name string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if c, ok := o.cache[v][name]; ok {
		return c
	}
	c := "allowed"
	_, err := v.Validate("SELECT " + quoteIdent(name) + "(NULL)")
	var ve *validate.Error
	if errors.As(err, &ve) {
		switch {
		case ve.Has(validate.CodeFuncDenied):
			c = "denied"
		case ve.Has(validate.CodeFuncNotAllowed):
			c = "refused"
		}
	}
	if o.cache[v] == nil {
		o.cache[v] = map[string]string{}
	}
	o.cache[v][name] = c
	return c
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// notationMayBeColumn reports whether rewriting calls into field selections
// may have made a refused call legitimate: f(x) is refused but (x).f can be
// a column of x's row type, which PostgreSQL resolves first (name(u) and
// u.name are the same column), and s.f(x) may be refused for its schema s
// while (x).f calls the allowed pg_catalog.f. A validator without the
// tables' columns cannot tell, so such a call excuses the mutant there; the
// strict validator knows the allowed tables' columns, so only a name that
// is a column there, appears in the query as a column, alias or output
// name, or is an output column of a JSON set-returning function, excuses it.
func notationMayBeColumn(o *funcOracle, v *validate.Validator, strict bool, tree *pg.ParseResult, m mutant) bool {
	var cols map[string]bool
	for i, name := range m.names {
		if !m.foreign[i] && o.classWith(v, name) != "refused" {
			continue
		}
		if !strict {
			return true
		}
		if cols == nil {
			cols = columnNames(tree)
		}
		if cols[name] {
			return true
		}
	}
	return false
}

// columnNames collects every name in the tree that may name a column.
func columnNames(tree *pg.ParseResult) map[string]bool {
	cols := map[string]bool{"key": true, "value": true} // json_each, jsonb_each, ...
	for _, t := range shopTables {
		for _, c := range t.Columns {
			cols[c] = true
		}
	}
	eachMessage(tree.ProtoReflect(), func(m protoreflect.Message) {
		switch x := m.Interface().(type) {
		case *pg.ColumnRef:
			for _, f := range x.Fields {
				cols[f.GetString_().GetSval()] = true
			}
		case *pg.ResTarget:
			cols[x.Name] = true
		case *pg.Alias:
			cols[x.Aliasname] = true
			for _, c := range x.Colnames {
				cols[c.GetString_().GetSval()] = true
			}
		case *pg.ColumnDef:
			cols[x.Colname] = true
		case *pg.CommonTableExpr:
			cols[x.Ctename] = true
			for _, c := range x.Aliascolnames {
				cols[c.GetString_().GetSval()] = true
			}
		case *pg.A_Indirection:
			for _, f := range x.Indirection {
				cols[f.GetString_().GetSval()] = true
			}
		}
	})
	return cols
}

// mutant is a rewrite of a fuzz input.
type mutant struct {
	sql   string
	kind  string   // "notation": calls in functional notation; "array": a type name in an array form
	names []string // notation: the functions rewritten; array: the new type name
	// notation: the calls qualified with a schema other than pg_catalog
	// (functional notation has no schema: the mutant may call another
	// function of the same name)
	foreign []bool
}

// Mutation bounds keep the seed run (go test ./validate) fast.
const (
	maxNotationSites = 6
	maxTypeSites     = 4
)

// mutate returns the mutants of a parsed input, made on its parse tree and
// printed with pg_query.Deparse:
//
//   - each one-argument function call f(x) rewritten as (x).f, one call at a
//     time and then all at once;
//   - each type name T (in casts, typed literals, column definition lists)
//     rewritten as T[] and as _T.
//
// A mutant whose deparsed text does not parse back with the rewrite in
// place is dropped (the deparser prints some field selections without the
// parentheses they need; constants and other such bases are wrapped to
// avoid it).
func mutate(tree *pg.ParseResult) []mutant {
	var out []mutant
	sites := len(notationSites(tree))
	for i := 0; i < sites && i < maxNotationSites; i++ {
		c := proto.Clone(tree).(*pg.ParseResult)
		name, foreign := toNotation(notationSites(c)[i])
		if s, ok := deparseWith(c, name); ok {
			out = append(out, mutant{sql: s, kind: "notation", names: []string{name}, foreign: []bool{foreign}})
		}
	}
	if sites > 1 {
		c := proto.Clone(tree).(*pg.ParseResult)
		ns := notationSites(c)
		all, foreign := make([]string, len(ns)), make([]bool, len(ns))
		for i := len(ns) - 1; i >= 0; i-- { // innermost first
			all[i], foreign[i] = toNotation(ns[i])
		}
		if s, ok := deparseWith(c, all[0]); ok {
			out = append(out, mutant{sql: s, kind: "notation", names: all, foreign: foreign})
		}
	}
	types := len(typeSites(tree))
	for i := 0; i < types && i < maxTypeSites; i++ {
		for _, form := range []string{"[]", "_"} {
			c := proto.Clone(tree).(*pg.ParseResult)
			tn := typeSites(c)[i]
			last := tn.Names[len(tn.Names)-1].GetString_()
			name := last.Sval
			if form == "[]" {
				tn.ArrayBounds = []*pg.Node{pg.MakeIntNode(-1)}
			} else {
				name = "_" + name
				last.Sval = name
			}
			s, err := pg.Deparse(c)
			if err != nil {
				continue
			}
			if _, err := pg.Parse(s); err != nil {
				continue
			}
			out = append(out, mutant{sql: s, kind: "array", names: []string{name}})
		}
	}
	return out
}

// notationSites lists the nodes holding a one-argument function call that
// functional notation can express, in a fixed order (preorder).
func notationSites(tree *pg.ParseResult) []*pg.Node {
	// A FROM-clause function (FROM f(x)) must stay a call.
	fromFuncs := map[*pg.FuncCall]bool{}
	eachMessage(tree.ProtoReflect(), func(m protoreflect.Message) {
		if rf, ok := m.Interface().(*pg.RangeFunction); ok {
			for _, item := range rf.Functions {
				if l := item.GetList(); l != nil && len(l.Items) > 0 {
					fromFuncs[l.Items[0].GetFuncCall()] = true
				}
			}
		}
	})
	var sites []*pg.Node
	eachMessage(tree.ProtoReflect(), func(m protoreflect.Message) {
		n, ok := m.Interface().(*pg.Node)
		if !ok {
			return
		}
		fc := n.GetFuncCall()
		if fc == nil || fromFuncs[fc] || len(fc.Args) != 1 || len(fc.Funcname) == 0 ||
			fc.Args[0].GetNamedArgExpr() != nil || fc.AggStar || fc.AggDistinct || fc.FuncVariadic ||
			len(fc.AggOrder) > 0 || fc.AggFilter != nil || fc.Over != nil || fc.AggWithinGroup {
			return
		}
		if fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval() == "" {
			return
		}
		sites = append(sites, n)
	})
	return sites
}

// toNotation rewrites the call in n, f(x), into (x).f and returns f (the
// name as in the tree: folded unless quoted) and whether the call was
// qualified with a schema other than pg_catalog (functional notation has
// none: the schema is dropped).
func toNotation(n *pg.Node) (string, bool) {
	fc := n.GetFuncCall()
	name := fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval()
	foreign := len(fc.Funcname) > 2 || len(fc.Funcname) == 2 && fc.Funcname[0].GetString_().GetSval() != "pg_catalog"
	n.Node = &pg.Node_AIndirection{AIndirection: &pg.A_Indirection{
		Arg:         parenthesized(fc.Args[0]),
		Indirection: []*pg.Node{pg.MakeStrNode(name)},
	}}
	return name, foreign
}

// parenthesized returns base so that the deparser prints (base).f: it omits
// the parentheses around constants and most expressions other than column
// references, calls, operators, casts, rows, arrays and scalar subqueries
// ("1.f", "a AND b.f"). Constants get a cast to their type, other bases
// become a scalar subquery; either way the field selection stays a call of
// the same function on the same value.
func parenthesized(base *pg.Node) *pg.Node {
	switch x := base.Node.(type) {
	case *pg.Node_ColumnRef, *pg.Node_FuncCall, *pg.Node_AExpr, *pg.Node_TypeCast, *pg.Node_RowExpr,
		*pg.Node_AArrayExpr, *pg.Node_AIndirection, *pg.Node_ParamRef:
		return base
	case *pg.Node_SubLink:
		if x.SubLink.SubLinkType == pg.SubLinkType_EXPR_SUBLINK {
			return base
		}
	case *pg.Node_AConst:
		typ := "text"
		switch {
		case x.AConst.GetIval() != nil:
			typ = "int4"
		case x.AConst.GetFval() != nil:
			typ = "numeric"
		case x.AConst.GetBoolval() != nil:
			typ = "bool"
		case x.AConst.GetBsval() != nil:
			typ = "varbit"
		}
		return &pg.Node{Node: &pg.Node_TypeCast{TypeCast: &pg.TypeCast{
			Arg:      base,
			TypeName: &pg.TypeName{Names: []*pg.Node{pg.MakeStrNode("pg_catalog"), pg.MakeStrNode(typ)}, Typemod: -1, Location: -1},
			Location: -1,
		}}}
	}
	return &pg.Node{Node: &pg.Node_SubLink{SubLink: &pg.SubLink{
		SubLinkType: pg.SubLinkType_EXPR_SUBLINK,
		Subselect: &pg.Node{Node: &pg.Node_SelectStmt{SelectStmt: &pg.SelectStmt{
			TargetList:  []*pg.Node{pg.MakeResTargetNodeWithVal(base, -1)},
			LimitOption: pg.LimitOption_LIMIT_OPTION_DEFAULT,
			Op:          pg.SetOperation_SETOP_NONE,
		}}},
		Location: -1,
	}}}
}

// deparseWith deparses a mutated tree and checks that the text parses back
// with a field selection named name in it.
func deparseWith(tree *pg.ParseResult, name string) (string, bool) {
	s, err := pg.Deparse(tree)
	if err != nil {
		return "", false
	}
	back, err := pg.Parse(s)
	if err != nil {
		return "", false
	}
	found := false
	eachMessage(back.ProtoReflect(), func(m protoreflect.Message) {
		switch x := m.Interface().(type) {
		case *pg.A_Indirection:
			if len(x.Indirection) > 0 && x.Indirection[len(x.Indirection)-1].GetString_().GetSval() == name {
				found = true
			}
		case *pg.ColumnRef:
			if len(x.Fields) > 1 && x.Fields[len(x.Fields)-1].GetString_().GetSval() == name {
				found = true
			}
		}
	})
	return s, found
}

// typeSites lists the type names that have no array bounds yet (casts,
// typed literals, column definitions, JSON RETURNING), in preorder.
func typeSites(tree *pg.ParseResult) []*pg.TypeName {
	var sites []*pg.TypeName
	eachMessage(tree.ProtoReflect(), func(m protoreflect.Message) {
		tn, ok := m.Interface().(*pg.TypeName)
		if !ok || len(tn.Names) == 0 || len(tn.ArrayBounds) > 0 || tn.Setof || tn.PctType {
			return
		}
		if tn.Names[len(tn.Names)-1].GetString_() == nil {
			return
		}
		sites = append(sites, tn)
	})
	return sites
}

// eachMessage calls fn for m and every message below it, in field order.
func eachMessage(m protoreflect.Message, fn func(protoreflect.Message)) {
	fn(m)
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if fd.Kind() != protoreflect.MessageKind || fd.IsMap() {
			continue
		}
		switch {
		case fd.IsList():
			l := m.Get(fd).List()
			for j := 0; j < l.Len(); j++ {
				eachMessage(l.Get(j).Message(), fn)
			}
		case m.Has(fd):
			eachMessage(m.Get(fd).Message(), fn)
		}
	}
}

// TestMutate: the mutator produces the rewrites the fuzz invariants are
// about (so FuzzValidate's mutant checks cannot pass by having no mutants).
func TestMutate(t *testing.T) {
	tests := []struct {
		sql  string
		kind string
		want []string // mutant texts, in order
	}{
		{"SELECT pg_sleep(1)", "notation", []string{"SELECT (1::int).pg_sleep"}},
		{"SELECT pg_catalog.pg_read_file('x')", "notation", []string{"SELECT ('x'::pg_catalog.text).pg_read_file"}},
		{"SELECT upper(lower(name)) FROM users", "notation", []string{
			"SELECT (lower(name)).upper FROM users",
			"SELECT upper((name).lower) FROM users",
			"SELECT ((name).lower).upper FROM users",
		}},
		{"SELECT abs(CASE WHEN true THEN 1 END)", "notation", []string{"SELECT (SELECT CASE WHEN true THEN 1 END).abs"}},
		{"SELECT count(*), sum(id) OVER (), * FROM unnest(ARRAY[1, 2]) id", "notation", nil},
		{"SELECT 'pg_authid'::regclass", "array", []string{"SELECT 'pg_authid'::regclass[]", "SELECT 'pg_authid'::_regclass"}},
		{"SELECT * FROM json_to_record('{}') AS t(a regrole)", "array", []string{
			"SELECT * FROM json_to_record('{}') t (a regrole[])",
			"SELECT * FROM json_to_record('{}') t (a _regrole)",
		}},
	}
	for _, tt := range tests {
		tree, err := pg.Parse(tt.sql)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range mutate(tree) {
			if m.kind == tt.kind {
				got = append(got, m.sql)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("mutate(%q) %s mutants:\n got %q\nwant %q", tt.sql, tt.kind, got, tt.want)
		}
	}
}
