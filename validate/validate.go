package validate

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/internal/ttlcache"
	"github.com/pganalyze/pg_query_go/v6/parser"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// Validator checks SQL queries. It is safe for concurrent use.
type Validator struct {
	cfg *config
	// looks keeps the look-alike query's rows per database handle and
	// pinned search path, objects the objects query's where all it reached
	// is trusted, for LookalikeTTL (Explain).
	looks, objects *ttlcache.Cache[[][]string]
}

// New returns a Validator. With no options it denies the system catalogs,
// allows the default function list and any relation outside the system
// schemas, runs lint and does not touch LIMIT.
func New(opts ...Option) *Validator {
	cfg := defaultConfig()
	for _, o := range opts {
		if o != nil {
			o.apply(cfg)
		}
	}
	return &Validator{cfg: cfg, looks: ttlcache.New[[][]string](LookalikeTTL, 64), objects: ttlcache.New[[][]string](LookalikeTTL, 1024)}
}

// Result describes an accepted query.
type Result struct {
	// SQL is the query to run, a text whose own parse tree passed every
	// check: the input's statement, the input with LIMIT appended, or the
	// rewritten tree deparsed and validated again (see the package doc).
	// Run this, never the input.
	SQL string
	// Issues are lint warnings and rewrite notes (no SeverityError).
	Issues []Issue
	// Tables are the relations read, schema-qualified, sorted.
	Tables []string
	// Functions are the functions called (schema-qualified only when
	// outside pg_catalog), sorted.
	Functions []string
	// uses are the names left to the server's resolution, for the
	// look-alike check (LookalikeQuery).
	uses *uses
}

// Validate checks one SQL query. It returns a *Error (errors.Is(err,
// ErrRejected)) listing every violation when the query is rejected.
//
// The common cases take one parse: a query that needs no LIMIT rewrite is
// returned as its own statement text, and a query without LIMIT is parsed
// with the LIMIT already appended, so the tree checked is the tree of the
// text returned. Only a LIMIT that must be lowered or wrapped takes the
// deparse path (rewrite, deparse, parse and check again).
func (v *Validator) Validate(sql string) (res *Result, err error) {
	// Fail closed: a bug in a check refuses the query (CodeRewrite, the
	// internal safety net) instead of ending the caller's process.
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, v.rewriteFailed(sql, nil, fmt.Sprintf("the validator failed on this query (%v)", r))
		}
	}()
	appendable := v.cfg.maxLimit > 0
	if appendable && !mentionsLimit(sql) {
		if res, err, ok := v.validateAppended(sql); ok {
			return res, err
		}
		appendable = false
	}
	tree, c := v.check(sql, passFull)
	if tree == nil {
		return nil, v.rejected(sql, c)
	}
	if !c.needsLimitRewrite(c.top) {
		c.uses.base = statementOffset(sql, tree)
		return c.result(statementText(sql, tree)), nil
	}
	if appendable && c.top.LimitCount == nil {
		// "limit" was only a word in the text.
		if res, err, ok := v.validateAppended(sql); ok {
			return res, err
		}
	}
	c.rewriteLimit(c.top)
	out, err := pg.Deparse(tree)
	if err != nil {
		return nil, v.rewriteFailed(sql, c.issues, fmt.Sprintf("the query could not be normalized (%v)", err))
	}
	// Fail closed: what runs is the deparsed text, so it must pass on its
	// own, and be a fixed point: its tree, rewritten again, must be the tree
	// out was printed from (or print the same text).
	tree2, c2 := v.check(out, passRecheck)
	if tree2 == nil {
		msg := "the normalized form of the query did not validate"
		for _, i := range c2.issues {
			if i.Severity == SeverityError {
				msg += " (" + i.Code + ": " + i.Message + ")"
				break
			}
		}
		return nil, v.rewriteFailed(sql, c.issues, msg)
	}
	c2.rewriteLimit(c2.top)
	if !sameTree(tree.ProtoReflect(), tree2.ProtoReflect()) {
		// Not the tree the structural checks ran on: run them on this one
		// and require the same text.
		analyze(c2, c2.top, false)
		out2, err := pg.Deparse(tree2)
		if hasError(c2.issues) || err != nil || out2 != out {
			return nil, v.rewriteFailed(sql, c.issues, "the normalized form of the query is not stable")
		}
	}
	res = c.result(out)
	res.uses = c2.uses // the sites of out, the text that runs
	return res, nil
}

