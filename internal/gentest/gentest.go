// Package gentest is the shared plumbing of the tests that generate
// checked-in files: the check that such a file is up to date (every
// generator: validate/nodes_gen.go, internal/pgparse/decode_gen.go,
// gloss/wordnet.txt), and the set of types a pg_query_go parse tree can
// hold (the two Go code generators).
package gentest

import (
	"bytes"
	"maps"
	"os"
	"slices"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// TreeMessages returns the message types a parse tree can hold: those
// reachable from ParseResult (not the scanner's or the summary's), sorted
// by name.
func TreeMessages() []protoreflect.MessageDescriptor {
	reach := map[string]protoreflect.MessageDescriptor{}
	var mark func(md protoreflect.MessageDescriptor)
	mark = func(md protoreflect.MessageDescriptor) {
		if reach[string(md.Name())] != nil {
			return
		}
		reach[string(md.Name())] = md
		for i := 0; i < md.Fields().Len(); i++ {
			if f := md.Fields().Get(i).Message(); f != nil {
				mark(f)
			}
		}
	}
	mark((&pg.ParseResult{}).ProtoReflect().Descriptor())
	out := make([]protoreflect.MessageDescriptor, 0, len(reach))
	for _, name := range slices.Sorted(maps.Keys(reach)) {
		out = append(out, reach[name])
	}
	return out
}

// UpToDate requires the file at path to hold src, the output of its
// generator, so that an upgrade of the parser cannot leave generated code
// behind; with update it rewrites the file instead. regenerate is the
// command to run, for the failure message.
func UpToDate(t testing.TB, path string, src []byte, update bool, regenerate string) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, src) {
		t.Fatalf("%s is stale: run %s", path, regenerate)
	}
}
