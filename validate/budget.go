package validate

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// PlanBudget bounds the planner's estimates in a query's plan (CheckPlan,
// code V027): a backstop for the work the static guards do not see, such
// as a hash join on a key every row shares (which cannot split its hash
// table into batches, so work_mem does not bound it), a hashed NOT IN
// (subquery) or a hashed INTERSECT / EXCEPT (which never spill), or a join
// whose output runs to billions of rows.
//
// The figures are estimates: the planner's Plan Rows, Plan Width and Total
// Cost. Rows of nodes under a Gather count once per process (workers
// planned plus the leader).
type PlanBudget struct {
	// Rows bounds the rows any one plan node is estimated to produce.
	Rows float64
	// Bytes bounds any one node's estimated rows × width.
	Bytes float64
	// HashBytes bounds the estimated size of any one hash table, counted
	// as if every row were kept: rows × (width + 40 bytes of per-entry
	// overhead) of a Hash node (a hash join's inner side), of the input of
	// a hashed SetOp (INTERSECT, EXCEPT), of a hashed SubPlan (x [NOT] IN
	// (subquery)), of the groups of a hashed Aggregate and of a Recursive
	// Union. A hashed SetOp or SubPlan never spills and is chosen on the
	// planner's guess that it fits in memory, and a hash join on an
	// expression or a system column may put every row under one key,
	// whose bucket never splits: their figure is at least what the scans
	// under them read, cost × 8 kB (the cost counts at least one unit per
	// page read, with the default seq_page_cost of 1), which holds even
	// where the row estimate is too low. It bounds the input of an
	// Aggregate's accumulating aggregates too (string_agg, array_agg,
	// json_agg, ...: each keeps every value it is given, in a buffer that
	// doubles, and no setting bounds it): the rows under it × their width
	// × 2, once per such aggregate in its output.
	HashBytes float64
	// Cost bounds the plan's total cost, in the planner's units
	// (seq_page_cost = 1).
	Cost float64
}

// The default plan budget, far above what every gold query of the demo
// ERP, defog and spider-pools needs (docs/benchmarks.md has their largest
// figures), so that it refuses work no question about a real database
// asks for.
const (
	// DefaultPlanRows: a billion rows out of one node.
	DefaultPlanRows = 1e9
	// DefaultPlanBytes: 16 GiB of rows out of one node.
	DefaultPlanBytes = 16 << 30
	// DefaultPlanHashBytes: 256 MiB in one hash table, four times the
	// hash memory (work_mem × hash_mem_multiplier) the executor runs
	// with by default; a hash on a shared key holds all of it at once.
	DefaultPlanHashBytes = 256 << 20
	// DefaultPlanCost: the cost of reading about 5 billion rows.
	DefaultPlanCost = 1e8
)

// DefaultPlanBudget returns the default budget.
func DefaultPlanBudget() PlanBudget {
	return PlanBudget{Rows: DefaultPlanRows, Bytes: DefaultPlanBytes, HashBytes: DefaultPlanHashBytes, Cost: DefaultPlanCost}
}

// WithPlanBudget sets the plan budget CheckPlan (and so Explain and the
// executor) applies (default DefaultPlanBudget). A field of zero keeps its
// default; a negative one removes that bound.
func WithPlanBudget(b PlanBudget) Option {
	return optionFunc(func(c *config) {
		for _, f := range []struct{ to, from *float64 }{
			{&c.budget.Rows, &b.Rows}, {&c.budget.Bytes, &b.Bytes}, {&c.budget.HashBytes, &b.HashBytes}, {&c.budget.Cost, &b.Cost},
		} {
			switch {
			case *f.from < 0 || math.IsNaN(*f.from):
				*f.to = math.Inf(1)
			case *f.from > 0:
				*f.to = *f.from
			}
		}
	})
}

// hashEntryOverhead is what a hash table adds to each row it keeps: the
// tuple header and the bucket pointer (PostgreSQL's own estimate for a hash
// join counts about this much).
const hashEntryOverhead = 40

// pageBytes is the page the planner's cost units count (seq_page_cost = 1
// per 8 kB page read).
const pageBytes = 8192

// PlanFigures returns the largest figures of a plan (the raw JSON of
// EXPLAIN (VERBOSE, FORMAT JSON)) in a budget's terms: what a budget must
// allow for CheckPlan to accept it.
func PlanFigures(plan []byte) (PlanBudget, error) {
	// Read as the default validator would; only the figures are kept.
	v := &Validator{cfg: defaultConfig()}
	p := &planCheck{v: v, c: v.newChecker(), seen: map[string]bool{}}
	if err := p.read(plan); err != nil {
		return PlanBudget{}, err
	}
	return p.largest(p.figures(plan)), nil
}

// largest is the largest of the figures of the plan's nodes, and the
// plan's total cost, in a budget's terms.
func (p *planCheck) largest(figs []nodeFigures) PlanBudget {
	var f PlanBudget
	for _, n := range figs {
		f.Rows = max(f.Rows, n.rows)
		f.Bytes = max(f.Bytes, n.bytes)
		f.HashBytes = max(f.HashBytes, n.hash, n.agg)
	}
	if len(p.nodes) > 0 {
		f.Cost = p.nodes[0].cost
	}
	return f
}

