package pgparse

import (
	"fmt"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/encoding/protowire"
)

// decodeError is why the decoder refused a JSON parse tree: Parse then
// falls back to pg.Parse. Off is the byte offset in the JSON text.
type decodeError struct {
	Off int
	Msg string

	tooDeep bool // nested deeper than proto.Unmarshal allows
}

func (e *decodeError) Error() string {
	return fmt.Sprintf("pgparse: cannot decode parse tree JSON at offset %d: %s", e.Off, e.Msg)
}

// decoder reads libpg_query's JSON output. It is strict: anything the
// generated decoder was not built for is an error, never skipped. Errors
// are raised by panicking with a *decodeError (recovered in decode), so the
// generated code needs no error checks on the hot path.
type decoder struct {
	s string
	i int
	// stack collects the elements of the lists being decoded (nested
	// lists push above their parent's elements), so that each list is
	// allocated once at its final length.
	stack []*pg.Node
	// depth is the number of objects open, as protobuf counts nested
	// messages: each JSON object is one message.
	depth int
}

// maxDepth is proto.Unmarshal's nesting limit. pg.Parse fails on deeper
// trees (libpg_query builds them, for instance for a long chain of
// additions), so the decoder must not return them: it refuses them, and
// Parse returns pg.Parse's error.
const maxDepth = protowire.DefaultRecursionLimit

var decoders = sync.Pool{New: func() any { return &decoder{stack: make([]*pg.Node, 0, 64)} }}

// decode turns the JSON text of pg.ParseToJSON into the tree pg.Parse
// would return, or fails.
func decode(js string) (res *pg.ParseResult, err error) {
	d := decoders.Get().(*decoder)
	d.s, d.i, d.depth = js, 0, 0
	defer func() {
		if r := recover(); r != nil {
			res = nil
			if e, ok := r.(*decodeError); ok {
				err = e
			} else {
				// A bug in the decoder (say an index out of range) must
				// not crash the caller: it is one more thing the decoder
				// did not understand, so Parse falls back.
				err = &decodeError{Off: d.i, Msg: fmt.Sprint("internal error: ", r)}
			}
		}
		clear(d.stack[:cap(d.stack)])
		d.s, d.stack = "", d.stack[:0]
		decoders.Put(d)
	}()
	res = new(pg.ParseResult)
	d.mParseResult(res)
	d.ws()
	if d.i != len(d.s) {
		d.fail("data after the parse tree")
	}
	return res, nil
}

// fail is kept out of line: it is the cold path of every token function.
//
//go:noinline
func (d *decoder) fail(msg string) {
	panic(&decodeError{Off: d.i, Msg: msg})
}

func (d *decoder) unknownKey(key string) {
	d.fail(fmt.Sprintf("unknown key %q", key))
}

func (d *decoder) dupKey(key string) {
	d.fail(fmt.Sprintf("duplicate key %q", key))
}

// unsupported rejects a field whose JSON rendering is lossy: libpg_query
// prints doubles with %f and drops member 0 of bitmapsets. The raw parser
// never fills such fields (they belong to analyzed and planned trees).
func (d *decoder) unsupported(key string) {
	d.fail(fmt.Sprintf("field %q is not faithfully rendered in JSON", key))
}

// isSpace reports JSON whitespace. libpg_query writes none outside
// strings, but accepting it costs nothing on the path it takes.
func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t'
}

func (d *decoder) ws() {
	for d.i < len(d.s) && isSpace(d.s[d.i]) {
		d.i++
	}
}

// peek returns the next byte that is not whitespace without consuming it,
// or 0 at the end of the input.
func (d *decoder) peek() byte {
	if d.i < len(d.s) {
		if c := d.s[d.i]; !isSpace(c) {
			return c
		}
		d.ws()
		if d.i < len(d.s) {
			return d.s[d.i]
		}
	}
	return 0
}

func (d *decoder) expect(c byte) {
	if d.peek() != c {
		d.fail(fmt.Sprintf("expected %q", c))
	}
	d.i++
}

// The token functions below are small enough to be inlined: they look at
// the next byte directly (libpg_query writes no whitespace) and leave
// whitespace and errors to an out-of-line slow path.

// obj consumes '{' and reports whether a member follows (false: the
// object was empty and its '}' is consumed too).
func (d *decoder) obj() bool {
	if i := d.i; i+1 < len(d.s) && d.s[i] == '{' && d.s[i+1] == '"' && d.depth < maxDepth {
		d.i = i + 1
		d.depth++
		return true
	}
	return d.objSlow()
}

