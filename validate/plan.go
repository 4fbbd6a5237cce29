package validate

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// CheckPlan checks what the server resolved a query to: plan is the raw
// JSON of EXPLAIN (VERBOSE, FORMAT JSON) <query>. Every expression the plan
// shows (outputs, filters, join and index conditions, sort and group keys,
// function scans, ...) is parsed with libpg_query and walked through the
// same function, operator and type policy as a query; relations scanned in
// system schemas need WithSystemCatalogs(true) (secret-bearing ones are
// always refused), and TABLESAMPLE must use BERNOULLI or SYSTEM.
//
// PostgreSQL turns some spellings into function calls the query's parse
// tree does not show as calls (functional notation: ('1'::float8).pg_sleep
// is pg_sleep('1')); the verbose plan names the function actually called,
// whatever the spelling.
//
// It returns nil or a *Error (errors.Is(err, ErrRejected)) whose issues
// have code CodePlan, or CodeBudget where the planner's estimates exceed
// the plan budget (WithPlanBudget). It fails closed: a plan that is not
// valid JSON, an
// expression that does not parse, or a text under a plan key it does not
// know is refused as a plan that could not be checked.
//
// With Against, a plan that calls a look-alike the catalog check found by
// its bare name is refused too (CodeLookalike).
func (v *Validator) CheckPlan(plan []byte, opts ...PlanOption) error {
	_, _, err := v.checkPlan(plan, opts)
	return err
}

// PlanRelation is a relation a plan scans.
type PlanRelation struct{ Schema, Name string }

// checkPlan is CheckPlan, also returning the plan's figures (PlanFigures;
// zero when the plan cannot be read) and the relations it scans (nil when
// it cannot be read), so that Explain reads a plan once.
func (v *Validator) checkPlan(plan []byte, opts []PlanOption) (PlanBudget, []PlanRelation, error) {
	var cfg planConfig
	for _, o := range opts {
		if o != nil {
			o.applyPlan(&cfg)
		}
	}
	p := &planCheck{v: v, c: v.newChecker(), seen: map[string]bool{}}
	var figures PlanBudget
	var relations []PlanRelation
	if err := p.read(plan); err != nil {
		p.add(fmt.Sprintf("the server's plan could not be checked (%v); the query is refused, simplify it", err))
	} else {
		relations = p.relations()
		p.checkItems()
		figs := p.figures(plan)
		figures = p.largest(figs)
		p.checkBudget(figs)
		if cfg.lookalikes != nil {
			p.planLookalikes(cfg.lookalikes)
		}
	}
	if len(p.issues) == 0 {
		return figures, relations, nil
	}
	v.cfg.logger.Debug("validate: plan refused", "issues", len(p.issues))
	return figures, relations, &Error{Issues: p.issues}
}

