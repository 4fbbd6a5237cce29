package semantic

import (
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxFileSize is the largest model file Read accepts, checked before
// parsing.
const MaxFileSize = 4 << 20

// Load reads the model file at path (see Read).
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("semantic: %w", err)
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads a model from r; name is the file name errors report. It
// checks the file's shape (keys, types, required fields, repeated names,
// parameter kinds and examples), not names against a database: that is
// Check. Errors are Errors, each with its line.
func Read(r io.Reader, name string) (*Model, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("semantic: reading %s: %w", name, err)
	}
	if len(data) > MaxFileSize {
		return nil, Errors{{File: name, Msg: fmt.Sprintf("more than %d bytes", MaxFileSize), Err: ErrTooLarge}}
	}
	m := &Model{File: name}
	if err := decodeDocument(data, m, true); err != nil {
		return nil, yamlErrors(name, err)
	}
	p := &problems{file: name}
	m.shape(p)
	if err := p.err(); err != nil {
		return nil, err
	}
	return m, nil
}

var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// yamlErrors turns the YAML library's messages ("line 3: ...") into Errors.
func yamlErrors(file string, err error) error {
	var msgs []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	var out Errors
	for _, s := range msgs {
		e := &Error{File: file, Msg: strings.TrimPrefix(s, "yaml: "), Err: ErrSyntax}
		if g := yamlLine.FindStringSubmatch(s); g != nil {
			e.Line, _ = strconv.Atoi(g[1])
			e.Msg = g[2]
		}
		out = append(out, e)
	}
	sortErrors(out)
	return out
}

func sortErrors(es Errors) {
	sort.SliceStable(es, func(i, j int) bool { return es[i].Line < es[j].Line })
}

// decodeNode decodes a mapping node into v (an addressable struct) by the
// fields' yaml tags, recording the node's line in an int field named Line
// and recursing into lists of structs, so that every item knows its line.
// Strict, it reports keys no field takes (the library checks unknown keys
// only where it decodes a whole value itself) and repeated keys. Problems
// are appended to errs as "line N: message", the library's own format.
func decodeNode(n *yaml.Node, v reflect.Value, strict bool, errs *[]string) {
	if n.Kind != yaml.MappingNode {
		*errs = append(*errs, fmt.Sprintf("line %d: want a mapping, not %s", n.Line, kindName(n)))
		return
	}
	t := v.Type()
	fields := map[string]int{}
	for i := range t.NumField() {
		if tag := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]; tag != "" && tag != "-" {
			fields[tag] = i
		}
	}
	if f := v.FieldByName("Line"); f.IsValid() && f.Kind() == reflect.Int {
		f.SetInt(int64(n.Line))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		idx, ok := fields[k.Value]
		switch {
		case !ok:
			if strict {
				*errs = append(*errs, fmt.Sprintf("line %d: unknown key %q", k.Line, k.Value))
			}
			continue
		case seen[k.Value]:
			*errs = append(*errs, fmt.Sprintf("line %d: key %q repeated", k.Line, k.Value))
			continue
		}
		seen[k.Value] = true
		f := v.Field(idx)
		if et := f.Type(); et.Kind() == reflect.Slice && et.Elem().Kind() == reflect.Pointer && et.Elem().Elem().Kind() == reflect.Struct {
			if val.Kind != yaml.SequenceNode {
				if val.Tag != "!!null" {
					*errs = append(*errs, fmt.Sprintf("line %d: %s: want a list, not %s", val.Line, k.Value, kindName(val)))
				}
				continue
			}
			list := reflect.MakeSlice(et, 0, len(val.Content))
			for _, item := range val.Content {
				p := reflect.New(et.Elem().Elem())
				decodeNode(item, p.Elem(), strict, errs)
				list = reflect.Append(list, p)
			}
			f.Set(list)
			continue
		}
		if err := val.Decode(f.Addr().Interface()); err != nil {
			var te *yaml.TypeError
			if errors.As(err, &te) {
				*errs = append(*errs, te.Errors...)
			} else {
				*errs = append(*errs, fmt.Sprintf("line %d: %v", val.Line, err))
			}
		}
	}
}

// decodeDocument parses data and decodes its one document into v (a
// pointer to a struct); an empty document leaves v as it is.
func decodeDocument(data []byte, v any, strict bool) error {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return err
	}
	if root.Kind == 0 || len(root.Content) == 0 {
		return nil
	}
	var errs []string
	decodeNode(root.Content[0], reflect.ValueOf(v).Elem(), strict, &errs)
	if len(errs) > 0 {
		return &yaml.TypeError{Errors: errs}
	}
	return nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		return fmt.Sprintf("%q", n.Value)
	}
	return "this node"
}
