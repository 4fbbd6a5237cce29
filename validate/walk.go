package validate

import (
	"fmt"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// allowedNodes is the allow-list of parse-tree message types a query may
// contain. Anything else (new node types in future parser versions
// included) is rejected with CodeUnsupported: the walk fails closed.
var allowedNodes = setOf(
	"ParseResult", "RawStmt", "Node", "List", "SelectStmt", "ResTarget", "ColumnRef", "A_Star", "A_Const",
	"String", "Integer", "Float", "Boolean", "BitString", "A_Expr", "BoolExpr", "NullTest", "BooleanTest",
	"FuncCall", "TypeCast", "TypeName", "SortBy", "WindowDef", "RangeVar", "Alias", "JoinExpr",
	"RangeSubselect", "RangeFunction", "RangeTableSample", "WithClause", "CommonTableExpr", "CTESearchClause",
	"CTECycleClause", "SubLink", "CaseExpr", "CaseWhen", "CoalesceExpr", "MinMaxExpr", "A_Indirection",
	"A_Indices", "A_ArrayExpr", "RowExpr", "CollateClause", "GroupingSet", "GroupingFunc", "SQLValueFunction",
	"ColumnDef", "ParamRef",
	"JsonFuncExpr", "JsonValueExpr", "JsonFormat", "JsonReturning", "JsonOutput", "JsonKeyValue",
	"JsonObjectConstructor", "JsonArrayConstructor", "JsonArrayQueryConstructor", "JsonAggConstructor",
	"JsonObjectAgg", "JsonArrayAgg", "JsonIsPredicate", "JsonParseExpr", "JsonScalarExpr",
	"JsonSerializeExpr", "JsonArgument", "JsonBehavior", "JsonTable", "JsonTablePathSpec", "JsonTableColumn",
)

// statementNames names statement node types in messages.
var statementNames = map[string]string{
	"InsertStmt": "INSERT", "UpdateStmt": "UPDATE", "DeleteStmt": "DELETE", "MergeStmt": "MERGE",
	"DoStmt": "DO", "CallStmt": "CALL", "CopyStmt": "COPY", "VariableSetStmt": "SET",
	"VariableShowStmt": "SHOW", "PrepareStmt": "PREPARE", "ExecuteStmt": "EXECUTE",
	"DeallocateStmt": "DEALLOCATE", "ListenStmt": "LISTEN", "UnlistenStmt": "UNLISTEN", "NotifyStmt": "NOTIFY",
	"TransactionStmt": "transaction control (BEGIN/COMMIT/ROLLBACK/SAVEPOINT)", "ExplainStmt": "EXPLAIN",
	"CreateTableAsStmt": "CREATE TABLE AS / SELECT INTO", "LockStmt": "LOCK", "VacuumStmt": "VACUUM/ANALYZE",
	"TruncateStmt": "TRUNCATE", "CreateStmt": "CREATE TABLE", "DropStmt": "DROP", "GrantStmt": "GRANT",
	"CreateFunctionStmt": "CREATE FUNCTION", "DeclareCursorStmt": "DECLARE CURSOR", "FetchStmt": "FETCH",
	"DiscardStmt": "DISCARD", "LoadStmt": "LOAD", "CheckPointStmt": "CHECKPOINT", "ViewStmt": "CREATE VIEW",
	"AlterTableStmt": "ALTER TABLE", "ReindexStmt": "REINDEX", "ClusterStmt": "CLUSTER",
}

// operatorKinds are the A_Expr kinds whose Name is an operator (BETWEEN's
// is its keyword; it expands to < and > on built-in types).
var operatorKinds = map[pg.A_Expr_Kind]bool{
	pg.A_Expr_Kind_AEXPR_OP: true, pg.A_Expr_Kind_AEXPR_OP_ANY: true, pg.A_Expr_Kind_AEXPR_OP_ALL: true,
	pg.A_Expr_Kind_AEXPR_DISTINCT: true, pg.A_Expr_Kind_AEXPR_NOT_DISTINCT: true, pg.A_Expr_Kind_AEXPR_NULLIF: true,
	pg.A_Expr_Kind_AEXPR_IN: true, pg.A_Expr_Kind_AEXPR_LIKE: true, pg.A_Expr_Kind_AEXPR_ILIKE: true,
	pg.A_Expr_Kind_AEXPR_SIMILAR: true,
}

var dataModifying = setOf("InsertStmt", "UpdateStmt", "DeleteStmt", "MergeStmt")

// checker walks one parse tree and collects violations.
type checker struct {
	cfg    *config
	issues []Issue
	loc    int
	scopes []map[string]bool // CTE names visible, innermost last
	tables map[string]bool
	funcs  map[string]bool
	uses   *uses
	top    *pg.SelectStmt
	// plan is set while checking an expression the server printed in an
	// EXPLAIN VERBOSE plan (planExpr): names there are already resolved,
	// so column resolution is skipped and $n are the plan's parameters.
	plan bool
	// textual are the calls whose result is converted to text where
	// they stand (see lookupResults).
	textual map[*pg.FuncCall]bool
	// planRelations are the aliases of the relations the plan scans.
	planRelations map[string]bool
	// sizes knows what the query's own columns hold, for the string guard;
	// operandSizes the same in operands mode (operands.go), learnt when
	// first needed.
	sizes, operandSizes *sizer
}

func (c *checker) add(code string, sev Severity, loc int, format string, args ...any) {
	c.issues = append(c.issues, Issue{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...), Location: loc})
}

