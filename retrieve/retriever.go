package retrieve

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// Option configures a Retriever.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	embedder       llm.Embedder
	graph          *plan.Graph
	store          SchemaStore
	gloss          gloss.Glosser
	modules        map[string][]string
	moduleSource   ModuleSource
	moduleKeywords map[string][]string
	glossary       map[string][]string
	thesaurus      *gloss.Thesaurus
	examples       map[string][]string
	sharedSchemas  []string
	hubDegree      int
	maxTables      int
	seeds          int
	fkDecay        float64
	usage          map[string]int
	usageTop       int
	batch          int
	progress       func(Progress)
	logger         *slog.Logger
}

// WithEmbedder sets the embedder (default NewHashEmbedder(384)).
func WithEmbedder(e llm.Embedder) Option { return optionFunc(func(c *config) { c.embedder = e }) }

// WithGraph supplies the join graph used for FK expansion (default: one
// built from the catalog with inferred edges, plan.WithInferredEdges). A
// graph of another catalog is ignored.
func WithGraph(g *plan.Graph) Option { return optionFunc(func(c *config) { c.graph = g }) }

// WithStore sets the document store (default a new MemoryStore).
func WithStore(s SchemaStore) Option { return optionFunc(func(c *config) { c.store = s }) }

// WithGlosser sets how identifiers become words in documents and table
// names (default gloss.Words, which expands ERP abbreviations; nil restores
// it). Documents hold the split identifier and, when it differs, the
// glosser's reading.
func WithGlosser(g gloss.Glosser) Option { return optionFunc(func(c *config) { c.gloss = g }) }

// WithModules configures modules: module name -> tables (qualified, or bare
// names matching that table in every schema). Unlisted tables go to "other";
// a table listed by several modules goes to the first by name, qualified
// listings before bare ones.
func WithModules(m map[string][]string) Option { return optionFunc(func(c *config) { c.modules = m }) }

// WithModuleSource chooses how modules are found when none are configured.
func WithModuleSource(s ModuleSource) Option {
	return optionFunc(func(c *config) { c.moduleSource = s })
}

// WithModuleKeywords adds routing keywords per module ("payroll" -> hr).
func WithModuleKeywords(m map[string][]string) Option {
	return optionFunc(func(c *config) { c.moduleKeywords = m })
}

// WithGlossary maps business terms to tables or columns ("headcount" ->
// ["hr.employees"]); a question using the term pulls those tables in, and
// the terms are added to the documents.
func WithGlossary(g map[string][]string) Option {
	return optionFunc(func(c *config) { c.glossary = g })
}

// WithThesaurus sets the thesaurus that relates the words of a question to
// the words of the schema ("staff" -> employee, "tenure" -> hire date);
// default gloss.DefaultThesaurus(), nil for none. Merge a list of your own with
// the default: gloss.MergeThesauri(mine, gloss.DefaultThesaurus()).
func WithThesaurus(t *gloss.Thesaurus) Option {
	return optionFunc(func(c *config) { c.thesaurus = t })
}

// WithExamples adds example values per column ("schema.table.column") to the
// documents, so a question naming a value finds its column.
func WithExamples(ex map[string][]string) Option {
	return optionFunc(func(c *config) { c.examples = ex })
}

// WithSharedSchemas names schemas that every scope can see (default
// "public"): a request scoped to div_01 searches div_01 plus these.
func WithSharedSchemas(s ...string) Option {
	return optionFunc(func(c *config) { c.sharedSchemas = s })
}

// WithHubDegree sets the degree above which a table is a hub (default 8): a
// hub's referencing tables are not pulled in by FK expansion (they are half
// the schema), and hubs do not bind FK communities together.
func WithHubDegree(n int) Option { return optionFunc(func(c *config) { c.hubDegree = n }) }

// WithMaxTables caps the tables a result holds (default 12).
func WithMaxTables(n int) Option { return optionFunc(func(c *config) { c.maxTables = n }) }

// WithProgress reports indexing progress.
func WithProgress(fn func(Progress)) Option { return optionFunc(func(c *config) { c.progress = fn }) }

