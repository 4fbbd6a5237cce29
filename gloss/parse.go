package gloss

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of the text format: a longer term or line is a ParseError, and
// Related ignores a longer word.
const (
	maxTermLen = 100
	maxLineLen = 64 << 10
)

// ParseError is a malformed line of a thesaurus file.
type ParseError struct {
	Line int    // 1-based line number
	Msg  string // what is wrong
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("gloss: thesaurus line %d: %s", e.Line, e.Msg)
}

// ParseThesaurus reads a thesaurus in the text format described in the package
// documentation. Its terms have Source User. A malformed line is a
// *ParseError naming the line.
func ParseThesaurus(r io.Reader) (*Thesaurus, error) {
	return parse(r, User)
}

func parse(r io.Reader, src Source) (*Thesaurus, error) {
	b := newBuilder()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLineLen)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if err := b.line(line, src); err != "" {
			return nil, &ParseError{Line: n, Msg: err}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{Line: n + 1, Msg: fmt.Sprintf("line longer than %d bytes", maxLineLen)}
		}
		return nil, fmt.Errorf("gloss: thesaurus after line %d: %w", n, err)
	}
	return b.done(), nil
}

// builder collects groups and forms; terms are interned.
type builder struct {
	t      *Thesaurus
	intern map[string]string
}

func newBuilder() *builder {
	return &builder{t: &Thesaurus{index: map[string][]int32{}, forms: map[string][]string{}}, intern: map[string]string{}}
}

func (b *builder) done() *Thesaurus { return b.t }

// line adds one line; it returns what is wrong with it, or "".
func (b *builder) line(line string, src Source) string {
	if !utf8.ValidString(line) {
		return "invalid UTF-8"
	}
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	if line == "" {
		return ""
	}
	if strings.Contains(line, "=>") {
		return `"=>" is no arrow: write ->`
	}
	if form, base, ok := strings.Cut(line, "="); ok {
		if strings.Contains(base, "=") {
			return "more than one ="
		}
		if strings.Contains(line, "->") {
			return "a line is either FORM = BASE or a group with ->, not both"
		}
		if strings.Contains(line, ",") {
			return "FORM = BASE takes one term on each side"
		}
		f, err := b.term(form)
		if err != "" {
			return err
		}
		bs, err := b.term(base)
		if err != "" {
			return err
		}
		if f == bs {
			return fmt.Sprintf("%q = itself", f)
		}
		if !contains(b.t.forms[f], bs) {
			b.t.forms[f] = append(b.t.forms[f], bs)
		}
		return ""
	}
	g := group{source: src}
	if left, right, ok := strings.Cut(line, "->"); ok {
		if strings.Contains(right, "->") {
			return "more than one ->"
		}
		l, err := b.list(left)
		if err != "" {
			return err
		}
		r, err := b.list(right)
		if err != "" {
			return err
		}
		g.terms = append(l, r...)
		g.split = len(l)
	} else {
		terms, err := b.list(line)
		if err != "" {
			return err
		}
		if len(terms) < 2 {
			return "a group needs two terms or more (a, b) or an arrow (a -> b)"
		}
		g.terms = terms
	}
	id := int32(len(b.t.groups))
	b.t.groups = append(b.t.groups, g)
	for _, term := range g.from() {
		b.t.index[term] = append(b.t.index[term], id)
	}
	return ""
}

// list parses comma-separated terms, dropping repeats.
func (b *builder) list(s string) ([]string, string) {
	var out []string
	for part := range strings.SplitSeq(s, ",") {
		t, err := b.term(part)
		if err != "" {
			return nil, err
		}
		if !contains(out, t) {
			out = append(out, t)
		}
	}
	return out, ""
}

func (b *builder) term(s string) (string, string) {
	t, err := normalizeTerm(s)
	if err != nil {
		return "", err.Error()
	}
	if in, ok := b.intern[t]; ok {
		return in, ""
	}
	b.intern[t] = t
	return t, ""
}

// normalizeTerm lower-cases s and separates its words by one space
// (underscores separate words too), and checks it against the format.
func normalizeTerm(s string) (string, error) {
	t := normalize(s)
	switch {
	case t == "":
		return "", errors.New("empty term")
	case len(t) > maxTermLen:
		return "", fmt.Errorf("term longer than %d bytes: %.20q...", maxTermLen, t)
	}
	for _, r := range t {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" '-./&+", r) {
			return "", fmt.Errorf("invalid character %q in %q", r, t)
		}
	}
	return t, nil
}

// normalize lower-cases s and separates its words by single spaces,
// treating underscores as spaces.
func normalize(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '_' || unicode.IsSpace(r) })
	return strings.Join(f, " ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