func (d *decoder) objSlow() bool {
	d.expect('{')
	if d.depth >= maxDepth {
		panic(&decodeError{Off: d.i, Msg: "objects nested deeper than proto.Unmarshal allows", tooDeep: true})
	}
	if d.peek() == '}' {
		d.i++
		return false
	}
	d.depth++
	return true
}

// key reads a member name and the ':' after it. The name is not
// unescaped or checked: the generated code compares it with the names it
// knows, which are plain ASCII, so an escaped or odd name is unknown.
func (d *decoder) key() string {
	if d.i >= len(d.s) || d.s[d.i] != '"' {
		d.expect('"')
		d.i--
	}
	start := d.i + 1
	i := start
	for i < len(d.s) && d.s[i] != '"' {
		i++
	}
	if i+1 < len(d.s) && d.s[i+1] == ':' {
		d.i = i + 2
		return d.s[start:i]
	}
	d.i = i + 1
	d.expect(':')
	return d.s[start:i]
}

// more is called after an object member: it consumes ',' and reports
// true, or consumes '}' and reports false.
func (d *decoder) more() bool {
	if d.i < len(d.s) {
		switch d.s[d.i] {
		case ',':
			d.i++
			return true
		case '}':
			d.i++
			d.depth--
			return false
		}
	}
	return d.moreSlow('}')
}

// moreElems is more for arrays.
func (d *decoder) moreElems() bool {
	if d.i < len(d.s) {
		switch d.s[d.i] {
		case ',':
			d.i++
			return true
		case ']':
			d.i++
			return false
		}
	}
	return d.moreSlow(']')
}

func (d *decoder) moreSlow(end byte) bool {
	switch d.peek() {
	case ',':
		d.i++
		return true
	case end:
		d.i++
		if end == '}' {
			d.depth--
		}
		return false
	}
	d.fail(fmt.Sprintf("expected ',' or %q", end))
	return false
}

// arr consumes '[' and reports whether an element follows (false: the
// array was empty and its ']' is consumed too).
func (d *decoder) arr() bool {
	if i := d.i; i+1 < len(d.s) && d.s[i] == '[' && d.s[i+1] != ']' && !isSpace(d.s[i+1]) {
		d.i = i + 1
		return true
	}
	d.expect('[')
	if d.peek() == ']' {
		d.i++
		return false
	}
	return true
}

// node reads a Node: {} (an empty Node, as libpg_query writes a NULL list
// element) or {"TypeName":{...}} with exactly one member.
func (d *decoder) node() *pg.Node {
	if !d.obj() {
		return new(pg.Node)
	}
	n := d.nodeValue(d.key())
	if d.more() {
		d.fail("node with more than one member")
	}
	return n
}

// nodes reads a list of Nodes; [] gives nil as in a protobuf decode.
func (d *decoder) nodes() []*pg.Node {
	if !d.arr() {
		return nil
	}
	base := len(d.stack)
	for {
		n := d.node()
		d.stack = append(d.stack, n)
		if !d.moreElems() {
			break
		}
	}
	out := make([]*pg.Node, len(d.stack)-base)
	copy(out, d.stack[base:])
	d.stack = d.stack[:base]
	return out
}

// boolean reads true or false (libpg_query writes false only for the
// Boolean node, but it is the same value as an omitted field).
func (d *decoder) boolean() bool {
	switch d.peek() {
	case 't':
		if len(d.s)-d.i >= 4 && d.s[d.i:d.i+4] == "true" {
			d.i += 4
			return true
		}
	case 'f':
		if len(d.s)-d.i >= 5 && d.s[d.i:d.i+5] == "false" {
			d.i += 5
			return false
		}
	}
	d.fail("expected a boolean")
	return false
}

// num reads a JSON integer: -?(0|[1-9][0-9]*). A fraction or exponent is
// left unread and makes the caller fail on the next token.
func (d *decoder) num() (neg bool, u uint64) {
	if d.peek() == '-' {
		neg = true
		d.i++
	}
	start := d.i
	for d.i < len(d.s) {
		c := d.s[d.i] - '0'
		if c > 9 {
			break
		}
		if u > (1<<64-1)/10 || u*10 > 1<<64-1-uint64(c) {
			d.fail("integer out of range")
		}
		u = u*10 + uint64(c)
		d.i++
	}
	switch n := d.i - start; {
	case n == 0:
		d.fail("expected an integer")
	case n > 1 && d.s[start] == '0':
		d.fail("integer with a leading zero")
	}
	return neg, u
}

