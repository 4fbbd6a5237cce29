package pgparse

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

var fallbacks atomic.Uint64

// Parse parses sql as pg.Parse does and returns the same tree and the same
// errors, faster: it decodes libpg_query's JSON output instead of its
// protobuf output. When the decoder meets anything it was not generated
// for, Parse parses again with pg.Parse and returns that result.
//
// On error the tree is not meaningful: pg.Parse returns whatever
// proto.Unmarshal had decoded, which Parse passes on when it falls back.
func Parse(sql string) (*pg.ParseResult, error) {
	if len(sql) > MaxLen {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLong, len(sql), MaxLen)
	}
	js, err := pg.ParseToJSON(sql)
	if err != nil {
		// The same raw parse as pg.Parse's, so the same *parser.Error.
		return nil, err
	}
	tree, err := decode(js)
	if err == nil {
		return tree, nil
	}
	// Too deep, whether the decoder met the depth or stopped at something
	// else first: pg.Parse fails on such a tree with proto.Unmarshal's
	// recursion error, unless protobuf-c has overflowed the C stack first
	// while writing it (it does from some 30000 nested nodes on, and kills
	// the process). Return that error without taking the risk.
	var de *decodeError
	if errors.As(err, &de) && de.tooDeep || jsonDepth(js) > maxDepth {
		return nil, recursionError()
	}
	fallbacks.Add(1)
	return pg.Parse(sql)
}

// IsTooDeep reports whether err is the error of a tree nested deeper than
// proto.Unmarshal allows (10,000 messages), which Parse and pg.Parse
// return alike.
func IsTooDeep(err error) bool { return err != nil && errors.Is(err, recursionError()) }

// MaxLen is the longest SQL text Parse accepts, in bytes. libpg_query
// recurses in C once per level of nesting when it writes a tree out, and
// a deep enough tree overflows the C stack and kills the process: the
// protobuf writer behind pg.Parse from about 30,000 chained operators
// (60 KB of "1+1+..."), the JSON writer Parse uses from about 80,000. A
// level takes at least two bytes of text, so no text under MaxLen reaches
// the JSON writer's limit, and Parse never hands pg.Parse a tree deeper
// than proto.Unmarshal's 10,000 messages.
const MaxLen = 64 << 10

// ErrTooLong is returned (wrapped) for a text longer than MaxLen.
var ErrTooLong = errors.New("pgparse: SQL text too long")

// jsonDepth returns the nesting depth of the non-empty objects of a JSON
// text, as the decoder counts it.
func jsonDepth(js string) int {
	depth, deepest := 0, 0
	for i := 0; i < len(js); i++ {
		switch js[i] {
		case '"':
			for i++; i < len(js) && js[i] != '"'; i++ {
				if js[i] == '\\' {
					i++
				}
			}
		case '{':
			if i+1 < len(js) && js[i+1] == '}' {
				i++
				continue
			}
			depth++
			deepest = max(deepest, depth)
		case '}':
			depth--
		}
	}
	return deepest
}

// Fallbacks returns how many times Parse fell back to pg.Parse since the
// program started. It stays 0 unless pg_query_go emits something the
// decoder was not generated for (or invalid UTF-8, which pg.Parse then
// rejects): worth a log line or a metric.
func Fallbacks() uint64 {
	return fallbacks.Load()
}

// recursionError is the error proto.Unmarshal, and so pg.Parse, returns
// for a tree nested deeper than maxDepth: obtained once by unmarshaling
// such a tree (Nodes holding Lists holding Nodes).
var recursionError = sync.OnceValue(func() error {
	node := (&pg.Node{}).ProtoReflect().Descriptor()
	list := node.Fields().ByName("list")
	items := list.Message().Fields().ByName("items")
	wrap := func(b []byte, num protoreflect.FieldNumber) []byte {
		out := protowire.AppendTag(nil, num, protowire.BytesType)
		out = protowire.AppendBytes(out, b)
		return out
	}
	var b []byte // a Node
	for range maxDepth / 2 {
		b = wrap(wrap(b, items.Number()), list.Number())
	}
	err := proto.Unmarshal(b, &pg.Node{})
	if err == nil {
		panic("pgparse: proto.Unmarshal accepts a tree deeper than its recursion limit")
	}
	return err
})
