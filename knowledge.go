package nl2sql

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// KnowledgeKind is the kind of a piece of knowledge.
type KnowledgeKind string

// Kinds of knowledge.
const (
	// KnowledgeExample is a verified question and the SQL that answers it:
	// shown to the model as a few-shot example for similar questions.
	KnowledgeExample KnowledgeKind = "example"
	// KnowledgeDoc is documentation: of a table, of one of its columns, or
	// free-standing; shown in the prompt of questions whose context holds
	// the table (a free-standing one when the question shares its words).
	KnowledgeDoc KnowledgeKind = "doc"
	// KnowledgeTerm is a business term and the tables or columns it means
	// (a glossary entry): retrieval and linking use it from the next
	// question on.
	KnowledgeTerm KnowledgeKind = "term"
)

// Knowledge is what a team teaches the engine. It lives in the engine's
// schema store (WithStore): the in-memory store saves it with SaveIndex
// and LoadIndex restores it; the pgvector store keeps it in the database.
// Either way it survives a restart and a re-index.
type Knowledge struct {
	// ID names it (Learn assigns it: the same knowledge learnt twice has
	// the same ID, and is stored once).
	ID   string        `json:"id,omitempty"`
	Kind KnowledgeKind `json:"kind"`
	// An example: the question, its SQL (validated and planned before it
	// is kept) and an optional note on why it is right.
	Question string `json:"question,omitempty"`
	SQL      string `json:"sql,omitempty"`
	Note     string `json:"note,omitempty"`
	// A doc: the text, and the table ("schema.table" or a name the
	// search path resolves) and column it documents, if any.
	Text   string `json:"text,omitempty"`
	Table  string `json:"table,omitempty"`
	Column string `json:"column,omitempty"`
	// A term: the word or phrase and the tables or table.columns it means.
	Term    string   `json:"term,omitempty"`
	Targets []string `json:"targets,omitempty"`
	// Parameters make an example a template (see semantic.Parameter):
	// its question and SQL hold {name} slots, and a question that fits it
	// is answered from its SQL without the model (Result.Origin
	// "verified"). ProposeTemplate proposes them from an example.
	Parameters []semantic.Parameter `json:"parameters,omitempty"`
	// Role, Settings and Scope are the identity it was learnt under: the
	// request's AsRole, Setting and Scope (Learn sets them; what the
	// caller puts there is ignored). Knowledge learnt under none is the
	// operator's. Which requests are shown it: docs/security.md, "Learnt
	// knowledge".
	Role     string            `json:"role,omitempty"`
	Settings map[string]string `json:"settings,omitempty"`
	Scope    string            `json:"scope,omitempty"`
}

// Example is the knowledge that question is answered by sql.
func Example(question, sql string) Knowledge {
	return Knowledge{Kind: KnowledgeExample, Question: question, SQL: sql}
}

// knowledgeData is what a knowledge document carries beyond its text.
type knowledgeData struct {
	SQL        string               `json:"sql,omitempty"`
	Note       string               `json:"note,omitempty"`
	Targets    []string             `json:"targets,omitempty"`
	Parameters []semantic.Parameter `json:"parameters,omitempty"`
	Role       string               `json:"role,omitempty"`
	Settings   map[string]string    `json:"settings,omitempty"`
	Scope      string               `json:"scope,omitempty"`
}

// knowledgeBase is the engine's view of the knowledge in its store, kept
// in step by Learn and Forget and read again at every build.
type knowledgeBase struct {
	mu    sync.RWMutex
	items map[string]Knowledge // by ID
	// terms are the retrieval terms of each free-standing doc (no table),
	// by ID: a question is matched against them, so they are derived once,
	// when the doc is learnt or read, not at every question.
	terms map[string][]string
	// examples are the IDs of the examples of each question and SQL: the
	// few-shot store holds the pair once, whoever taught it.
	examples map[[2]string][]string
}

// set adds or replaces k; the caller holds mu.
func (kb *knowledgeBase) set(k Knowledge) {
	if kb.items == nil {
		kb.items, kb.terms, kb.examples = map[string]Knowledge{}, map[string][]string{}, map[[2]string][]string{}
	}
	if _, ok := kb.items[k.ID]; !ok && k.Kind == KnowledgeExample {
		key := exampleKey(k.instance())
		kb.examples[key] = append(kb.examples[key], k.ID)
	}
	kb.items[k.ID] = k
	if k.Kind == KnowledgeDoc && k.Table == "" {
		kb.terms[k.ID] = uniqueTerms(k.Text)
	}
}

