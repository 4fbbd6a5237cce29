package pgparse

import (
	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Walk calls fn on every message under m (m included), depth first, in
// field order; fn returning false skips the message's children.
func Walk(m protoreflect.Message, fn func(protoreflect.Message) bool) {
	if !fn(m) {
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				Walk(l.Get(i).Message(), fn)
			}
		case fd.Message() != nil && !fd.IsMap():
			Walk(v.Message(), fn)
		}
		return true
	})
}

// WalkNodes calls fn on every *pg.Node wrapper under m, depth first; fn
// returning false skips the node's children.
func WalkNodes(m protoreflect.Message, fn func(*pg.Node) bool) {
	Walk(m, func(m protoreflect.Message) bool {
		if n, ok := m.Interface().(*pg.Node); ok {
			return fn(n)
		}
		return true
	})
}
