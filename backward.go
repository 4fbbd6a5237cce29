package nl2sql

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/nl2sqlgo/nl2sql/internal/sqlrefs"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// reasonBackward is the retrieve.TableHit reason of a table added to the
// context by backward recall: no retrieval signal chose it, a failed
// candidate query needed it.
const reasonBackward = "backward"

// Backward recall. The validator allows every table of the request's scope
// (scope.policy), not only the context's: SQL over a real table of the
// scope that retrieval left out validates and plans when the model guessed
// its name and columns right, and needs nothing. What fails is what the
// model had to guess without the table's schema:
//
//   - a column of that table (42703, from the server or the validator's
//     qualified-column check), when the deterministic fixes found no
//     column it could stand for;
//   - the table used as a qualifier without a FROM item (42P01 "missing
//     FROM-clause entry"), when no join could be added.
//
// A V012 never names such a table: its relation is either unknown to the
// catalog (a misspelling, first handed to the 42P01 table-name correction,
// which may correct it to a table of the scope, then the rules above apply
// to what fails next) or outside the scope (another tenant's table), which
// stays refused. Neither is recalled, nor is a table the request may not
// read: every recalled name is resolved along the request's search path and
// checked against its scope (scope.resolve, the tables the policy allows).

// recallTables returns the tables backward recall adds to c: qualified
// names, in candidate order, of tables of the request's scope that are not
// in c and that a failed candidate's failure is about (see above).
func (sc *scope) recallTables(c *SchemaContext, cands []*candidate) []string {
	resolve := sc.resolve
	shown := make(map[string]bool, len(c.Tables))
	for _, h := range c.Tables {
		shown[h.Name] = true
	}
	var out []string
	add := func(schemaName, name string) {
		if q := resolve(schemaName, name); q != "" && !shown[q] && !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	for _, cd := range cands {
		if cd.Status != StatusFailed || cd.failedSQL == "" {
			continue
		}
		switch cd.sqlstate {
		case "42P01":
			if name, ok := missingFromEntry(cd.message); ok {
				add("", name)
			}
		case "42703":
			off := byteOffset(cd.failedSQL, cd.position)
			if off < 0 {
				continue
			}
			refs, err := sqlrefs.Extract(cd.failedSQL, sc.st.cat, sc.path)
			if err != nil {
				continue
			}
			for _, u := range refs.Unresolved {
				if u.Location != off {
					continue
				}
				for _, t := range u.Tables {
					if schemaName, name, ok := strings.Cut(t, "."); ok {
						add(schemaName, name)
					}
				}
			}
		}
	}
	return out
}

// missingFromEntry returns the name of `missing FROM-clause entry for table
// "x"` (the server's message, and the validator's start of it).
func missingFromEntry(msg string) (string, bool) {
	rest, ok := strings.CutPrefix(msg, `missing FROM-clause entry for table "`)
	if !ok {
		return "", false
	}
	name, _, ok := strings.Cut(rest, `"`)
	return name, ok && name != ""
}

// byteOffset turns a 1-based character position in sql back into a byte
// offset; -1 when there is none.
func byteOffset(sql string, pos int) int {
	if pos <= 0 {
		return -1
	}
	n := 1
	for i := range sql {
		if n == pos {
			return i
		}
		n++
	}
	return -1
}

// backward is the backward recall round: the context rebuilt with the
// recalled tables after c's (reason reasonBackward, none cut), and the
// candidates the model writes from its prompt, checked (Origin "backward").
// A failed generation leaves no candidate; the error goes to the log and
// the stage's tracer call.
func (e *Engine) backward(ctx context.Context, rq *request, c *SchemaContext, recalled []string, res *Result) (*SchemaContext, []*candidate, error) {
	nc := e.widen(ctx, rq, c, recalled)
	k, t := e.gen.K(nc.Difficulty), time.Now()
	rq.tracers.progress(ctx, Progress{Stage: StageBackward, Total: k})
	out, err := e.gen.Generate(ctx, nc.Prompt, k)
	rq.tracers.progress(ctx, Progress{Stage: StageBackward, Done: k, Total: k, Took: time.Since(t)})
	if out != nil {
		res.Attempts += len(out.Samples)
	}
	if err != nil {
		e.cfg.logger.DebugContext(ctx, "nl2sql: backward recall: no candidate", "err", err)
		return nc, nil, err
	}
	var cands []*candidate
	for _, oc := range out.Candidates {
		cands = append(cands, &candidate{Candidate: Candidate{SQL: oc.SQL, Origin: OriginBackward, Votes: oc.Votes}})
	}
	e.check(ctx, rq.scope, cands)
	return nc, cands, nil
}

// widen returns c rebuilt with the recalled tables after its own (reason
// reasonBackward): link, plan and prompt see them all, and no cap applies.
func (e *Engine) widen(ctx context.Context, rq *request, c *SchemaContext, recalled []string) *SchemaContext {
	hits := slices.Clip(slices.Clone(c.Tables))
	for _, name := range recalled {
		hits = append(hits, retrieve.TableHit{Name: name, Reasons: []string{reasonBackward}})
	}
	return e.buildContext(ctx, rq, rq.reading, hits)
}