// validateAppended validates sql with " LIMIT max" appended, in one parse.
// ok is false when that text is not sql's own statement plus our LIMIT as
// the outermost one (sql has a syntax error, several statements, a LIMIT or
// FETCH of its own, ...): the caller then validates sql itself. The checks
// run with our LIMIT detached, so they see the tree of sql, exactly as on the
// rewrite path; what is returned is the text whose tree was checked.
func (v *Validator) validateAppended(sql string) (res *Result, err error, ok bool) {
	base := strings.TrimRight(sql, " \t\r\n\f\v;")
	sep := " "
	if strings.Contains(base[strings.LastIndexByte(base, '\n')+1:], "--") {
		sep = "\n" // end a trailing line comment
	}
	lit := strconv.FormatInt(v.cfg.maxLimit, 10)
	text := base + sep + "LIMIT " + lit
	c := v.newChecker()
	tree := c.parse(text)
	if tree == nil || len(tree.Stmts) != 1 || tree.Stmts[0].Stmt == nil {
		return nil, nil, false
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil || sel.LimitOption != pg.LimitOption_LIMIT_OPTION_COUNT ||
		nodeLocation(sel.LimitCount) != len(text)-len(lit) {
		return nil, nil, false
	}
	if k, isConst := numConst(sel.LimitCount); !isConst || k != float64(v.cfg.maxLimit) {
		return nil, nil, false
	}
	limit := sel.LimitCount
	sel.LimitCount, sel.LimitOption = nil, pg.LimitOption_LIMIT_OPTION_DEFAULT
	c.run(tree, passFull)
	sel.LimitCount, sel.LimitOption = limit, pg.LimitOption_LIMIT_OPTION_COUNT
	if hasError(c.issues) {
		return nil, v.rejected(sql, c), true
	}
	c.add(CodeLimitAdded, SeverityInfo, -1, "LIMIT %d added", v.cfg.maxLimit)
	c.uses.base = statementOffset(text, tree)
	return c.result(statementText(text, tree)), nil, true
}

// mentionsLimit reports whether sql may carry a LIMIT or FETCH of its own,
// in which case appending one would fail to parse. It only picks the order
// of the attempts; every decision is made on the tree.
func mentionsLimit(sql string) bool {
	for _, w := range []string{"limit", "fetch"} {
		for i := 0; i+len(w) <= len(sql); i++ {
			if strings.EqualFold(sql[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}

// statementText returns the text of the tree's single statement, without
// the semicolon and whatever follows it.
func statementText(sql string, tree *pg.ParseResult) string {
	raw := tree.Stmts[0]
	start, n := int(raw.StmtLocation), int(raw.StmtLen)
	if start < 0 || start > len(sql) {
		start = 0
	}
	end := len(sql)
	if n > 0 && start+n <= len(sql) {
		end = start + n
	}
	return strings.TrimSpace(sql[start:end])
}

// statementOffset is where statementText's text starts in sql: the tree's
// locations are offsets in sql.
func statementOffset(sql string, tree *pg.ParseResult) int {
	start := int(tree.Stmts[0].StmtLocation)
	if start < 0 || start > len(sql) {
		start = 0
	}
	return start + len(sql[start:]) - len(strings.TrimLeft(sql[start:], " \t\n\v\f\r"))
}

func (c *checker) result(sql string) *Result {
	return &Result{SQL: sql, Issues: c.issues, Tables: slices.Sorted(maps.Keys(c.tables)),
		Functions: slices.Sorted(maps.Keys(c.funcs)), uses: c.uses}
}

func (v *Validator) rejected(sql string, c *checker) error {
	// Report in text order; the walk order is not defined.
	slices.SortStableFunc(c.issues, func(a, b Issue) int { return a.Location - b.Location })
	v.cfg.logger.Debug("validate: rejected", "sql", sql, "issues", len(c.issues))
	return &Error{SQL: sql, Issues: c.issues}
}

func (v *Validator) rewriteFailed(sql string, issues []Issue, msg string) error {
	v.cfg.logger.Debug("validate: rewrite failed", "sql", sql, "reason", msg)
	is := Issue{Code: CodeRewrite, Severity: SeverityError, Location: -1, Message: msg + "; simplify the query"}
	return &Error{SQL: sql, Issues: append(issues, is)}
}

// checkFault, set by a test only, runs before the checks of every parsed
// query: it stands for a bug in a check, to test that Validate refuses the
// query instead of panicking.
var checkFault func(tree *pg.ParseResult)

// Kinds of check passes.
const (
	passFull    = iota // every check, lint included
	passRecheck        // the node, function and relation checks of the tree walk
)

func (v *Validator) newChecker() *checker {
	return &checker{cfg: v.cfg, tables: map[string]bool{}, funcs: map[string]bool{}, uses: newUses()}
}

// check parses sql and runs the checks of the pass. It returns a nil tree
// when the query is rejected; the checker holds the issues either way.
func (v *Validator) check(sql string, pass int) (*pg.ParseResult, *checker) {
	c := v.newChecker()
	tree := c.parse(sql)
	if tree == nil {
		return nil, c
	}
	c.run(tree, pass)
	if hasError(c.issues) {
		return nil, c
	}
	return tree, c
}

// parse parses sql, recording a syntax issue when it does not parse.
func (c *checker) parse(sql string) *pg.ParseResult {
	if !utf8.ValidString(sql) || strings.IndexByte(sql, 0) >= 0 {
		c.add(CodeSyntax, SeverityError, -1, "the query text must be valid UTF-8 without NUL bytes")
		return nil
	}
	tree, err := pgparse.Parse(sql)
	if errors.Is(err, pgparse.ErrTooLong) || pgparse.IsTooDeep(err) {
		// Beyond what libpg_query can handle safely: refused before or
		// instead of a parse that could overflow its C stack.
		c.add(CodeTooLarge, SeverityError, -1, "the query is too large (%d bytes, at most %d) or too deeply nested; write a shorter, flatter query", len(sql), pgparse.MaxLen)
		return nil
	}
	if err != nil {
		loc := -1
		var pe *parser.Error
		if errors.As(err, &pe) && pe.Cursorpos > 0 {
			loc = byteOffset(sql, pe.Cursorpos-1)
		}
		c.add(CodeSyntax, SeverityError, loc, "syntax error: %s; fix the SQL syntax", err.Error())
		return nil
	}
	return tree
}

// run runs the checks of the pass on a parsed tree.
func (c *checker) run(tree *pg.ParseResult, pass int) {
	if checkFault != nil {
		checkFault(tree)
	}
	if sel := c.check(tree); sel != nil && pass == passFull {
		analyze(c, sel, c.cfg.lint)
	}
}

func hasError(issues []Issue) bool {
	for _, is := range issues {
		if is.Severity == SeverityError {
			return true
		}
	}
	return false
}

// positionFields hold offsets into the text, which differ between the input
// and its deparsed form without changing the meaning.
var positionFields = map[protoreflect.Name]bool{"location": true, "stmt_location": true, "stmt_len": true}

var nodeOneof = (&pg.Node{}).ProtoReflect().Descriptor().Oneofs().ByName("node")

// sameTree reports whether two parse trees are equal except for positions.
func sameTree(a, b protoreflect.Message) bool {
	if a.Descriptor() != b.Descriptor() {
		return false
	}
	if _, ok := a.Interface().(*pg.Node); ok {
		fa, fb := a.WhichOneof(nodeOneof), b.WhichOneof(nodeOneof)
		if fa == nil || fb == nil || fa.Number() != fb.Number() {
			return fa == nil && fb == nil
		}
		return sameTree(a.Get(fa).Message(), b.Get(fb).Message())
	}
	same := true
	a.Range(func(fd protoreflect.FieldDescriptor, va protoreflect.Value) bool {
		if positionFields[fd.Name()] {
			return true
		}
		same = b.Has(fd) && sameValue(fd, va, b.Get(fd))
		return same
	})
	if same {
		b.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
			same = positionFields[fd.Name()] || a.Has(fd)
			return same
		})
	}
	return same
}

func sameValue(fd protoreflect.FieldDescriptor, x, y protoreflect.Value) bool {
	switch {
	case fd.IsMap():
		return false
	case fd.IsList():
		lx, ly := x.List(), y.List()
		if lx.Len() != ly.Len() {
			return false
		}
		for i := 0; i < lx.Len(); i++ {
			if fd.Message() != nil {
				if !sameTree(lx.Get(i).Message(), ly.Get(i).Message()) {
					return false
				}
			} else if !lx.Get(i).Equal(ly.Get(i)) {
				return false
			}
		}
		return true
	case fd.Message() != nil:
		return sameTree(x.Message(), y.Message())
	}
	return x.Equal(y)
}

// byteOffset converts a 0-based character offset to a byte offset.
func byteOffset(s string, chars int) int {
	i := 0
	for off := range s {
		if i == chars {
			return off
		}
		i++
	}
	return len(s)
}

// needsLimitRewrite reports whether rewriteLimit would change s.
func (c *checker) needsLimitRewrite(s *pg.SelectStmt) bool {
	max := c.cfg.maxLimit
	if max <= 0 || s == nil {
		return false
	}
	switch lc := s.LimitCount; {
	case lc == nil:
		return true
	case lc.GetAConst() != nil && lc.GetAConst().Isnull:
		return true
	case cappedLeast(lc, max):
		return false
	}
	n, ok := numConst(s.LimitCount)
	return !ok || n > float64(max)
}

// rewriteLimit adds or caps the LIMIT of the outermost query.
func (c *checker) rewriteLimit(s *pg.SelectStmt) {
	max := c.cfg.maxLimit
	if max <= 0 || s == nil {
		return
	}
	limit := pg.MakeAConstIntNode(max, -1)
	switch lc := s.LimitCount; {
	case lc == nil:
		s.LimitCount = limit
		s.LimitOption = pg.LimitOption_LIMIT_OPTION_COUNT
		c.add(CodeLimitAdded, SeverityInfo, -1, "LIMIT %d added", max)
	case lc.GetAConst() != nil && lc.GetAConst().Isnull:
		s.LimitCount = limit
		c.add(CodeLimitCapped, SeverityInfo, -1, "LIMIT ALL replaced by LIMIT %d", max)
	case cappedLeast(lc, max):
		return
	default:
		if n, ok := numConst(lc); ok && n <= float64(max) {
			return
		} else if ok {
			s.LimitCount = limit
		} else {
			s.LimitCount = &pg.Node{Node: &pg.Node_MinMaxExpr{MinMaxExpr: &pg.MinMaxExpr{
				Op: pg.MinMaxOp_IS_LEAST, Args: []*pg.Node{lc, limit}, Location: -1}}}
		}
		c.add(CodeLimitCapped, SeverityInfo, -1, "LIMIT capped at %d", max)
	}
}

// cappedLeast reports whether n is LEAST(..., k, ...) with a constant k <= max,
// the form rewriteLimit gives a non-constant LIMIT.
func cappedLeast(n *pg.Node, max int64) bool {
	mm := n.GetMinMaxExpr()
	if mm == nil || mm.Op != pg.MinMaxOp_IS_LEAST {
		return false
	}
	for _, a := range mm.Args {
		if k, ok := numConst(a); ok && k <= float64(max) {
			return true
		}
	}
	return false
}
