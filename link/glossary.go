package link

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// Glossary maps business terms to the tables and columns they mean:
//
//	{"headcount": ["hr.employees"], "revenue": ["sales.invoices.tot_amt"]}
//
// Targets are "schema.table" or "schema.table.column" (a bare "table" or
// "table.column" means schema public when no such schema exists). Terms are
// matched in questions case-insensitively and singular/plural-insensitively.
type Glossary map[string][]string

// ErrInvalidGlossary is returned (wrapped) for a glossary that cannot be read.
var ErrInvalidGlossary = errors.New("link: invalid glossary")

// UnknownTargetError reports a glossary target that names no table or column
// of the catalog.
type UnknownTargetError struct {
	Term, Target string
}

func (e *UnknownTargetError) Error() string {
	return fmt.Sprintf("link: glossary term %q: unknown table or column %q", e.Term, e.Target)
}

// UnmarshalJSON accepts a target list or a single target string per term.
func (g *Glossary) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidGlossary, err)
	}
	out := make(Glossary, len(raw))
	for _, term := range sortedKeys(raw) { // the same error on every load
		v := raw[term]
		var list []string
		if err := json.Unmarshal(v, &list); err != nil {
			var one string
			if err2 := json.Unmarshal(v, &one); err2 != nil {
				return fmt.Errorf("%w: term %q: want a string or a list of strings", ErrInvalidGlossary, term)
			}
			list = []string{one}
		}
		if strings.TrimSpace(term) == "" {
			return fmt.Errorf("%w: empty term", ErrInvalidGlossary)
		}
		out[term] = list
	}
	*g = out
	return nil
}

// LoadGlossary reads a glossary in JSON.
func LoadGlossary(r io.Reader) (Glossary, error) {
	var g Glossary
	dec := json.NewDecoder(r)
	if err := dec.Decode(&g); err != nil {
		if errors.Is(err, ErrInvalidGlossary) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %v", ErrInvalidGlossary, err)
	}
	return g, nil
}

// Validate checks every target against the catalog; the error joins one
// *UnknownTargetError per unknown target.
func (g Glossary) Validate(cat *schema.Catalog) error {
	var errs []error
	for _, term := range sortedKeys(g) {
		for _, target := range g[term] {
			if _, _, ok := resolveTarget(cat, target); !ok {
				errs = append(errs, &UnknownTargetError{Term: term, Target: target})
			}
		}
	}
	return errors.Join(errs...)
}

// resolveTarget returns the table and (possibly empty) column a target names.
func resolveTarget(cat *schema.Catalog, target string) (*schema.Table, string, bool) {
	if cat == nil {
		return nil, "", false
	}
	if t := cat.Table(target); t != nil {
		return t, "", true
	}
	i := strings.LastIndexByte(target, '.')
	if i < 0 {
		return nil, "", false
	}
	t := cat.Table(target[:i])
	if t == nil || t.Column(target[i+1:]) == nil {
		return nil, "", false
	}
	return t, target[i+1:], true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// glossTerm is a glossary term prepared for matching.
type glossTerm struct {
	term    string
	words   []string // stems, stopwords included: "cost of goods"
	targets []glossTarget
}

type glossTarget struct {
	table  int32
	column string // "" for the table
}

// termStems normalises a term or question for glossary matching; unlike
// gloss.ContentStems it keeps stopwords so multi-word terms match exactly.
func termStems(s string) []string {
	toks := gloss.Tokenize(s)
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Stem
	}
	return out
}
