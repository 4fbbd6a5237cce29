package nl2sql

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/retrieve"
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
}

// Example is the knowledge that question is answered by sql.
func Example(question, sql string) Knowledge {
	return Knowledge{Kind: KnowledgeExample, Question: question, SQL: sql}
}

// knowledgeData is what a knowledge document carries beyond its text.
type knowledgeData struct {
	SQL     string   `json:"sql,omitempty"`
	Note    string   `json:"note,omitempty"`
	Targets []string `json:"targets,omitempty"`
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
}

// set adds or replaces k; the caller holds mu.
func (kb *knowledgeBase) set(k Knowledge) {
	if kb.items == nil {
		kb.items, kb.terms = map[string]Knowledge{}, map[string][]string{}
	}
	kb.items[k.ID] = k
	if k.Kind == KnowledgeDoc && k.Table == "" {
		kb.terms[k.ID] = uniqueTerms(k.Text)
	}
}

// Learn checks a piece of knowledge and stores it (once: learning the same
// thing again changes nothing), returning it with its ID. An example's SQL
// must validate and plan on this database (ErrInvalid or ErrUnsafe with the
// reason otherwise); a doc's table and column, and a term's targets, must
// exist. Everything learnt is used from the next question on: a term
// rebuilds the schema index on the current catalog (only the documents it
// changes are embedded again). A Scope option checks the knowledge in that
// request's scope, so an answer given under Scope("hr") with unqualified
// table names is confirmed with it.
func (e *Engine) Learn(ctx context.Context, k Knowledge, opts ...AskOption) (_ Knowledge, err error) {
	defer finish(ctx, &err)
	rq, err := e.newRequest(ctx, opts, nil)
	if err != nil {
		return Knowledge{}, err
	}
	st := rq.st
	if k, err = e.checkKnowledge(ctx, rq.scope, k); err != nil {
		return Knowledge{}, err
	}
	e.file.changing.RLock()
	err = st.retriever.Store().Upsert(ctx, []retrieve.Document{k.document()})
	if err == nil {
		e.remember(ctx, k)
		e.noteChange(knowledgeChange{k: k})
	}
	e.file.changing.RUnlock()
	if err != nil {
		if ce := connectionError("storing the knowledge failed", err); ce != nil {
			return Knowledge{}, ce
		}
		return Knowledge{}, &Error{Class: ClassConfig, Message: "storing the knowledge failed", Err: err}
	}
	if k.Kind == KnowledgeTerm {
		if err := e.rebuild(ctx, true); err != nil {
			return Knowledge{}, err
		}
	}
	if err := e.syncIndexFile(ctx, syncPending); err != nil {
		return Knowledge{}, unsaved("learnt "+k.ID, err)
	}
	return k, nil
}

// unsaved is the error of a Learn or Forget the engine made but could not
// write into its index file: it holds in this engine, and the next write
// of the file (the next Learn, Forget or SaveIndexFile) tries again.
func unsaved(what string, err error) error {
	var ne *Error
	if errors.As(err, &ne) && ne.Class != ClassConfig {
		return err // the request's end, a bad input
	}
	return &Error{Class: ClassConfig, Message: what + " in this engine, but writing it into the index file failed (it is written with the next change)", Err: err}
}

// Forget removes the knowledge with this ID (see Knowledge); an unknown ID
// is an input error.
func (e *Engine) Forget(ctx context.Context, id string) (err error) {
	defer finish(ctx, &err)
	rq, err := e.newRequest(ctx, nil, nil)
	if err != nil {
		return err
	}
	st := rq.st
	k, ok := e.known(id)
	if !ok && e.cfg.indexFile != "" {
		// Another writer may have taught it since this engine read the file.
		e.takeOnOthers(ctx)
		k, ok = e.known(id)
	}
	if !ok {
		return &Error{Class: ClassInput, Code: "not_found", Message: fmt.Sprintf("no knowledge has the ID %q", id)}
	}
	e.file.changing.RLock()
	err = st.retriever.Store().Delete(ctx, []string{id})
	if err == nil {
		e.unremember(k)
		e.noteChange(knowledgeChange{forget: id})
	}
	e.file.changing.RUnlock()
	if err != nil {
		if ce := connectionError("forgetting failed", err); ce != nil {
			return ce
		}
		return &Error{Class: ClassConfig, Message: "forgetting failed", Err: err}
	}
	if k.Kind == KnowledgeTerm {
		if err := e.rebuild(ctx, true); err != nil {
			return err
		}
	}
	if err := e.syncIndexFile(ctx, syncPending); err != nil {
		return unsaved("forgot "+id, err)
	}
	return nil
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
	e.know.mu.Unlock()
	if k.Kind == KnowledgeExample {
		e.examples.Remove(k.Question, k.SQL)
	}
}