func (c *checker) violation(code, format string, args ...any) {
	c.add(code, SeverityError, c.loc, format, args...)
}

// check validates the tree's statements and returns the single SELECT.
func (c *checker) check(tree *pg.ParseResult) *pg.SelectStmt {
	switch len(tree.Stmts) {
	case 0:
		c.add(CodeEmpty, SeverityError, -1, "the text contains no SQL statement; write one SELECT query")
		return nil
	case 1:
	default:
		c.add(CodeMultiple, SeverityError, int(tree.Stmts[1].StmtLocation),
			"%d statements found; write exactly one SELECT query with no semicolon-separated statements", len(tree.Stmts))
		return nil
	}
	raw := tree.Stmts[0]
	c.loc = int(raw.StmtLocation)
	if raw.Stmt == nil {
		c.add(CodeEmpty, SeverityError, -1, "the text contains no SQL statement; write one SELECT query")
		return nil
	}
	sel := raw.Stmt.GetSelectStmt()
	if sel == nil {
		name := nodeName(raw.Stmt)
		code := CodeNotSelect
		if name == "CreateTableAsStmt" {
			code = CodeSelectInto
		}
		c.violation(code, "%s statements are not allowed; only a single read-only SELECT query can run", stmtName(name))
		return nil
	}
	c.top = sel
	c.sizes = &sizer{cols: map[string]float64{}, rels: map[string]float64{}}
	c.sizes.learn(sel)
	c.walk(sel)
	c.checkSizes(sel)
	c.resolveNames(sel)
	return sel
}

func nodeName(n *pg.Node) string {
	m, known := nodeMessage(n)
	switch {
	case !known:
		return fmt.Sprintf("%T", n.Node)
	case m == nil:
		return "empty"
	}
	return messageName(m)
}

// messageName is the parse tree type name of m ("SelectStmt").
func messageName(m proto.Message) string {
	return string(m.ProtoReflect().Descriptor().Name())
}

func stmtName(node string) string {
	if s := statementNames[node]; s != "" {
		return s
	}
	return strings.TrimSuffix(node, "Stmt")
}

// located is implemented by the parse tree types with a text position.
type located interface{ GetLocation() int32 }

