package retrieve_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// onPGVector runs test once per pgvector server: PGlite, and a regular
// PostgreSQL with pgvector when the test cluster has it.
func onPGVector(t *testing.T, test func(t *testing.T, dsn string)) {
	for _, srv := range pgtest.PGVectorServers(t) {
		t.Run(srv.Name, func(t *testing.T) { test(t, srv.DSN) })
	}
}

// pgvectorStore opens a store in a schema of its own on the server of dsn.
func pgvectorStore(t *testing.T, dsn string, dim int, opts ...retrieve.PGVectorOption) *retrieve.PGVectorStore {
	t.Helper()
	pool := pgtest.Pool(t, dsn)
	name := "nl2sql_" + t.Name()
	opts = append([]retrieve.PGVectorOption{retrieve.WithStoreSchema(name)}, opts...)
	t.Cleanup(func() { pool.Exec(context.Background(), `DROP SCHEMA IF EXISTS "`+name+`" CASCADE`) })
	s, err := retrieve.NewPGVectorStore(context.Background(), pool, dim, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStoresAgree runs the same documents and queries through the memory
// store and the pgvector store: vector neighbours must be identical, and the
// lexical side must find the same documents (ranking formulas differ).
func TestStoresAgree(t *testing.T) { onPGVector(t, testStoresAgree) }

func testStoresAgree(t *testing.T, dsn string) {
	ctx := context.Background()
	e := retrieve.NewHashEmbedder(64)
	texts := []string{
		"customer orders placed by customers", "supplier purchase orders", "employee payroll slips",
		"customer addresses and cities", "warehouse stock levels", "general ledger journal entries",
	}
	vecs, _ := e.Embed(ctx, texts)
	var docs []retrieve.Document
	for i, tx := range texts {
		docs = append(docs, retrieve.Document{ID: string(rune('a' + i)), Kind: retrieve.KindTable, Scope: []string{"s1", "s2"}[i%2],
			Module: "m", Table: "public.t" + string(rune('a'+i)), Text: tx, Vector: vecs[i], Fingerprint: "fp", Catalog: "c1"})
	}
	docs = append(docs, retrieve.Document{ID: "col", Kind: retrieve.KindColumn, Text: "customer number", Catalog: "c2"})
	mem := retrieve.NewMemoryStore()
	pg := pgvectorStore(t, dsn, 64)
	for _, s := range []retrieve.SchemaStore{mem, pg} {
		if err := s.Upsert(ctx, docs); err != nil {
			t.Fatal(err)
		}
		if err := s.Upsert(ctx, docs[:2]); err != nil { // idempotent
			t.Fatal(err)
		}
	}
	for _, q := range []string{"orders from suppliers", "where do customers live", "accounting entries"} {
		qv, _ := e.Embed(ctx, []string{q})
		for _, f := range []retrieve.Filter{{}, {Scopes: []string{"s2"}}, {Kinds: []retrieve.Kind{retrieve.KindTable}}} {
			a, err := mem.SearchVector(ctx, qv[0], 3, f)
			if err != nil {
				t.Fatal(err)
			}
			b, err := pg.SearchVector(ctx, qv[0], 3, f)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ids(a), ids(b)) {
				t.Errorf("vector %q %+v: memory %v, pgvector %v", q, f, ids(a), ids(b))
			}
			for i := range a {
				if d := a[i].Score - b[i].Score; d > 1e-4 || d < -1e-4 {
					t.Errorf("score differs: %v vs %v", a[i].Score, b[i].Score)
				}
			}
		}
		a, _ := mem.SearchText(ctx, q, 10, retrieve.Filter{})
		b, err := pg.SearchText(ctx, q, 10, retrieve.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		sa, sb := ids(a), ids(b)
		slices.Sort(sa)
		slices.Sort(sb)
		if !reflect.DeepEqual(sa, sb) {
			t.Errorf("text %q: memory %v, pgvector %v", q, sa, sb)
		}
	}
	if hits, _ := pg.SearchText(ctx, "customer", 10, retrieve.Filter{Kinds: []retrieve.Kind{retrieve.KindColumn}}); len(hits) != 1 || hits[0].ID != "col" {
		t.Errorf("kind filter: %v", ids(hits))
	}
	if err := pg.Delete(ctx, []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if err := pg.DeleteCatalog(ctx, "c2"); err != nil {
		t.Fatal(err)
	}
	m, err := pg.Manifest(ctx)
	if err != nil || len(m) != 5 || m["b"] != "fp" {
		t.Errorf("manifest = %v, %v", m, err)
	}
	if _, err := pg.SearchVector(ctx, []float32{1}, 1, retrieve.Filter{}); !errors.Is(err, retrieve.ErrDimension) {
		t.Errorf("dimension: %v", err)
	}
}

func TestPGVectorStoreDimensionAndNamespaces(t *testing.T) {
	onPGVector(t, testPGVectorStoreDimensionAndNamespaces)
}

func testPGVectorStoreDimensionAndNamespaces(t *testing.T, dsn string) {
	ctx := context.Background()
	pool := pgtest.Pool(t, dsn)
	s1 := pgvectorStore(t, dsn, 8)
	if _, err := retrieve.NewPGVectorStore(ctx, pool, 16, retrieve.WithStoreSchema("nl2sql_"+t.Name())); !errors.Is(err, retrieve.ErrDimension) {
		t.Errorf("reopen with another dimension: %v", err)
	}
	s2, err := retrieve.NewPGVectorStore(ctx, pool, 8, retrieve.WithStoreSchema("nl2sql_"+t.Name()), retrieve.WithNamespace("other"))
	if err != nil {
		t.Fatal(err)
	}
	v := []float32{1, 0, 0, 0, 0, 0, 0, 0}
	if err := s1.Upsert(ctx, []retrieve.Document{{ID: "x", Kind: retrieve.KindTable, Text: "alpha", Vector: v}}); err != nil {
		t.Fatal(err)
	}
	if hits, _ := s2.SearchVector(ctx, v, 5, retrieve.Filter{}); len(hits) != 0 {
		t.Errorf("namespace leak: %v", ids(hits))
	}
	if hits, _ := s1.SearchVector(ctx, v, 5, retrieve.Filter{}); len(hits) != 1 {
		t.Errorf("own namespace: %v", ids(hits))
	}
}

// TestRetrieverOnPGVector indexes the shop schema into pgvector and checks it
// ranks like the memory store.
func TestRetrieverOnPGVector(t *testing.T) { onPGVector(t, testRetrieverOnPGVector) }

func testRetrieverOnPGVector(t *testing.T, dsn string) {
	ctx := context.Background()
	cat := shopCatalog(t)
	pg := pgvectorStore(t, dsn, 384)
	a, err := retrieve.New(ctx, cat, retrieve.WithStore(pg))
	if err != nil {
		t.Fatal(err)
	}
	b, err := retrieve.New(ctx, cat)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"How many purchase orders did each supplier get?", "customers in Berlin", "net pay of employees"} {
		ra, err := a.Tables(ctx, q, retrieve.MaxTables(3))
		if err != nil {
			t.Fatal(err)
		}
		rb, _ := b.Tables(ctx, q, retrieve.MaxTables(3))
		if ra.Names()[0] != rb.Names()[0] {
			t.Errorf("%q: pgvector top %v, memory top %v", q, ra.Names(), rb.Names())
		}
	}
	// Re-opening over the same store embeds nothing.
	st, err := a.Refresh(ctx, cat)
	if err != nil || st.Embedded != 0 {
		t.Errorf("refresh over pgvector: %+v %v", st, err)
	}
}
