package semantic

import (
	"bytes"
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
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(m); err != nil && !errors.Is(err, io.EOF) {
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

// decodeStrict decodes a mapping node into v (a pointer to a struct),
// refusing keys the struct has no field for (the library checks unknown
// keys only at the top level once a type decodes itself), and returns the
// node's line.
func decodeStrict(n *yaml.Node, v any) (int, error) {
	if n.Kind != yaml.MappingNode {
		return n.Line, &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: want a mapping, not %s", n.Line, kindName(n))}}
	}
	known := map[string]bool{}
	t := reflect.TypeOf(v).Elem()
	for i := range t.NumField() {
		if tag := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]; tag != "" && tag != "-" {
			known[tag] = true
		}
	}
	var unknown []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !known[k.Value] {
			unknown = append(unknown, fmt.Sprintf("line %d: unknown key %q", k.Line, k.Value))
		}
	}
	err := n.Decode(v)
	if len(unknown) > 0 {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			unknown = append(unknown, te.Errors...)
		}
		return n.Line, &yaml.TypeError{Errors: unknown}
	}
	return n.Line, err
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("%q", n.Value)
	}
	return "this node"
}

// UnmarshalYAML records the entity's line and refuses unknown keys.
func (e *Entity) UnmarshalYAML(n *yaml.Node) (err error) {
	type plain Entity
	e.Line, err = decodeStrict(n, (*plain)(e))
	return err
}

// UnmarshalYAML records the dimension's line and refuses unknown keys.
func (d *Dimension) UnmarshalYAML(n *yaml.Node) (err error) {
	type plain Dimension
	d.Line, err = decodeStrict(n, (*plain)(d))
	return err
}

// UnmarshalYAML records the time dimension's line and refuses unknown keys.
func (d *TimeDimension) UnmarshalYAML(n *yaml.Node) (err error) {
	type plain TimeDimension
	d.Line, err = decodeStrict(n, (*plain)(d))
	return err
}

// UnmarshalYAML records the measure's line and refuses unknown keys.
func (m *Measure) UnmarshalYAML(n *yaml.Node) (err error) {
	type plain Measure
	m.Line, err = decodeStrict(n, (*plain)(m))
	return err
}

// UnmarshalYAML records the filter's line and refuses unknown keys.
func (f *Filter) UnmarshalYAML(n *yaml.Node) (err error) {
	type plain Filter
	f.Line, err = decodeStrict(n, (*plain)(f))
	return err
}

// UnmarshalYAML records the metric's line and refuses unknown keys.
func (m *Metric) UnmarshalYAML(n *yaml.Node) (err error) {
	type plain Metric
	m.Line, err = decodeStrict(n, (*plain)(m))
	return err
}

// UnmarshalYAML records the relationship's line and refuses unknown keys.
func (r *Relationship) UnmarshalYAML(n *yaml.Node) (err error) {
	type plain Relationship
	r.Line, err = decodeStrict(n, (*plain)(r))
	return err
}

// UnmarshalYAML records the question's line and refuses unknown keys.
func (q *VerifiedQuestion) UnmarshalYAML(n *yaml.Node) (err error) {
	type plain VerifiedQuestion
	q.Line, err = decodeStrict(n, (*plain)(q))
	return err
}

// UnmarshalYAML records the parameter's line and refuses unknown keys.
func (p *Parameter) UnmarshalYAML(n *yaml.Node) (err error) {
	type plain Parameter
	p.Line, err = decodeStrict(n, (*plain)(p))
	return err
}
