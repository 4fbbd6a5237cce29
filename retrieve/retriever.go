package retrieve

import (
	"context"
	"fmt"
	"hash/fnv"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// Progress is reported while an index is built.
type Progress struct {
	Stage string // "documents", "embed", "store"
	Done  int
	Total int
}

// Retriever ranks the tables of a catalog for a question. It is safe for
// concurrent use; Refresh swaps the catalog atomically for later calls.
type Retriever struct {
	cfg         config
	cat         *schema.Catalog
	fingerprint string
	modules     map[string][]string // module -> qualified tables
	moduleOf    map[string]string
	glossaryFor map[string][]string // table or column -> glossary terms
	graph       *plan.Graph
	valueTables map[string]int      // lower-cased stored value -> tables holding it
	names       map[string][]string // stemmed name words -> tables of that name
	nameWords   map[string]bool     // the words of the names
	nameTerms   map[string][]string // table -> stemmed terms of its bare name
	vocabText   string              // the schema's words in one string
	terms       map[string][]string // table -> sorted terms of its own text
	df          map[string]int      // term -> tables whose own text holds it: the schema's words
	perSchema   map[string]int      // schema -> tables
}

// New indexes cat into the store (embedding what the store lacks) and
// returns a Retriever over it. With a store that already holds documents
// for this catalog (a saved index, a shared pgvector store), only documents
// whose fingerprint changed are re-embedded.
func New(ctx context.Context, cat *schema.Catalog, opts ...Option) (*Retriever, error) {
	cfg := config{
		gloss: gloss.Words, sharedSchemas: []string{"public"}, hubDegree: 8,
		maxTables: 12, seeds: 6, fkDecay: 0.5, batch: 256,
		logger: slog.New(slog.DiscardHandler), thesaurus: gloss.DefaultThesaurus(),
	}
	for _, o := range opts {
		o.apply(&cfg)
	}
	if cfg.embedder == nil {
		cfg.embedder = NewHashEmbedder(0)
	}
	if cfg.gloss == nil {
		cfg.gloss = gloss.Words
	}
	if cfg.store == nil {
		cfg.store = NewMemoryStore()
	}
	ix := &Retriever{cfg: cfg}
	if _, err := ix.index(ctx, cat); err != nil {
		return nil, err
	}
	return ix, nil
}

// Catalog returns the catalog the retriever indexes.
func (ix *Retriever) Catalog() *schema.Catalog { return ix.cat }

// Modules returns module -> qualified tables.
func (ix *Retriever) Modules() map[string][]string { return ix.modules }

// IndexStats says what an index build did.
type IndexStats struct {
	Documents int // documents of the catalog
	Embedded  int // documents embedded and written
	Deleted   int // stale documents removed
	Took      time.Duration
}

// Refresh re-indexes after a catalog change: only documents whose
// fingerprint changed are embedded again, removed ones are deleted. It is
// meant to be called when cat.Fingerprint() differs from Fingerprint(); it
// must not run concurrently with Tables on the same Retriever.
func (ix *Retriever) Refresh(ctx context.Context, cat *schema.Catalog) (IndexStats, error) {
	return ix.index(ctx, cat)
}

// Fingerprint returns the catalog fingerprint the index was built from.
func (ix *Retriever) Fingerprint() string { return ix.fingerprint }

func (ix *Retriever) index(ctx context.Context, cat *schema.Catalog) (IndexStats, error) {
	start := time.Now()
	fp := cat.Fingerprint()
	ix.cat, ix.fingerprint = cat, fp
	ix.perSchema = map[string]int{}
	for _, t := range cat.Tables {
		ix.perSchema[t.Schema]++
	}
	ix.graph = ix.cfg.graph
	if ix.graph == nil || ix.graph.Catalog() != cat {
		ix.graph = plan.NewGraph(cat, plan.WithInferredEdges(true))
	}
	ix.assignModules(cat)
	ix.countValueTables(cat)
	ix.glossaryFor = glossaryKeys(cat, ix.cfg.glossary)
	docs := ix.documents(cat, fp)
	ix.names = tableNames(cat, ix.cfg.gloss)
	ix.nameWords = map[string]bool{}
	for k := range ix.names {
		for _, w := range strings.Fields(k) {
			ix.nameWords[w] = true
		}
	}
	// The schema's words are its tables' own words: what every table and
	// column document says, but the documents' template ("Columns:",
	// "Related:").
	ix.terms = ix.tableTerms(cat)
	ix.nameTerms = make(map[string][]string, len(cat.Tables))
	for _, t := range cat.Tables {
		ix.nameTerms[t.QualifiedName()] = gloss.Terms(t.Name)
	}
	ix.df = map[string]int{}
	for _, ts := range ix.terms {
		for _, w := range ts {
			ix.df[w]++
		}
	}
	ix.vocabText = joinVocabulary(ix.df)
	for i := range docs {
		if docs[i].Kind == KindModule {
			h := fnv.New64a()
			h.Write([]byte(docs[i].Fingerprint))
			docs[i].Fingerprint = fmt.Sprintf("%x", h.Sum64())
		}
		// The text is part of the identity: glossary or examples change it.
		h := fnv.New64a()
		h.Write([]byte(docs[i].Text))
		docs[i].Fingerprint += fmt.Sprintf("/%x", h.Sum64())
	}
	ix.report(Progress{Stage: "documents", Done: len(docs), Total: len(docs)})

	have, err := ix.cfg.store.Manifest(ctx)
	if err != nil {
		return IndexStats{}, fmt.Errorf("retrieve: store manifest: %w", err)
	}
	want := make(map[string]bool, len(docs))
	var todo []Document
	for _, d := range docs {
		want[d.ID] = true
		if have[d.ID] != d.Fingerprint {
			todo = append(todo, d)
		}
	}
	var stale []string
	for id := range have {
		if !want[id] && !strings.HasPrefix(id, KnowledgeID) {
			stale = append(stale, id)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		if err := ix.cfg.store.Delete(ctx, stale); err != nil {
			return IndexStats{}, fmt.Errorf("retrieve: delete stale documents: %w", err)
		}
	}
	for i := 0; i < len(todo); i += ix.cfg.batch {
		batch := todo[i:min(i+ix.cfg.batch, len(todo))]
		// Column documents are found lexically; embedding only tables and
		// modules keeps a 10,000-table index small.
		var texts []string
		var idx []int
		for j, d := range batch {
			if d.Kind != KindColumn {
				texts = append(texts, d.Text)
				idx = append(idx, j)
			}
		}
		if len(texts) > 0 {
			vecs, err := ix.cfg.embedder.Embed(ctx, texts)
			if err != nil {
				return IndexStats{}, fmt.Errorf("retrieve: embed: %w", err)
			}
			if len(vecs) != len(texts) {
				return IndexStats{}, fmt.Errorf("retrieve: embedder returned %d vectors for %d texts", len(vecs), len(texts))
			}
			for k, j := range idx {
				batch[j].Vector = vecs[k]
			}
		}
		if err := ix.cfg.store.Upsert(ctx, batch); err != nil {
			return IndexStats{}, fmt.Errorf("retrieve: store: %w", err)
		}
		ix.report(Progress{Stage: "embed", Done: i + len(batch), Total: len(todo)})
	}
	st := IndexStats{Documents: len(docs), Embedded: len(todo), Deleted: len(stale), Took: time.Since(start)}
	ix.cfg.logger.LogAttrs(ctx, slog.LevelDebug, "schema index built", slog.Int("documents", st.Documents),
		slog.Int("embedded", st.Embedded), slog.Int("deleted", st.Deleted), slog.Duration("took", st.Took))
	return st, nil
}

func (ix *Retriever) report(p Progress) {
	if ix.cfg.progress != nil {
		ix.cfg.progress(p)
	}
}

func (ix *Retriever) moduleNames() []string {
	out := make([]string, 0, len(ix.modules))
	for m := range ix.modules {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// inScope reports whether a request with these scopes can see table (every
// table without scopes).
func (ix *Retriever) inScope(table string, scopes []string) bool {
	if len(scopes) == 0 {
		return true
	}
	t := ix.cat.Table(table)
	return t != nil && in(scopes, t.Schema)
}

// tablesInScope counts the tables a request with these scopes can see.
func (ix *Retriever) tablesInScope(scopes []string) int {
	if len(scopes) == 0 {
		return len(ix.cat.Tables)
	}
	n := 0
	for i, s := range scopes {
		if !slices.Contains(scopes[:i], s) {
			n += ix.perSchema[s]
		}
	}
	return n
}

// Store returns the document store the retriever searches.
func (ix *Retriever) Store() SchemaStore { return ix.cfg.store }
