package pgparse

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/nl2sqlgo/nl2sql/internal/gentest"
)

// libpgQuerySource returns a file of the C sources vendored in the linked
// pg_query_go (parser/include), or skips the test when the module source
// cannot be located.
func libpgQuerySource(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "github.com/pganalyze/pg_query_go/v6/parser").Output()
	if err != nil {
		t.Skipf("cannot locate the pg_query_go sources: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "include", name))
	if err != nil {
		t.Skipf("cannot read libpg_query's %s: %v", name, err)
	}
	return string(b)
}

var (
	outFuncRE  = regexp.MustCompile(`(?m)^_out\w+\(OUT_TYPE\((\w+), \w+\) out, const \w+ \*node\)\n\{\n((?:.*\n)*?)\}`)
	writeRE    = regexp.MustCompile(`^\s*WRITE_(\w+)_FIELD\(([^)]*)\);$`)
	outNodeRE  = regexp.MustCompile(`OUT_NODE\((\w+), \w+, \w+, \w+, \w+, \w+\);`)
	enumFuncRE = regexp.MustCompile(`(?m)^_enumTo(String|Int)(\w+)\(\w+ value\) \{\n((?:.*\n)*?)\}`)
	enumCaseRE = regexp.MustCompile(`case (\w+): return ("?)([\w-]+)"?;`)
)

// TestJSONShapeMatchesLibpgQuery checks the assumptions the generator
// makes about libpg_query's JSON against the C sources that write it
// (pg_query_outfuncs_defs.c is shared by the JSON and the protobuf
// output, with different WRITE_* macros): every field is written under
// the protobuf field's JSON name, with a macro matching the field's kind,
// and every field of each message is written; Node members are keyed by
// the oneof field's JSON name; enum names map to the numbers the protobuf
// output uses.
func TestJSONShapeMatchesLibpgQuery(t *testing.T) {
	defs := libpgQuerySource(t, "pg_query_outfuncs_defs.c")
	conds := libpgQuerySource(t, "pg_query_outfuncs_conds.c")
	enumDefs := libpgQuerySource(t, "pg_query_enum_defs.c")

	find := func(name string) protoreflect.MessageDescriptor {
		mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName("pg_query." + name))
		if err != nil {
			t.Errorf("libpg_query writes %s, which pg_query_go has no message for", name)
			return nil
		}
		return mt.Descriptor()
	}

	written := map[string]bool{}
	var unwritten []string
	funcs := outFuncRE.FindAllStringSubmatch(defs, -1)
	if len(funcs) < 200 {
		t.Fatalf("found only %d _out functions in pg_query_outfuncs_defs.c: the pattern is stale", len(funcs))
	}
	for _, f := range funcs {
		md := find(f[1])
		if md == nil {
			continue
		}
		written[f[1]] = true
		covered := map[string]bool{}
		for _, line := range strings.Split(f[2], "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			m := writeRE.FindStringSubmatch(line)
			if m == nil {
				t.Errorf("%s: unexpected line %q", f[1], line)
				continue
			}
			macro, args := m[1], strings.Split(m[2], ", ")
			var typeName string
			switch macro {
			case "ENUM":
				typeName, args = args[0], args[1:]
			case "SPECIFIC_NODE", "SPECIFIC_NODE_PTR":
				typeName, args = args[0], args[2:]
			}
			if len(args) != 3 {
				t.Errorf("%s: cannot read %q", f[1], line)
				continue
			}
			fd := md.Fields().ByName(protoreflect.Name(args[0]))
			if fd == nil {
				t.Errorf("%s: libpg_query writes field %s, which pg_query_go does not have", f[1], args[0])
				continue
			}
			covered[args[0]] = true
			if fd.JSONName() != args[1] {
				t.Errorf("%s.%s: written as %q, JSON name is %q", f[1], args[0], args[1], fd.JSONName())
			}
			msg := ""
			if fd.Message() != nil {
				msg = string(fd.Message().Name())
			}
			var ok bool
			switch macro {
			case "BOOL":
				ok = fd.Kind() == protoreflect.BoolKind
			case "INT":
				ok = fd.Kind() == protoreflect.Int32Kind
			case "UINT":
				ok = fd.Kind() == protoreflect.Uint32Kind
			case "LONG":
				ok = fd.Kind() == protoreflect.Int64Kind
			case "UINT64":
				ok = fd.Kind() == protoreflect.Uint64Kind
			case "FLOAT": // %f: the decoder refuses these (unsupported)
				ok = fd.Kind() == protoreflect.DoubleKind
			case "BITMAPSET": // member 0 dropped: refused too
				ok = fd.IsList() && fd.Kind() == protoreflect.Uint64Kind
			case "CHAR", "STRING":
				ok = fd.Kind() == protoreflect.StringKind
			case "ENUM":
				ok = fd.Kind() == protoreflect.EnumKind && string(fd.Enum().Name()) == typeName
			case "LIST":
				ok = fd.IsList() && msg == "Node"
			case "NODE", "NODE_PTR":
				ok = !fd.IsList() && msg == "Node"
			case "SPECIFIC_NODE", "SPECIFIC_NODE_PTR":
				ok = !fd.IsList() && msg == typeName
			default:
				t.Errorf("%s: unknown macro WRITE_%s_FIELD: the decoder does not know how it writes", f[1], macro)
				continue
			}
			if !ok {
				t.Errorf("%s.%s: WRITE_%s_FIELD does not match the protobuf field (%v, list %v, %s)", f[1], args[0], macro, fd.Kind(), fd.IsList(), msg)
			}
			if fd.ContainingOneof() != nil {
				t.Errorf("%s.%s: written by a WRITE macro but in a oneof", f[1], args[0])
			}
		}
		// Fields the C structs lack (the xpr header of expression nodes,
		// JsonTablePathScan.plan) are written by neither output: nothing
		// to decode, and nothing lost.
		for i := 0; i < md.Fields().Len(); i++ {
			if name := string(md.Fields().Get(i).Name()); !covered[name] {
				unwritten = append(unwritten, f[1]+"."+name)
			}
		}
	}
	t.Logf("%d _out functions checked; %d protobuf fields written by neither output: %v", len(funcs), len(unwritten), unwritten)

	// The messages without generated _out functions are written by hand
	// in pg_query_outfuncs_json.c (and pg_query_nodes_to_json); the
	// tricky queries cover their every shape.
	handWritten := map[string]bool{"ParseResult": true, "Node": true, "Integer": true, "Float": true, "Boolean": true,
		"String": true, "BitString": true, "A_Const": true, "List": true, "IntList": true, "OidList": true}
	for _, md := range gentest.TreeMessages() {
		name := string(md.Name())
		if !written[name] && !handWritten[name] {
			t.Errorf("%s: no _out function and not known to be written by hand", name)
		}
		if written[name] && handWritten[name] {
			t.Errorf("%s: now has an _out function: review the decoder's assumptions", name)
		}
	}

	// Node members.
	node := (&pg.Node{}).ProtoReflect().Descriptor()
	keys := map[string]bool{}
	for _, m := range outNodeRE.FindAllStringSubmatch(conds, -1) {
		keys[m[1]] = true
	}
	if len(keys) != node.Fields().Len() {
		t.Errorf("libpg_query writes %d node types, Node has %d members", len(keys), node.Fields().Len())
	}
	for i := 0; i < node.Fields().Len(); i++ {
		fd := node.Fields().Get(i)
		if !keys[fd.JSONName()] {
			t.Errorf("Node.%s: JSON name %q is not a node type libpg_query writes", fd.Name(), fd.JSONName())
		}
		if string(fd.Message().Name()) != fd.JSONName() {
			t.Errorf("Node.%s: JSON name %q but message %s", fd.Name(), fd.JSONName(), fd.Message().Name())
		}
	}

	// Enums: _enumToString gives the JSON name, _enumToInt the protobuf
	// number; the decoder maps the name through pg_query_go's descriptor.
	names := map[string]map[string]bool{}
	numbers := map[string]map[string]int{}
	for _, m := range enumFuncRE.FindAllStringSubmatch(enumDefs, -1) {
		kind, enum := m[1], m[2]
		for _, c := range enumCaseRE.FindAllStringSubmatch(m[3], -1) {
			if kind == "String" {
				if c[2] != `"` || c[1] != c[3] {
					t.Errorf("_enumToString%s: %s is written as %s", enum, c[1], c[3])
				}
				if names[enum] == nil {
					names[enum] = map[string]bool{}
				}
				names[enum][c[1]] = true
				continue
			}
			n, err := strconv.Atoi(c[3])
			if err != nil {
				t.Errorf("_enumToInt%s: %s", enum, c[0])
				continue
			}
			if numbers[enum] == nil {
				numbers[enum] = map[string]int{}
			}
			numbers[enum][c[1]] = n
		}
	}
	if len(names) < 60 {
		t.Fatalf("found only %d enums in pg_query_enum_defs.c: the pattern is stale", len(names))
	}
	for enum, vals := range names {
		et, err := protoregistry.GlobalTypes.FindEnumByName(protoreflect.FullName("pg_query." + enum))
		if err != nil {
			t.Errorf("enum %s: not in pg_query_go", enum)
			continue
		}
		ed := et.Descriptor()
		for v := range vals {
			pv := ed.Values().ByName(protoreflect.Name(v))
			switch {
			case pv == nil:
				t.Errorf("enum %s: libpg_query writes %s, which pg_query_go does not have", enum, v)
			case pv.Number() == 0:
				t.Errorf("enum %s: %s is number 0, which the decoder refuses", enum, v)
			case int(pv.Number()) != numbers[enum][v]:
				t.Errorf("enum %s: %s is %d in protobuf, %d in libpg_query's protobuf output", enum, v, pv.Number(), numbers[enum][v])
			}
		}
		for i := 0; i < ed.Values().Len(); i++ {
			if v := ed.Values().Get(i); v.Number() != 0 && !vals[string(v.Name())] {
				t.Errorf("enum %s: %s is never written by libpg_query", enum, v.Name())
			}
		}
	}
}
