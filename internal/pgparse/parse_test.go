package pgparse

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"
	"github.com/pganalyze/pg_query_go/v6/parser"
	"google.golang.org/protobuf/proto"
)

// TestParseErrors: for SQL pg.Parse rejects, Parse returns an error of the
// same type with the same values (the same raw parse fails in C).
func TestParseErrors(t *testing.T) {
	for _, sql := range []string{
		"SELECT FROM WHERE",
		"SELECT * FROM t WHERE",
		"SELEC 1",
		"SELECT 'unterminated",
		`SELECT "unterminated`,
		"SELECT $$unterminated",
		"SELECT E'\\xZZ' || 1 +",
		"SELECT U&'\\d800'",
		"SELECT 1 /* unterminated comment",
		"CREATE SCHEMA IF NOT EXISTS s CREATE TABLE a (x int)",
		"SELECT 1;\nSELECT (",
		strings.Repeat("(", 30000) + "1" + strings.Repeat(")", 30000),
	} {
		want, wantErr := pg.Parse(sql)
		if wantErr == nil {
			t.Errorf("pg.Parse accepts %.60q: not an error case", sql)
			continue
		}
		got, err := Parse(sql)
		var pe, wpe *parser.Error
		if got != nil || !errors.As(err, &pe) || !errors.As(wantErr, &wpe) || *pe != *wpe {
			t.Errorf("%.60q: Parse returns (%v, %#v), pg.Parse (%v, %#v)", sql, got, err, want, wantErr)
			continue
		}
		if pe.Cursorpos == 0 && !strings.Contains(pe.Message, "stack depth") && !strings.Contains(pe.Message, "schema elements") {
			t.Errorf("%.60q: no cursor position in %#v", sql, pe)
		}
	}
}

// TestParseInvalidUTF8 covers input that is not UTF-8: when a bad byte
// lands in a string of the tree, pg.Parse fails in proto.Unmarshal; the
// decoder refuses the string too and Parse returns pg.Parse's error. In a
// comment it reaches neither tree.
func TestParseInvalidUTF8(t *testing.T) {
	for _, sql := range []string{
		"SELECT '\xff'",
		"SELECT 'caf\xc3'",
		"SELECT \"\xfe\xff\"",
		"SELECT a\xe9b FROM t",
		"SELECT '\xed\xa0\x80'", // an encoded surrogate
		"SELECT '\xc0\xaf'",     // overlong
	} {
		before := Fallbacks()
		want, wantErr := pg.Parse(sql)
		got, err := Parse(sql)
		if wantErr == nil {
			t.Errorf("%q: pg.Parse accepts it", sql)
			continue
		}
		// pg.Parse returns what proto.Unmarshal decoded before the error
		// along with it; Parse returns pg.Parse's result as it is.
		if !proto.Equal(got, want) || !sameError(err, wantErr) {
			t.Errorf("%q: Parse returns (%v, %v), pg.Parse (%v, %v)", sql, got, err, want, wantErr)
		}
		if Fallbacks() != before+1 {
			t.Errorf("%q: Parse did not count a fallback", sql)
		}
	}
	for _, sql := range []string{"SELECT 1 -- \xff\xfe", "SELECT /* \xc3 */ 2", "SELECT 'ok é'"} {
		if !checkSame(t, sql) {
			t.Errorf("%q: pg.Parse rejects it", sql)
		}
	}
}

// TestParseNUL: the C parser sees the input up to its first NUL byte, on
// both paths.
func TestParseNUL(t *testing.T) {
	for _, sql := range []string{"SELECT 1\x00; DROP TABLE t", "\x00SELECT 1", "SELECT '\x00'", "SELECT 'a\x00b'"} {
		checkSame(t, sql)
	}
	tree, err := Parse("SELECT 1\x00; DROP TABLE t")
	if err != nil || len(tree.Stmts) != 1 {
		t.Errorf("NUL: got %v, %v; want one statement", tree, err)
	}
}

