package generate

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/llm"
)

// ExampleStore holds verified question -> SQL pairs and finds the ones most
// like a new question, by question similarity and, when a draft query is
// known, by SQL skeleton similarity. It is safe for concurrent use.
type ExampleStore struct {
	emb llm.Embedder

	mu    sync.RWMutex
	items []storedExample
	seen  map[string]bool // canonical SQL + question
}

type storedExample struct {
	Example
	vec      []float32
	skeleton map[string]bool
}

// NewExampleStore returns an empty store; emb embeds questions
// (retrieve.NewHashEmbedder needs no model). It panics if emb is nil.
func NewExampleStore(emb llm.Embedder) *ExampleStore {
	if emb == nil {
		panic("generate: NewExampleStore: nil embedder")
	}
	return &ExampleStore{emb: emb, seen: map[string]bool{}}
}

// Add stores examples; SQL that does not parse as one SELECT is rejected
// with an error naming it; duplicates are ignored.
func (s *ExampleStore) Add(ctx context.Context, examples ...Example) error {
	var texts []string
	var keep []storedExample
	for _, e := range examples {
		sql, ok := parseQuery(e.SQL)
		if !ok || strings.TrimSpace(e.Question) == "" {
			return fmt.Errorf("generate: example %q: need a question and one SELECT query", e.Question)
		}
		e.SQL = sql
		keep = append(keep, storedExample{Example: e, skeleton: skeleton(sql)})
		texts = append(texts, e.Question)
	}
	if len(keep) == 0 {
		return nil
	}
	vecs, err := s.emb.Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("generate: embed examples: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range keep {
		canon, err := Canonical(keep[i].SQL)
		if err != nil {
			canon = keep[i].SQL
		}
		key := exampleKey(keep[i].Question, canon)
		if s.seen[key] {
			continue
		}
		s.seen[key] = true
		keep[i].vec = vecs[i]
		s.items = append(s.items, keep[i])
	}
	return nil
}

// exampleKey identifies an example: its question (case and outer spaces
// aside) and its canonical SQL.
func exampleKey(question, canonical string) string {
	return strings.ToLower(strings.TrimSpace(question)) + "\x00" + canonical
}

// Remove drops the example with this question and SQL (as Add normalised
// them: the same query written differently is the same example); it
// reports whether there was one.
func (s *ExampleStore) Remove(question, sql string) bool {
	norm, ok := parseQuery(sql)
	if !ok {
		return false
	}
	canon, err := Canonical(norm)
	if err != nil {
		canon = norm
	}
	key := exampleKey(question, canon)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.seen[key] {
		return false
	}
	delete(s.seen, key)
	s.items = slices.DeleteFunc(s.items, func(it storedExample) bool {
		c, err := Canonical(it.SQL)
		if err != nil {
			c = it.SQL
		}
		return exampleKey(it.Question, c) == key
	})
	return true
}

// Len returns the number of stored examples.
func (s *ExampleStore) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.items)
}

// Similar returns up to k examples most like question (cosine of question
// embeddings); with a draft query, skeleton overlap (Jaccard of the
// normalised query's tokens) counts for a third of the score.
func (s *ExampleStore) Similar(ctx context.Context, question, draftSQL string, k int) ([]Example, error) {
	if k <= 0 {
		return nil, nil
	}
	vecs, err := s.emb.Embed(ctx, []string{question})
	if err != nil {
		return nil, fmt.Errorf("generate: embed question: %w", err)
	}
	var draft map[string]bool
	if draftSQL != "" {
		draft = skeleton(draftSQL)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	type scored struct {
		i     int
		score float64
	}
	var all []scored
	for i, it := range s.items {
		sc := cosine(vecs[0], it.vec)
		if draft != nil {
			sc = 2*sc/3 + jaccard(draft, it.skeleton)/3
		}
		all = append(all, scored{i, sc})
	}
	sort.Slice(all, func(a, b int) bool {
		if all[a].score != all[b].score {
			return all[a].score > all[b].score
		}
		return all[a].i < all[b].i
	})
	var out []Example
	for _, sc := range all[:min(k, len(all))] {
		if sc.score <= 0 {
			break
		}
		out = append(out, s.items[sc.i].Example)
	}
	return out, nil
}

// Save writes the examples as a JSON array.
func (s *ExampleStore) Save(w io.Writer) error {
	s.mu.RLock()
	ex := make([]Example, len(s.items))
	for i, it := range s.items {
		ex[i] = it.Example
	}
	s.mu.RUnlock()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(ex)
}

// Load adds the examples of a JSON array written by Save.
func (s *ExampleStore) Load(ctx context.Context, r io.Reader) error {
	var ex []Example
	if err := json.NewDecoder(r).Decode(&ex); err != nil {
		return fmt.Errorf("generate: load examples: %w", err)
	}
	return s.Add(ctx, ex...)
}

// skeleton is the set of tokens of the normalised query (constants replaced
// by placeholders), plus adjacent token pairs for a little order.
func skeleton(sql string) map[string]bool {
	norm, err := pg_query.Normalize(sql)
	if err != nil {
		norm = sql
	}
	toks := strings.Fields(strings.ToLower(norm))
	set := make(map[string]bool, 2*len(toks))
	for i, t := range toks {
		set[t] = true
		if i > 0 {
			set[toks[i-1]+" "+t] = true
		}
	}
	return set
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	inter := 0
	for k := range a {
		if b[k] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

func cosine(a, b []float32) float64 {
	var s, na, nb float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return s / (math.Sqrt(na) * math.Sqrt(nb))
}
