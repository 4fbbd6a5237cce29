package validate

import (
	"fmt"
	"maps"
	"math"
	"slices"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// Sizes through columns. The string guard (strings.go) counts a value read
// from the data as one character. A column that the query computes itself
// (the output of a CTE, a subquery in FROM, a function in FROM, a scalar or
// ARRAY subquery) is no data: it is as long as the expression that computes
// it, so that a value built within the limit in a CTE and built on again
// outside it (repeat(s, 1000) over WITH a AS (SELECT repeat('x', 100000) AS
// s)) is bounded like the nested call it amounts to. The sizes are learnt
// per output column name, over the whole query (a name computed in two
// places takes the larger size): conservative, never smaller than the
// truth the guard computes.

// passThrough are the aggregate and window functions whose result is one
// of their inputs.
var passThrough = setOf("min", "max", "any_value", "mode", "percentile_disc", "first_value", "last_value",
	"nth_value", "lag", "lead")

// sizeCap bounds learnt sizes (they only need to compare with the limit).
const sizeCap = 1e15

// aggUnit is the size of one aggregated value (string_agg, array_agg,
// json_agg, ARRAY(subquery), ... of any rows): as long as the rows it
// collects, which the query does not bound. A size is aggs*aggUnit + chars:
// one aggregated value may flow on (through a scalar subquery, a CTE or
// subquery column, a window, into lpad or a concatenation with a few
// characters), but two in one value (repeat(agg, 2), agg || agg, an
// aggregate of aggregates) are refused: every large aggregate of a value
// counts together. Larger than any character limit (WithMaxGenerated).
const aggUnit = 1e12

// splitSize splits a size into aggregated values and characters.
func splitSize(n float64) (aggs, chars float64) {
	aggs = math.Floor(n / aggUnit)
	return aggs, n - aggs*aggUnit
}

// oversize reports whether a value of size n is beyond the limit: more
// than one aggregated value, or more characters than limit.
func oversize(n, limit float64) bool {
	aggs, chars := splitSize(n)
	return aggs > 1 || chars > limit
}

// selfSize is the size a recursive CTE's own columns are given in its
// recursive term, to tell a step that adds to a value (s || 'x': selfSize
// plus a little) from one that multiplies it (s || s: twice selfSize).
const selfSize = 1e9

// sizer computes the characters an expression yields (see nodeSize).
type sizer struct {
	cols map[string]float64 // column name -> size of what the query computes under it
	rels map[string]float64 // CTE, subquery or function name -> size of its whole row
	// self, while a recursive term is judged: the names that refer to
	// the CTE's own rows (its name and aliases) and its columns.
	selfRefs, selfCols map[string]bool
	// operands counts, for the operators that do not check for
	// interrupts (operands.go), what a value can hold: a collected value
	// (an accumulating aggregate, ARRAY(subquery)) and a power or
	// factorial without a small constant exponent are unbounded.
	operands bool
}

// columnSize is the size of a column reference: what the query computes
// under that name, or 1 for data.
func (z *sizer) columnSize(cr *pg.ColumnRef) float64 {
	if z == nil {
		return 1
	}
	f := fieldNames(cr)
	if len(f) == 0 {
		return 1
	}
	name := f[len(f)-1]
	if z.selfCols != nil {
		switch {
		case len(f) == 1 && (z.selfCols[name] || z.selfRefs[name]):
			return selfSize
		case len(f) >= 2 && z.selfRefs[f[len(f)-2]] && (z.selfCols[name] || name == "*"):
			return selfSize
		}
	}
	size := 1.0
	switch {
	case name == "*" && len(f) >= 2:
		size = z.rels[f[len(f)-2]] // t.*: the whole row of t
	case len(f) == 1:
		size = math.Max(z.cols[name], z.rels[name]) // a column or a whole row
	default:
		size = z.cols[name]
	}
	return math.Max(size, 1)
}

// querySize is the largest value a query yields in one column.
func (z *sizer) querySize(s *pg.SelectStmt) float64 {
	m := 1.0
	for _, c := range z.outputSizes(s) {
		m = math.Max(m, c)
	}
	return m
}

// outputSizes gives the size of each output column of a query (the
// largest over the arms of a set operation and the rows of VALUES).
func (z *sizer) outputSizes(s *pg.SelectStmt) []float64 {
	if s == nil {
		return nil
	}
	if s.Op != pg.SetOperation_SETOP_NONE {
		return maxEach(z.outputSizes(s.Larg), z.outputSizes(s.Rarg))
	}
	var out []float64
	for _, row := range s.ValuesLists {
		var sizes []float64
		for _, item := range row.GetList().GetItems() {
			n, _ := z.nodeSize(item)
			sizes = append(sizes, n)
		}
		out = maxEach(out, sizes)
	}
	for _, t := range s.TargetList {
		rt := t.GetResTarget()
		if rt == nil {
			continue
		}
		n, _ := z.nodeSize(rt.Val)
		out = append(out, math.Min(n, sizeCap))
	}
	return out
}

func maxEach(a, b []float64) []float64 {
	out := append([]float64(nil), a...)
	for i, v := range b {
		if i < len(out) {
			out[i] = math.Max(out[i], v)
		} else {
			out = append(out, v)
		}
	}
	return out
}

// learn computes the sizes of the columns the query computes, until they
// no longer grow (a CTE may read one defined after it in the text of a
// WITH RECURSIVE; a column that grows at each round, the output of a
// recursive term, stops after a few rounds and is judged by selfGrowth).
func (z *sizer) learn(root *pg.SelectStmt) {
	for round := 0; round < 8; round++ {
		changed := false
		grow := func(m map[string]float64, name string, size float64) {
			if name != "" && size > 1 && size > m[name] {
				m[name] = math.Min(size, sizeCap)
				changed = true
			}
		}
		set := func(name string, size float64) { grow(z.cols, name, size) }
		setAll := func(rel string, names []string, sizes []float64) {
			total := 0.0
			for i, sz := range sizes {
				total += sz
				if i < len(names) {
					set(names[i], sz)
				}
			}
			grow(z.rels, rel, total)
		}
		visit(root, func(m proto.Message) bool {
			switch x := m.(type) {
			case *pg.CommonTableExpr:
				body := x.Ctequery.GetSelectStmt()
				names, _ := outputNames(body)
				setAll(x.Ctename, renameCols(names, x.Aliascolnames), z.starSizes(body, z.outputSizes(body)))
			case *pg.RangeSubselect:
				body := x.Subquery.GetSelectStmt()
				names, _ := outputNames(body)
				rel := ""
				if x.Alias != nil {
					rel = x.Alias.Aliasname
					names = renameCols(names, x.Alias.Colnames)
				}
				setAll(rel, names, z.starSizes(body, z.outputSizes(body)))
			case *pg.RangeFunction:
				// json_array_elements(s), unnest(a): the rows hold parts
				// of the arguments.
				size := 1.0
				var names []string
				for _, f := range x.Functions {
					items := f.GetList().GetItems()
					if len(items) == 0 {
						continue
					}
					n, _ := z.nodeSize(items[0])
					size = math.Max(size, n)
					if fc := items[0].GetFuncCall(); fc != nil {
						names = append(names, funcName(fc))
						out, _ := setReturningColumns(funcName(fc), -1)
						names = append(names, out...)
					}
					if len(items) > 1 {
						for _, d := range items[1].GetList().GetItems() {
							names = append(names, d.GetColumnDef().GetColname())
						}
					}
				}
				for _, d := range x.Coldeflist {
					names = append(names, d.GetColumnDef().GetColname())
				}
				if x.Alias != nil {
					names = append(names, x.Alias.Aliasname)
					for _, c := range x.Alias.Colnames {
						names = append(names, c.GetString_().GetSval())
					}
				}
				for _, n := range names {
					set(n, size)
				}
			}
			return true
		})
		if !changed {
			return
		}
	}
}

// starSizes: a target list with * passes on columns whose names the
// output lists do not know; every column then gets the largest size
// learnt so far, so that a renaming (WITH b(t) AS (SELECT * FROM a)) does
// not lose what a's columns hold.
func (z *sizer) starSizes(s *pg.SelectStmt, sizes []float64) []float64 {
	if s == nil {
		return sizes
	}
	star := false
	visit(s, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg.SelectStmt:
			return x == s || (s.Op != pg.SetOperation_SETOP_NONE && (x == s.Larg || x == s.Rarg))
		case *pg.ResTarget:
			if cr := x.Val.GetColumnRef(); cr != nil && lastField(cr) == "*" {
				star = true
			}
			return false
		}
		return true
	})
	if !star {
		return sizes
	}
	m := 1.0
	for _, v := range z.cols {
		m = math.Max(m, v)
	}
	out := make([]float64, max(len(sizes), 8))
	for i := range out {
		out[i] = m
		if i < len(sizes) {
			out[i] = math.Max(out[i], sizes[i])
		}
	}
	return out
}

