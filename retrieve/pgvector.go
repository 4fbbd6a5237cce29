package retrieve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pgvector/pgvector-go"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// PGVectorDB is what PGVectorStore needs of a connection: *pgxpool.Pool and
// *pgx.Conn satisfy it.
type PGVectorDB interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Begin(ctx context.Context) (pgx.Tx, error)
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// ErrNoPGVector is returned when the database lacks the vector extension and
// it cannot be created.
var ErrNoPGVector = errors.New("retrieve: the pgvector extension is not available")

// PGVectorOption configures a PGVectorStore.
type PGVectorOption interface{ applyPG(*pgConfig) }

type pgConfig struct {
	schema    string
	namespace string
	m, efc    int
	migrate   bool
	logger    *slog.Logger
}

type pgOptionFunc func(*pgConfig)

func (f pgOptionFunc) applyPG(c *pgConfig) { f(c) }

// WithStoreSchema sets the schema holding the store's table (default "nl2sql").
func WithStoreSchema(name string) PGVectorOption {
	return pgOptionFunc(func(c *pgConfig) { c.schema = name })
}

// WithNamespace separates indexes of different databases sharing one store
// (default "default").
func WithNamespace(ns string) PGVectorOption {
	return pgOptionFunc(func(c *pgConfig) { c.namespace = ns })
}

// WithHNSW sets the HNSW build parameters m and ef_construction (defaults 16, 64).
func WithHNSW(m, efConstruction int) PGVectorOption {
	return pgOptionFunc(func(c *pgConfig) { c.m, c.efc = m, efConstruction })
}

// WithMigrate controls whether NewPGVectorStore creates the extension, schema,
// table and indexes when missing (default true). Turn it off when a
// migration tool owns the DDL.
func WithMigrate(on bool) PGVectorOption { return pgOptionFunc(func(c *pgConfig) { c.migrate = on }) }

// PGVectorStore is a SchemaStore in PostgreSQL: one table in its own schema
// with a pgvector column under an HNSW index (cosine distance) and a
// tsvector column under a GIN index for the lexical side. Many engine
// replicas can share it; namespaces keep databases apart.
type PGVectorStore struct {
	db    PGVectorDB
	cfg   pgConfig
	dim   int
	table string // quoted schema.table
}

// NewPGVectorStore opens (and by default creates) a store for vectors of dim
// dimensions.
func NewPGVectorStore(ctx context.Context, db PGVectorDB, dim int, opts ...PGVectorOption) (*PGVectorStore, error) {
	cfg := pgConfig{schema: "nl2sql", namespace: "default", m: 16, efc: 64, migrate: true, logger: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o.applyPG(&cfg)
	}
	if dim <= 0 || dim > 16000 {
		return nil, fmt.Errorf("retrieve: pgvector dimension %d out of range", dim)
	}
	s := &PGVectorStore{db: db, cfg: cfg, dim: dim, table: pgx.Identifier{cfg.schema, "documents"}.Sanitize()}
	if cfg.migrate {
		if err := s.migrate(ctx); err != nil {
			return nil, err
		}
	}
	var have int
	err := db.QueryRow(ctx, `
SELECT a.atttypmod FROM pg_attribute a
WHERE a.attrelid = to_regclass($1) AND a.attname = 'embedding'`, s.table).Scan(&have)
	if err != nil {
		return nil, fmt.Errorf("retrieve: pgvector store table %s: %w", s.table, err)
	}
	if have != dim {
		return nil, fmt.Errorf("%w: store %s holds %d dimensions, embedder has %d", ErrDimension, s.table, have, dim)
	}
	return s, nil
}

