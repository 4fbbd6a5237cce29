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
	q := query{maxTables: ix.cfg.maxTables}
	for _, o := range opts {
		o.applyQuery(&q)
	}
	if strings.TrimSpace(question) == "" {
		return nil, ErrEmptyQuestion
	}
	r := ix.newRequest(question, q)
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

// newRequest reads a question once for every step: its words, the text
// each search sees and the schemas it may search.
func (ix *Retriever) newRequest(question string, q query) request {
	text := question
	if q.evidence != "" {
		text += " " + q.evidence
	}
	qa, ea := q.analysis[0], q.analysis[1]
	if qa == nil || qa.Text != question {
		qa = gloss.Analyze(question)
	}
	if ea == nil && q.evidence != "" || ea != nil && ea.Text != q.evidence {
		ea = gloss.Analyze(q.evidence)
	}
	qw := questionWords(qa, ea)
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