// relations are the relations the plan's nodes scan, each once, in the
// order of the plan (a node before its children); not nil.
func (p *planCheck) relations() []PlanRelation {
	out := []PlanRelation{}
	for _, n := range p.nodes {
		if r := (PlanRelation{n.schema, n.relation}); n.relation != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// planKey says what the value of a plan property is.
type planKey uint8

const (
	keyOther planKey = iota // not listed: numbers, booleans and objects are walked, text fails closed
	keyName                 // names and enumerated words, never evaluated
	keyExpr                 // an expression (or a comma-separated list), or a list (of lists) of them
	keySort                 // a sort key with its DESC / NULLS / USING / COLLATE decoration
	keyFrom                 // a table function call, valid only as a FROM item
	keyPlan                 // a child plan node, or a list of them
)

// planKeys classifies the properties of PostgreSQL's explain.c (15) that
// can hold text. Numbers and booleans carry no expression whatever their
// key; text under a key not listed here refuses the plan.
var planKeys = map[string]planKey{
	"Plan": keyPlan, "Plans": keyPlan,

	"Output": keyExpr, "Filter": keyExpr, "Join Filter": keyExpr, "Hash Cond": keyExpr, "Merge Cond": keyExpr,
	"Index Cond": keyExpr, "Recheck Cond": keyExpr, "Order By": keyExpr, "TID Cond": keyExpr,
	"One-Time Filter": keyExpr, "Run Condition": keyExpr, "Function Call": keyExpr, "Cache Key": keyExpr,
	"Sampling Parameters": keyExpr, "Repeatable Seed": keyExpr, "Group Key": keyExpr, "Group Keys": keyExpr,
	"Hash Key": keyExpr, "Hash Keys": keyExpr, "Params Evaluated": keyExpr, "Conflict Filter": keyExpr,

	"Sort Key": keySort, "Presorted Key": keySort,

	"Table Function Call": keyFrom,

	"Node Type": keyName, "Strategy": keyName, "Partial Mode": keyName, "Operation": keyName,
	"Parent Relationship": keyName, "Subplan Name": keyName, "Custom Plan Provider": keyName,
	"Join Type": keyName, "Command": keyName, "Scan Direction": keyName, "Index Name": keyName, "Relation Name": keyName,
	"CTE Name": keyName, "Tuplestore Name": keyName, "Schema": keyName, "Alias": keyName,
	"Table Function Name": keyName, "Function Name": keyName, "Sampling Method": keyName,
	"Sort Method": keyName, "Sort Space Type": keyName, "Sort Methods Used": keyName, "Cache Mode": keyName,
	"Conflict Resolution": keyName, "Conflict Arbiter Indexes": keyName, "Trigger Name": keyName,
	"Constraint Name": keyName, "Relation": keyName,
}

// planNames are the names a node's checks and the plan budget read, and
// where each goes.
var planNames = map[string]func(*planObj) *string{
	"Node Type": func(o *planObj) *string { return &o.nodeType }, "Relation Name": func(o *planObj) *string { return &o.relation },
	"Schema": func(o *planObj) *string { return &o.schema }, "Sampling Method": func(o *planObj) *string { return &o.sampling },
	"Alias": func(o *planObj) *string { return &o.alias }, "Strategy": func(o *planObj) *string { return &o.strategy },
	"Subplan Name": func(o *planObj) *string { return &o.subplan },
}

// planNumbers are the estimates the plan budget reads (budget.go), and
// where each goes.
var planNumbers = map[string]func(*planObj) *float64{
	"Plan Rows": func(o *planObj) *float64 { return &o.rows }, "Plan Width": func(o *planObj) *float64 { return &o.width },
	"Total Cost": func(o *planObj) *float64 { return &o.cost }, "Workers Planned": func(o *planObj) *float64 { return &o.workers },
}

// maxPlanDepth bounds the nesting of the plan's JSON.
const maxPlanDepth = 1000

// planBatchLen bounds the text of one combined parse, under pgparse.MaxLen.
const planBatchLen = pgparse.MaxLen - 1024

type planCheck struct {
	v      *Validator
	c      *checker
	r      planJSON
	items  []planItem
	dedup  map[string]bool // kind + text of the items collected
	nodes  []*planObj      // plan nodes, in document order (root first)
	issues []Issue
	seen   map[string]bool   // messages reported
	parsed func(text string) // test hook: called with each text parsed
}

// planItem is one expression text of the plan.
type planItem struct {
	text string
	kind planKey // keyExpr, keySort or keyFrom
	key  string
	obj  *planObj
}

// planObj is one JSON object of the plan: a plan node, or a group inside
// one (a grouping set, ...).
type planObj struct {
	keys                             []string
	nodeType, relation               string
	schema, sampling                 string
	alias, strategy, subplan         string
	hasOutput, hasFunc, hasTableFunc bool
	// The planner's estimates (Plan Rows, Plan Width, Total Cost,
	// Workers Planned) and the child plan nodes, for the budget.
	rows, width, cost float64
	workers           float64
	children          []*planObj
	parent            *planObj
	hashCond          string   // of a Hash Join
	outputs           []string // the Output expressions, for the aggregates' memory
}

func (p *planCheck) add(msg string) { p.addCode(CodePlan, msg) }

func (p *planCheck) addCode(code, msg string) {
	if p.seen[msg] {
		return
	}
	p.seen[msg] = true
	p.issues = append(p.issues, Issue{Code: code, Severity: SeverityError, Message: msg, Location: -1})
}

// read decodes the plan, collecting its expressions and checking its
// relations and sampling methods as it goes. The JSON is read in order, so
// a key repeated in one object (which a decoder into a map would keep
// once) is seen and refused.
func (p *planCheck) read(plan []byte) error {
	p.r = planJSON{b: plan}
	p.dedup = map[string]bool{}
	if !p.r.next('[') {
		return errors.New("the EXPLAIN output is not an array")
	}
	n := 0
	for !p.r.next(']') {
		if n++; n > 1 {
			return errors.New("several plans in the EXPLAIN output")
		}
		if !p.r.next('{') {
			return errors.New("the EXPLAIN output is not an array of objects")
		}
		top := &planObj{}
		var root *planObj
		for first := true; !p.r.next('}'); first = false {
			key, err := p.key(top, first)
			if err != nil {
				return err
			}
			if key != "Plan" {
				if err := p.value(key, planKeys[key], top, 1); err != nil {
					return err
				}
				continue
			}
			if !p.r.next('{') {
				return errors.New("\"Plan\" is not an object")
			}
			root = &planObj{}
			p.nodes = append(p.nodes, root)
			if err := p.object(root, 1); err != nil {
				return err
			}
		}
		if root == nil {
			return errors.New("no \"Plan\" in the EXPLAIN output")
		}
		// Without VERBOSE the plan has no Output: the expressions it
		// computes would go unseen.
		if !root.hasOutput && root.nodeType != "Append" && root.nodeType != "Merge Append" && root.nodeType != "Recursive Union" {
			return errors.New("the plan has no Output: not from EXPLAIN (VERBOSE)")
		}
	}
	if n == 0 {
		return errors.New("no plan in the EXPLAIN output")
	}
	if p.r.space(); p.r.i != len(p.r.b) {
		return errors.New("data after the plan")
	}
	return nil
}

// key reads the next key of o (after a ',' unless first); a key repeated
// in one object is refused.
func (p *planCheck) key(o *planObj, first bool) (string, error) {
	if !first && !p.r.next(',') {
		return "", errors.New("malformed object in the plan")
	}
	key, ok := p.r.str()
	if !ok || !p.r.next(':') {
		return "", errors.New("malformed object in the plan")
	}
	if slices.Contains(o.keys, key) {
		return "", fmt.Errorf("plan property %q repeated", key)
	}
	o.keys = append(o.keys, key)
	return key, nil
}

// object reads the members of an object whose '{' has been read, and the
// closing '}', then checks what the object names.
func (p *planCheck) object(o *planObj, depth int) error {
	if depth > maxPlanDepth {
		return errors.New("the plan is nested too deeply")
	}
	for first := true; !p.r.next('}'); first = false {
		key, err := p.key(o, first)
		if err != nil {
			return err
		}
		if err := p.value(key, planKeys[key], o, depth); err != nil {
			return err
		}
	}
	return p.objectDone(o)
}

func (p *planCheck) objectDone(o *planObj) error {
	switch {
	case o.relation != "" && o.schema == "":
		return errors.New("a relation without its schema: not from EXPLAIN (VERBOSE)")
	case o.nodeType == "Function Scan" && !o.hasFunc, o.nodeType == "Table Function Scan" && !o.hasTableFunc:
		return fmt.Errorf("a %s without its call: not from EXPLAIN (VERBOSE)", o.nodeType)
	}
	if o.relation != "" && systemSchema(o.schema) && (!p.v.cfg.allowCatalogs || secretRelations[o.relation]) {
		p.add(fmt.Sprintf("the server's plan reads the system catalog %s.%s (%s); query only the application tables",
			o.schema, o.relation, o.nodeType))
	}
	if o.relation != "" {
		// Column references qualified with this alias read the relation
		// (its system columns included).
		if p.c.planRelations == nil {
			p.c.planRelations = map[string]bool{}
		}
		p.c.planRelations[o.alias] = true
	}
	if o.sampling != "" && o.sampling != "bernoulli" && o.sampling != "system" {
		p.add(fmt.Sprintf("the server's plan samples rows with the TABLESAMPLE method %s; use BERNOULLI or SYSTEM", o.sampling))
	}
	return nil
}

// value reads the value of key in o.
func (p *planCheck) value(key string, kind planKey, o *planObj, depth int) error {
	if depth > maxPlanDepth {
		return errors.New("the plan is nested too deeply")
	}
	switch {
	case p.r.next('{'):
		if kind != keyPlan && kind != keyOther {
			return fmt.Errorf("unexpected object under %q", key)
		}
		child := &planObj{}
		if kind == keyPlan {
			child.parent = o
			o.children = append(o.children, child)
			p.nodes = append(p.nodes, child)
		}
		return p.object(child, depth+1)
	case p.r.next('['):
		for first := true; !p.r.next(']'); first = false {
			if !first && !p.r.next(',') {
				return errors.New("malformed array in the plan")
			}
			if err := p.value(key, kind, o, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	t, isText := p.r.str()
	if !isText {
		// A number, true, false or null.
		tok, ok := p.r.scalar()
		if !ok {
			return errors.New("malformed value in the plan")
		}
		if kind != keyOther && kind != keyName {
			return fmt.Errorf("unexpected non-text value under %q", key)
		}
		if field := planNumbers[key]; field != nil {
			return number(field(o), key, tok)
		}
		return nil
	}
	switch kind {
	case keyExpr, keySort, keyFrom:
		switch key {
		case "Output":
			o.hasOutput = true
			o.outputs = append(o.outputs, t)
		case "Function Call":
			o.hasFunc = true
		case "Table Function Call":
			o.hasTableFunc = true
		case "Hash Cond":
			o.hashCond = t
		}
		p.item(t, kind, key, o)
		return nil
	case keyName:
		if field := planNames[key]; field != nil {
			*field(o) = t
		}
		return nil
	case keyPlan:
		return fmt.Errorf("text under %q", key)
	}
	return fmt.Errorf("unknown plan property %q with text %s", key, clip(t))
}

// planJSON reads the JSON of a plan in order. The callers check the
// structure (commas, colons, brackets); str and scalar check the values,
// so what is not JSON is refused.
type planJSON struct {
	b []byte
	i int
}

func (r *planJSON) space() {
	for r.i < len(r.b) && (r.b[r.i] == ' ' || r.b[r.i] == '\t' || r.b[r.i] == '\n' || r.b[r.i] == '\r') {
		r.i++
	}
}

// next consumes c if it is the next byte after white space.
func (r *planJSON) next(c byte) bool {
	r.space()
	if r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

// str reads a string if one is next.
func (r *planJSON) str() (string, bool) {
	if !r.next('"') {
		return "", false
	}
	start, escaped := r.i, false
	for ; r.i < len(r.b) && r.b[r.i] != '"'; r.i++ {
		switch c := r.b[r.i]; {
		case c < 0x20:
			return "", false
		case c == '\\':
			escaped = true
			r.i++
		}
	}
	if r.i >= len(r.b) {
		return "", false
	}
	r.i++
	if !escaped {
		return string(r.b[start : r.i-1]), true
	}
	var s string
	if err := json.Unmarshal(r.b[start-1:r.i], &s); err != nil {
		return "", false
	}
	return s, true
}

// scalar reads a number, true, false or null, and returns its text.
func (r *planJSON) scalar() (string, bool) {
	start := r.i
	for r.i < len(r.b) && !strings.ContainsRune(",]} \t\n\r", rune(r.b[r.i])) {
		r.i++
	}
	switch tok := string(r.b[start:r.i]); tok {
	case "true", "false", "null":
		return tok, true
	default:
		return tok, jsonNumber.MatchString(tok)
	}
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func (p *planCheck) item(text string, kind planKey, key string, o *planObj) {
	k := string(rune('0'+kind)) + text
	if p.dedup[k] {
		return
	}
	p.dedup[k] = true
	p.items = append(p.items, planItem{text: text, kind: kind, key: key, obj: o})
}

// checkItems parses and checks the expressions, as many as fit in one
// parse at a time; a batch that fails to parse as a whole is parsed again
// one expression at a time, so that only what does not parse is refused.
func (p *planCheck) checkItems() {
	var batch []int
	size := 0
	for i, it := range p.items {
		if it.kind == keyFrom {
			p.one(i)
			continue
		}
		n := len(it.text) + 2
		if len(batch) > 0 && size+n > planBatchLen {
			p.batch(batch)
			batch, size = batch[:0], 0
		}
		size += n
		batch = append(batch, i)
	}
	if len(batch) > 0 {
		p.batch(batch)
	}
}

// batch checks the items in one statement: SELECT e1, e2, ... ORDER BY
// s1, s2, ...
func (p *planCheck) batch(idx []int) {
	if len(idx) == 1 {
		p.one(idx[0])
		return
	}
	var b strings.Builder
	b.WriteString("SELECT ")
	order := make([]int, 0, len(idx))
	spans := make([][2]int, 0, len(idx))
	write := func(kind planKey, sep string) {
		first := true
		for _, i := range idx {
			if p.items[i].kind != kind {
				continue
			}
			if !first {
				b.WriteString(", ")
			} else if sep != "" {
				b.WriteString(sep)
			}
			first = false
			start := b.Len()
			b.WriteString(p.items[i].text)
			order = append(order, i)
			spans = append(spans, [2]int{start, b.Len()})
		}
		if first && kind == keyExpr {
			b.WriteString("1")
		}
	}
	write(keyExpr, "")
	write(keySort, " ORDER BY ")
	text, spans, err := normalizePlanText(b.String(), spans)
	if err == nil && len(text) <= pgparse.MaxLen {
		if sel := p.parse(text, keySort); sel != nil {
			p.walkSelect(sel, order, spans)
			return
		}
	}
	for _, i := range idx {
		p.one(i)
	}
}

// one checks one item in a statement of its own.
func (p *planCheck) one(i int) {
	it := p.items[i]
	text, _, err := normalizePlanText(it.text, nil)
	if err != nil {
		p.unchecked(it, err.Error())
		return
	}
	prefix := "SELECT "
	switch it.kind {
	case keySort:
		prefix = "SELECT 1 ORDER BY "
	case keyFrom:
		prefix = "SELECT * FROM "
	}
	text = prefix + text
	if len(text) > pgparse.MaxLen {
		p.unchecked(it, fmt.Sprintf("%d bytes, at most %d", len(text), pgparse.MaxLen))
		return
	}
	sel := p.parse(text, it.kind)
	if sel == nil {
		p.unchecked(it, "not an expression")
		return
	}
	p.walkSelect(sel, []int{i}, [][2]int{{len(prefix), len(text)}})
}

func (p *planCheck) unchecked(it planItem, why string) {
	p.add(fmt.Sprintf("the server's plan could not be checked: %s %s could not be parsed (%s); the query is refused, simplify it",
		clip(it.text), it.where(), why))
}

func (p *planCheck) parse(text string, kind planKey) *pg.SelectStmt {
	if p.parsed != nil {
		p.parsed(text)
	}
	return planSelect(text, kind)
}

// planSelect parses text and returns its SELECT if it has the shape the
// plan's expressions were put in: a target list, and only sort clauses
// (kind keySort) or one FROM item (keyFrom) besides.
func planSelect(text string, kind planKey) *pg.SelectStmt {
	if strings.IndexByte(text, 0) >= 0 || !utf8.ValidString(text) {
		return nil
	}
	tree, err := pgparse.Parse(text)
	if err != nil || len(tree.Stmts) != 1 || tree.Stmts[0].Stmt == nil {
		return nil
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil || sel.Op != pg.SetOperation_SETOP_NONE || len(sel.TargetList) == 0 {
		return nil
	}
	ok := true
	sel.ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		switch fd.Name() {
		case "target_list", "limit_option", "op":
		case "sort_clause":
			ok = kind == keySort
		case "from_clause":
			ok = kind == keyFrom && len(sel.FromClause) == 1
		default:
			ok = false
		}
		return ok
	})
	if !ok {
		return nil
	}
	return sel
}

// walkSelect checks every expression of sel with the plan-mode walk and
// reports each violation with the plan expression it is in (spans: the
// byte ranges of the items order lists, in text order).
func (p *planCheck) walkSelect(sel *pg.SelectStmt, order []int, spans [][2]int) {
	nodes := slices.Concat(sel.TargetList, sel.SortClause, sel.FromClause)
	for _, n := range nodes {
		it := (*planItem)(nil)
		loc := nodeLocation(n)
		if k, found := slices.BinarySearchFunc(spans, loc, func(s [2]int, l int) int {
			switch {
			case s[1] <= l:
				return -1
			case s[0] > l:
				return 1
			}
			return 0
		}); found {
			it = &p.items[order[k]]
		}
		before := len(p.c.issues)
		p.c.loc = loc
		p.c.planExpr(n)
		for _, is := range p.c.issues[before:] {
			if is.Severity != SeverityError || planIgnored[is.Code] {
				continue
			}
			what := "an expression"
			if it != nil {
				what = clip(it.text) + " " + it.where()
			}
			p.add(fmt.Sprintf("the server's plan computes %s: %s %s", what, is.Code, is.Message))
		}
	}
}

// planIgnored are the resource guards: heuristics on the shape of the
// query as written (constant bounds and lengths, recursion and join
// guards), which the static check applies; the plan shows the same calls
// with bounds folded or passed as parameters.
var planIgnored = setOf(CodeRecursion, CodeSeries, CodeStringBomb, CodeCrossJoin)

func (it planItem) where() string {
	if it.obj != nil && it.obj.nodeType != "" {
		return fmt.Sprintf("(%s of a %s node)", it.key, it.obj.nodeType)
	}
	return fmt.Sprintf("(%s)", it.key)
}

func clip(s string) string {
	const max = 160
	if len(s) > max {
		cut := max
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// normalizePlanText turns the deparser's plan-only notations into SQL, on
// the token stream so that string literals are never touched:
//
//   - "SubPlan 2", "hashed SubPlan 2" and "InitPlan 1" (references to a
//     subplan's result, which is checked as a plan node of its own) become
//     NULL; "(alternatives: SubPlan 1 or hashed SubPlan 2)" becomes
//     "(NULL or NULL)";
//   - "OVER (?)" (a window the plan does not print) becomes "OVER ()";
//   - "PARTIAL" before a partial aggregate is dropped.
//
// spans are byte ranges in text (the items of a combined statement); no
// token may cross their bounds, and the ranges are returned mapped to the
// new text. Comments and anything outside tokens but white space are
// refused: the deparser writes neither.
func normalizePlanText(text string, spans [][2]int) (string, [][2]int, error) {
	res, err := pg.Scan(text)
	if err != nil {
		return "", nil, err
	}
	toks := res.Tokens
	raw := func(i int) string {
		if i < 0 || i >= len(toks) {
			return ""
		}
		return text[toks[i].Start:toks[i].End]
	}
	type edit struct {
		start, end int
		repl       string
	}
	var edits []edit
	prev, s := 0, 0
	for i, tk := range toks {
		start, end := int(tk.Start), int(tk.End)
		if start < prev || end > len(text) || end < start {
			return "", nil, errors.New("the scanner's token positions are out of order")
		}
		if strings.TrimLeft(text[prev:start], " \t\n\r\f\v") != "" {
			return "", nil, errors.New("text outside tokens")
		}
		prev = end
		for s < len(spans) && spans[s][1] <= start {
			s++
		}
		if s < len(spans) && start < spans[s][0] && end > spans[s][0] || s < len(spans) && start < spans[s][1] && end > spans[s][1] {
			return "", nil, errors.New("a token crosses expressions")
		}
		switch tk.Token {
		case pg.Token_C_COMMENT, pg.Token_SQL_COMMENT:
			return "", nil, errors.New("a comment")
		}
		switch r := raw(i); {
		case (r == "SubPlan" || r == "InitPlan") && tk.Token == pg.Token_IDENT && i+1 < len(toks) && toks[i+1].Token == pg.Token_ICONST:
			from := start
			if raw(i-1) == "hashed" && toks[i-1].Token == pg.Token_IDENT {
				from = int(toks[i-1].Start)
			}
			edits = append(edits, edit{from, int(toks[i+1].End), "NULL"})
		case r == "alternatives" && tk.Token == pg.Token_IDENT && raw(i+1) == ":" && (raw(i+2) == "SubPlan" || raw(i+2) == "hashed"):
			edits = append(edits, edit{start, int(toks[i+1].End), ""})
		case r == "?" && raw(i-1) == "(" && raw(i-2) == "OVER" && raw(i+1) == ")":
			edits = append(edits, edit{start, end, ""})
		case r == "PARTIAL" && tk.Token == pg.Token_PARTIAL:
			edits = append(edits, edit{start, end, ""})
		}
	}
	if strings.TrimLeft(text[prev:], " \t\n\r\f\v") != "" {
		return "", nil, errors.New("text outside tokens")
	}
	if len(edits) == 0 {
		return text, spans, nil
	}
	var b strings.Builder
	b.Grow(len(text))
	at := 0
	for _, e := range edits {
		b.WriteString(text[at:e.start])
		b.WriteString(e.repl)
		at = e.end
	}
	b.WriteString(text[at:])
	moved := make([][2]int, len(spans))
	for k, sp := range spans {
		for j, off := range sp {
			delta := 0
			for _, e := range edits {
				if e.end <= off {
					delta += len(e.repl) - (e.end - e.start)
				}
			}
			moved[k][j] = off + delta
		}
	}
	return b.String(), moved, nil
}
