package nl2sql

// The entry points that teach, forget and list knowledge (Learn, Forget,
// Knowledge) and the checks a piece of knowledge passes before it is kept;
// the knowledge base itself is knowledge.go.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// Learn checks a piece of knowledge and stores it (once: learning the same
// thing again changes nothing), returning it with its ID. An example's SQL
// must validate and plan on this database (ErrInvalid or ErrUnsafe with the
// reason otherwise); a doc's table and column, and a term's targets, must
// exist. Everything learnt is used from the next question on: a term
// rebuilds the schema index on the current catalog (only the documents it
// changes are embedded again). A Scope option checks the knowledge in that
// request's scope, so an answer given under Scope("hr") with unqualified
// table names is confirmed with it. The knowledge keeps the request's
// identity (AsRole, Setting, Scope): see Knowledge.Role for which requests
// are shown it.
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
	k = rq.ac.learntUnder(k)
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
		sql := k.SQL
		if len(k.Parameters) > 0 {
			if err := sc.checkTemplate(k.Template()); err != nil {
				return k, err
			}
			_, sql = k.instance()
		}
		if err := e.checkExample(ctx, sc, sql); err != nil {
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
	// As the request's identity: a policy may read its settings, and the
	// example must plan with the privileges it will be shown under.
	res := sc.explain(ctx, []string{sql})
	if res[0].Err == nil {
		return nil
	}
	if err := lostOrEnded(ctx, "checking the example failed", res[0].Err); err != nil {
		return err // the database's failure or the request's end, not the example's
	}
	if res[0].Validation != nil { // validated, but the server refused to plan it
		return &Error{Class: ClassInvalid, Code: res[0].SQLState, Message: "the example does not plan", Err: res[0].Err}
	}
	return rejection(sc.st.cat, "the example does not validate", res[0].Err)
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

// MaxTermTargets is the most targets a term (KnowledgeTerm) may name, as
// given (before the same table or column named twice counts once); more
// is an input error (ErrTooLong).
const MaxTermTargets = 64