// TestParseFastPath: Parse takes the fast path for valid SQL and its tree
// is pg.Parse's.
func TestParseFastPath(t *testing.T) {
	before := Fallbacks()
	for _, q := range benchQueries {
		got, err := Parse(q.sql)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := pg.Parse(q.sql)
		if !proto.Equal(got, want) {
			t.Errorf("%s: trees differ", q.name)
		}
	}
	if Fallbacks() != before {
		t.Errorf("Parse fell back %d times", Fallbacks()-before)
	}
}

// TestDecodeWhitespace: JSON whitespace between tokens is accepted
// (libpg_query writes none, but it is valid JSON).
func TestDecodeWhitespace(t *testing.T) {
	for _, sql := range append([]string{benchJ10}, trickyQueries[:20]...) {
		js, err := pg.ParseToJSON(sql)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(js), " \r", "\t "); err != nil {
			t.Fatal(err)
		}
		got, err := decode(" \n" + b.String() + "\n")
		if err != nil {
			t.Fatalf("%.60q: %v", sql, err)
		}
		want, _ := pg.Parse(sql)
		if !proto.Equal(got, want) {
			t.Errorf("%.60q: indented JSON decodes to another tree", sql)
		}
	}
}

// TestDecodeStringEscapes: every JSON escape decodes as JSON defines it,
// including those libpg_query never writes (surrogate pairs, \/, upper
// case hex).
func TestDecodeStringEscapes(t *testing.T) {
	for esc, want := range map[string]string{
		`plain`:                     "plain",
		`\"\\\/\b\f\n\r\t`:          "\"\\/\b\f\n\r\t",
		`\u0000\u001f\u003c\u003E`:  "\x00\x1f<>",
		`\u00e9\u4E2D`:              "é中",
		`\ud83d\ude00 \uD834\uDD1E`: "😀 𝄞",
		`raw é中😀 then \n`:           "raw é中😀 then \n",
		``:                          "",
	} {
		js := `{"version":170007,"stmts":[{"stmt":{"String":{"sval":"` + esc + `"}}}]}`
		tree, err := decode(js)
		if err != nil {
			t.Errorf("%s: %v", esc, err)
			continue
		}
		if got := tree.Stmts[0].Stmt.GetString_().Sval; got != want {
			t.Errorf("%s: decoded %q, want %q", esc, got, want)
		}
	}
	// null is how libpg_query writes a NULL string: "" as in protobuf.
	tree, err := decode(`{"stmts":[{"stmt":{"String":{"sval":null}}}]}`)
	if err != nil || tree.Stmts[0].Stmt.GetString_().Sval != "" || tree.Stmts[0].Stmt.GetString_() == nil {
		t.Errorf("null string: %v, %v", tree, err)
	}
}

