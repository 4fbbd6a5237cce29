// Package pgtree parses SQL into pg_query_go's parse tree (*pg.ParseResult)
// at a third of pg_query_go's cost.
//
// pg_query_go's Parse has libpg_query serialize the tree with protobuf-c and
// unmarshals that in Go; the serialization costs three times the parse
// itself (a join with GROUP BY: 73 µs in C, 32 µs to unmarshal). The same
// C library also prints the same tree as JSON, three times faster
// (22 µs). Parse takes that output and decodes it into the very same Go
// types with a decoder generated from the protobuf descriptors
// (decode_gen.go; `go generate ./internal/pgtree` rewrites it, and a test
// fails when it is stale).
//
// The decoder is strict: a key, value type or enum name it does not know,
// a number out of range or malformed JSON is an error, and Parse then falls
// back to pg_query_go's own Parse. The tree is therefore either the one
// decoded exactly or pg_query_go's; tests require the two to be equal
// (proto.Equal) over every SQL corpus of the project and under fuzzing.
// Parse errors are pg_query_go's (*parser.Error with Cursorpos), from the
// same C parser.
package pgtree