// WithLogger sets the logger (silent by default).
//
// The same option sets the logger of NewPGVectorStore.
func WithLogger(l *slog.Logger) LoggerOption { return LoggerOption{l} }

// LoggerOption is both an Option (New) and a PGVectorOption
// (NewPGVectorStore); a nil logger keeps the default (silent).
type LoggerOption struct{ l *slog.Logger }

func (o LoggerOption) apply(c *config) {
	if o.l != nil {
		c.logger = o.l
	}
}

func (o LoggerOption) applyPG(c *pgConfig) {
	if o.l != nil {
		c.logger = o.l
	}
}

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

// ErrEmptyQuestion is returned for a blank question.
var ErrEmptyQuestion = errors.New("retrieve: empty question")

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
	ix.glossaryFor = map[string][]string{}
	for term, targets := range ix.cfg.glossary {
		for _, tg := range targets {
			// Targets may be bare or qualified tables or columns; documents
			// are keyed by qualified names. A bare name means every schema.
			parts := strings.Split(tg, ".")
			for _, t := range cat.Tables {
				var key string
				switch {
				case len(parts) == 1 && t.Name == parts[0]:
					key = t.QualifiedName()
				case len(parts) == 2 && t.Schema == parts[0] && t.Name == parts[1]:
					key = t.QualifiedName()
				case len(parts) == 2 && t.Name == parts[0] && t.Column(parts[1]) != nil:
					key = t.QualifiedName() + "." + parts[1]
				case len(parts) == 3 && t.Schema == parts[0] && t.Name == parts[1]:
					key = tg
				}
				if key != "" {
					ix.glossaryFor[key] = append(ix.glossaryFor[key], term)
				}
			}
		}
	}
	for k := range ix.glossaryFor {
		sort.Strings(ix.glossaryFor[k])
	}
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
		ix.nameTerms[t.QualifiedName()] = Terms(t.Name)
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

// QueryOption configures one Tables call.
type QueryOption interface{ applyQuery(*query) }

type queryOptionFunc func(*query)

func (f queryOptionFunc) applyQuery(q *query) { f(q) }

type query struct {
	evidence  string
	scope     string
	maxTables int
}

// Evidence adds the user's hint text to the question for ranking.
func Evidence(e string) QueryOption { return queryOptionFunc(func(q *query) { q.evidence = e }) }

// Scope restricts the search to one schema plus the shared schemas.
func Scope(schemaName string) QueryOption {
	return queryOptionFunc(func(q *query) { q.scope = schemaName })
}

// MaxTables overrides WithMaxTables for this call.
func MaxTables(n int) QueryOption { return queryOptionFunc(func(q *query) { q.maxTables = n }) }

// Result is the schema context packet: the tables a question needs, best
// first, each with the reasons it is there.
type Result struct {
	Tables  []TableHit  `json:"tables"`
	Modules []ModuleHit `json:"modules"`
	// Match grades how well the question's words meet the schema's; with
	// MatchNone, Tables is empty.
	Match Match `json:"match"`
	// Known is the share of the question's content words the schema
	// knows (directly or through the thesaurus), 0 to 1.
	Known float64 `json:"known"`
}

// TableHit is a retrieved table.
type TableHit struct {
	Name  string  `json:"name"` // qualified
	Score float64 `json:"score"`
	// Reasons: "vector", "bm25", "column", "module", "glossary", "fk", or
	// "small" (the whole scope fits in the limit).
	Reasons []string `json:"reasons"`
	// Via names the table an "fk" hit was reached from.
	Via string `json:"via,omitempty"`
}

// ModuleHit is a module the question was routed to.
type ModuleHit struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

// Names returns the qualified names of the result's tables in order.
func (r *Result) Names() []string {
	out := make([]string, len(r.Tables))
	for i, t := range r.Tables {
		out[i] = t.Name
	}
	return out
}

// rrfK is the reciprocal rank fusion constant of Cormack et al. (2009).
const rrfK = 60