func (d *decoder) int32() int32 {
	neg, u := d.num()
	if neg {
		if u > 1<<31 {
			d.fail("int32 out of range")
		}
		return int32(-int64(u))
	}
	if u > 1<<31-1 {
		d.fail("int32 out of range")
	}
	return int32(u)
}

func (d *decoder) int64() int64 {
	neg, u := d.num()
	if neg {
		if u > 1<<63 {
			d.fail("int64 out of range")
		}
		return int64(-u) // wraps to math.MinInt64 for u == 1<<63
	}
	if u > 1<<63-1 {
		d.fail("int64 out of range")
	}
	return int64(u)
}

func (d *decoder) uint32() uint32 {
	neg, u := d.num()
	if neg && u != 0 || u > 1<<32-1 {
		d.fail("uint32 out of range")
	}
	return uint32(u)
}

func (d *decoder) uint64() uint64 {
	neg, u := d.num()
	if neg && u != 0 {
		d.fail("uint64 out of range")
	}
	return u
}

// str reads a string value. null (how libpg_query writes a NULL string
// inside String, Float and BitString nodes) is "", as protobuf-c encodes
// it. Without escapes the result is a substring of the JSON text.
// Invalid UTF-8 is refused: proto.Unmarshal refuses it too, so the
// fallback returns pg.Parse's error for such input.
func (d *decoder) str() string {
	switch d.peek() {
	case '"':
	case 'n':
		if len(d.s)-d.i >= 4 && d.s[d.i:d.i+4] == "null" {
			d.i += 4
			return ""
		}
		fallthrough
	default:
		d.fail("expected a string")
	}
	d.i++
	start := d.i
	var hi byte
	for i := start; i < len(d.s); i++ {
		c := d.s[i]
		switch {
		case c == '"':
			v := d.s[start:i]
			d.i = i + 1
			if hi >= utf8.RuneSelf && !utf8.ValidString(v) {
				d.fail("invalid UTF-8 in a string")
			}
			return v
		case c == '\\':
			d.i = i
			return d.strEscaped(start)
		case c < 0x20:
			d.i = i
			d.fail("control character in a string")
		}
		hi |= c
	}
	d.i = len(d.s)
	d.fail("unterminated string")
	return ""
}

// strEscaped finishes a string from its first backslash at d.i; start is
// the offset of its first byte.
func (d *decoder) strEscaped(start int) string {
	b := make([]byte, 0, d.i-start+16)
	b = append(b, d.s[start:d.i]...)
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			if !utf8.Valid(b) {
				d.fail("invalid UTF-8 in a string")
			}
			return string(b)
		case c < 0x20:
			d.fail("control character in a string")
		case c != '\\':
			b = append(b, c)
			d.i++
			continue
		}
		if d.i+1 >= len(d.s) {
			break
		}
		d.i += 2
		switch d.s[d.i-1] {
		case '"':
			b = append(b, '"')
		case '\\':
			b = append(b, '\\')
		case '/':
			b = append(b, '/')
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
			r := d.hex4()
			if utf16.IsSurrogate(r) {
				// Only a high surrogate followed by an escaped low one
				// is a character; a lone half has no UTF-8 encoding.
				var r2 rune = -1
				if r < 0xdc00 && len(d.s)-d.i >= 6 && d.s[d.i] == '\\' && d.s[d.i+1] == 'u' {
					d.i += 2
					r2 = d.hex4()
				}
				if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
					d.fail("unpaired surrogate in a \\u escape")
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			d.i--
			d.fail("invalid escape in a string")
		}
	}
	d.fail("unterminated string")
	return ""
}

func (d *decoder) hex4() rune {
	if len(d.s)-d.i < 4 {
		d.fail("short \\u escape")
	}
	var r rune
	for _, c := range []byte(d.s[d.i : d.i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			d.fail("invalid \\u escape")
		}
		r = r<<4 | rune(c)
	}
	d.i += 4
	return r
}

// once records the member with the given bit in seen, failing on a
// member seen before: libpg_query writes each field once.
func (d *decoder) once(seen, bit uint64, key string) uint64 {
	if seen&bit != 0 {
		d.dupKey(key)
	}
	return seen | bit
}
