package retrieve

import (
	"bufio"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// MemoryStore is an in-memory SchemaStore: exact cosine k-NN over normalised
// vectors and Okapi BM25 over Terms of the document text. It can be saved to
// and loaded from a file. The zero value is ready to use.
type MemoryStore struct {
	mu   sync.RWMutex
	docs []*Document    // nil slots are deleted documents
	byID map[string]int // ID -> slot
	dim  int

	// lexical index
	postings map[string][]posting
	df       map[string]int // live documents per term
	docLen   []int
	totalLen int
	live     int

	// byScope and byKind list the slots of each scope and kind (deleted
	// slots included until compaction), so a search filtered to a tenant's
	// schemas, or to the few module documents, reads those documents only.
	byScope map[string][]int
	byKind  map[Kind][]int
}

type posting struct {
	doc int
	tf  int
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{} }

// Upsert implements SchemaStore.
func (s *MemoryStore) Upsert(ctx context.Context, docs []Document) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byID == nil {
		s.byID, s.postings, s.df = map[string]int{}, map[string][]posting{}, map[string]int{}
		s.byScope, s.byKind = map[string][]int{}, map[Kind][]int{}
	}
	for i := range docs {
		if v := docs[i].Vector; len(v) > 0 {
			if s.dim == 0 {
				s.dim = len(v)
			} else if len(v) != s.dim {
				return fmt.Errorf("%w: document %q has %d, store has %d", ErrDimension, docs[i].ID, len(v), s.dim)
			}
		}
	}
	for i := range docs {
		d := docs[i]
		if len(d.Vector) > 0 {
			d.Vector = append([]float32(nil), d.Vector...)
			normalize(d.Vector)
		}
		if slot, ok := s.byID[d.ID]; ok {
			s.removeSlot(slot)
		}
		s.add(&d)
	}
	s.maybeCompact()
	return nil
}

// add stores d in a new slot and indexes it.
func (s *MemoryStore) add(d *Document) {
	slot := len(s.docs)
	s.docs = append(s.docs, d)
	s.byID[d.ID] = slot
	s.byScope[d.Scope] = append(s.byScope[d.Scope], slot)
	s.byKind[d.Kind] = append(s.byKind[d.Kind], slot)
	s.addPostings(slot, d.Text)
}

func (s *MemoryStore) addPostings(slot int, text string) {
	tf := map[string]int{}
	terms := gloss.Terms(text)
	for _, t := range terms {
		tf[t]++
	}
	for t, n := range tf {
		s.postings[t] = append(s.postings[t], posting{slot, n})
		s.df[t]++
	}
	for len(s.docLen) <= slot {
		s.docLen = append(s.docLen, 0)
	}
	s.docLen[slot] = len(terms)
	s.totalLen += len(terms)
	s.live++
}

// removeSlot marks a slot deleted; postings are dropped lazily by compaction.
func (s *MemoryStore) removeSlot(slot int) {
	d := s.docs[slot]
	if d == nil {
		return
	}
	delete(s.byID, d.ID)
	s.docs[slot] = nil
	s.totalLen -= s.docLen[slot]
	s.live--
	seen := map[string]bool{}
	for _, t := range gloss.Terms(d.Text) {
		if !seen[t] {
			seen[t] = true
			if s.df[t]--; s.df[t] <= 0 {
				delete(s.df, t)
			}
		}
	}
}

// maybeCompact rebuilds the slots when more than a third are deleted, so
// repeated re-indexing does not grow memory without bound.
func (s *MemoryStore) maybeCompact() {
	if dead := len(s.docs) - s.live; dead < 64 || dead*3 < len(s.docs) {
		return
	}
	docs := s.docs
	s.docs, s.docLen, s.totalLen, s.live = nil, nil, 0, 0
	s.byID, s.postings, s.df = map[string]int{}, map[string][]posting{}, map[string]int{}
	s.byScope, s.byKind = map[string][]int{}, map[Kind][]int{}
	for _, d := range docs {
		if d != nil {
			s.add(d)
		}
	}
}

// SearchVector implements SchemaStore.
func (s *MemoryStore) SearchVector(ctx context.Context, v []float32, k int, f Filter) ([]Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.dim != 0 && len(v) != s.dim {
		return nil, fmt.Errorf("%w: query has %d, store has %d", ErrDimension, len(v), s.dim)
	}
	q := append([]float32(nil), v...)
	normalize(q)
	top := s.newTopK(k)
	s.eachSlot(f, func(slot int) {
		if d := s.docs[slot]; d != nil && len(d.Vector) > 0 && f.match(d) {
			top.push(slot, float64(dot(q, d.Vector)))
		}
	})
	return s.hits(top), nil
}

// eachSlot calls fn with every slot that may match f: those of f's scopes,
// else of its kinds, else all.
func (s *MemoryStore) eachSlot(f Filter, fn func(slot int)) {
	switch {
	case len(f.Scopes) > 0:
		eachListed(s.byScope, f.Scopes, fn)
	case len(f.Kinds) > 0:
		eachListed(s.byKind, f.Kinds, fn)
	default:
		for slot := range s.docs {
			fn(slot)
		}
	}
}