// Tables ranks the catalog's tables for a question: vector and BM25 search
// over table documents, BM25 over column documents, and module routing,
// fused with reciprocal rank fusion; glossary terms pull their tables in;
// the best tables are then expanded along foreign keys (not from hubs) with
// a decayed score.
func (ix *Retriever) Tables(ctx context.Context, question string, opts ...QueryOption) (*Result, error) {
	q := query{maxTables: ix.cfg.maxTables}
	for _, o := range opts {
		o.applyQuery(&q)
	}
	if strings.TrimSpace(question) == "" {
		return nil, ErrEmptyQuestion
	}
	text := question
	if q.evidence != "" {
		text += " " + q.evidence
	}
	qw := questionWords(text)
	// The lexical searches also look for the schema words the thesaurus
	// relates to the question's words; the embedding sees the question.
	lexical := text
	if ex := ix.expansion(qw); len(ex) > 0 {
		lexical += " " + strings.Join(ex, " ")
	}
	var scopes []string
	if q.scope != "" {
		scopes = append([]string{q.scope}, ix.cfg.sharedSchemas...)
	}
	vecs, err := ix.cfg.embedder.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("retrieve: embed question: %w", err)
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("retrieve: embedder returned %d vectors for 1 text", len(vecs))
	}
	qv := vecs[0]
	const depth = 40
	tf := Filter{Kinds: []Kind{KindTable}, Scopes: scopes}
	vhits, err := ix.cfg.store.SearchVector(ctx, qv, depth, tf)
	if err != nil {
		return nil, fmt.Errorf("retrieve: vector search: %w", err)
	}
	thits, err := ix.cfg.store.SearchText(ctx, lexical, depth, tf)
	if err != nil {
		return nil, fmt.Errorf("retrieve: text search: %w", err)
	}
	chits, err := ix.cfg.store.SearchText(ctx, lexical, depth*3, Filter{Kinds: []Kind{KindColumn}, Scopes: scopes})
	if err != nil {
		return nil, fmt.Errorf("retrieve: column search: %w", err)
	}
	mhits, err := ix.cfg.store.SearchVector(ctx, qv, 3, Filter{Kinds: []Kind{KindModule}})
	if err != nil {
		return nil, fmt.Errorf("retrieve: module search: %w", err)
	}

	res := &Result{}
	routed := map[string]bool{}
	for i, h := range mhits {
		// 1-3 modules: the best, and others close to it.
		if i > 0 && h.Score < 0.8*mhits[0].Score {
			break
		}
		res.Modules = append(res.Modules, ModuleHit{Name: h.Module, Score: h.Score})
		routed[h.Module] = true
	}

	type cand struct {
		score   float64
		reasons map[string]bool
		via     string
	}
	cands := map[string]*cand{}
	add := func(table, reason string, score float64) {
		c := cands[table]
		if c == nil {
			c = &cand{reasons: map[string]bool{}}
			cands[table] = c
		}
		c.score += score
		c.reasons[reason] = true
	}
	// Nearest neighbours always exist; only those reasonably close to the
	// best count as evidence, or a small catalog would rank everything.
	if len(vhits) > 0 {
		floor := max(0.05, 0.35*vhits[0].Score)
		n := 0
		for n < len(vhits) && vhits[n].Score >= floor {
			n++
		}
		vhits = vhits[:n]
	}
	for r, h := range vhits {
		add(h.Table, "vector", 1.0/float64(rrfK+r+1))
	}
	for r, h := range thits {
		add(h.Table, "bm25", 1.0/float64(rrfK+r+1))
	}
	rank := 0
	colSeen := map[string]bool{}
	for _, h := range chits {
		if colSeen[h.Table] {
			continue
		}
		colSeen[h.Table] = true
		add(h.Table, "column", 0.7/float64(rrfK+rank+1))
		rank++
	}
	rank = 0
	for _, h := range vhits {
		if routed[h.Module] {
			add(h.Table, "module", 0.5/float64(rrfK+rank+1))
			rank++
		}
	}
	inScope := func(table string) bool {
		if len(scopes) == 0 {
			return true
		}
		t := ix.cat.Table(table)
		return t != nil && in(scopes, t.Schema)
	}
	terms := " " + strings.Join(Terms(text), " ") + " "
	var gterms []string
	for term := range ix.cfg.glossary {
		gterms = append(gterms, term)
	}
	sort.Strings(gterms)
	for _, term := range gterms {
		if !strings.Contains(terms, " "+strings.Join(Terms(term), " ")+" ") {
			continue
		}
		for _, target := range ix.cfg.glossary[term] {
			table := ix.tableOf(target, scopes)
			if table != "" && inScope(table) {
				// An explicit business term outweighs any single ranking.
				add(table, "glossary", 2.0/float64(rrfK+1))
			}
		}
	}

	ordered := make([]string, 0, len(cands))
	for t, c := range cands {
		c.score += ix.usagePrior(t) // 0 without WithUsage
		ordered = append(ordered, t)
	}
	byScore := func(s []string) {
		sort.Slice(s, func(i, j int) bool {
			a, b := cands[s[i]], cands[s[j]]
			if a.score != b.score {
				return a.score > b.score
			}
			return s[i] < s[j]
		})
	}
	byScore(ordered)

	// FK expansion from the seeds: neighbours join with a decayed score;
	// hubs are not expanded from (their neighbourhoods are everything).
	seeds := ordered[:min(ix.cfg.seeds, len(ordered))]
	for _, s := range seeds {
		for _, n := range ix.neighbours(s) {
			nb := n.name
			if !inScope(nb) {
				continue
			}
			c := cands[nb]
			seed := cands[s].score
			// A parent (the order of a line, the project of a task) is more
			// often needed than a child: it holds the dates, statuses and
			// names questions filter and group by.
			decay := ix.cfg.fkDecay
			if n.parent {
				decay = min(1.5*decay, 0.95)
			}
			switch {
			case c == nil:
				cands[nb] = &cand{score: seed * decay, reasons: map[string]bool{"fk": true}, via: s}
				ordered = append(ordered, nb)
			case !c.reasons["fk"]:
				// Being joinable to a strong table is evidence too, but a
				// neighbour must not overtake the table that pulled it in.
				c.reasons["fk"] = true
				c.via = s
				if c.score < seed {
					c.score = min(max(c.score+0.3*decay*seed, decay*seed), 0.99*seed)
				}
			}
		}
	}
	// A table the question names is what it is about, whatever the
	// rankings say ("How many staff did we hire" -> employees). The bonus
	// comes after FK expansion: naming a table is no evidence for its
	// neighbours.
	namedTables, free := ix.named(qw)
	for _, n := range namedTables {
		if !inScope(n.table) {
			continue
		}
		if cands[n.table] == nil {
			ordered = append(ordered, n.table)
		}
		add(n.table, n.reason, 2.0/float64(rrfK+1))
	}
	byScore(ordered)
	named := false
	for _, c := range cands {
		named = named || c.reasons["name"] || c.reasons["thesaurus"] || c.reasons["glossary"]
	}
	res.Match, res.Known = ix.match(qw, named)
	if res.Match == MatchNone {
		return res, nil
	}
	// The question's words no table name took, with their one-word
	// synonyms: what else it asks for.
	qset := map[string]bool{}
	for i, w := range qw.raw {
		if analysisWord(qw.terms[i]) || !free[i] {
			continue
		}
		qset[qw.terms[i]] = true
		for _, r := range ix.related(w, true) {
			// One-word synonyms only: "member" of "team member" (for
			// employee) names project_members by accident.
			if !strings.Contains(r, " ") {
				qset[r] = true
			}
		}
	}
	ordered = ix.arrange(ordered, scopes, qset, func(t string) bool {
		c := cands[t]
		return c != nil && (c.reasons["name"] || c.reasons["thesaurus"] || c.reasons["glossary"])
	}, func(t, reason, via string) {
		c := cands[t]
		if c == nil {
			c = &cand{reasons: map[string]bool{}}
			cands[t] = c
		}
		if reason != "" {
			c.reasons[reason] = true
			if c.via == "" {
				c.via = via
			}
		}
	})
	margin := contextMargin
	if res.Match == MatchWeak {
		margin += 2
	}
	ordered = ix.enough(ordered, q.maxTables, margin, qw.terms, func(t string) bool {
		c := cands[t]
		return c.reasons["name"] || c.reasons["thesaurus"] || c.reasons["glossary"] || c.reasons["bridge"] || c.reasons["header"] || c.reasons["lines"] || c.reasons["child"]
	})
	// On a weak match, when the whole scope fits in the limit, hand over
	// every table (ranked ones first) rather than risk a miss.
	if n := ix.tablesInScope(scopes); res.Match == MatchWeak && n <= q.maxTables && len(ordered) < n {
		seen := make(map[string]bool, len(ordered))
		for _, t := range ordered {
			seen[t] = true
		}
		for _, t := range ix.cat.Tables {
			if name := t.QualifiedName(); !seen[name] && inScope(name) {
				if cands[name] == nil {
					cands[name] = &cand{reasons: map[string]bool{}}
				}
				cands[name].reasons["small"] = true
				ordered = append(ordered, name)
			}
		}
	}
	for _, t := range ordered {
		c := cands[t]
		var reasons []string
		for _, r := range []string{"name", "thesaurus", "vector", "bm25", "column", "module", "glossary", "fk", "bridge", "header", "lines", "child", "small"} {
			if c.reasons[r] {
				reasons = append(reasons, r)
			}
		}
		hit := TableHit{Name: t, Score: c.score, Reasons: reasons}
		if c.reasons["fk"] || c.reasons["bridge"] || c.reasons["header"] || c.reasons["lines"] || c.reasons["child"] {
			hit.Via = c.via
		}
		res.Tables = append(res.Tables, hit)
	}
	return res, nil
}

