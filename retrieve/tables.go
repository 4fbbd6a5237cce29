package retrieve

import (
	"context"
	"errors"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// ErrEmptyQuestion is returned for a blank question.
var ErrEmptyQuestion = errors.New("retrieve: empty question")

// Tables ranks the catalog's tables for a question: vector and BM25 search
// over table documents, BM25 over column documents, and module routing,
// fused with reciprocal rank fusion; glossary terms pull their tables in;
// the best tables are then expanded along foreign keys (not from hubs) with
// a decayed score.
func (ix *Retriever) Tables(ctx context.Context, question string, opts ...QueryOption) (*Result, error) {
	q := ix.query(opts)
	var evidence *gloss.Analysis
	if q.evidence != "" {
		evidence = gloss.Analyze(q.evidence)
	}
	return ix.TablesAnalysis(ctx, gloss.Analyze(question), evidence, opts...)
}

// TablesAnalysis is Tables on a question and evidence already read by
// gloss.Analyze (evidence nil for none; it replaces an Evidence option): a
// caller that analysed the question once hands every stage the same
// reading.
func (ix *Retriever) TablesAnalysis(ctx context.Context, question, evidence *gloss.Analysis, opts ...QueryOption) (*Result, error) {
	q := ix.query(opts)
	if question == nil || strings.TrimSpace(question.Text) == "" {
		return nil, ErrEmptyQuestion
	}
	r := ix.newRequest(question, evidence, q)
	hits, err := ix.search(ctx, r)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	var routed map[string]bool
	res.Modules, routed = routeModules(hits.module)
	cands, ranked := ix.rank(r, hits, routed)
	ranked = ix.expandFK(cands, ranked, r.scopes)
	named, free := ix.named(r.words)
	ranked = ix.addNamed(cands, ranked, named, r.scopes)
	cands.sortByScore(ranked)
	res.Match, res.Known = ix.match(r.words, cands.anyNamed())
	if res.Match == MatchNone {
		return res, nil
	}
	arranged := ix.arrange(ranked, r.scopes, ix.unnamedWords(r.words, free), cands.named, cands.mark)
	res.Tables = cands.hits(ix.cut(cands, arranged, res.Match, r, q.maxTables))
	return res, nil
}

// request is one Tables call's question as the searches see it.
type request struct {
	text    string   // the question and its evidence: what the embedding sees
	words   words    // the content words of text
	lexical string   // text and the schema words the thesaurus relates to its words: what BM25 sees
	scopes  []string // the scope and the shared schemas; nil for every schema
}

func (ix *Retriever) query(opts []QueryOption) query {
	q := query{maxTables: ix.cfg.maxTables}
	for _, o := range opts {
		o.applyQuery(&q)
	}
	return q
}

// newRequest takes the question's reading for every step: its words, the
// text each search sees and the schemas it may search.
func (ix *Retriever) newRequest(question, evidence *gloss.Analysis, q query) request {
	text := question.Text
	if evidence != nil && evidence.Text != "" {
		text += " " + evidence.Text
	}
	qw := questionWords(question, evidence)
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
	return request{text: text, words: qw, lexical: lexical, scopes: scopes}
}