// TestDecodeRefusesCorruptJSON: each mutation of a valid tree is refused,
// so Parse would fall back instead of guessing.
func TestDecodeRefusesCorruptJSON(t *testing.T) {
	js, err := pg.ParseToJSON(benchSimple + "; FETCH ALL FROM c")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decode(js); err != nil {
		t.Fatalf("the valid JSON is refused: %v", err)
	}
	mutations := []struct{ name, old, new string }{
		{"unknown key", `"targetList"`, `"targetLizt"`},
		{"unknown node type", `{"ColumnRef"`, `{"ColumnRefs"`},
		{"misspelled key case", `"location"`, `"Location"`},
		{"proto name instead of JSON name", `"targetList"`, `"target_list"`},
		{"string for int", `"location":7`, `"location":"7"`},
		{"float for int", `"location":7`, `"location":7.0`},
		{"exponent for int", `"location":7`, `"location":7e0`},
		{"leading zero", `"location":7`, `"location":07`},
		{"plus sign", `"location":7`, `"location":+7`},
		{"int32 overflow", `"location":7`, `"location":2147483648`},
		{"int32 underflow", `"location":7`, `"location":-2147483649`},
		{"int64 overflow", `"howMany":9223372036854775807`, `"howMany":9223372036854775808`},
		{"uint64 digits overflow", `"howMany":9223372036854775807`, `"howMany":99999999999999999999`},
		{"int for bool", `"inh":true`, `"inh":1`},
		{"string for bool", `"inh":true`, `"inh":"true"`},
		{"null for bool", `"inh":true`, `"inh":null`},
		{"truncated literal", `"inh":true`, `"inh":tru`},
		{"number for string", `"sval":"name"`, `"sval":1`},
		{"object for string", `"sval":"name"`, `"sval":{}`},
		{"object for list", `"fields":[`, `"fields":{"x":[`},
		{"list for node", `"val":{"ColumnRef"`, `"val":[{"ColumnRef"`},
		{"null for node", `"whereClause":{`, `"whereClause":null,"x":{`},
		{"unknown enum value", `"SETOP_NONE"`, `"SETOP_NEW"`},
		{"enum placeholder", `"SETOP_NONE"`, `"SET_OPERATION_UNDEFINED"`},
		{"enum as number", `"op":"SETOP_NONE"`, `"op":1`},
		{"enum null", `"op":"SETOP_NONE"`, `"op":null`},
		{"duplicate key", `"location":7`, `"location":7,"location":8`},
		{"two members in a node", `{"ColumnRef":{"fields":[{"String":{"sval":"u"}}`, `{"ColumnRef":{"fields":[{"String":{"sval":"u"},"Integer":{}}`},
		{"two oneof members", `"ival":{"ival":10}`, `"ival":{"ival":10},"sval":{}`},
		{"missing colon", `"location":7`, `"location"7`},
		{"missing comma", `,"location":7`, `"location":7`},
		{"trailing comma in a list", `{"String":{"sval":"name"}}]`, `{"String":{"sval":"name"}},]`},
		{"single quotes", `"sval":"name"`, `"sval":'name'`},
		{"raw control character", `"sval":"name"`, "\"sval\":\"na\tme\""},
		{"invalid escape", `"sval":"name"`, `"sval":"n\ame"`},
		{"short unicode escape", `"sval":"name"`, `"sval":"\u00e"`},
		{"bad hex in escape", `"sval":"name"`, `"sval":"\u00eg"`},
		{"lone high surrogate", `"sval":"name"`, `"sval":"\ud800"`},
		{"lone low surrogate", `"sval":"name"`, `"sval":"\udc00x"`},
		{"high surrogate then other escape", `"sval":"name"`, `"sval":"\ud83d\u0041"`},
		{"invalid UTF-8", `"sval":"name"`, "\"sval\":\"n\xffme\""},
		{"escaped key", `"location":7`, `"loc\u0061tion":7`},
		{"bitmapset", `"location":7`, `"location":7,"notnulls":[1]`},
	}
	for _, m := range mutations {
		if !strings.Contains(js, m.old) {
			t.Fatalf("%s: %q not in the JSON", m.name, m.old)
		}
		bad := strings.Replace(js, m.old, m.new, 1)
		var de *decodeError
		if tree, err := decode(bad); !errors.As(err, &de) {
			t.Errorf("%s: decoded %v, %v", m.name, tree, err)
		}
	}
	for name, bad := range map[string]string{
		"trailing data":   js + "{}",
		"trailing comma":  strings.TrimSuffix(js, "}") + ",}",
		"two documents":   js + js,
		"empty":           "",
		"array":           "[" + js + "]",
		"double field":    `{"stmts":[{"stmt":{"SubPlan":{"startup_cost":1.000000}}}]}`,
		"IntList":         `{"stmts":[{"stmt":{"IntList":{"items":[1,2]}}}]}`,
		"unknown member":  `{"version":170007,"stmts":[],"extra":1}`,
		"empty key":       `{"":1}`,
		"stmts not array": `{"stmts":{}}`,
	} {
		if tree, err := decode(bad); err == nil {
			t.Errorf("%s: decoded %v", name, tree)
		}
	}
	// Every proper prefix of the JSON is malformed.
	for i := range len(js) {
		if _, err := decode(js[:i]); err == nil {
			t.Fatalf("prefix of %d bytes decoded", i)
		}
	}
}