// checkSizes refuses what the query computes beyond the limit without a
// string-building call to blame (the calls themselves are judged as the
// walk meets them): a recursive term that multiplies a value at each step,
// a column of a CTE or subquery, an output column, and ARRAY(subquery)
// rows larger than an accumulating aggregate may collect.
func (c *checker) checkSizes(root *pg.SelectStmt) {
	z := c.sizes
	limit := float64(c.cfg.maxGenerated)
	reported := map[string]bool{}
	report := func(loc int, format string, args ...any) {
		if reported[format] {
			return
		}
		reported[format] = true
		c.add(CodeStringBomb, SeverityError, loc, format, args...)
	}
	// Every accumulating aggregate of the query holds its values at once:
	// what they collect per row counts together, a value of the data as
	// limit/1000 characters (100 by default), so that one query holds at
	// most ten copies of the data's column, fewer of built values.
	total := 0.0
	visit(root, func(m proto.Message) bool {
		if name, args, over, ok := accumulation(m); ok {
			loc := -1
			switch x := m.(type) {
			case *pg.FuncCall:
				loc = int(x.Location)
			case *pg.JsonArrayAgg:
				loc = int(x.GetConstructor().GetLocation())
			case *pg.JsonObjectAgg:
				loc = int(x.GetConstructor().GetLocation())
			}
			chars := c.checkAccumulation(name, args, over, func(format string, args ...any) { report(loc, format, args...) })
			total += math.Max(chars, limit/1000)
		}
		switch x := m.(type) {
		case *pg.WithClause:
			if x.Recursive {
				for _, n := range x.Ctes {
					if cte := n.GetCommonTableExpr(); cte != nil {
						if col := z.selfGrowth(cte); col != "" {
							report(int(cte.Location), "recursive CTE %s at least doubles column %s at each step (%s || %s, concat or repeat of it), an exponentially long value; build it from the data instead", cte.Ctename, col, col, col)
						}
					}
				}
			}
		case *pg.SubLink:
			if x.SubLinkType == pg.SubLinkType_ARRAY_SUBLINK {
				n := z.querySize(x.Subselect.GetSelectStmt())
				aggs, chars := splitSize(n)
				total += math.Max(chars, limit/1000)
				switch {
				case aggs > 0:
					report(int(x.Location), "ARRAY(subquery) would collect aggregated values, each as long as its rows; aggregate the data itself")
				case chars > limit/100:
					report(int(x.Location), "ARRAY(subquery) would collect built values of up to %.0f characters each, more than %d; aggregate the data itself", chars, c.cfg.maxGenerated/100)
				}
			}
		}
		return true
	})
	// The first column over the limit by name, not by map order: the
	// message must be the same on every call.
	for _, name := range slices.Sorted(maps.Keys(z.cols)) {
		if n := z.cols[name]; oversize(n, limit) {
			report(-1, "the query computes %s %s; build shorter values", name, describeSize(n, c.cfg.maxGenerated))
			break
		}
	}
	for _, n := range z.outputSizes(root) {
		if oversize(n, limit) {
			report(-1, "the query would return values %s; build shorter values", describeSize(n, c.cfg.maxGenerated))
			break
		}
	}
	if total > limit/100 {
		report(-1, "the query's accumulating aggregates (string_agg, array_agg, json_agg, ARRAY(subquery), ...) together collect up to %.0f characters per row, more than %d (each counts at least %d, a value of the data): use fewer of them or aggregate the data itself", total, c.cfg.maxGenerated/100, c.cfg.maxGenerated/1000)
	}
}