// Knowledge lists what the engine was taught, ordered by kind and ID.
func (e *Engine) Knowledge(ctx context.Context) (_ []Knowledge, err error) {
	defer finish(ctx, &err)
	if _, err := e.newRequest(ctx, nil, nil); err != nil {
		return nil, err
	}
	e.takeOnOthers(ctx)
	e.know.mu.RLock()
	out := make([]Knowledge, 0, len(e.know.items))
	for _, k := range e.know.items {
		out = append(out, k)
	}
	e.know.mu.RUnlock()
	slices.SortFunc(out, func(a, b Knowledge) int {
		return strings.Compare(string(a.Kind)+"\x00"+a.ID, string(b.Kind)+"\x00"+b.ID)
	})
	return out, nil
}

// checkKnowledge validates k against the database and returns it
// normalised, with its ID.
func (e *Engine) checkKnowledge(ctx context.Context, sc *scope, k Knowledge) (Knowledge, error) {
	invalid := func(format string, a ...any) error {
		return &Error{Class: ClassInvalid, Code: "invalid_knowledge", Message: fmt.Sprintf(format, a...)}
	}
	switch k.Kind {
	case KnowledgeExample:
		k.Question, k.SQL = strings.TrimSpace(k.Question), strings.TrimSpace(k.SQL)
		if k.Question == "" || k.SQL == "" {
			return k, invalid("an example needs a question and its SQL")
		}
		if err := e.checkText(k.Question, k.Note); err != nil {
			return k, err
		}
		if err := checkSQL("the SQL", k.SQL); err != nil {
			return k, err
		}
		if err := e.checkExample(ctx, sc, k.SQL); err != nil {
			return k, err
		}
		canon, err := generate.Canonical(k.SQL)
		if err != nil {
			canon = k.SQL
		}
		k.ID = knowledgeID(k.Kind, strings.ToLower(k.Question), canon)
	case KnowledgeDoc:
		k.Text = strings.TrimSpace(k.Text)
		if k.Text == "" {
			return k, invalid("a doc needs its text")
		}
		if err := e.checkText(k.Text, ""); err != nil {
			return k, err
		}
		if k.Table != "" {
			t := sc.lookupTable(k.Table)
			if t == "" {
				return k, invalid("the doc's table %q is not in the catalog (or not in the request's scope)", k.Table)
			}
			k.Table = t
			if k.Column != "" && sc.st.cat.Lookup(splitQualified(t)).Column(k.Column) == nil {
				return k, invalid("the doc's column %q is not a column of %s", k.Column, t)
			}
		} else if k.Column != "" {
			return k, invalid("a doc of a column needs its table")
		}
		k.ID = knowledgeID(k.Kind, k.Table, k.Column, k.Text)
	case KnowledgeTerm:
		k.Term = strings.TrimSpace(k.Term)
		if k.Term == "" || len(k.Targets) == 0 {
			return k, invalid("a term needs the word and at least one table or column it means")
		}
		if err := e.checkText(k.Term, ""); err != nil {
			return k, err
		}
		if len(k.Targets) > MaxTermTargets {
			return k, &Error{Class: ClassInput, Code: "too_long", Err: ErrTooLong,
				Message: fmt.Sprintf("the term has %d targets; the limit is %d", len(k.Targets), MaxTermTargets)}
		}
		qualified := make([]string, 0, len(k.Targets)) // the caller's slice stays as it was
		for _, tg := range k.Targets {
			q, ok := sc.lookupTarget(tg)
			if !ok {
				return k, invalid("the term's target %q is not a table or table.column of the catalog", tg)
			}
			if !slices.Contains(qualified, q) { // "orders" and "public.orders" are one target
				qualified = append(qualified, q)
			}
		}
		k.Targets = qualified
		k.ID = knowledgeID(k.Kind, strings.ToLower(k.Term))
	default:
		return k, invalid("unknown knowledge kind %q (example, doc, term)", k.Kind)
	}
	return k, nil
}