// nodeFigures are one plan node's figures.
type nodeFigures struct {
	node              *planObj
	rows, bytes, hash float64
	hashRows, hashW   float64 // the rows and width the hash figure counts
	// agg is what an Aggregate's accumulating aggregates hold: aggs
	// of them, each over aggRows rows of (at most) aggW bytes.
	agg, aggRows, aggW float64
	aggs               int
}

// accumulatingCall finds calls of accumulating aggregates in a plan
// expression. A string constant spelling one only makes the check
// stricter.
var accumulatingCall = regexp.MustCompile(`\b([a-z_]+)\(`)

// accumulatingAggs counts the accumulating aggregates an Aggregate node
// computes (in its Output).
func accumulatingAggs(n *planObj) int {
	count := 0
	for _, out := range n.outputs {
		for _, m := range accumulatingCall.FindAllStringSubmatch(out, -1) {
			if accumulating[m[1]] {
				count++
			}
		}
	}
	return count
}

// hashedSubPlan finds the subplans the plan probes through a hash table
// ("hashed SubPlan 2" in an expression). A string constant spelling the
// same only makes the check stricter.
var hashedSubPlan = regexp.MustCompile(`hashed (SubPlan [0-9]+)`)

// figures computes every node's figures, in document order.
func (p *planCheck) figures(plan []byte) []nodeFigures {
	hashed := map[string]bool{}
	for _, m := range hashedSubPlan.FindAllSubmatch(plan, -1) {
		hashed[string(m[1])] = true
	}
	procs := map[*planObj]float64{} // how many processes run each node
	for _, n := range p.nodes {     // parents before their children
		k := max(procs[n], 1)
		procs[n] = k
		if n.nodeType == "Gather" || n.nodeType == "Gather Merge" {
			k = max(k, n.workers+1) // a Gather's own figures are its output's
		}
		for _, c := range n.children {
			procs[c] = k
		}
	}
	out := make([]nodeFigures, 0, len(p.nodes))
	for _, n := range p.nodes {
		k := procs[n]
		f := nodeFigures{node: n, rows: n.rows * k}
		f.bytes = f.rows * n.width
		var in *planObj // the input of a hash table that cannot spill
		switch {
		case n.nodeType == "Hash" && n.parent != nil && !plainHashCond(n.parent.hashCond):
			// A key that is an expression or a system column: every
			// row may share it, and a bucket of one key never splits.
			in = n
		case n.nodeType == "Hash", n.nodeType == "Recursive Union",
			n.nodeType == "Aggregate" && (n.strategy == "Hashed" || n.strategy == "Mixed"):
			f.hashRows, f.hashW = f.rows, n.width
		case n.subplan != "" && hashed[n.subplan]:
			in = n
		case n.nodeType == "SetOp" && n.strategy == "Hashed" && len(n.children) > 0:
			// The table keeps the groups of the first input (the first
			// branch of the Append under it).
			in = n.children[0]
			if in.nodeType == "Append" && len(in.children) > 0 {
				in = in.children[0]
			}
		}
		if in != nil {
			f.hashRows, f.hashW = in.rows*procs[in], in.width
		}
		if f.hashRows > 0 {
			f.hash = f.hashRows * (f.hashW + hashEntryOverhead)
		}
		if n.nodeType == "Aggregate" && len(n.children) > 0 {
			// Every accumulating aggregate keeps all of its input, in
			// memory, whatever work_mem says: counted over the whole
			// input, since the planner's group estimates may be off.
			if f.aggs = accumulatingAggs(n); f.aggs > 0 {
				c := n.children[0]
				f.aggRows, f.aggW = c.rows*procs[c], c.width
				f.agg = f.aggRows * f.aggW * 2 * float64(f.aggs)
			}
		}
		if in != nil {
			// The planner's guesses (a third per inequality it has no
			// statistics for, 200 groups, 200 distinct keys) may hide
			// the real size of a table that cannot spill: it is at
			// least what the scans under it read, cost × 8 kB each
			// (the cost counts at least one unit per page read).
			f.hash = max(f.hash, scanBytes(in, procs))
		}
		out = append(out, f)
	}
	return out
}

// plainHashCond reports a hash join condition on plain columns ((a.x =
// b.y), AND-ed), none of them a system column.
func plainHashCond(cond string) bool {
	if cond == "" || systemColumn.MatchString(cond) {
		return false
	}
	for _, part := range strings.Split(cond, " AND ") {
		l, r, ok := strings.Cut(strings.Trim(part, "()"), " = ")
		if !ok || !plainColumn.MatchString(l) || !plainColumn.MatchString(r) {
			return false
		}
	}
	return true
}

var (
	plainColumn  = regexp.MustCompile(`^[a-z_][a-z0-9_$]*\.[a-z_][a-z0-9_$]*$`)
	systemColumn = regexp.MustCompile(`\.(cmin|cmax|xmin|xmax|ctid|tableoid)\b`)
)

