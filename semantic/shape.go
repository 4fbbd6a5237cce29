package semantic

import (
	"fmt"
	"regexp"
	"strings"
)

var identRE = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// shape checks what needs no database: required fields, name syntax,
// repeated names, enumerations, and the parameters of verified questions.
func (m *Model) shape(p *problems) {
	if m.Version != 0 && m.Version != 1 {
		p.add(1, "", ErrInvalid, "version %d is not supported (want 1)", m.Version)
	}
	names := map[string]string{} // measure, filter and metric names share one namespace
	claim := func(line int, kind, name string) {
		where := kind + " " + name
		if !identRE.MatchString(name) {
			p.add(line, where, ErrInvalid, "name must be a lower-case identifier ([a-z_][a-z0-9_]*)")
			return
		}
		if prev, ok := names[name]; ok {
			p.add(line, where, ErrInvalid, "name already used by %s", prev)
			return
		}
		names[name] = fmt.Sprintf("%s (line %d)", kind, line)
	}
	entities := map[string]bool{}
	for _, e := range m.Entities {
		where := "entity " + e.Name
		if e.Name == "" {
			p.add(e.Line, "entity", ErrInvalid, "name is required")
		} else if entities[e.Name] {
			p.add(e.Line, where, ErrInvalid, "entity declared twice")
		}
		entities[e.Name] = true
		dims := map[string]bool{}
		for _, d := range e.Dimensions {
			m.dimension(p, dims, d.Line, "dimension", d.Name)
		}
		for _, d := range e.TimeDimensions {
			m.dimension(p, dims, d.Line, "time dimension", d.Name)
			switch d.Grain {
			case "", GrainDay, GrainWeek, GrainMonth, GrainQuarter, GrainYear:
			default:
				p.add(d.Line, "time dimension "+d.Name, ErrInvalid, "grain %q is not day, week, month, quarter or year", d.Grain)
			}
		}
		for _, f := range e.Filters {
			f.entity = e
			claim(f.Line, "filter", f.Name)
			if strings.TrimSpace(f.Expr) == "" {
				p.add(f.Line, "filter "+f.Name, ErrInvalid, "expr is required")
			}
		}
		for _, ms := range e.Measures {
			ms.entity = e
			claim(ms.Line, "measure", ms.Name)
			switch ms.Agg {
			case AggSum, AggCount, AggCountDistinct, AggAvg, AggMin, AggMax, AggMedian:
			case "":
				p.add(ms.Line, "measure "+ms.Name, ErrInvalid, "agg is required (sum, count, count_distinct, avg, min, max, median)")
			default:
				p.add(ms.Line, "measure "+ms.Name, ErrInvalid, "agg %q is not sum, count, count_distinct, avg, min, max or median", ms.Agg)
			}
		}
	}
	for _, mt := range m.Metrics {
		claim(mt.Line, "metric", mt.Name)
		where := "metric " + mt.Name
		switch mt.Type {
		case MetricRatio:
			if mt.Numerator == "" || mt.Denominator == "" {
				p.add(mt.Line, where, ErrInvalid, "a ratio needs numerator and denominator")
			}
		case MetricDerived:
			if strings.TrimSpace(mt.Expr) == "" {
				p.add(mt.Line, where, ErrInvalid, "a derived metric needs expr")
			}
		default:
			p.add(mt.Line, where, ErrInvalid, "type %q is not ratio or derived", mt.Type)
		}
	}
	for i, r := range m.Relationships {
		where := fmt.Sprintf("relationship %d", i+1)
		if r.Name != "" {
			where = "relationship " + r.Name
		}
		if r.From == "" || r.To == "" || len(r.FromColumns) == 0 || len(r.FromColumns) != len(r.ToColumns) {
			p.add(r.Line, where, ErrInvalid, "from, to and as many from_columns as to_columns are required")
		}
		switch r.Kind {
		case "", "many_to_one", "one_to_one", "one_to_many":
		default:
			p.add(r.Line, where, ErrInvalid, "kind %q is not many_to_one, one_to_one or one_to_many", r.Kind)
		}
	}
	for i, q := range m.VerifiedQuestions {
		q.shape(p, fmt.Sprintf("verified question %d", i+1))
	}
}

func (m *Model) dimension(p *problems, seen map[string]bool, line int, kind, name string) {
	where := kind + " " + name
	switch {
	case name == "":
		p.add(line, kind, ErrInvalid, "name is required")
	case seen[name]:
		p.add(line, where, ErrInvalid, "declared twice in its entity")
	}
	seen[name] = true
}

// placeholderRE matches a slot: {name}, or {name.from} / {name.to} for
// the ends of a date range.
var placeholderRE = regexp.MustCompile(`\{([a-z_][a-z0-9_]*)(?:\.(from|to))?\}`)

func (q *VerifiedQuestion) shape(p *problems, where string) {
	if strings.TrimSpace(q.Question) == "" || strings.TrimSpace(q.SQL) == "" {
		p.add(q.Line, where, ErrInvalid, "question and sql are required")
		return
	}
	params := map[string]*Parameter{}
	for _, par := range q.Parameters {
		pw := where + " parameter " + par.Name
		if !identRE.MatchString(par.Name) {
			p.add(par.Line, pw, ErrInvalid, "name must be a lower-case identifier")
			continue
		}
		if params[par.Name] != nil {
			p.add(par.Line, pw, ErrInvalid, "declared twice")
			continue
		}
		params[par.Name] = par
		switch par.Kind {
		case ParamYear, ParamDateRange, ParamTopN:
		case ParamValue:
			if !strings.Contains(par.Column, ".") {
				p.add(par.Line, pw, ErrInvalid, "a value parameter needs column: table.column")
			}
		default:
			p.add(par.Line, pw, ErrInvalid, "kind %q is not year, date_range, value or top_n", par.Kind)
			continue
		}
		if len(par.Examples) == 0 {
			p.add(par.Line, pw, ErrParameter, "at least one example value is required")
		}
		for _, ex := range par.Examples {
			if _, err := par.parse(ex); err != nil {
				p.add(par.Line, pw, ErrParameter, "example %q: %v", ex, err)
			}
		}
	}
	// Every slot is declared, every parameter used, in both texts; a date
	// range is one slot in the question and two ends in the SQL.
	for _, text := range []struct{ name, s string }{{"question", q.Question}, {"sql", q.SQL}} {
		used := map[string]bool{}
		for _, g := range placeholderRE.FindAllStringSubmatch(text.s, -1) {
			par := params[g[1]]
			switch {
			case par == nil:
				p.add(q.Line, where, ErrParameter, "%s: placeholder %s names no parameter", text.name, g[0])
				continue
			case par.Kind == ParamDateRange && text.name == "sql" && g[2] == "":
				p.add(q.Line, where, ErrParameter, "sql: date range %s is used as {%s.from} and {%s.to}", g[0], par.Name, par.Name)
			case (par.Kind != ParamDateRange || text.name == "question") && g[2] != "":
				p.add(q.Line, where, ErrParameter, "%s: placeholder %s: only a date range's ends in the sql take .from or .to", text.name, g[0])
			}
			used[g[1]+"."+g[2]] = true
		}
		for _, par := range q.Parameters {
			want := []string{par.Name + "."}
			if par.Kind == ParamDateRange && text.name == "sql" {
				want = []string{par.Name + ".from", par.Name + ".to"}
			}
			for _, w := range want {
				if params[par.Name] == par && !used[w] {
					p.add(par.Line, where+" parameter "+par.Name, ErrParameter, "%s has no placeholder {%s}", text.name, strings.TrimSuffix(w, "."))
				}
			}
		}
	}
}