// checkExample validates and plans an example's SQL.
func (e *Engine) checkExample(ctx context.Context, sc *scope, sql string) error {
	v := sc.validator()
	res := v.Explain(ctx, e.db, []string{sql})
	if res[0].Err == nil {
		return nil
	}
	if err := lostOrEnded(ctx, "checking the example failed", res[0].Err); err != nil {
		return err // the database's failure or the request's end, not the example's
	}
	if res[0].Validation != nil { // validated, but the server refused to plan it
		return &Error{Class: ClassInvalid, Code: res[0].SQLState, Message: "the example does not plan", Err: res[0].Err}
	}
	return sc.st.rejection("the example does not validate", res[0].Err)
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
	var data knowledgeData
	switch k.Kind {
	case KnowledgeExample:
		d.Text, data = k.Question, knowledgeData{SQL: k.SQL, Note: k.Note}
	case KnowledgeDoc:
		d.Text = k.Text
	case KnowledgeTerm:
		d.Text, data = k.Term, knowledgeData{Targets: k.Targets}
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
	switch k.Kind {
	case KnowledgeExample:
		k.Question, k.SQL, k.Note = d.Text, data.SQL, data.Note
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
	e.know.items, e.know.terms = nil, nil
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
		if err := e.examples.Add(ctx, generate.Example{Question: k.Question, SQL: k.SQL}); err != nil {
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

// docsFor returns the documentation lines for a context of tables and a
// question: the docs of those tables and their columns, then free-standing
// docs sharing at least two content words with the question.
func (e *Engine) docsFor(tables []string, question *gloss.Analysis) []string {
	e.know.mu.RLock()
	defer e.know.mu.RUnlock()
	if len(e.know.items) == 0 {
		return nil
	}
	words := map[string]bool{}
	for _, w := range question.Terms() {
		words[w] = true
	}
	var attached, free []Knowledge
	for _, k := range e.know.items {
		switch {
		case k.Kind != KnowledgeDoc:
		case k.Table != "" && slices.Contains(tables, k.Table):
			attached = append(attached, k)
		case k.Table == "":
			shared := 0
			for _, w := range e.know.terms[k.ID] {
				if words[w] {
					shared++
				}
			}
			if shared >= 2 {
				free = append(free, k)
			}
		}
	}
	order := func(a, b Knowledge) int {
		return strings.Compare(a.Table+"."+a.Column+"\x00"+a.ID, b.Table+"."+b.Column+"\x00"+b.ID)
	}
	slices.SortFunc(attached, order)
	slices.SortFunc(free, order)
	var lines []string
	for _, k := range append(attached, free...) {
		switch {
		case k.Column != "":
			lines = append(lines, k.Table+"."+k.Column+": "+k.Text)
		case k.Table != "":
			lines = append(lines, k.Table+": "+k.Text)
		default:
			lines = append(lines, k.Text)
		}
	}
	return lines[:min(len(lines), maxDocLines)]
}

// lookupTable resolves a table name (qualified, or along the search path)
// to its qualified name, as a query of the request would (resolve): ""
// when there is none, or when it is outside a scoped request's schemas.
func (sc *scope) lookupTable(name string) string {
	return sc.resolve(splitQualified(name))
}

// lookupTarget resolves a glossary target: a table, or table.column (the
// table qualified or not), to its qualified name.
func (sc *scope) lookupTarget(target string) (string, bool) {
	if t := sc.lookupTable(target); t != "" {
		return t, true
	}
	i := strings.LastIndexByte(target, '.')
	if i < 0 {
		return "", false
	}
	t := sc.lookupTable(target[:i])
	if t == "" || sc.st.cat.Lookup(splitQualified(t)).Column(target[i+1:]) == nil {
		return "", false
	}
	return t + "." + target[i+1:], true
}

// splitQualified splits "schema.table" ("" schema when unqualified).
func splitQualified(name string) (string, string) {
	if s, n, ok := strings.Cut(name, "."); ok {
		return s, n
	}
	return "", name
}

// MaxTermTargets is the most targets a term (KnowledgeTerm) may name, as
// given (before the same table or column named twice counts once); more
// is an input error (ErrTooLong).
const MaxTermTargets = 64

// maxDocLines bounds the documentation a prompt shows.
const maxDocLines = 8
