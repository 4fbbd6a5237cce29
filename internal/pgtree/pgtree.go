package pgtree

import (
	"errors"
	"strconv"
	"sync/atomic"
	"unicode/utf16"
	"unicode/utf8"

	pg "github.com/pganalyze/pg_query_go/v6"
)

//go:generate go test -run TestDecoderGenUpToDate -update

// fallbacks counts the parses that fell back to pg_query_go's decoder.
var fallbacks atomic.Int64

// Fallbacks returns how many times Parse has fallen back to pg_query_go's
// own Parse because the JSON decoder met something it does not know (a
// parser upgrade adding fields would show here; tests require 0).
func Fallbacks() int64 { return fallbacks.Load() }

// Parse parses sql into libpg_query's parse tree: the tree pg.Parse(sql)
// returns, at a third of its cost. Errors are pg.Parse's.
func Parse(sql string) (*pg.ParseResult, error) {
	if !utf8.ValidString(sql) {
		// pg.Parse rejects the invalid strings in its tree; keep its error.
		return pg.Parse(sql)
	}
	js, err := pg.ParseToJSON(sql)
	if err != nil {
		return nil, err
	}
	tree, err := decode(js)
	if err != nil {
		fallbacks.Add(1)
		return pg.Parse(sql)
	}
	return tree, nil
}

// errSyntax is the decoder's one error: whatever it is, Parse falls back.
var errSyntax = errors.New("pgtree: unexpected JSON")

// decode decodes libpg_query's JSON parse tree.
func decode(js string) (*pg.ParseResult, error) {
	d := &decoder{s: js}
	m := &pg.ParseResult{}
	decParseResult(d, m)
	d.ws()
	if d.err == nil && d.i != len(d.s) {
		d.fail()
	}
	if d.err != nil {
		return nil, d.err
	}
	return m, nil
}

// decoder reads one JSON text; the first error sticks and every read after
// it is a no-op returning a zero value.
type decoder struct {
	s   string
	i   int
	err error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errSyntax
	}
	d.i = len(d.s)
}

func (d *decoder) ws() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// expect consumes byte c (after white space) or fails.
func (d *decoder) expect(c byte) bool {
	d.ws()
	if d.i < len(d.s) && d.s[d.i] == c {
		d.i++
		return true
	}
	d.fail()
	return false
}

// open starts an object.
func (d *decoder) open() bool { return d.expect('{') }

// key returns the next key of an object begun with open, consuming the
// colon, or false at its end.
func (d *decoder) key(first *bool) (string, bool) {
	d.ws()
	if d.i >= len(d.s) {
		d.fail()
		return "", false
	}
	if d.s[d.i] == '}' {
		d.i++
		return "", false
	}
	if !*first {
		if !d.expect(',') {
			return "", false
		}
	}
	*first = false
	k := d.str()
	if !d.expect(':') {
		return "", false
	}
	return k, d.err == nil
}

// elem reports whether an array begun with expect('[') has another element,
// consuming the separator.
func (d *decoder) elem(first *bool) bool {
	d.ws()
	if d.i >= len(d.s) {
		d.fail()
		return false
	}
	if d.s[d.i] == ']' {
		d.i++
		return false
	}
	if !*first && !d.expect(',') {
		return false
	}
	*first = false
	return d.err == nil
}

// unknown records a key the generated decoder does not know.
func (d *decoder) unknown(string) { d.fail() }

// str reads a string. Without escapes it is a substring of the input.
func (d *decoder) str() string {
	if !d.expect('"') {
		return ""
	}
	start := d.i
	for d.i < len(d.s) {
		switch c := d.s[d.i]; {
		case c == '"':
			s := d.s[start:d.i]
			d.i++
			return s
		case c == '\\':
			return d.escaped(start)
		case c < 0x20:
			d.fail()
			return ""
		default:
			d.i++
		}
	}
	d.fail()
	return ""
}

// escaped finishes a string that contains escapes, from start.
func (d *decoder) escaped(start int) string {
	b := []byte(d.s[start:d.i])
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			return string(b)
		case c < 0x20:
			d.fail()
			return ""
		case c != '\\':
			b = append(b, c)
			d.i++
			continue
		}
		if d.i+1 >= len(d.s) {
			break
		}
		e := d.s[d.i+1]
		d.i += 2
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				d.fail()
				return ""
			}
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if d.i+1 < len(d.s) && d.s[d.i] == '\\' && d.s[d.i+1] == 'u' {
					d.i += 2
					if r2, ok = d.hex4(); !ok {
						d.fail()
						return ""
					}
				}
				if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
					// A lone surrogate: not text libpg_query would print.
					d.fail()
					return ""
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			d.fail()
			return ""
		}
	}
	d.fail()
	return ""
}

func (d *decoder) hex4() (rune, bool) {
	if d.i+4 > len(d.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(d.s[d.i:d.i+4], 16, 32)
	d.i += 4
	return rune(n), err == nil
}

// number returns the text of a JSON number.
func (d *decoder) number() string {
	d.ws()
	start := d.i
	for d.i < len(d.s) {
		switch c := d.s[d.i]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			d.i++
			continue
		}
		break
	}
	if d.i == start {
		d.fail()
	}
	return d.s[start:d.i]
}

func (d *decoder) int(bits int) int64 {
	n, err := strconv.ParseInt(d.number(), 10, bits)
	if err != nil {
		d.fail()
	}
	return n
}

func (d *decoder) uint(bits int) uint64 {
	n, err := strconv.ParseUint(d.number(), 10, bits)
	if err != nil {
		d.fail()
	}
	return n
}

func (d *decoder) i32() int32  { return int32(d.int(32)) }
func (d *decoder) i64() int64  { return d.int(64) }
func (d *decoder) u32() uint32 { return uint32(d.uint(32)) }
func (d *decoder) u64() uint64 { return d.uint(64) }

func (d *decoder) f64() float64 {
	f, err := strconv.ParseFloat(d.number(), 64)
	if err != nil {
		d.fail()
	}
	return f
}

func (d *decoder) boolean() bool {
	d.ws()
	switch {
	case len(d.s)-d.i >= 4 && d.s[d.i:d.i+4] == "true":
		d.i += 4
		return true
	case len(d.s)-d.i >= 5 && d.s[d.i:d.i+5] == "false":
		d.i += 5
		return false
	}
	d.fail()
	return false
}

// enum reads an enum value by name.
func (d *decoder) enum(values map[string]int32) int32 {
	v, ok := values[d.str()]
	if !ok {
		d.fail()
	}
	return v
}