// known is the knowledge with this ID, if the engine has it.
func (e *Engine) known(id string) (Knowledge, bool) {
	e.know.mu.RLock()
	defer e.know.mu.RUnlock()
	k, ok := e.know.items[id]
	return k, ok
}

// unremember makes the engine stop using k.
func (e *Engine) unremember(k Knowledge) {
	e.know.mu.Lock()
	delete(e.know.items, k.ID)
	delete(e.know.terms, k.ID)
	key := exampleKey(k.instance())
	ids := slices.DeleteFunc(e.know.examples[key], func(id string) bool { return id == k.ID })
	if len(ids) == 0 {
		delete(e.know.examples, key)
	} else {
		e.know.examples[key] = ids
	}
	e.know.mu.Unlock()
	if k.Kind == KnowledgeExample && len(ids) == 0 {
		// The last identity that taught it: what rememberExample added.
		e.examples.Remove(k.instance())
	}
}

// exampleKey is an example's key in knowledgeBase.examples: as the
// few-shot store tells examples apart (the question's case and the SQL's
// spelling do not count).
func exampleKey(question, sql string) [2]string {
	canon, err := generate.Canonical(sql)
	if err != nil {
		canon = strings.TrimSpace(sql)
	}
	return [2]string{strings.ToLower(strings.TrimSpace(question)), canon}
}

// knowledgeID is a stable ID from a kind and its identifying parts.
func knowledgeID(kind KnowledgeKind, parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return retrieve.KnowledgeID + string(kind) + ":" + hex.EncodeToString(h[:6])
}

// document is k as a store document (no vector: knowledge is matched by
// the engine, not by the schema search).
func (k Knowledge) document() retrieve.Document {
	d := retrieve.Document{ID: k.ID, Kind: retrieve.Kind(k.Kind), Table: k.Table, Column: k.Column}
	data := knowledgeData{Role: k.Role, Settings: k.Settings, Scope: k.Scope}
	switch k.Kind {
	case KnowledgeExample:
		d.Text, data.SQL, data.Note, data.Parameters = k.Question, k.SQL, k.Note, k.Parameters
	case KnowledgeDoc:
		d.Text = k.Text
	case KnowledgeTerm:
		d.Text, data.Targets = k.Term, k.Targets
	}
	if b, err := json.Marshal(data); err == nil && string(b) != "{}" {
		d.Data = string(b)
	}
	d.Fingerprint = k.ID
	return d
}

// knowledgeOf reads a store document back.
func knowledgeOf(d retrieve.Document) Knowledge {
	k := Knowledge{ID: d.ID, Kind: KnowledgeKind(d.Kind), Table: d.Table, Column: d.Column}
	var data knowledgeData
	if d.Data != "" {
		_ = json.Unmarshal([]byte(d.Data), &data) // written by document; a bad one loses only its extras
	}
	k.Role, k.Settings, k.Scope = data.Role, data.Settings, data.Scope
	switch k.Kind {
	case KnowledgeExample:
		k.Question, k.SQL, k.Note, k.Parameters = d.Text, data.SQL, data.Note, data.Parameters
	case KnowledgeDoc:
		k.Text = d.Text
	case KnowledgeTerm:
		k.Term, k.Targets = d.Text, data.Targets
	}
	return k
}

// storedKnowledge reads every piece of knowledge in a store.
func storedKnowledge(ctx context.Context, s retrieve.SchemaStore) ([]Knowledge, error) {
	docs, err := s.Documents(ctx, retrieve.Filter{Kinds: []retrieve.Kind{retrieve.KindExample, retrieve.KindDoc, retrieve.KindTerm}})
	if err != nil {
		return nil, err
	}
	out := make([]Knowledge, 0, len(docs))
	for _, d := range docs {
		if strings.HasPrefix(d.ID, retrieve.KnowledgeID) {
			out = append(out, knowledgeOf(d))
		}
	}
	return out, nil
}

// reloadKnowledge makes what the store holds the engine's knowledge at the
// end of a build. It reads the store again, holding the lock remember
// takes: knowledge a Learn stored while the build ran (a Learn that had
// the previous state) is in this read, or is remembered after it; before,
// the build kept only what it had read at its start and such knowledge was
// missing until the next build. Without a store, learnt (nothing) stands.
func (e *Engine) reloadKnowledge(ctx context.Context, store retrieve.SchemaStore, learnt []Knowledge) error {
	e.know.mu.Lock()
	if store != nil {
		var err error
		if learnt, err = storedKnowledge(ctx, store); err != nil {
			e.know.mu.Unlock()
			return err
		}
	}
	e.know.items, e.know.terms, e.know.examples = nil, nil, nil
	for _, k := range learnt {
		e.know.set(k)
	}
	e.know.mu.Unlock()
	for _, k := range learnt {
		e.rememberExample(ctx, k)
	}
	return nil
}

