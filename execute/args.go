package execute

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// Args runs the query as a template whose $1..$n stand where values go,
// with args as its parameters: the way to run a verified query with
// values a question supplied (semantic.VerifiedQuestion.Bind) without
// splicing them into SQL. The executor inlines each value as a literal of
// its type (an int 0..2^31-1 as an integer, a time.Time as DATE
// 'YYYY-MM-DD', a string as a quoted literal), validates and plans that
// text as usual (the validator refuses $n, V009), then prepares the same
// text, pinned, with each literal back as its parameter, typed as the
// literal is (int4, date, unknown), so the server resolves every operator
// exactly as it did for the planned text. Every $k must be 1..len(args)
// and every arg used; a text the validator must rewrite beyond appending
// its LIMIT (a LIMIT over the row cap) is refused: only what was checked
// runs.
func Args(args ...any) QueryOption {
	return queryOptionFunc(func(c *queryConfig) { c.args = append([]any(nil), args...) })
}

// boundQuery is a template's inlined text and where its literals stand.
type boundQuery struct {
	inlined string
	spans   []argSpan
	values  [][]byte // text format, one per span
	oids    []uint32 // one per span
}

// argSpan is the literal of the k-th (1-based) use of a parameter at byte at of the inlined
// text, n bytes long.
type argSpan struct{ at, n, k int }

// errArgs is the cause of a template or an argument Args does not take.
var errArgs = errors.New("execute: bad query arguments")

// bind inlines args into template (see Args).
func bind(template string, args []any) (*boundQuery, error) {
	b := &boundQuery{}
	lits, texts, oids := make([]string, len(args)), make([]string, len(args)), make([]uint32, len(args))
	for i, a := range args {
		var err error
		if lits[i], texts[i], oids[i], err = argLiteral(a); err != nil {
			return nil, fmt.Errorf("%w: $%d: %v", errArgs, i+1, err)
		}
	}
	template = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(template), ";"))
	toks, err := pg.Scan(template)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errArgs, err)
	}
	used := make([]bool, len(args))
	var out strings.Builder
	last := 0
	for _, t := range toks.Tokens {
		if t.Token != pg.Token_PARAM {
			continue
		}
		start, end := int(t.Start), int(t.End)
		k, err := strconv.Atoi(strings.TrimPrefix(template[start:end], "$"))
		if err != nil || k < 1 || k > len(args) {
			return nil, fmt.Errorf("%w: %s has no argument (%d given)", errArgs, template[start:end], len(args))
		}
		used[k-1] = true
		out.WriteString(template[last:start])
		// Each use its own parameter: typed by its own context, as each
		// literal is ($1 compared with an enum and with text is two).
		b.spans = append(b.spans, argSpan{at: out.Len(), n: len(lits[k-1]), k: len(b.spans) + 1})
		b.values = append(b.values, []byte(texts[k-1]))
		b.oids = append(b.oids, oids[k-1])
		out.WriteString(lits[k-1])
		last = end
	}
	out.WriteString(template[last:])
	for i, u := range used {
		if !u {
			return nil, fmt.Errorf("%w: $%d is not used", errArgs, i+1)
		}
	}
	b.inlined = out.String()
	return b, nil
}

// argLiteral is a's SQL literal, its text-format parameter value and the
// parameter type that reads like the literal (0: unknown, as a quoted
// literal is until the server resolves it).
func argLiteral(a any) (lit, text string, oid uint32, err error) {
	switch x := a.(type) {
	case int:
		if x < 0 || x > math.MaxInt32 {
			return "", "", 0, fmt.Errorf("int %d is outside 0..%d", x, math.MaxInt32)
		}
		s := strconv.Itoa(x)
		return s, s, 23, nil // int4, like an integer literal
	case time.Time:
		d := x.Format(time.DateOnly)
		return "DATE '" + d + "'", d, 1082, nil
	case string:
		if !utf8.ValidString(x) || strings.IndexByte(x, 0) >= 0 {
			return "", "", 0, errors.New("a string must be UTF-8 without NUL")
		}
		return "'" + strings.ReplaceAll(x, "'", "''") + "'", x, 0, nil
	}
	return "", "", 0, fmt.Errorf("%T is not an int, a time.Time (date) or a string", a)
}

// prepared is the text to prepare for b: run (the validated, pinned text
// of b.inlined) with each literal back as its parameter. It fails closed
// when a literal is not where pinning moved it.
func (b *boundQuery) prepared(run string, pin *validate.Pin) (string, error) {
	var out strings.Builder
	last := 0
	for _, s := range b.spans {
		at := pin.Forward(s.at)
		lit := b.inlined[s.at : s.at+s.n]
		if at < last || at+s.n > len(run) || run[at:at+s.n] != lit {
			return "", fmt.Errorf("%w: the literal of $%d is not where the checked query has it", errArgs, s.k)
		}
		out.WriteString(run[last:at])
		out.WriteString("$" + strconv.Itoa(s.k))
		last = at + s.n
	}
	out.WriteString(run[last:])
	return out.String(), nil
}