// walk visits m and everything below it.
func (c *checker) walk(m proto.Message) {
	if n, ok := m.(*pg.Node); ok {
		inner, known := nodeMessage(n)
		if !known {
			c.violation(CodeUnsupported, "the construct %s is not supported in queries; rewrite the query without it", nodeName(n))
			return
		}
		if inner == nil {
			return
		}
		m = inner
	}
	name := messageName(m)
	prev := c.loc
	if l, ok := m.(located); ok && l.GetLocation() >= 0 {
		c.loc = int(l.GetLocation())
	}
	defer func() { c.loc = prev }()
	if !allowedNodes[name] {
		switch {
		case dataModifying[name]:
			c.violation(CodeDataModifying, "%s inside a query is not allowed; the query must only read data", stmtName(name))
		case name == "IntoClause":
			c.violation(CodeSelectInto, "SELECT ... INTO creates a table and is not allowed; remove the INTO clause")
		case name == "LockingClause":
			c.violation(CodeLocking, "locking clauses (FOR UPDATE/FOR SHARE/...) are not allowed; remove them")
		case strings.HasSuffix(name, "Stmt"):
			c.violation(CodeNotSelect, "%s statements are not allowed; only a single read-only SELECT query can run", stmtName(name))
		default:
			c.violation(CodeUnsupported, "the construct %s is not supported in queries; rewrite the query without it", name)
		}
		return
	}
	switch x := m.(type) {
	case *pg.SelectStmt:
		c.selectStmt(x)
		return
	case *pg.RangeVar:
		c.rangeVar(x)
	case *pg.FuncCall:
		c.funcCall(x)
		if qn := splitName(x.Funcname); !c.plan && len(x.Args) == 1 && (qn.schema == "" || qn.schema == "pg_catalog") &&
			builtinTypes[qn.name] {
			c.uses.castUse(int(x.Location), x.Args[0], nil) // text(x) is a cast when no function text(x) exists
		}
	case *pg.TypeName:
		c.typeName(x)
	case *pg.TypeCast:
		c.textCast(x)
		if !c.plan {
			c.uses.castUse(int(x.Location), x.Arg, x.TypeName)
		}
	case *pg.RangeSubselect:
		c.uses.rangeItem("", x.Alias, true)
	case *pg.RangeFunction:
		c.uses.rangeItem("", x.Alias, true)
	case *pg.RangeTableFunc:
		c.uses.rangeItem("", x.Alias, true)
	case *pg.JsonTable:
		c.uses.rangeItem("", x.Alias, true)
	case *pg.A_Expr:
		if operatorKinds[x.Kind] {
			c.operator(x.Name)
		}
		if x.Kind == pg.A_Expr_Kind_AEXPR_OP || x.Kind == pg.A_Expr_Kind_AEXPR_OP_ANY || x.Kind == pg.A_Expr_Kind_AEXPR_OP_ALL {
			c.checkOperands(opSymbol(x.Name), "operator "+opSymbol(x.Name), []*pg.Node{x.Lexpr, x.Rexpr}, nil)
		}
		c.uses.implied(x)
	case *pg.CaseExpr:
		if x.Arg != nil {
			c.uses.ops["="] = true // CASE x WHEN v compares with =
		}
	case *pg.JoinExpr:
		if x.Alias != nil {
			c.uses.rangeItem("", x.Alias, true)
		}
		if x.IsNatural || len(x.UsingClause) > 0 {
			c.uses.ops["="] = true
		}
	case *pg.SubLink:
		c.operator(x.OperName)
		c.checkOperands(opSymbol(x.OperName), "operator "+opSymbol(x.OperName), []*pg.Node{x.Testexpr}, x.Subselect.GetSelectStmt())
		if len(x.OperName) == 0 && x.SubLinkType == pg.SubLinkType_ANY_SUBLINK {
			c.uses.ops["="] = true // x IN (SELECT ...)
		}
	case *pg.SortBy:
		c.operator(x.UseOp)
	case *pg.SQLValueFunction:
		c.valueFunction(x)
	case *pg.ColumnRef:
		if c.plan {
			c.planSystemColumn(x)
		} else { // the plan prints a call as a call
			c.uses.notation(x.Fields[min(1, len(x.Fields)):])
		}
	case *pg.A_Indirection:
		if !c.plan {
			c.uses.notation(x.Indirection)
		}
	case *pg.ParamRef:
		if c.plan {
			return // the plan's own parameters (initplan outputs, ...)
		}
		c.violation(CodeParam, "parameter placeholder $%d is not allowed; write the value as a literal", x.Number)
		return
	}
	c.children(m, "")
}

// planExpr checks one expression the server printed in an EXPLAIN VERBOSE
// plan (parsed from its text): functions, operators and types against the
// same policy as a query, with no column resolution, since the server has
// resolved every name already. Violations go to c.issues like any other.
func (c *checker) planExpr(n *pg.Node) {
	prev := c.plan
	c.plan = true
	defer func() { c.plan = prev }()
	c.walk(n)
}

// children walks every message-valued field of m except skip. A type the
// generated walk does not know fails closed.
func (c *checker) children(m proto.Message, skip string) {
	known := eachChild(m, func(field string, child proto.Message) {
		if field != skip {
			c.walk(child)
		}
	})
	if !known {
		c.violation(CodeUnsupported, "the construct %s is not supported in queries; rewrite the query without it", messageName(m))
	}
}

func (c *checker) selectStmt(s *pg.SelectStmt) {
	// INTO and locking clauses are outside the node allow-list: walking
	// the children reports them.
	pushed := 0
	if w := s.WithClause; w != nil {
		c.withClause(w)
		pushed = 1
	}
	c.children(s, "with_clause")
	c.scopes = c.scopes[:len(c.scopes)-pushed]
}

// withClause checks the CTE bodies, each with the names visible to it, and
// leaves a scope with all the CTE names pushed for the statement body.
func (c *checker) withClause(w *pg.WithClause) {
	prev := c.loc
	c.loc = int(w.Location)
	defer func() { c.loc = prev }()
	scope := map[string]bool{}
	c.scopes = append(c.scopes, scope)
	if w.Recursive {
		// Every CTE of a WITH RECURSIVE sees all its siblings.
		for _, n := range w.Ctes {
			if cte := n.GetCommonTableExpr(); cte != nil {
				scope[cte.Ctename] = true
			}
		}
	}
	for _, n := range w.Ctes {
		cte := n.GetCommonTableExpr()
		if cte == nil {
			c.walk(n)
			continue
		}
		c.loc = int(cte.Location)
		q := cte.Ctequery
		switch {
		case q == nil:
		case q.GetSelectStmt() != nil:
			c.walk(q)
			if w.Recursive {
				c.recursionGuard(cte)
			}
		default:
			c.walk(q)
		}
		c.children(cte, "ctequery")
		scope[cte.Ctename] = true
		c.uses.rangeItem(cte.Ctename, nil, true)
	}
}

func (c *checker) isCTE(name string) bool {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if c.scopes[i][name] {
			return true
		}
	}
	return false
}
