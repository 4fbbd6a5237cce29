package main

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
)

// toolSchema is the JSON schema of a tool's input or output type T: the
// SDK's inference (jsonschema.For) with two fixes.
//
//   - A Go slice is inferred as ["null","array"], since a nil slice
//     marshals to null. Ours never do (the handlers send [] for none), and
//     a client that generates types from the schema should not have to
//     handle null: every such type becomes plain "array".
//   - max_rows, wherever it appears, gets minimum 1, the server's cap as
//     default, and a description naming the cap. It has no maximum on
//     purpose: the SDK validates arguments against the schema and would
//     refuse a call over it, while the server caps such a call and says so
//     in the result (notes).
func toolSchema[T any](maxRows int) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("schema of %T: %v", *new(T), err)) // a programming error in the types above
	}
	walkSchema(s, func(s *jsonschema.Schema) {
		if i := slices.Index(s.Types, "null"); i >= 0 && len(s.Types) == 2 {
			s.Type, s.Types = s.Types[1-i], nil
		}
		if p := s.Properties["max_rows"]; p != nil {
			one := 1.0
			p.Minimum = &one
			p.Default = []byte(strconv.Itoa(maxRows))
			p.Description = fmt.Sprintf("row cap of the result, at least 1; this server's cap is %d "+
				"(the default): a larger value is capped to %d and the result's notes say so", maxRows, maxRows)
		}
	})
	return s
}

// walkSchema calls fn on s and every schema below it that toolSchema's
// types can produce (properties and array items).
func walkSchema(s *jsonschema.Schema, fn func(*jsonschema.Schema)) {
	if s == nil {
		return
	}
	fn(s)
	for _, p := range s.Properties {
		walkSchema(p, fn)
	}
	walkSchema(s.Items, fn)
	for _, p := range s.PrefixItems {
		walkSchema(p, fn)
	}
	walkSchema(s.AdditionalProperties, fn)
}