// scanBytes bounds what the relation scans under n read: their cost ×
// 8 kB, per process.
func scanBytes(n *planObj, procs map[*planObj]float64) float64 {
	total := 0.0
	if scanNodes[n.nodeType] {
		total += n.cost * max(procs[n], 1) * pageBytes
	}
	for _, c := range n.children {
		total += scanBytes(c, procs)
	}
	return total
}

var scanNodes = setOf("Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan", "Sample Scan", "Tid Scan", "Tid Range Scan")

// checkBudget refuses a plan whose estimates exceed the budget: for each
// figure, the first node with the largest excess is named.
func (p *planCheck) checkBudget(figs []nodeFigures) {
	b := p.v.cfg.budget
	const narrow = "narrow the query: filter the rows (WHERE) before joining or comparing them, join on keys that tell rows apart, " +
		"or aggregate first"
	if len(p.nodes) > 0 && p.nodes[0].cost > b.Cost {
		p.addCode(CodeBudget, fmt.Sprintf("the server's plan (%s at its top) is estimated to cost %s, over the plan budget of %s; %s",
			p.nodes[0].name(), num(p.nodes[0].cost), num(b.Cost), narrow))
	}
	var rows, bytes, hash, agg *nodeFigures
	for i := range figs {
		f := &figs[i]
		if f.rows > b.Rows && (rows == nil || f.rows > rows.rows) {
			rows = f
		}
		if f.bytes > b.Bytes && (bytes == nil || f.bytes > bytes.bytes) {
			bytes = f
		}
		if f.hash > b.HashBytes && (hash == nil || f.hash > hash.hash) {
			hash = f
		}
		if f.agg > b.HashBytes && (agg == nil || f.agg > agg.agg) {
			agg = f
		}
	}
	if rows != nil {
		p.addCode(CodeBudget, fmt.Sprintf("the server's plan estimates that %s produces %s rows, over the plan budget of %s rows; %s",
			rows.node.name(), num(rows.rows), num(b.Rows), narrow))
	}
	if bytes != nil {
		p.addCode(CodeBudget, fmt.Sprintf("the server's plan estimates that %s produces %s rows of %s bytes (%s), over the plan budget of %s; %s",
			bytes.node.name(), num(bytes.rows), num(bytes.node.width), size(bytes.bytes), size(b.Bytes), narrow))
	}
	if hash != nil {
		p.addCode(CodeBudget, fmt.Sprintf("the server's plan estimates that %s holds a hash table of up to %s rows of %s bytes (%s), "+
			"over the plan budget of %s for one hash table; a hash on a key many rows share, a hashed IN / NOT IN (subquery) "+
			"or INTERSECT / EXCEPT keeps all of it in memory (NOT EXISTS and a join do not); %s",
			hash.node.name(), num(hash.hashRows), num(hash.hashW), size(hash.hash), size(b.HashBytes), narrow))
	}
	if agg != nil {
		p.addCode(CodeBudget, fmt.Sprintf("the server's plan estimates that %s collects %s rows of %s bytes into %d accumulating "+
			"aggregates (string_agg, array_agg, json_agg, ...), up to %s held in memory that no setting bounds, over the plan budget "+
			"of %s for one in-memory table; aggregate fewer rows or fewer columns into lists, or count and sum instead",
			agg.node.name(), num(agg.aggRows), num(agg.aggW), agg.aggs, size(agg.agg), size(b.HashBytes)))
	}
}

// name names a plan node for a message: its type, and the relation or
// subplan it reads.
func (o *planObj) name() string {
	s := "a " + o.nodeType
	if o.strategy != "" && o.nodeType != "Hash" {
		s = "a " + o.strategy + " " + o.nodeType
	}
	switch {
	case o.relation != "":
		s += " on " + o.relation
		if o.alias != "" && o.alias != o.relation {
			s += " " + o.alias
		}
	case o.subplan != "":
		s += " (" + o.subplan + ")"
	case len(o.children) == 1 && o.children[0].relation != "":
		s += " of " + o.children[0].relation
	}
	return s + " node"
}

// number reads a plan estimate into field.
func number(field *float64, key, tok string) error {
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil || f < 0 {
		return fmt.Errorf("plan property %q is not a count: %s", key, clip(tok))
	}
	*field = f
	return nil
}

// num writes a figure briefly and the same on every call.
func num(f float64) string {
	if math.IsInf(f, 1) {
		return "unlimited"
	}
	if f < 1e6 {
		return strconv.FormatFloat(math.Round(f), 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', 3, 64)
}

// size writes a byte count in binary units.
func size(f float64) string {
	if math.IsInf(f, 1) {
		return "unlimited"
	}
	for _, u := range []struct {
		unit string
		n    float64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if f >= u.n {
			return strconv.FormatFloat(f/u.n, 'f', 1, 64) + " " + u.unit
		}
	}
	return num(f) + " bytes"
}

// String writes the budget (or a plan's figures) in one line.
func (b PlanBudget) String() string {
	return fmt.Sprintf("rows %s, bytes %s, hash table %s, cost %s", num(b.Rows), size(b.Bytes), size(b.HashBytes), num(b.Cost))
}
