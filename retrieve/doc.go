// Package retrieve chooses the tables of a catalog that a question needs:
// the schema context the model is shown. A database of hundreds of tables
// does not fit in a prompt, and a prompt holding the wrong tables gets a
// query over the wrong tables; retrieval is where most misses begin.
//
// # Building a Retriever
//
// New indexes a schema.Catalog and returns a Retriever over it. Indexing
// turns every table, column and module into a Document (the identifier,
// its glossed words "tot_amt" -> "total amount", comments, example values,
// foreign-key neighbours, glossary terms), embeds its text and writes it to
// a SchemaStore:
//
//	cat, err := schema.Introspect(ctx, pool)
//	if err != nil { ... }
//	r, err := retrieve.New(ctx, cat,
//		retrieve.WithGlossary(map[string][]string{"headcount": {"hr.employees"}}),
//		retrieve.WithMaxTables(8),
//	)
//	if err != nil { ... }
//	res, err := r.Tables(ctx, "Total order amount per customer in 2024")
//	if err != nil { ... }
//	if res.Match == retrieve.MatchNone { ... }  // the question is about nothing the database has
//	for _, t := range res.Tables {
//		fmt.Println(t.Name, t.Reasons, t.Via) // "sales.orders [name bm25 column fk] sales.customers"
//	}
//
// With no options New needs neither a model nor a database: the embedder is
// a HashEmbedder (hashed words and character trigrams; it matches shared
// words, plurals and misspellings, not synonyms) and the store a
// MemoryStore (exact cosine search and Okapi BM25 in memory). WithEmbedder
// plugs in a real embedding model (llm/openai and llm/ollama provide
// Embedders); WithStore a PGVectorStore, which keeps the documents in
// PostgreSQL under pgvector so that many replicas share one index. A
// MemoryStore can be saved with Save and read back with LoadMemoryStore;
// New over a store that already holds the catalog's documents embeds only
// those whose table fingerprint changed, and Refresh does the same after a
// schema change (compare Fingerprint with the catalog's).
//
// # Asking for tables
//
// Tables fuses several rankings with reciprocal rank fusion: vector and
// BM25 search over table documents, BM25 over column documents, and routing
// to modules (groups of tables: WithModules, or foreign-key communities, or
// schemas with WithModuleSource). Glossary terms and tables the question
// names (directly or through the thesaurus: "staff" -> employees) are
// pulled in with a bonus; the best tables are expanded along foreign keys;
// bridges between named tables and the header of a line table are added;
// and the list is cut adaptively to what the question's words need plus a
// small margin, never above WithMaxTables (or MaxTables for one call).
//
// A Result lists the tables best first. Each TableHit carries its Reasons:
// "name", "thesaurus", "vector", "bm25", "column", "module", "glossary",
// "fk", "bridge", "header", "lines", "child" or "small" (the whole scope
// fits the limit and the match was weak), and Via names the table an
// expansion came from. Result.Match grades how well the question's words
// meet the schema's: MatchStrong, MatchWeak (the context is widened), or
// MatchNone (no tables at all; the Engine abstains rather than guess).
//
// Query options (bare nouns, for one Tables call): Evidence adds the
// user's hint to the ranking text, Scope limits the search to one schema
// plus the shared schemas (WithSharedSchemas, default "public") for
// multi-tenant databases, and MaxTables caps the tables of one call.
//
// # Options of New
//
// WithEmbedder, WithStore: how documents are embedded and where they live.
// WithGlosser: how identifiers become words (default gloss.Words, which
// knows ERP abbreviations). WithGlossary, WithThesaurus, WithExamples: the
// business words, synonyms and stored values that documents and questions
// are matched through. WithModules, WithModuleSource, WithModuleKeywords:
// module routing. WithGraph: the join graph used for expansion (default
// plan.NewGraph with plan.WithInferredEdges). WithHubDegree: tables joined to more
// than this many others are hubs, not expanded from. WithSharedSchemas,
// WithMaxTables, WithProgress (indexing progress) and WithLogger.
//
// # Determinism
//
// With the HashEmbedder and a MemoryStore, the same catalog, options and
// question always give the same Result, in the same order: scores tie-break
// on the table name and no step depends on map order or timing. A model
// embedder is as deterministic as the model behind it; PGVectorStore's
// HNSW index is approximate, so near ties may rank differently after the
// index is rebuilt. A Retriever is safe for concurrent use; Refresh must
// not run concurrently with Tables.
//
// The index reads documents and questions with gloss's one tokenizer,
// stemmer and stopword list (gloss.Terms). Tables reads the question with
// gloss.Analyze; TablesAnalysis takes the reading the caller already made:
// the Engine analyses a question once and hands the same reading to
// retrieval, linking and scoring.
package retrieve
