package semantic

import (
	"fmt"
	"sort"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// Definition is a measure, filter or metric rendered as SQL to reuse: an
// expression over the unqualified columns of its tables, and a query that
// computes it over the whole table (the one Check validates).
type Definition struct {
	Name string
	Kind string // "measure", "filter" or "metric"
	// Expr is an aggregate (measure, metric) or a boolean condition (filter).
	Expr string
	// Tables are the relations Expr reads, qualified and quoted once
	// Check has resolved them.
	Tables []string
	// Query computes the definition over its tables: SELECT Expr FROM t,
	// SELECT count(*) FROM t WHERE Expr, and for a metric over several
	// tables each measure as a scalar subquery.
	Query       string
	Description string
}

// maxMetricDepth bounds metrics built from metrics (and stops cycles).
const maxMetricDepth = 8

// Definition renders the measure, named filter or metric called name.
func (m *Model) Definition(name string) (Definition, error) {
	if ms := m.measure(name); ms != nil {
		e := ms.aggregate()
		from := ms.entity.from()
		return Definition{Name: name, Kind: "measure", Expr: e, Tables: []string{from}, Query: "SELECT " + e + " FROM " + from, Description: ms.Description}, nil
	}
	if f := m.filter(name); f != nil {
		from := f.entity.from()
		return Definition{Name: name, Kind: "filter", Expr: f.Expr, Tables: []string{from}, Query: "SELECT count(*) FROM " + from + " WHERE " + f.Expr, Description: f.Description}, nil
	}
	if mt := m.metric(name); mt != nil {
		expr, tables, err := m.metricExpr(mt, 0, false)
		if err != nil {
			return Definition{}, err
		}
		d := Definition{Name: name, Kind: "metric", Expr: expr, Tables: tables, Description: mt.Description}
		if len(tables) == 1 {
			d.Query = "SELECT " + expr + " FROM " + tables[0]
		} else {
			sub, _, err := m.metricExpr(mt, 0, true)
			if err != nil {
				return Definition{}, err
			}
			d.Query = "SELECT " + sub
		}
		return d, nil
	}
	return Definition{}, &Error{File: m.File, Where: name, Msg: "no measure, filter or metric has this name", Err: ErrUnknownName}
}

// Definitions renders every measure, filter and metric, in file order.
func (m *Model) Definitions() ([]Definition, error) {
	var out []Definition
	for _, name := range m.names() {
		d, err := m.Definition(name)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

func (m *Model) names() []string {
	var out []string
	for _, e := range m.Entities {
		for _, ms := range e.Measures {
			out = append(out, ms.Name)
		}
		for _, f := range e.Filters {
			out = append(out, f.Name)
		}
	}
	for _, mt := range m.Metrics {
		out = append(out, mt.Name)
	}
	return out
}

func (m *Model) measure(name string) *Measure {
	for _, e := range m.Entities {
		for _, ms := range e.Measures {
			if ms.Name == name {
				return ms
			}
		}
	}
	return nil
}

func (m *Model) filter(name string) *Filter {
	for _, e := range m.Entities {
		for _, f := range e.Filters {
			if f.Name == name {
				return f
			}
		}
	}
	return nil
}

func (m *Model) metric(name string) *Metric {
	for _, mt := range m.Metrics {
		if mt.Name == name {
			return mt
		}
	}
	return nil
}

// from is the entity's relation: quoted and qualified once resolved.
func (e *Entity) from() string {
	if e.table != nil {
		return e.table.QuoteQualified()
	}
	if e.Table != "" {
		return e.Table
	}
	return e.Name
}

// condition is the measure's filter as SQL: a named filter of its entity
// by name, or the expression itself.
func (ms *Measure) condition() string {
	for _, f := range ms.entity.Filters {
		if f.Name == strings.TrimSpace(ms.Filter) {
			return f.Expr
		}
	}
	return ms.Filter
}

// aggregate renders the measure: agg(expr) FILTER (WHERE filter).
func (ms *Measure) aggregate() string {
	x := ms.Expr
	if x == "" && ms.Agg != AggCount {
		x = ms.Name
	}
	var s string
	switch ms.Agg {
	case AggCount:
		if x == "" {
			x = "*"
		}
		s = "count(" + x + ")"
	case AggCountDistinct:
		s = "count(DISTINCT " + x + ")"
	case AggMedian:
		s = "percentile_cont(0.5) WITHIN GROUP (ORDER BY " + x + ")"
	default:
		s = string(ms.Agg) + "(" + x + ")"
	}
	if c := ms.condition(); strings.TrimSpace(c) != "" {
		s += " FILTER (WHERE " + c + ")"
	}
	return s
}

// metricExpr renders a metric with every measure it names replaced by its
// aggregate (or, scalar, by a subquery over the measure's table) and every
// metric by its own rendering, in parentheses.
func (m *Model) metricExpr(mt *Metric, depth int, scalar bool) (string, []string, error) {
	if depth > maxMetricDepth {
		return "", nil, &Error{File: m.File, Line: mt.Line, Where: "metric " + mt.Name, Msg: fmt.Sprintf("metrics nest deeper than %d (a cycle?)", maxMetricDepth), Err: ErrInvalid}
	}
	expr := mt.Expr
	if mt.Type == MetricRatio {
		expr = mt.Numerator + " / NULLIF(" + mt.Denominator + ", 0)"
	}
	toks, err := pg.Scan(expr)
	if err != nil {
		return "", nil, &Error{File: m.File, Line: mt.Line, Where: "metric " + mt.Name, Msg: err.Error(), Err: ErrInvalid}
	}
	tables := map[string]bool{}
	var b strings.Builder
	last := 0
	for i, t := range toks.Tokens {
		if t.Token != pg.Token_IDENT && t.KeywordKind != pg.KeywordKind_UNRESERVED_KEYWORD {
			continue
		}
		word := expr[t.Start:t.End]
		if i+1 < len(toks.Tokens) && toks.Tokens[i+1].Token == pg.Token_ASCII_40 {
			continue // a function call: the validator judges it
		}
		var sub string
		if ms := m.measure(word); ms != nil {
			sub = ms.aggregate()
			if scalar {
				sub = "(SELECT " + sub + " FROM " + ms.entity.from() + ")"
			}
			tables[ms.entity.from()] = true
		} else if inner := m.metric(word); inner != nil && inner != mt {
			s, ts, err := m.metricExpr(inner, depth+1, scalar)
			if err != nil {
				return "", nil, err
			}
			sub = "(" + s + ")"
			for _, x := range ts {
				tables[x] = true
			}
		} else if t.Token == pg.Token_IDENT {
			return "", nil, &Error{File: m.File, Line: mt.Line, Where: "metric " + mt.Name, Msg: fmt.Sprintf("%q names no measure or metric", word), Err: ErrUnknownName}
		} else {
			continue
		}
		b.WriteString(expr[last:t.Start])
		b.WriteString(sub)
		last = int(t.End)
	}
	b.WriteString(expr[last:])
	out := make([]string, 0, len(tables))
	for t := range tables {
		out = append(out, t)
	}
	sort.Strings(out)
	return b.String(), out, nil
}