// eachListed calls fn with the slots listed under each distinct key.
func eachListed[K comparable](lists map[K][]int, keys []K, fn func(slot int)) {
	for i, k := range keys {
		if slices.Contains(keys[:i], k) {
			continue
		}
		for _, slot := range lists[k] {
			fn(slot)
		}
	}
}

// BM25 parameters (Robertson/Sparck Jones defaults).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// SearchText implements SchemaStore with Okapi BM25.
func (s *MemoryStore) SearchText(ctx context.Context, query string, k int, f Filter) ([]Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.live == 0 {
		return nil, nil
	}
	avg := float64(s.totalLen) / float64(s.live)
	scores := map[int]float64{}
	seen := map[string]bool{}
	for _, t := range gloss.Terms(query) {
		if seen[t] {
			continue
		}
		seen[t] = true
		ps := s.postings[t]
		df := s.df[t]
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (float64(s.live)-float64(df)+0.5)/(float64(df)+0.5))
		for _, p := range ps {
			d := s.docs[p.doc]
			if d == nil || !f.match(d) {
				continue
			}
			tf := float64(p.tf)
			norm := tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(s.docLen[p.doc])/avg))
			scores[p.doc] += idf * norm
		}
	}
	top := s.newTopK(k)
	for slot, sc := range scores {
		top.push(slot, sc)
	}
	return s.hits(top), nil
}

func (s *MemoryStore) hits(top *topK) []Hit {
	out := make([]Hit, len(top.items))
	for i, it := range top.items {
		out[i] = Hit{Document: *s.docs[it.slot], Score: it.score}
	}
	return out
}

// Delete implements SchemaStore.
func (s *MemoryStore) Delete(ctx context.Context, ids []string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		if slot, ok := s.byID[id]; ok {
			s.removeSlot(slot)
		}
	}
	s.maybeCompact()
	return nil
}

// DeleteCatalog implements SchemaStore.
func (s *MemoryStore) DeleteCatalog(ctx context.Context, fp string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for slot, d := range s.docs {
		if d != nil && d.Catalog == fp {
			s.removeSlot(slot)
		}
	}
	s.maybeCompact()
	return nil
}

// Manifest implements SchemaStore.
func (s *MemoryStore) Manifest(ctx context.Context) (map[string]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	m := make(map[string]string, s.live)
	for _, d := range s.docs {
		if d != nil {
			m[d.ID] = d.Fingerprint
		}
	}
	return m, nil
}

// Documents implements SchemaStore.
func (s *MemoryStore) Documents(ctx context.Context, f Filter) ([]Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	var out []Document
	for _, d := range s.docs {
		if d != nil && f.match(d) {
			out = append(out, *d)
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(out, func(a, b Document) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// Len returns the number of stored documents.
func (s *MemoryStore) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.live
}

const memoryFileMagic = "nl2sql-memory-store/1"

// ErrBadStoreFile is returned by LoadMemoryStore for a file that is not a
// saved MemoryStore (or of another format version).
var ErrBadStoreFile = errors.New("retrieve: not a memory store file")

// Save writes the store's documents to w (gob, with a format header).
func (s *MemoryStore) Save(w io.Writer) error {
	s.mu.RLock()
	docs := make([]Document, 0, s.live)
	for _, d := range s.docs {
		if d != nil {
			docs = append(docs, *d)
		}
	}
	s.mu.RUnlock()
	bw := bufio.NewWriter(w)
	enc := gob.NewEncoder(bw)
	if err := enc.Encode(memoryFileMagic); err != nil {
		return err
	}
	if err := enc.Encode(docs); err != nil {
		return err
	}
	return bw.Flush()
}

// LoadMemoryStore reads a store written by Save.
func LoadMemoryStore(r io.Reader) (*MemoryStore, error) {
	dec := gob.NewDecoder(bufio.NewReader(r))
	var magic string
	if err := dec.Decode(&magic); err != nil || magic != memoryFileMagic {
		return nil, fmt.Errorf("%w (header %q: %v)", ErrBadStoreFile, magic, err)
	}
	var docs []Document
	if err := dec.Decode(&docs); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadStoreFile, err)
	}
	s := NewMemoryStore()
	if err := s.Upsert(context.Background(), docs); err != nil {
		return nil, err
	}
	return s, nil
}

// topK keeps the k best (slot, score) pairs under a total order (score
// descending, then document ID), so results never depend on map order.
type topK struct {
	k      int
	items  []scored
	better func(a, b scored) bool
}

type scored struct {
	slot  int
	score float64
}

func (s *MemoryStore) newTopK(k int) *topK {
	return &topK{k: k, better: func(a, b scored) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return s.docs[a.slot].ID < s.docs[b.slot].ID
	}}
}

func (t *topK) push(slot int, score float64) {
	if t.k <= 0 {
		return
	}
	it := scored{slot, score}
	n := len(t.items)
	if n == t.k && !t.better(it, t.items[n-1]) {
		return
	}
	i := sort.Search(n, func(i int) bool { return t.better(it, t.items[i]) })
	if n < t.k {
		t.items = append(t.items, scored{})
	}
	copy(t.items[i+1:], t.items[i:len(t.items)-1])
	t.items[i] = it
}