// tableOf maps a glossary target (table or column, qualified or bare) to a
// qualified table, resolving bare names along the scope.
func (ix *Retriever) tableOf(target string, scopes []string) string {
	parts := strings.Split(target, ".")
	try := func(schemaName, table string) string {
		if t := ix.cat.Lookup(schemaName, table); t != nil {
			return t.QualifiedName()
		}
		return ""
	}
	switch len(parts) {
	case 1:
		for _, s := range append(scopes, ix.cfg.sharedSchemas...) {
			if q := try(s, parts[0]); q != "" {
				return q
			}
		}
		for _, t := range ix.cat.Tables {
			if t.Name == parts[0] {
				return t.QualifiedName()
			}
		}
	case 2:
		if q := try(parts[0], parts[1]); q != "" {
			return q
		}
		return ix.tableOf(parts[0], scopes) // bare table.column
	default:
		return try(parts[0], parts[1])
	}
	return ""
}

// neighbours returns the tables to expand a seed to, sorted: always the
// tables it references (a row has one parent each, and questions about a
// fact name its dimensions), and the tables referencing it unless it is a
// hub (referenced by more than the hub degree: its children are half the
// schema). Edges come from the join graph, so keys guessed from column names
// count where the database declares none.
func (ix *Retriever) neighbours(q string) []neighbour {
	var parents, children []string
	for _, e := range ix.graph.Edges(q) {
		switch {
		case e.Self():
		case e.Forward || e.Cardinality == plan.Unknown:
			parents = append(parents, e.To)
		default:
			children = append(children, e.To)
		}
	}
	set := map[string]bool{} // name -> is a parent
	if len(children) <= ix.cfg.hubDegree {
		for _, c := range children {
			set[c] = false
		}
	}
	for _, p := range parents {
		set[p] = true
	}
	out := make([]neighbour, 0, len(set))
	for n, parent := range set {
		out = append(out, neighbour{n, parent})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

type neighbour struct {
	name   string
	parent bool
}

func (ix *Retriever) moduleNames() []string {
	out := make([]string, 0, len(ix.modules))
	for m := range ix.modules {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
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