// describeSize says what makes a size too large.
func describeSize(n float64, limit int64) string {
	aggs, chars := splitSize(n)
	switch {
	case aggs >= sizeCap/aggUnit:
		return fmt.Sprintf("from %.0f or more aggregated values (string_agg, array_agg, ... each as long as its rows) in one value", sizeCap/aggUnit)
	case aggs > 1:
		return fmt.Sprintf("from %.0f aggregated values (string_agg, array_agg, ... each as long as its rows) in one value", aggs)
	}
	return fmt.Sprintf("with up to %.0f characters, more than the limit of %d", chars, limit)
}

// selfGrowth returns a column of a recursive CTE that its recursive term
// makes at least twice as long as the row it reads ("" if none).
func (z *sizer) selfGrowth(cte *pg.CommonTableExpr) string {
	body := cte.Ctequery.GetSelectStmt()
	if body == nil || body.Op == pg.SetOperation_SETOP_NONE {
		return ""
	}
	cols, _ := outputNames(body.Larg)
	cols = renameCols(cols, cte.Aliascolnames)
	for _, arm := range []*pg.SelectStmt{body.Larg, body.Rarg} {
		if arm == nil || !refersTo(arm, cte.Ctename) {
			continue
		}
		refs := map[string]bool{cte.Ctename: true}
		visit(arm, func(m proto.Message) bool {
			if rv, ok := m.(*pg.RangeVar); ok && rv.Schemaname == "" && rv.Relname == cte.Ctename && rv.Alias != nil {
				refs[rv.Alias.Aliasname] = true
			}
			return true
		})
		inner := &sizer{cols: z.cols, rels: z.rels, selfRefs: refs, selfCols: setOf(cols...)}
		for i, n := range inner.outputSizes(arm) {
			if _, chars := splitSize(n); chars < 1.5*selfSize {
				continue
			}
			if i < len(cols) {
				return cols[i]
			}
			return "?column?"
		}
	}
	return ""
}