func (s *PGVectorStore) migrate(ctx context.Context) error {
	var ok bool
	if err := s.db.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector')").Scan(&ok); err != nil {
		return err
	}
	if !ok {
		if _, err := s.db.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS vector"); err != nil {
			return fmt.Errorf("%w: %v", ErrNoPGVector, err)
		}
	}
	sch := pgx.Identifier{s.cfg.schema}.Sanitize()
	idx := func(name string) string { return pgx.Identifier{name}.Sanitize() }
	for _, q := range []string{
		"CREATE SCHEMA IF NOT EXISTS " + sch,
		fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s (
  ns          text NOT NULL,
  id          text NOT NULL,
  kind        text NOT NULL,
  scope       text NOT NULL DEFAULT '',
  module      text NOT NULL DEFAULT '',
  tbl         text NOT NULL DEFAULT '',
  col         text NOT NULL DEFAULT '',
  body        text NOT NULL,
  terms       text NOT NULL,
  embedding   vector(%d),
  fingerprint text NOT NULL DEFAULT '',
  catalog     text NOT NULL DEFAULT '',
  data        text NOT NULL DEFAULT '',
  tsv         tsvector GENERATED ALWAYS AS (to_tsvector('simple', terms)) STORED,
  PRIMARY KEY (ns, id)
)`, s.table, s.dim),
		// Stores created before knowledge documents lack the column.
		fmt.Sprintf("ALTER TABLE %s ADD COLUMN IF NOT EXISTS data text NOT NULL DEFAULT ''", s.table),
		fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s USING hnsw (embedding vector_cosine_ops) WITH (m = %d, ef_construction = %d)",
			idx("documents_embedding_hnsw"), s.table, s.cfg.m, s.cfg.efc),
		fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s USING gin (tsv)", idx("documents_tsv_gin"), s.table),
		fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s (ns, catalog)", idx("documents_catalog"), s.table),
		// Selective filters (module documents, one tenant's tables) are
		// cheaper read exactly than through the approximate index.
		fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s (ns, kind, scope)", idx("documents_kind_scope"), s.table),
	} {
		if _, err := s.db.Exec(ctx, q); err != nil {
			return fmt.Errorf("retrieve: pgvector store migration: %w", err)
		}
	}
	return nil
}

// Upsert implements SchemaStore.
func (s *PGVectorStore) Upsert(ctx context.Context, docs []Document) error {
	const chunk = 500
	for start := 0; start < len(docs); start += chunk {
		b := &pgx.Batch{}
		for _, d := range docs[start:min(start+chunk, len(docs))] {
			var vec any
			if len(d.Vector) > 0 {
				if len(d.Vector) != s.dim {
					return fmt.Errorf("%w: document %q has %d, store has %d", ErrDimension, d.ID, len(d.Vector), s.dim)
				}
				v := append([]float32(nil), d.Vector...)
				normalize(v)
				vec = pgvector.NewVector(v)
			}
			b.Queue(`INSERT INTO `+s.table+` (ns, id, kind, scope, module, tbl, col, body, terms, embedding, fingerprint, catalog, data)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
ON CONFLICT (ns, id) DO UPDATE SET kind = excluded.kind, scope = excluded.scope, module = excluded.module,
  tbl = excluded.tbl, col = excluded.col, body = excluded.body, terms = excluded.terms,
  embedding = excluded.embedding, fingerprint = excluded.fingerprint, catalog = excluded.catalog, data = excluded.data`,
				s.cfg.namespace, d.ID, string(d.Kind), d.Scope, d.Module, d.Table, d.Column, d.Text,
				strings.Join(gloss.Terms(d.Text), " "), vec, d.Fingerprint, d.Catalog, d.Data)
		}
		if err := s.db.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("retrieve: pgvector upsert: %w", err)
		}
	}
	if len(docs) >= analyzeAfter {
		// Without statistics the planner takes a freshly filled table for
		// empty and filters every row instead of using the HNSW and GIN
		// indexes (10 ms instead of 1 ms per search at 20,000 documents);
		// autovacuum would only catch up later. A failure (not the owner)
		// costs speed, not results.
		if _, err := s.db.Exec(ctx, "ANALYZE "+s.table); err != nil {
			s.cfg.logger.WarnContext(ctx, "retrieve: pgvector: ANALYZE after upsert failed", "err", err)
		}
	}
	return nil
}

// analyzeAfter is the batch size from which Upsert refreshes the planner's
// statistics.
const analyzeAfter = 500

// filterSQL appends the filter conditions, numbering parameters from len(args)+1.
func filterSQL(f Filter, args []any) (string, []any) {
	var where []string
	add := func(col string, vals []string) {
		if len(vals) > 0 {
			args = append(args, vals)
			where = append(where, fmt.Sprintf("%s = ANY($%d)", col, len(args)))
		}
	}
	kinds := make([]string, len(f.Kinds))
	for i, k := range f.Kinds {
		kinds[i] = string(k)
	}
	add("kind", kinds)
	add("scope", f.Scopes)
	add("module", f.Modules)
	if len(where) == 0 {
		return "", args
	}
	return " AND " + strings.Join(where, " AND "), args
}

const pgColumns = "id, kind, scope, module, tbl, col, body, fingerprint, catalog, data"

func scanHits(rows pgx.Rows) ([]Hit, error) {
	defer rows.Close()
	var out []Hit
	for rows.Next() {
		var h Hit
		var kind string
		if err := rows.Scan(&h.ID, &kind, &h.Scope, &h.Module, &h.Table, &h.Column, &h.Text, &h.Fingerprint, &h.Catalog, &h.Data, &h.Score); err != nil {
			return nil, err
		}
		h.Kind = Kind(kind)
		out = append(out, h)
	}
	return out, rows.Err()
}

// SearchVector implements SchemaStore. Filtered searches use pgvector's
// iterative index scans (0.8+) so a filter never starves the result.
func (s *PGVectorStore) SearchVector(ctx context.Context, v []float32, k int, f Filter) ([]Hit, error) {
	if len(v) != s.dim {
		return nil, fmt.Errorf("%w: query has %d, store has %d", ErrDimension, len(v), s.dim)
	}
	q := append([]float32(nil), v...)
	normalize(q)
	where, args := filterSQL(f, []any{s.cfg.namespace, pgvector.NewVector(q), k})
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("retrieve: pgvector search: %w", err)
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck // read-only; rollback ends it
	if _, err := tx.Exec(ctx, "SELECT set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)",
		fmt.Sprint(max(40, 2*k))); err != nil {
		return nil, fmt.Errorf("retrieve: pgvector search: %w", err)
	}
	rows, err := tx.Query(ctx, `SELECT `+pgColumns+`, 1 - (embedding <=> $2) FROM `+s.table+`
WHERE ns = $1 AND embedding IS NOT NULL`+where+`
ORDER BY embedding <=> $2, id LIMIT $3`, args...)
	if err != nil {
		return nil, fmt.Errorf("retrieve: pgvector search: %w", err)
	}
	hits, err := scanHits(rows)
	if err != nil {
		return nil, fmt.Errorf("retrieve: pgvector search: %w", err)
	}
	return hits, nil
}

// SearchText implements SchemaStore with ts_rank over the same Terms the
// memory store's BM25 uses (any term may match).
func (s *PGVectorStore) SearchText(ctx context.Context, query string, k int, f Filter) ([]Hit, error) {
	terms := gloss.Terms(query)
	if len(terms) == 0 {
		return nil, nil
	}
	seen := map[string]bool{}
	var or []string
	for _, t := range terms {
		if !seen[t] {
			seen[t] = true
			or = append(or, t)
		}
	}
	where, args := filterSQL(f, []any{s.cfg.namespace, strings.Join(or, " | "), k})
	rows, err := s.db.Query(ctx, `SELECT `+pgColumns+`, ts_rank(tsv, to_tsquery('simple', $2))::float8 AS score FROM `+s.table+`
WHERE ns = $1 AND tsv @@ to_tsquery('simple', $2)`+where+`
ORDER BY score DESC, id LIMIT $3`, args...)
	if err != nil {
		return nil, fmt.Errorf("retrieve: pgvector text search: %w", err)
	}
	hits, err := scanHits(rows)
	if err != nil {
		return nil, fmt.Errorf("retrieve: pgvector text search: %w", err)
	}
	return hits, nil
}

// Delete implements SchemaStore.
func (s *PGVectorStore) Delete(ctx context.Context, ids []string) error {
	if _, err := s.db.Exec(ctx, "DELETE FROM "+s.table+" WHERE ns = $1 AND id = ANY($2)", s.cfg.namespace, ids); err != nil {
		return fmt.Errorf("retrieve: pgvector delete: %w", err)
	}
	return nil
}

// DeleteCatalog implements SchemaStore.
func (s *PGVectorStore) DeleteCatalog(ctx context.Context, fp string) error {
	if _, err := s.db.Exec(ctx, "DELETE FROM "+s.table+" WHERE ns = $1 AND catalog = $2", s.cfg.namespace, fp); err != nil {
		return fmt.Errorf("retrieve: pgvector delete: %w", err)
	}
	return nil
}

// Documents implements SchemaStore.
func (s *PGVectorStore) Documents(ctx context.Context, f Filter) ([]Document, error) {
	where, args := filterSQL(f, []any{s.cfg.namespace})
	rows, err := s.db.Query(ctx, `SELECT `+pgColumns+`, 0::float8 FROM `+s.table+` WHERE ns = $1`+where+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("retrieve: pgvector documents: %w", err)
	}
	hits, err := scanHits(rows)
	if err != nil {
		return nil, fmt.Errorf("retrieve: pgvector documents: %w", err)
	}
	docs := make([]Document, len(hits))
	for i, h := range hits {
		docs[i] = h.Document
	}
	return docs, nil
}

// Manifest implements SchemaStore.
func (s *PGVectorStore) Manifest(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.Query(ctx, "SELECT id, fingerprint FROM "+s.table+" WHERE ns = $1", s.cfg.namespace)
	if err != nil {
		return nil, fmt.Errorf("retrieve: pgvector manifest: %w", err)
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var id, fp string
		if err := rows.Scan(&id, &fp); err != nil {
			return nil, err
		}
		m[id] = fp
	}
	return m, rows.Err()
}
