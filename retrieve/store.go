package retrieve

import (
	"context"
	"errors"
)

// Kind is the kind of an indexed document.
type Kind string

// Document kinds.
const (
	KindTable   Kind = "table"
	KindColumn  Kind = "column"
	KindModule  Kind = "module"
	KindExample Kind = "example" // knowledge: a verified question and its SQL
	KindDoc     Kind = "doc"     // knowledge: documentation of a table, a column, or free-standing
	KindTerm    Kind = "term"    // knowledge: a glossary term and what it means in the schema
)

// KnowledgeID is the ID prefix of knowledge documents (examples, docs,
// terms). An index build never writes or prunes them: they outlive
// catalog changes and re-indexing, in every store.
const KnowledgeID = "knowledge:"

// Document is one searchable unit of the schema index.
type Document struct {
	ID     string `json:"id"` // "table:sales.orders", "column:sales.orders.tot_amt", "module:sales"
	Kind   Kind   `json:"kind"`
	Scope  string `json:"scope,omitempty"`  // schema the document belongs to
	Module string `json:"module,omitempty"` // module of the table
	Table  string `json:"table,omitempty"`  // qualified table name
	Column string `json:"column,omitempty"`
	Text   string `json:"text"` // what is embedded and lexically indexed
	// Vector is the embedding of Text; documents without one are found by
	// lexical search only.
	Vector []float32 `json:"vector,omitempty"`
	// Fingerprint identifies the structure the document was built from (a
	// table's fingerprint for table and column documents), so a re-index can
	// skip what did not change.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Catalog is the catalog fingerprint of the index build that wrote it.
	Catalog string `json:"catalog,omitempty"`
	// Data is what a knowledge document carries beyond its Text (the SQL
	// and note of an example, the targets of a term), as JSON.
	Data string `json:"data,omitempty"`
}

// Filter restricts a search. Empty fields do not filter.
type Filter struct {
	Kinds   []Kind
	Scopes  []string
	Modules []string
}

func (f Filter) match(d *Document) bool {
	return in(f.Kinds, d.Kind) && in(f.Scopes, d.Scope) && in(f.Modules, d.Module)
}

func in[T comparable](set []T, v T) bool {
	if len(set) == 0 {
		return true
	}
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}

// Hit is a search result; Score is higher for better matches (cosine
// similarity for vector search, BM25 or ts_rank for lexical search).
type Hit struct {
	Document
	Score float64 `json:"score"`
}

// SchemaStore stores index documents and searches them. MemoryStore is the
// embedded default; PGVectorStore keeps them in PostgreSQL with pgvector.
// Implementations must be safe for concurrent use.
type SchemaStore interface {
	// Upsert inserts documents or replaces those with the same ID.
	Upsert(ctx context.Context, docs []Document) error
	// SearchVector returns the k documents nearest to v (cosine) that pass f.
	SearchVector(ctx context.Context, v []float32, k int, f Filter) ([]Hit, error)
	// SearchText returns the k best lexical matches of query that pass f.
	SearchText(ctx context.Context, query string, k int, f Filter) ([]Hit, error)
	// Delete removes documents by ID; unknown IDs are ignored.
	Delete(ctx context.Context, ids []string) error
	// DeleteCatalog removes every document written by the index build of
	// the given catalog fingerprint.
	DeleteCatalog(ctx context.Context, catalogFingerprint string) error
	// Manifest returns the ID -> Fingerprint of every stored document.
	Manifest(ctx context.Context) (map[string]string, error)
	// Documents returns the stored documents that pass f, ordered by ID.
	Documents(ctx context.Context, f Filter) ([]Document, error)
}

// ErrDimension is returned when a vector's length does not match the store's.
var ErrDimension = errors.New("retrieve: vector dimension mismatch")
