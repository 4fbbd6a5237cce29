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
	RangeFields(m, func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
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

// RangeFields is m.Range in declaration order (a oneof where its first
// field is declared). Range promises no order, and the protobuf runtime
// does swap two adjacent fields in some builds (its internal/detrand,
// seeded by a hash of the binary): a walk in Range order, and whatever
// follows it, would differ from one build to the next.
func RangeFields(m protoreflect.Message, fn func(protoreflect.FieldDescriptor, protoreflect.Value) bool) {
	fds := m.Descriptor().Fields()
	for i := 0; i < fds.Len(); i++ {
		fd := fds.Get(i)
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			members := od.Fields()
			if members.Get(0) != fd {
				continue // the oneof was seen at its first field
			}
			if last := members.Get(members.Len() - 1).Index(); last-i == members.Len()-1 {
				i = last // contiguous (pg.Node's 270 fields): skip them at once
			}
			if set := m.WhichOneof(od); set != nil && !fn(set, m.Get(set)) {
				return
			}
			continue
		}
		if m.Has(fd) && !fn(fd, m.Get(fd)) {
			return
		}
	}
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
