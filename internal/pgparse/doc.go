// Package pgparse parses SQL into pg_query_go's parse tree
// (*pg.ParseResult) about three times faster than pg.Parse.
//
// Why: pg.Parse runs libpg_query's parser, serializes the tree with
// protobuf-c and decodes it with proto.Unmarshal. Most of its time is
// spent outside the parser: for a 200-character join with GROUP BY, the C
// side takes about 73 µs (raw parse plus protobuf-c) and proto.Unmarshal
// 32 µs, while the same parse written as JSON by libpg_query takes about
// 22 µs. The SQL validator's budget is 200 µs per query.
//
// How: Parse calls pg.ParseToJSON (the same raw parser, so the same tree
// and the same *parser.Error on bad SQL) and decodes the JSON into the
// very same Go types with a decoder generated from pg_query_go's protobuf
// descriptors (decode_gen.go, one function per message type, no
// reflection at run time) over a small hand-written JSON scanner.
//
// Safety: this sits in front of a security check, where a tree that is
// silently different from pg.Parse's would be the worst outcome. The
// decoder is strict: an unknown key, node type or enum name, a value of
// the wrong JSON type, an out-of-range number, a duplicate key, malformed
// JSON or invalid UTF-8 is an error, never skipped or guessed. On any such
// error Parse falls back to pg.Parse and returns its result unchanged
// (Fallbacks counts these). Fields libpg_query renders lossily in JSON
// (doubles printed with %f, bitmapsets missing member 0; only analyzed or
// planned trees have them) are refused too. Tests check that the decoder
// is up to date with the descriptors, that the JSON field names, kinds and
// enum names agree with the C sources that write them, and that the trees
// are proto.Equal to pg.Parse's over every SQL corpus of the repository
// and under fuzzing.
//
// The strings of the tree are substrings of the JSON text when they need
// no unescaping, so a retained tree keeps that text alive.
package pgparse

// decode_gen.go is written by TestDecoderGenUpToDate:
//
//go:generate go test -run TestDecoderGenUpToDate -update
