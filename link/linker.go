package link

import (
	"context"
	"log/slog"
	"slices"
	"sort"
	"strings"

	"github.com/agnivade/levenshtein"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// Reason says why a table or column was linked.
type Reason string

// Link reasons.
const (
	ReasonExact    Reason = "exact"    // the phrase is the name (singular/plural aside)
	ReasonGloss    Reason = "gloss"    // the phrase is the expanded name: "total amount" for tot_amt
	ReasonPartial  Reason = "partial"  // the phrase covers part of the name, or the name part of the phrase
	ReasonFuzzy    Reason = "fuzzy"    // as partial, with misspelt words
	ReasonComment  Reason = "comment"  // the phrase appears in the comment
	ReasonGlossary Reason = "glossary" // a user glossary term
	ReasonValue    Reason = "value"    // the phrase is a stored value of the column
	ReasonColumn   Reason = "column"   // a table linked through one of its columns
	ReasonRedirect Reason = "redirect" // a column of an FK parent, see WarnColumnRedirect
	// ReasonThesaurus: the phrase matches no name by itself and a word the
	// thesaurus relates to it does ("tenure" -> hire date); Via says which.
	ReasonThesaurus Reason = "thesaurus"
)

// WarningCode identifies a kind of warning.
type WarningCode string

// Warning codes.
const (
	// WarnColumnRedirect: a table the question names lacks a column the
	// question asks for, and a table it references by foreign key has it.
	WarnColumnRedirect WarningCode = "column_redirect"
	// WarnConfusableTables: two linked tables are easily mistaken for each
	// other (configured with WithConfusable, or found automatically).
	WarnConfusableTables WarningCode = "confusable_tables"
)

// TableLink is a table the question refers to.
type TableLink struct {
	Table  string  `json:"table"` // qualified name
	Score  float64 `json:"score"` // 0..1
	Phrase string  `json:"phrase"`
	Reason Reason  `json:"reason"`
	// Via says how a phrase reached the table through a related word:
	// "thesaurus: staff -> employee". Empty for direct links.
	Via string `json:"via,omitempty"`
}

// ColumnLink is a column the question refers to.
type ColumnLink struct {
	Table  string  `json:"table"`
	Column string  `json:"column"`
	Score  float64 `json:"score"` // 0..1
	Phrase string  `json:"phrase"`
	Reason Reason  `json:"reason"`
	// Via says how a phrase reached the column through a related word:
	// "thesaurus: tenure -> hire date". Empty for direct links.
	Via string `json:"via,omitempty"`
}

// ValueHint says a phrase of the question is a stored value of a column.
type ValueHint struct {
	Table  string  `json:"table"`
	Column string  `json:"column"`
	Value  string  `json:"value"` // as stored
	Score  float64 `json:"score"`
	Phrase string  `json:"phrase"`
}

// String renders the hint as an SQL condition: sales.deals.stage = 'Negotiation'.
func (h ValueHint) String() string {
	sch, tbl, _ := strings.Cut(h.Table, ".")
	return schema.QuoteIdent(sch) + "." + schema.QuoteIdent(tbl) + "." + schema.QuoteIdent(h.Column) +
		" = '" + strings.ReplaceAll(h.Value, "'", "''") + "'"
}

// Warning is advice for the SQL generator.
type Warning struct {
	Code    WarningCode `json:"code"`
	Message string      `json:"message"`
	Tables  []string    `json:"tables"`
	Column  string      `json:"column,omitempty"`
	Phrase  string      `json:"phrase,omitempty"`
}

// Result is what Link found. Every list is sorted by decreasing score, ties
// by name, so equal inputs give equal results.
type Result struct {
	Keyphrases []Keyphrase  `json:"keyphrases"`
	Tables     []TableLink  `json:"tables"`
	Columns    []ColumnLink `json:"columns"`
	Values     []ValueHint  `json:"values"`
	Warnings   []Warning    `json:"warnings"`
	// Incomplete is set when the context ended before linking finished.
	Incomplete bool `json:"incomplete,omitempty"`
}

// Option configures a Linker.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type confusablePair struct{ a, b, note string }

type config struct {
	glossary   Glossary
	values     *ValueIndex
	confusable []confusablePair
	auto       bool
	gloss      gloss.Glosser
	maxColumns int
	maxTables  int
	minScore   float64
	logger     *slog.Logger
	thesaurus  *gloss.Thesaurus
}

// WithGlossary adds user business terms. Unknown targets are ignored (and
// logged); check them first with Glossary.Validate.
func WithGlossary(g Glossary) Option { return optionFunc(func(c *config) { c.glossary = g }) }

// WithValueIndex lets the linker emit value hints from stored values.
// Enum labels of the catalog are always used, with or without an index.
func WithValueIndex(v *ValueIndex) Option { return optionFunc(func(c *config) { c.values = v }) }

// WithConfusable declares two tables (qualified names) easily mistaken for
// each other; whenever either is linked a WarnConfusableTables warning
// carrying note is emitted.
func WithConfusable(a, b, note string) Option {
	return optionFunc(func(c *config) { c.confusable = append(c.confusable, confusablePair{a, b, note}) })
}

// WithAutoConfusable turns the automatic confusable-table rule on or off
// (default on): two linked tables whose names share their head word
// (invoices, supplier_invoices) while the question uses none of the words
// that tell them apart.
func WithAutoConfusable(on bool) Option { return optionFunc(func(c *config) { c.auto = on }) }

// WithGlosser sets how identifiers, and identifiers written in a question,
// become words (default gloss.Words, which expands ERP abbreviations; nil
// restores it). Add a database's own abbreviations with
// gloss.Abbreviations(map[string]string{"ctr": "contract"}).
func WithGlosser(g gloss.Glosser) Option { return optionFunc(func(c *config) { c.gloss = g }) }

// WithMaxColumns caps the column links returned (default 30).
func WithMaxColumns(n int) Option { return optionFunc(func(c *config) { c.maxColumns = n }) }

// WithMaxTables caps the table links returned (default 30).
func WithMaxTables(n int) Option { return optionFunc(func(c *config) { c.maxTables = n }) }

// WithMinScore drops table and column links scoring below s (default 0.5).
func WithMinScore(s float64) Option { return optionFunc(func(c *config) { c.minScore = s }) }

// WithLogger sets the logger (default: discard).
//
// The same option sets the logger of BuildValueIndex.
func WithLogger(l *slog.Logger) LoggerOption { return LoggerOption{l} }

// LoggerOption is both an Option (New) and a ValueOption
// (BuildValueIndex); a nil logger keeps the default (silent).
type LoggerOption struct{ l *slog.Logger }

func (o LoggerOption) apply(c *config) {
	if o.l != nil {
		c.logger = o.l
	}
}

func (o LoggerOption) applyValue(c *valueConfig) {
	if o.l != nil {
		c.logger = o.l
	}
}

// Linker links questions to a catalog. It is immutable after New and safe
// for concurrent use.
type Linker struct {
	cat    *schema.Catalog
	cfg    config
	tables []tableInfo
	cols   []colInfo
	byName map[string]int32

	names        map[string]bool    // lower-case table and column names
	colWords     map[string][]int32 // stem of a name part or gloss word -> columns
	colComments  map[string][]int32 // stem of a comment word -> columns
	tableWords   map[string][]int32
	tableComment map[string][]int32
	vocab        []string // keys of colWords and tableWords, for fuzzy matching

	terms      map[string][]*glossTerm // first stem -> terms
	confusable map[[2]int32]string
	values     *ValueIndex // cfg.values plus enum labels
}

type tableInfo struct {
	t       *schema.Table
	name    string // qualified
	lower   string // lower-case name
	parts   []string
	words   []string
	comment []string
	head    string
	lo, hi  int32 // columns
}

type colInfo struct {
	table   int32
	name    string
	lower   string
	parts   []string
	words   []string
	comment []string
	key     bool
	ref     int32 // the table a foreign key of the column references, or -1
}

// New prepares a linker for the catalog: glosses of every name and word
// indexes, so that Link does no per-catalog work.
func New(cat *schema.Catalog, opts ...Option) *Linker {
	cfg := config{auto: true, maxColumns: 30, maxTables: 30, minScore: 0.5, thesaurus: gloss.DefaultThesaurus()}
	for _, o := range opts {
		o.apply(&cfg)
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.DiscardHandler)
	}
	if cfg.gloss == nil {
		cfg.gloss = gloss.Words
	}
	if cat == nil {
		cat = schema.NewCatalog(nil, nil, nil)
	}
	l := &Linker{
		cat: cat, cfg: cfg,
		byName:       make(map[string]int32, len(cat.Tables)),
		names:        map[string]bool{},
		colWords:     map[string][]int32{},
		colComments:  map[string][]int32{},
		tableWords:   map[string][]int32{},
		tableComment: map[string][]int32{},
	}
	type glossed struct{ parts, words []string }
	cache := map[string]glossed{}
	glossOf := func(name string) glossed {
		if g, ok := cache[name]; ok {
			return g
		}
		g := glossed{parts: stems(gloss.Split(name)), words: stems(cfg.gloss(name))}
		cache[name] = g
		return g
	}
	var enumCols []ValueColumn
	for ti, t := range cat.Tables {
		g := glossOf(t.Name)
		info := tableInfo{t: t, name: t.QualifiedName(), lower: strings.ToLower(t.Name), parts: g.parts, words: g.words,
			comment: uniqueStems(t.Comment), lo: int32(len(l.cols))}
		keyCols := map[string]bool{}
		if n := len(g.words); n > 0 {
			info.head = g.words[n-1]
		}
		for _, c := range t.PrimaryKey {
			keyCols[c] = true
		}
		for _, fk := range t.ForeignKeys {
			for _, c := range fk.Columns {
				keyCols[c] = true
			}
		}
		l.byName[info.name] = int32(ti)
		l.names[info.lower] = true
		addPostings(l.tableWords, int32(ti), g.parts, g.words)
		addPostings(l.tableComment, int32(ti), info.comment)
		for ci := range t.Columns {
			c := &t.Columns[ci]
			cg := glossOf(c.Name)
			id := int32(len(l.cols))
			col := colInfo{table: int32(ti), name: c.Name, lower: strings.ToLower(c.Name), parts: cg.parts, words: cg.words,
				comment: uniqueStems(c.Comment), key: keyCols[c.Name] || c.PrimaryKey, ref: -1}
			l.cols = append(l.cols, col)
			l.names[col.lower] = true
			addPostings(l.colWords, id, cg.parts, cg.words)
			addPostings(l.colComments, id, col.comment)
			if len(c.EnumLabels) > 0 {
				enumCols = append(enumCols, ValueColumn{Table: info.name, Column: c.Name, Values: c.EnumLabels, Source: SourceEnum})
			}
		}
		info.hi = int32(len(l.cols))
		l.tables = append(l.tables, info)
	}
	for ti := range l.tables {
		t := &l.tables[ti]
		for _, fk := range t.t.ForeignKeys {
			ref, ok := l.byName[fk.Ref()]
			if !ok {
				continue
			}
			for _, name := range fk.Columns {
				for ci := t.lo; ci < t.hi; ci++ {
					if l.cols[ci].name == name && l.cols[ci].ref < 0 {
						l.cols[ci].ref = ref
					}
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, m := range []map[string][]int32{l.colWords, l.tableWords} {
		for w := range m {
			if !seen[w] {
				seen[w] = true
				l.vocab = append(l.vocab, w)
			}
		}
	}
	sort.Strings(l.vocab)

	l.values = mergeValues(cfg.values, enumCols)
	if l.values != nil {
		l.values.lookup() // built here, not by the first question
	}
	l.terms = map[string][]*glossTerm{}
	for _, term := range sortedKeys(cfg.glossary) {
		gt := &glossTerm{term: term, words: termStems(term)}
		if len(gt.words) == 0 {
			continue
		}
		for _, target := range cfg.glossary[term] {
			t, col, ok := resolveTarget(cat, target)
			if !ok {
				cfg.logger.Warn("link: glossary target not in catalog", "term", term, "target", target)
				continue
			}
			gt.targets = append(gt.targets, glossTarget{table: l.byName[t.QualifiedName()], column: col})
		}
		if len(gt.targets) > 0 {
			l.terms[gt.words[0]] = append(l.terms[gt.words[0]], gt)
		}
	}
	l.confusable = map[[2]int32]string{}
	for _, p := range cfg.confusable {
		a, b := cat.Table(p.a), cat.Table(p.b)
		if a == nil || b == nil || a == b {
			cfg.logger.Warn("link: confusable pair not in catalog", "a", p.a, "b", p.b)
			continue
		}
		l.confusable[pairKey(l.byName[a.QualifiedName()], l.byName[b.QualifiedName()])] = p.note
	}
	return l
}

// appendNew appends the items not in seen to out, marking them seen.
func appendNew[T comparable](out []T, seen map[T]bool, items ...T) []T {
	for _, it := range items {
		if !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	return out
}

func pairKey(a, b int32) [2]int32 {
	if a > b {
		a, b = b, a
	}
	return [2]int32{a, b}
}

func stems(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = gloss.Stem(w)
	}
	return out
}

func uniqueStems(text string) []string {
	if text == "" {
		return nil
	}
	ws := gloss.ContentStems(text)
	sort.Strings(ws)
	return compact(ws)
}

func compact(ws []string) []string {
	out := ws[:0]
	for i, w := range ws {
		if i == 0 || w != ws[i-1] {
			out = append(out, w)
		}
	}
	return out
}

func addPostings(m map[string][]int32, id int32, lists ...[]string) {
	for _, list := range lists {
		for _, w := range list {
			if p := m[w]; len(p) == 0 || p[len(p)-1] != id {
				m[w] = append(p, id)
			}
		}
	}
}

// phrase is a keyphrase prepared for schema matching.
type phrase struct {
	text   string
	ident  string // lower case, spaces as underscores: compared with names
	words  []string
	weight float64 // 1 for the question, less for evidence
	kind   PhraseKind
	src    int // 0 question, 1 evidence
	start  int // byte span in its source
	end    int
	// via is set on a phrase the thesaurus relates to a span of the
	// question ("thesaurus: tenure -> hire date"): text is the span as
	// written, words and ident are the related term's.
	via string
}

// linkState is the working memory of one Link call.
type linkState struct {
	l       *Linker
	cand    []int32 // candidate tables; nil = all
	inCand  map[int32]bool
	phrases []phrase
	qwords  map[string]bool // every stem of the question and evidence, glosses expanded
	fuzzy   map[string]map[string]float64
	named   map[int]map[int32]float64 // phrase -> tables it names (score >= 0.9)
	exact   map[int]bool              // phrases naming a table exactly
	covered map[int]bool              // phrases inside an exact one

	wordPhrases map[string][]int // see indexPhrases
	mark        []int
	gen         int
	buf         []int
	tableHit    map[int32]TableLink // direct (name) links
	colHit      map[int32]ColumnLink
}

// Link finds the tables, columns and values a question refers to. evidence
// is optional extra text (a hint, a definition) linked with lower weight;
// tables restricts linking to candidate tables (qualified names; nil or empty
// means all). Glossary targets and FK parents used by redirect warnings may
// lie outside the candidates. When ctx ends early the partial result is
// returned with Incomplete set. It is LinkAnalysis of the texts' analyses.
func (l *Linker) Link(ctx context.Context, question, evidence string, tables []string) *Result {
	return l.LinkAnalysis(ctx, gloss.Analyze(question), gloss.Analyze(evidence), tables)
}

// LinkAnalysis is Link on a question and evidence already read by
// gloss.Analyze (evidence may be nil): a caller that analysed the question
// once hands every stage the same reading.
func (l *Linker) LinkAnalysis(ctx context.Context, question, evidence *gloss.Analysis, tables []string) *Result {
	qa := question
	if qa == nil {
		qa = &gloss.Analysis{}
	}
	res := &Result{Keyphrases: qa.Phrases}
	if res.Keyphrases == nil {
		res.Keyphrases = []Keyphrase{}
	}
	st := &linkState{l: l, qwords: map[string]bool{}, tableHit: map[int32]TableLink{}, colHit: map[int32]ColumnLink{},
		fuzzy: map[string]map[string]float64{}}
	if len(tables) > 0 {
		st.inCand = map[int32]bool{}
		for _, name := range tables {
			if t := l.cat.Table(name); t != nil {
				id := l.byName[t.QualifiedName()]
				if !st.inCand[id] {
					st.inCand[id] = true
					st.cand = append(st.cand, id)
				}
			}
		}
	}
	st.addPhrases(qa, 1, 0)
	var ea *gloss.Analysis
	if evidence != nil && strings.TrimSpace(evidence.Text) != "" {
		ea = evidence
		st.addPhrases(ea, 0.9, 1)
	}
	st.addThesaurus(qa, 1, 0)
	if ea != nil {
		st.addThesaurus(ea, 0.9, 1)
	}
	defer func() {
		res.Incomplete = ctx.Err() != nil
		st.finish(res)
	}()
	if ctx.Err() != nil {
		return res
	}
	st.buildFuzzy()
	st.indexPhrases()
	st.linkTables()
	st.linkColumns()
	st.linkGlossary(qa)
	if ea != nil {
		st.linkGlossary(ea)
	}
	if ctx.Err() != nil {
		return res
	}
	res.Values = st.linkValues(qa)
	if ctx.Err() != nil {
		return res
	}
	res.Warnings = append(res.Warnings, st.redirects()...)
	res.Warnings = append(res.Warnings, st.confusables()...)
	return res
}

func (st *linkState) addPhrases(a *gloss.Analysis, weight float64, src int) {
	for _, t := range a.Tokens {
		st.qwords[t.Stem] = true
		for _, w := range st.l.cfg.gloss(t.Lower) {
			st.qwords[gloss.Stem(w)] = true
		}
	}
	for _, kp := range a.Phrases {
		if kp.Kind != PhraseNGram && kp.Kind != PhraseQuoted {
			continue
		}
		p := phrase{text: kp.Text, kind: kp.Kind, weight: weight, src: src, start: kp.Start, end: kp.Start + len(kp.Text),
			ident: strings.ToLower(strings.Join(strings.Fields(kp.Text), "_"))}
		for _, w := range kp.Words {
			// Identifiers written in the question ("tot_amt") match by their glosses.
			if strings.ContainsAny(w, "_.") {
				if i := strings.LastIndexByte(w, '.'); i >= 0 {
					w = w[i+1:]
				}
				p.words = append(p.words, stems(st.l.cfg.gloss(w))...)
				continue
			}
			p.words = append(p.words, w)
		}
		if i := strings.LastIndexByte(p.ident, '.'); i >= 0 {
			p.ident = p.ident[i+1:]
		}
		if len(p.words) > 0 {
			st.phrases = append(st.phrases, p)
		}
	}
}

// buildFuzzy finds, for each question word, the schema words within a small
// edit distance.
func (st *linkState) buildFuzzy() {
	var vocab []string
	if st.cand == nil {
		vocab = st.l.vocab
	} else {
		seen := map[string]bool{}
		for _, ti := range st.cand {
			t := &st.l.tables[ti]
			lists := [][]string{t.parts, t.words}
			for ci := t.lo; ci < t.hi; ci++ {
				lists = append(lists, st.l.cols[ci].parts, st.l.cols[ci].words)
			}
			for _, list := range lists {
				vocab = appendNew(vocab, seen, list...)
			}
		}
	}
	for _, p := range st.phrases {
		if p.via != "" {
			continue // the thesaurus is spelt right
		}
		for _, w := range p.words {
			if _, done := st.fuzzy[w]; done || len(w) < 4 {
				continue
			}
			var m map[string]float64
			set := func(v string, sim float64) {
				if m == nil {
					m = map[string]float64{}
				}
				m[v] = sim
			}
			for _, v := range vocab {
				if v == w || len(v) < 3 {
					continue
				}
				if inflection(w, v) {
					set(v, 1)
					continue
				}
				if len(w) < 5 || len(v) < 4 || abs(len(v)-len(w)) > 2 {
					continue
				}
				if sim := similarity(w, v); sim >= 0.8 {
					set(v, sim)
				}
			}
			st.fuzzy[w] = m
		}
	}
}

// inflection reports whether w is an inflected form of the base word v:
// hired/hiring/hires for hire, shipped/shipping for ship, paid for pay.
func inflection(w, v string) bool {
	if len(w) <= len(v) || !strings.HasPrefix(w, v[:len(v)-1]) {
		return false
	}
	for _, suf := range [...]string{"ed", "d", "ing", "er"} {
		if b, ok := strings.CutSuffix(w, suf); ok && len(b) >= 3 {
			if b == v || b+"e" == v || len(b) > 3 && b[len(b)-1] == b[len(b)-2] && b[:len(b)-1] == v {
				return true
			}
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// similarity is 1 - edit distance / longer length.
func similarity(a, b string) float64 {
	n := max(runeLen(a), runeLen(b))
	if n == 0 {
		return 1
	}
	return 1 - float64(levenshtein.ComputeDistance(a, b))/float64(n)
}

// indexPhrases maps every schema word a phrase can match (its own words
// and their fuzzy neighbours) to the phrase, so that only pairs sharing a
// word are scored: every scoring rule needs one.
func (st *linkState) indexPhrases() {
	st.wordPhrases = map[string][]int{}
	for i, p := range st.phrases {
		for _, w := range p.words {
			st.addWordPhrase(w, i)
			if p.via != "" {
				continue
			}
			for v := range st.fuzzy[w] {
				st.addWordPhrase(v, i)
			}
		}
	}
	st.mark = make([]int, len(st.phrases))
}

func (st *linkState) addWordPhrase(w string, i int) {
	if ps := st.wordPhrases[w]; len(ps) == 0 || ps[len(ps)-1] != i {
		st.wordPhrases[w] = append(ps, i)
	}
}

// relevant returns, in order, the phrases sharing a word with the lists.
// The result is reused by the next call.
func (st *linkState) relevant(lists ...[]string) []int {
	st.gen++
	st.buf = st.buf[:0]
	for _, list := range lists {
		for _, w := range list {
			for _, i := range st.wordPhrases[w] {
				if st.mark[i] != st.gen {
					st.mark[i] = st.gen
					st.buf = append(st.buf, i)
				}
			}
		}
	}
	sort.Ints(st.buf)
	return st.buf
}

// wordSim is how well question word w matches schema word s.
func (st *linkState) wordSim(w, s string) float64 {
	if w == s {
		return 1
	}
	return st.fuzzy[w][s]
}

// matchName scores a phrase against a name (its lower-case spelling, stemmed
// parts and stemmed gloss words) and a comment.
func (st *linkState) matchName(p *phrase, lower string, parts, words, comment []string) (float64, Reason) {
	if p.ident == lower || equalWords(p.words, parts) {
		return 1, ReasonExact
	}
	if equalWords(p.words, words) {
		return 0.95, ReasonGloss
	}
	best, reason := 0.0, Reason("")
	// The phrase is (part of) the name.
	if cover, fuzzy := st.covers(p.words, parts, words); cover > 0 {
		strong := 0
		for _, w := range words {
			if !weakWords[w] {
				strong++
			}
		}
		matched := 0
		for _, w := range p.words {
			if !weakWords[w] {
				matched++
			}
		}
		frac := 1.0
		if strong > 0 {
			frac = min(1, float64(matched)/float64(strong))
		}
		if matched == 0 { // only weak words, e.g. "id"
			frac = 0
		}
		s := (0.55 + 0.35*frac) * cover
		reason = ReasonPartial
		if fuzzy {
			reason = ReasonFuzzy
		}
		best = s
	} else if n := st.contained(words, p.words); n > 0 {
		// The name is part of the phrase: "invoice total amount" for tot_amt.
		best, reason = 0.5+0.3*float64(n)/float64(len(p.words)), ReasonPartial
	}
	if len(comment) > 0 && best < 0.6 {
		all := true
		for _, w := range p.words {
			if !containsSorted(comment, w) || gloss.Stopword(w) {
				all = false
				break
			}
		}
		if all {
			if s := 0.5 + 0.1*float64(min(len(p.words), 3)); s > best {
				best, reason = s, ReasonComment
			}
		}
	}
	return best, reason
}

// covers reports whether every phrase word matches a word of the name, with
// the mean similarity, and whether fuzzy matching was needed.
func (st *linkState) covers(pw, parts, words []string) (float64, bool) {
	total, fuzzy := 0.0, false
	for _, w := range pw {
		best := 0.0
		for _, lists := range [2][]string{parts, words} {
			for _, s := range lists {
				if sim := st.wordSim(w, s); sim > best {
					best = sim
				}
			}
		}
		if best == 0 {
			return 0, false
		}
		if best < 1 {
			fuzzy = true
		}
		total += best
	}
	return total / float64(len(pw)), fuzzy
}

// coversAll reports whether every phrase word is a word of the name.
func (st *linkState) coversAll(pw, words []string) bool {
	for _, w := range pw {
		if !slices.Contains(words, w) {
			return false
		}
	}
	return true
}

// contained returns the number of strong name words when all of them occur
// in the phrase, else 0.
func (st *linkState) contained(words, pw []string) int {
	n := 0
	for _, w := range words {
		if weakWords[w] {
			continue
		}
		if !slices.Contains(pw, w) {
			return 0
		}
		n++
	}
	if n == len(pw) {
		return 0 // equal sets are handled as exact/gloss
	}
	return n
}

func equalWords(a, b []string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func containsSorted(list []string, w string) bool {
	i := sort.SearchStrings(list, w)
	return i < len(list) && list[i] == w
}

// tableCandidates returns the tables to score: the candidates, or those
// sharing a word with some phrase.
func (st *linkState) tableCandidates() []int32 {
	if st.cand != nil {
		return st.cand
	}
	return st.postings(st.l.tableWords, st.l.tableComment)
}

func (st *linkState) postings(names, comments map[string][]int32) []int32 {
	seen := map[int32]bool{}
	var out []int32
	add := func(ids []int32) { out = appendNew(out, seen, ids...) }
	for _, p := range st.phrases {
		for _, w := range p.words {
			add(names[w])
			add(comments[w])
			if p.via != "" {
				continue
			}
			for v := range st.fuzzy[w] {
				add(names[v])
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// linkTables scores phrases against table names. A phrase inside a longer
// one that names a table exactly ("invoices" in "supplier invoices") links
// no table itself.
func (st *linkState) linkTables() {
	type hit struct {
		t      int32
		p      int
		raw, s float64 // the match, and the match times the phrase's weight
		r      Reason
	}
	var hits []hit
	// spanTables holds the table names each span of the question reaches
	// through the thesaurus.
	var spanTables map[[3]int]map[string]bool
	for _, ti := range st.tableCandidates() {
		t := &st.l.tables[ti]
		for _, i := range st.relevant(t.parts, t.words, t.comment) {
			p := &st.phrases[i]
			s, r := st.matchName(p, t.lower, t.parts, t.words, t.comment)
			if s == 0 || p.via != "" && !thesaurusTable(s, r) {
				continue
			}
			if p.via != "" {
				if spanTables == nil {
					spanTables = map[[3]int]map[string]bool{}
				}
				k := [3]int{p.src, p.start, p.end}
				if spanTables[k] == nil {
					spanTables[k] = map[string]bool{}
				}
				spanTables[k][t.lower] = true
			}
			hits = append(hits, hit{ti, i, s, s * p.weight, r})
		}
	}
	// A span the thesaurus relates to tables of different names ("sold":
	// sales orders and invoices) names none of them: the question does not
	// say which.
	if spanTables != nil {
		hits = slices.DeleteFunc(hits, func(x hit) bool {
			p := &st.phrases[x.p]
			return p.via != "" && len(spanTables[[3]int{p.src, p.start, p.end}]) > 1
		})
	}
	exact := map[int]bool{}
	st.named = map[int]map[int32]float64{}
	for _, x := range hits {
		if x.raw >= 0.9 {
			if st.named[x.p] == nil {
				st.named[x.p] = map[int32]float64{}
			}
			st.named[x.p][x.t] = x.raw
		}
		if x.raw >= 0.95 {
			exact[x.p] = true
		}
	}
	covered := func(i, j int) bool {
		p, q := &st.phrases[i], &st.phrases[j]
		return j != i && q.src == p.src && q.start <= p.start && q.end >= p.end && q.end-q.start > p.end-p.start
	}
	st.covered = map[int]bool{}
	st.exact = exact
	// coverers calls fn for each exact phrase covering phrase i. The exact
	// phrases are indexed by source and start, so that a phrase looks at the
	// starts at most maxSpan bytes before its end, not at every exact
	// phrase: linking stays linear in the question's length.
	byStart := map[[2]int][]int{}
	maxSpan := 0
	for j := range exact {
		q := &st.phrases[j]
		byStart[[2]int{q.src, q.start}] = append(byStart[[2]int{q.src, q.start}], j)
		maxSpan = max(maxSpan, q.end-q.start)
	}
	coverers := func(i int, fn func(j int)) {
		p := &st.phrases[i]
		for start := p.start; start >= p.end-maxSpan && start >= 0; start-- {
			for _, j := range byStart[[2]int{p.src, start}] {
				if covered(i, j) {
					fn(j)
				}
			}
		}
	}
	for i := range st.phrases {
		coverers(i, func(int) { st.covered[i] = true })
	}
	// A sub-phrase of a phrase naming a table is about that table too.
	for i := range st.phrases {
		coverers(i, func(j int) {
			for ti, s := range st.named[j] {
				if st.named[i] == nil {
					st.named[i] = map[int32]float64{}
				}
				st.named[i][ti] = max(st.named[i][ti], s)
			}
		})
	}
	for _, x := range hits {
		ti := x.t
		// Covered phrases link no table; a multi-word phrase that names one
		// table exactly links no other partially ("supplier invoices" is
		// neither suppliers nor invoices, while "invoices" may be either).
		p := &st.phrases[x.p]
		if !st.covered[x.p] && (!exact[x.p] || len(p.words) == 1 || x.s >= 0.95*p.weight) {
			tl := TableLink{Table: st.l.tables[ti].name, Score: x.s, Phrase: p.text, Reason: x.r}
			if p.via != "" {
				tl.Reason, tl.Via = ReasonThesaurus, p.via
			}
			st.setTable(ti, tl)
		}
	}
}

func (st *linkState) setTable(ti int32, tl TableLink) {
	if old, ok := st.tableHit[ti]; !ok || tl.Score > old.Score {
		st.tableHit[ti] = tl
	}
}

func (st *linkState) setColumn(ci int32, cl ColumnLink) {
	if old, ok := st.colHit[ci]; !ok || cl.Score > old.Score {
		st.colHit[ci] = cl
	}
}

// context weighs column scores by how directly the question names the
// column's table: 0.8 for an unnamed table, 1 for an exact name.
func (st *linkState) context(ti int32) float64 { return 0.8 + 0.2*st.tableHit[ti].Score }

func (st *linkState) columnCandidates() []int32 {
	if st.cand == nil {
		return st.postings(st.l.colWords, st.l.colComments)
	}
	var out []int32
	for _, ti := range st.cand {
		for ci := st.l.tables[ti].lo; ci < st.l.tables[ti].hi; ci++ {
			out = append(out, ci)
		}
	}
	return out
}

// scoreColumn scores one phrase against one column. A phrase naming the
// table and the column ("customer name" for customers.name) counts as a
// gloss match.
func (st *linkState) scoreColumn(p *phrase, ci int32) (float64, Reason) {
	c := &st.l.cols[ci]
	t := &st.l.tables[c.table]
	s, r := st.matchName(p, c.lower, c.parts, c.words, c.comment)
	if s < 0.9 && len(p.words) > 1 && !st.coversAll(p.words, t.words) {
		qualified := append(append([]string{}, t.words...), c.words...)
		if cover, fuzzy := st.covers(p.words, qualified, nil); cover == 1 && !fuzzy && st.contained(c.words, p.words) > 0 {
			s, r = 0.92, ReasonGloss
		}
	}
	return s, r
}

func (st *linkState) linkColumns() {
	cands := st.columnCandidates()
	if len(st.colHit) == 0 {
		st.colHit = make(map[int32]ColumnLink, len(cands)/4)
	}
	for _, ci := range cands {
		c := &st.l.cols[ci]
		ctx := st.context(c.table)
		for _, i := range st.relevant(c.parts, c.words, c.comment) {
			p := &st.phrases[i]
			s, r := st.scoreColumn(p, ci)
			if s == 0 || p.via != "" && !st.thesaurusColumn(i, s, r, c) {
				continue
			}
			if r == ReasonPartial || r == ReasonFuzzy {
				// A phrase naming the column's own table is about the table
				// ("employees" is not emp_id); key columns are join plumbing.
				switch {
				case st.exact[i] && len(p.words) > 1 && st.named[i][c.table] == 0:
					continue // "supplier invoices" is not invoices.inv_nbr
				case st.named[i][c.table] > 0:
					s *= 0.6
				case c.key:
					s *= 0.7
				}
			}
			s *= p.weight * ctx
			cl := ColumnLink{Table: st.l.tables[c.table].name, Column: c.name, Score: s, Phrase: p.text, Reason: r}
			if p.via != "" {
				cl.Reason, cl.Via = ReasonThesaurus, p.via
			}
			st.setColumn(ci, cl)
		}
	}
}

func (st *linkState) linkGlossary(a *gloss.Analysis) {
	st.glossaryTerms(a, func(_ int, gt *glossTerm) {
		for _, tg := range gt.targets {
			t := &st.l.tables[tg.table]
			if tg.column == "" {
				st.setTable(tg.table, TableLink{Table: t.name, Score: 1, Phrase: gt.term, Reason: ReasonGlossary})
				continue
			}
			for ci := t.lo; ci < t.hi; ci++ {
				if st.l.cols[ci].name == tg.column {
					st.setColumn(ci, ColumnLink{Table: t.name, Column: tg.column, Score: 1, Phrase: gt.term, Reason: ReasonGlossary})
				}
			}
		}
	})
}

// glossaryTerms calls fn for every glossary term the question spells, with
// the index of its first token.
func (st *linkState) glossaryTerms(a *gloss.Analysis, fn func(i int, gt *glossTerm)) {
	if len(st.l.terms) == 0 {
		return
	}
	qs := make([]string, len(a.Tokens))
	for i, t := range a.Tokens {
		qs[i] = t.Stem
	}
	for i := range qs {
		for _, gt := range st.l.terms[qs[i]] {
			if i+len(gt.words) <= len(qs) && equalWords(qs[i:i+len(gt.words)], gt.words) {
				fn(i, gt)
			}
		}
	}
}

// linkValues matches question phrases against stored values: every window
// of up to four words exactly, keyphrases fuzzily.
// indexPhrases is the number of phrases from which linkValues indexes the
// candidate columns' values once (indexColumns) instead of scanning them
// for each phrase: a long question has hundreds.
const indexPhrases = 8

func (st *linkState) linkValues(a *gloss.Analysis) []ValueHint {
	vi := st.l.values
	if vi == nil || len(vi.Columns) == 0 {
		return nil
	}
	// Only the candidate tables' columns take part: at thousands of tables
	// most stored values are elsewhere.
	var cols []int32
	var keep []bool
	if st.inCand != nil {
		names := make([]string, 0, len(st.cand))
		for _, ti := range st.cand {
			names = append(names, st.l.tables[ti].name)
		}
		cols = vi.columnsOf(names)
		keep = make([]bool, len(vi.Columns))
		for _, ci := range cols {
			keep[ci] = true
		}
		if cols == nil {
			cols = []int32{} // none, not all
		}
	}
	hits := map[[3]string]ValueHint{}
	add := func(ms []ValueMatch, phrase string, min float64) {
		for _, m := range ms {
			if m.Score < min {
				continue
			}
			k := [3]string{m.Table, m.Column, m.Value}
			if old, ok := hits[k]; !ok || m.Score > old.Score {
				hits[k] = ValueHint{Table: m.Table, Column: m.Column, Value: m.Value, Score: m.Score, Phrase: phrase}
			}
		}
	}
	q := a.Tokens
	text := func(i, j int) string { return questionText(a, i, j) }
	for i := range q {
		for n := 1; n <= 4 && i+n <= len(q); n++ {
			if n == 1 && (q[i].Stop || q[i].Number) {
				continue
			}
			s := text(i, i+n)
			add(vi.exact(s, keep), s, 0)
		}
	}
	type seenKey struct {
		kind PhraseKind
		text string
	}
	seen := map[seenKey]bool{} // a phrase repeated matches the same values
	match := func(phrase string) []ValueMatch { return vi.matchIn(phrase, cols) }
	if cols != nil && len(a.Phrases) > indexPhrases {
		ix := vi.indexColumns(cols)
		match = func(phrase string) []ValueMatch { return vi.matchIndexed(phrase, ix) }
	}
	for _, kp := range a.Phrases {
		if k := (seenKey{kp.Kind, kp.Text}); seen[k] {
			continue
		} else {
			seen[k] = true
		}
		switch kp.Kind {
		case PhraseQuoted, PhraseCapitalized:
			add(match(kp.Text), kp.Text, 0.6)
		case PhraseNGram:
			add(match(kp.Text), kp.Text, 0.8)
		}
	}
	out := make([]ValueHint, 0, len(hits))
	for _, h := range hits {
		out = append(out, h)
	}
	out = rankValues(out, func(h ValueHint) ValueMatch { return ValueMatch{h.Table, h.Column, h.Value, h.Score} })
	for _, h := range out {
		ti := st.l.byName[h.Table]
		t := &st.l.tables[ti]
		for ci := t.lo; ci < t.hi; ci++ {
			if st.l.cols[ci].name == h.Column {
				st.setColumn(ci, ColumnLink{Table: h.Table, Column: h.Column, Score: 0.85 * h.Score, Phrase: h.Phrase, Reason: ReasonValue})
			}
		}
	}
	return out
}

func questionText(a *gloss.Analysis, i, j int) string {
	parts := make([]string, 0, j-i)
	for _, t := range a.Tokens[i:j] {
		parts = append(parts, t.Text)
	}
	return strings.Join(parts, " ")
}

// topN drops the items scoring below the n-th best score (ties are kept),
// so that large hit lists are not sorted whole.
func topN[T any](items []T, n int, score func(T) float64) []T {
	if len(items) <= n {
		return items
	}
	if n <= 0 {
		return items[:0]
	}
	scores := make([]float64, len(items))
	for i, it := range items {
		scores[i] = score(it)
	}
	sort.Float64s(scores)
	cut := scores[len(scores)-n]
	out := items[:0]
	for _, it := range items {
		if score(it) >= cut {
			out = append(out, it)
		}
	}
	return out
}

// finish ranks the links into the result.
func (st *linkState) finish(res *Result) {
	best := map[int32]ColumnLink{}
	for ci, cl := range st.colHit {
		if cl.Score < st.l.cfg.minScore {
			continue
		}
		res.Columns = append(res.Columns, cl)
		ti := st.l.cols[ci].table
		if b, ok := best[ti]; !ok || cl.Score > b.Score || cl.Score == b.Score && cl.Column < b.Column {
			best[ti] = cl
		}
	}
	res.Columns = topN(res.Columns, st.l.cfg.maxColumns, func(c ColumnLink) float64 { return c.Score })
	sort.Slice(res.Columns, func(i, j int) bool {
		a, b := res.Columns[i], res.Columns[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.Table != b.Table {
			return a.Table < b.Table
		}
		return a.Column < b.Column
	})
	if len(res.Columns) > st.l.cfg.maxColumns {
		res.Columns = res.Columns[:st.l.cfg.maxColumns]
	}
	// A named table scores 0.8 x its name match + 0.2 x its best column
	// matched by another phrase; a table linked only through columns 0.6 x
	// its best column.
	support := map[int32]float64{}
	for ci, cl := range st.colHit {
		ti := st.l.cols[ci].table
		if cl.Phrase != st.tableHit[ti].Phrase && cl.Score > support[ti] {
			support[ti] = cl.Score
		}
	}
	tables := map[int32]TableLink{}
	for ti, tl := range st.tableHit {
		tl.Score = 0.8*tl.Score + 0.2*support[ti]
		tables[ti] = tl
	}
	for ti, b := range best {
		if b.Score*0.6 > tables[ti].Score {
			tables[ti] = TableLink{Table: st.l.tables[ti].name, Score: b.Score * 0.6, Phrase: b.Phrase, Reason: ReasonColumn, Via: b.Via}
		}
	}
	for _, tl := range tables {
		if tl.Score >= st.l.cfg.minScore {
			res.Tables = append(res.Tables, tl)
		}
	}
	res.Tables = topN(res.Tables, st.l.cfg.maxTables, func(t TableLink) float64 { return t.Score })
	sort.Slice(res.Tables, func(i, j int) bool {
		a, b := res.Tables[i], res.Tables[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return a.Table < b.Table
	})
	if len(res.Tables) > st.l.cfg.maxTables {
		res.Tables = res.Tables[:st.l.cfg.maxTables]
	}
	if res.Tables == nil {
		res.Tables = []TableLink{}
	}
	if res.Columns == nil {
		res.Columns = []ColumnLink{}
	}
	if res.Values == nil {
		res.Values = []ValueHint{}
	}
	if res.Warnings == nil {
		res.Warnings = []Warning{}
	}
}