// TestDecodeAllocationsBounded keeps an eye on the allocation count (the
// point of the package): a Node, its wrapper and its message are one
// allocation, lists are allocated once.
func TestDecodeAllocationsBounded(t *testing.T) {
	js, err := pg.ParseToJSON(benchSimple)
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(50, func() {
		if _, err := decode(js); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 80 {
		t.Errorf("decoding the simple query takes %.0f allocations", allocs)
	}
}

// TestParseDepthLimit: proto.Unmarshal refuses trees nested deeper than
// 10000 messages, which libpg_query builds for long operator chains. Around
// that limit Parse must agree with pg.Parse: the fast path below it, the
// same error above it.
func TestParseDepthLimit(t *testing.T) {
	for _, shape := range []struct {
		name   string
		sql    func(n int) string
		lo, hi int
	}{
		// Each + nests an A_Expr in a Node: two messages a step.
		{"additions", func(n int) string { return "SELECT " + strings.Repeat("1+", n) + "1" }, 4995, 4996},
		// Each call nests a FuncCall in a Node: two messages too.
		{"nested calls", func(n int) string { return "SELECT " + strings.Repeat("f(", n) + "1" + strings.Repeat(")", n) }, 4995, 4996},
	} {
		accepted, rejected := 0, 0
		for n := shape.lo; n <= shape.hi; n++ {
			if checkSame(t, shape.sql(n)) {
				accepted++
			} else {
				rejected++
			}
		}
		if accepted == 0 || rejected == 0 {
			t.Errorf("%s: %d accepted, %d rejected between %d and %d: the limit is not in the range", shape.name, accepted, rejected, shape.lo, shape.hi)
		}
	}
}

// TestParseTooDeepWithoutPGParse: beyond proto.Unmarshal's limit Parse
// returns its error itself, for trees so deep that pg.Parse would crash
// in protobuf-c (from some 30000 additions on; not called here), also when
// the decoder stops at something else first (invalid UTF-8 in a string).
func TestParseTooDeepWithoutPGParse(t *testing.T) {
	_, wantErr := pg.Parse("SELECT " + strings.Repeat("1+", 6000) + "1")
	chain := strings.Repeat("1+", 32000) + "1"
	for _, sql := range []string{"SELECT " + chain, "SELECT '\xff', " + chain} {
		before := Fallbacks()
		tree, err := Parse(sql)
		if tree != nil || err == nil || !sameError(err, wantErr) {
			t.Errorf("%.20q: Parse returns (%v, %v), want pg.Parse's error %v", sql, tree, err, wantErr)
		}
		if Fallbacks() != before {
			t.Errorf("%.20q: Parse fell back to pg.Parse", sql)
		}
		if !IsTooDeep(err) {
			t.Errorf("%.20q: IsTooDeep(%v) is false", sql, err)
		}
	}
	if !IsTooDeep(wantErr) || IsTooDeep(errors.New("x")) || IsTooDeep(nil) {
		t.Error("IsTooDeep does not tell pg.Parse's depth error from others")
	}
}

// TestParseTooLong: a text over MaxLen is refused before any C code runs,
// with ErrTooLong; one at MaxLen parses.
func TestParseTooLong(t *testing.T) {
	at := "SELECT " + strings.Repeat("1,", (MaxLen-9)/2) + "1"
	at += strings.Repeat(" ", MaxLen-len(at))
	if _, err := Parse(at); err != nil {
		t.Fatalf("%d bytes: %v", len(at), err)
	}
	if _, err := Parse(at + " "); !errors.Is(err, ErrTooLong) {
		t.Errorf("%d bytes: %v, want ErrTooLong", len(at)+1, err)
	}
}

func TestJSONDepth(t *testing.T) {
	for js, want := range map[string]int{
		`{}`: 0, `{"a":{}}`: 1, `{"a":{"b":1}}`: 2, `{"a":"{{{\"{"}`: 1, `[{"a":[{"b":{"c":1}}]}]`: 3, `{"a":{},"b":{"c":{"d":{}}}}`: 3,
	} {
		if got := jsonDepth(js); got != want {
			t.Errorf("jsonDepth(%s) = %d, want %d", js, got, want)
		}
	}
}