// remember makes k part of what the engine uses.
func (e *Engine) remember(ctx context.Context, k Knowledge) {
	e.know.mu.Lock()
	e.know.set(k)
	e.know.mu.Unlock()
	e.rememberExample(ctx, k)
}

// rememberExample gives an example to the few-shot store (a duplicate is
// ignored there).
func (e *Engine) rememberExample(ctx context.Context, k Knowledge) {
	if k.Kind == KnowledgeExample {
		q, sql := k.instance()
		if err := e.examples.Add(ctx, generate.Example{Question: q, SQL: sql}); err != nil {
			e.cfg.logger.WarnContext(ctx, "nl2sql: a stored example was not usable", "id", k.ID, "err", err)
		}
	}
}

// glossaryWith merges the learnt terms into a glossary (term -> targets).
func glossaryWith(g map[string][]string, ks []Knowledge) map[string][]string {
	out := make(map[string][]string, len(g))
	for t, tg := range g {
		out[t] = tg
	}
	for _, k := range ks {
		if k.Kind == KnowledgeTerm {
			out[k.Term] = append(slices.Clone(out[k.Term]), k.Targets...)
		}
	}
	return out
}

// withVocabulary adds a semantic model's words (semantic.Vocabulary) to a
// glossary, on a copy: a term both name keeps the targets of each.
func withVocabulary(g, words map[string][]string) map[string][]string {
	out := make(map[string][]string, len(g)+len(words))
	for t, tg := range g {
		out[t] = tg
	}
	for t, tg := range words {
		merged := append(slices.Clone(out[t]), tg...)
		slices.Sort(merged)
		out[t] = slices.Compact(merged)
	}
	return out
}

// Template is an example with parameters as the verified question it
// stands for (its parameters shared, not copied); one without them has
// none.
func (k Knowledge) Template() *semantic.VerifiedQuestion {
	q := &semantic.VerifiedQuestion{Question: k.Question, SQL: k.SQL}
	for i := range k.Parameters {
		q.Parameters = append(q.Parameters, &k.Parameters[i])
	}
	return q
}

// instance is an example as the model sees it: a template with its
// parameters' first examples in place of its slots (the SQL with them as
// literals); a plain example as it is.
func (k Knowledge) instance() (question, sql string) {
	if len(k.Parameters) == 0 {
		return k.Question, k.SQL
	}
	q := k.Template()
	values := q.Examples()[0]
	question = k.Question
	for name, v := range values {
		question = strings.ReplaceAll(question, "{"+name+"}", v)
	}
	sql, err := q.Inline(values)
	if err != nil { // checked when learnt
		sql = k.SQL
	}
	return question, sql
}

// adopt makes want the engine's knowledge (remembering what it lacks,
// forgetting what want has not) and reports whether a term changed. The
// caller holds e.file.changing.
func (e *Engine) adopt(ctx context.Context, want map[string]Knowledge) (terms bool) {
	added, dropped, terms := e.knowledgeDiff(want)
	for _, k := range dropped {
		e.unremember(k)
	}
	for _, k := range added {
		e.remember(ctx, k)
	}
	return terms
}

// knowledgeDiff is what the engine lacks of want (or holds differently),
// and what it holds that want has not, each ordered by ID; terms says
// whether a term is among them.
func (e *Engine) knowledgeDiff(want map[string]Knowledge) (added, dropped []Knowledge, terms bool) {
	e.know.mu.RLock()
	have := maps.Clone(e.know.items)
	e.know.mu.RUnlock()
	for _, id := range slices.Sorted(maps.Keys(want)) {
		if k, ok := have[id]; !ok || !reflect.DeepEqual(k, want[id]) {
			added = append(added, want[id])
			terms = terms || want[id].Kind == KnowledgeTerm
		}
	}
	for _, id := range slices.Sorted(maps.Keys(have)) {
		if _, ok := want[id]; !ok {
			dropped = append(dropped, have[id])
			terms = terms || have[id].Kind == KnowledgeTerm
		}
	}
	return added, dropped, terms
}

// uniqueTerms returns the distinct retrieval terms (stemmed, stopwords
// dropped) of text.
func uniqueTerms(text string) []string {
	ts := gloss.Terms(text)
	slices.Sort(ts)
	return slices.Compact(ts)
}
