package semantic

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// MaxTopN is the largest N a top_n parameter takes.
const MaxTopN = 10000

// paramValue is a parsed parameter value: one value, or a date range's two
// ends (To exclusive).
type paramValue struct {
	one      any
	from, to time.Time
}

// parse reads a value of the parameter's kind from its text.
func (p *Parameter) parse(s string) (paramValue, error) {
	s = strings.TrimSpace(s)
	switch p.Kind {
	case ParamYear:
		y, err := strconv.Atoi(s)
		if err != nil || len(s) != 4 || y < 1000 {
			return paramValue{}, errors.New("a year is four digits")
		}
		return paramValue{one: y}, nil
	case ParamTopN:
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > MaxTopN {
			return paramValue{}, fmt.Errorf("N is a whole number from 1 to %d", MaxTopN)
		}
		return paramValue{one: n}, nil
	case ParamDateRange:
		a, b, ok := strings.Cut(s, "/")
		from, err1 := time.Parse(time.DateOnly, strings.TrimSpace(a))
		to, err2 := time.Parse(time.DateOnly, strings.TrimSpace(b))
		if !ok || err1 != nil || err2 != nil || !from.Before(to) {
			return paramValue{}, errors.New("a date range is FROM/TO, two YYYY-MM-DD dates, FROM before TO (TO exclusive)")
		}
		return paramValue{from: from, to: to}, nil
	case ParamValue:
		if s == "" || strings.ContainsRune(s, 0) {
			return paramValue{}, errors.New("a value is non-empty text without NUL")
		}
		return paramValue{one: s}, nil
	}
	return paramValue{}, fmt.Errorf("unknown kind %q", p.Kind)
}

// Bind renders the verified SQL with its slots as query parameters ($1,
// $2, ...) and returns the arguments to pass with it: values maps a
// parameter's name to its text (as in Examples). A year and N are ints, a
// date range's ends time.Time (dates), a stored value a string. The same
// slot used twice takes the same $n.
func (q *VerifiedQuestion) Bind(values map[string]string) (string, []any, error) {
	index := map[string]int{}
	var args []any
	sql, err := q.substitute(values, func(slot string, v any) string {
		if n, ok := index[slot]; ok {
			return "$" + strconv.Itoa(n)
		}
		args = append(args, v)
		index[slot] = len(args)
		return "$" + strconv.Itoa(len(args))
	})
	if err != nil {
		return "", nil, err
	}
	return sql, args, nil
}

// substitute replaces every slot of the SQL with what emit returns for its
// parsed value.
func (q *VerifiedQuestion) substitute(values map[string]string, emit func(slot string, v any) string) (string, error) {
	parsed := map[string]paramValue{}
	for _, p := range q.Parameters {
		s, ok := values[p.Name]
		if !ok {
			return "", &Error{Line: q.Line, Where: "parameter " + p.Name, Msg: "no value given", Err: ErrParameter}
		}
		v, err := p.parse(s)
		if err != nil {
			return "", &Error{Line: q.Line, Where: "parameter " + p.Name, Msg: err.Error(), Err: ErrParameter}
		}
		parsed[p.Name] = v
	}
	var bindErr error
	sql := placeholderRE.ReplaceAllStringFunc(q.SQL, func(slot string) string {
		g := placeholderRE.FindStringSubmatch(slot)
		v, ok := parsed[g[1]]
		if !ok {
			bindErr = &Error{Line: q.Line, Msg: "placeholder " + slot + " names no parameter", Err: ErrParameter}
			return slot
		}
		switch g[2] {
		case "from":
			return emit(slot, v.from)
		case "to":
			return emit(slot, v.to)
		}
		return emit(slot, v.one)
	})
	return sql, bindErr
}

// Examples returns the declared example bindings: the i-th binding takes
// each parameter's i-th example (its last one when it has fewer). A
// question without parameters has one empty binding.
func (q *VerifiedQuestion) Examples() []map[string]string {
	n := 1
	for _, p := range q.Parameters {
		n = max(n, len(p.Examples))
	}
	out := make([]map[string]string, n)
	for i := range out {
		out[i] = map[string]string{}
		for _, p := range q.Parameters {
			if len(p.Examples) > 0 {
				out[i][p.Name] = p.Examples[min(i, len(p.Examples)-1)]
			}
		}
	}
	return out
}

// Inline renders the verified SQL with the values inlined as SQL literals
// (numbers, DATE '...', '...' with quotes doubled), for a validator, which
// refuses $n, to judge the query as it will run; run Bind's text, with its
// arguments.
func (q *VerifiedQuestion) Inline(values map[string]string) (string, error) {
	return q.substitute(values, func(_ string, v any) string { return literal(v) })
}

func literal(v any) string {
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case time.Time:
		return "DATE '" + x.Format(time.DateOnly) + "'"
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	}
	panic(fmt.Sprintf("semantic: literal of %T", v)) // parse returns only the types above
}

// checkSlots makes sure every slot of the SQL stands where a value goes,
// not inside a string literal, a quoted name or a comment, where binding
// would silently leave it as text: with the slots rendered as $n, the
// scanner must find one parameter token per slot.
func (q *VerifiedQuestion) checkSlots() error {
	values := map[string]string{}
	for _, p := range q.Parameters {
		if len(p.Examples) > 0 {
			values[p.Name] = p.Examples[0]
		}
	}
	slots := 0
	sql, err := q.substitute(values, func(string, any) string {
		slots++
		return "$" + strconv.Itoa(slots)
	})
	if err != nil {
		return err
	}
	toks, err := pg.Scan(sql)
	if err != nil {
		return err
	}
	params := 0
	for _, t := range toks.Tokens {
		if t.Token == pg.Token_PARAM {
			params++
		}
	}
	if params != slots {
		return errors.New("a placeholder stands inside a string, a quoted name or a comment, or the SQL has its own $n")
	}
	return nil
}

// CheckShape checks q on its own, without a catalog: its parameters'
// names, kinds and examples, every slot declared and used in both texts,
// and every slot of the SQL where a value goes (what Check does for each
// verified question before it resolves names). A learnt template is
// checked with it, and its examples then by the engine's validator.
func (q *VerifiedQuestion) CheckShape() error {
	p := &problems{}
	q.shape(p, "template")
	if err := p.err(); err != nil {
		return err
	}
	if err := q.checkSlots(); err != nil {
		p.add(q.Line, "template", ErrParameter, "%v", err)
	}
	return p.err()
}
