package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/semantic"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// verifiedReport is what exam --verified prints: the definitions the
// catalog no longer fits, and each verified question's run with each of
// its declared examples.
type verifiedReport struct {
	Mode        string          `json:"mode"` // "verified"
	Model       string          `json:"model"`
	Baseline    string          `json:"baseline,omitempty"`
	Total       int             `json:"total"`
	OK          int             `json:"ok"`
	Failed      int             `json:"failed"`  // no longer validates or runs
	Changed     int             `json:"changed"` // runs, but not as the baseline recorded
	Definitions []definitionErr `json:"definitions"`
	Results     []verifiedCase  `json:"results"`
}

// definitionErr is a problem semantic.Check finds in the model.
type definitionErr struct {
	Line    int    `json:"line"`
	Where   string `json:"where,omitempty"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
}

// verifiedCase is one verified question run with one binding.
type verifiedCase struct {
	Question string            `json:"question"`
	Source   string            `json:"source"`
	Bindings map[string]string `json:"bindings,omitempty"`
	Status   string            `json:"status"` // ok, failed, changed
	Code     string            `json:"code,omitempty"`
	Error    string            `json:"error,omitempty"`
	Changed  []string          `json:"changed,omitempty"`
	verifiedResult
}

// verifiedResult is what a baseline records of a run: the columns (name
// and type), the row count and a digest of the rows, in any order.
type verifiedResult struct {
	Columns []string `json:"columns,omitempty"`
	Rows    int      `json:"rows"`
	Digest  string   `json:"digest,omitempty"`
}

// verifiedBaseline is the file --write-baseline writes and --baseline
// reads: each case's result, keyed by its template and binding.
type verifiedBaseline struct {
	Version int                       `json:"version"`
	Results map[string]verifiedResult `json:"results"`
}

// examVerified runs the regression exam of the semantic model at file:
// Check against the catalog, then every verified question (and every
// template learnt into --index or --store that the identity of --role and
// --set is offered) with each declared example, as that identity.
// The engine is opened without the model, so that a model the catalog no
// longer fits is reported item by item instead of failing the start.
func examVerified(ctx context.Context, s *sub, file, baseline, writeTo string) error {
	m, err := semantic.Load(file)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	var base *verifiedBaseline
	if baseline != "" {
		b, err := os.ReadFile(baseline)
		if err != nil {
			return usageErr("--baseline: %v", err)
		}
		if err := json.Unmarshal(b, &base); err != nil || base.Version != 1 {
			return usageErr("--baseline %s: not a baseline written by --write-baseline (%v)", baseline, err)
		}
	}
	s.semantic = ""
	eng, err := s.open(ctx, nil, nl2sql.WithValueIndex(false))
	if err != nil {
		return err
	}
	defer s.close()
	cat, err := eng.Catalog(ctx)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	rep := verifiedReport{Mode: "verified", Model: file, Baseline: baseline, Definitions: []definitionErr{}, Results: []verifiedCase{}}
	check := m.Clone() // Check resolves in place; m is run below as read
	var errs semantic.Errors
	if err := check.Check(cat, validate.New(validate.WithSearchPath(searchPath(s.scope)...))); errors.As(err, &errs) {
		for _, e := range errs {
			rep.Definitions = append(rep.Definitions, definitionErr{Line: e.Line, Where: e.Where, Code: e.Code, Message: e.Msg})
		}
	} else if err != nil {
		rep.Definitions = append(rep.Definitions, definitionErr{Message: err.Error()})
	}
	type named struct {
		q      *semantic.VerifiedQuestion
		source string
	}
	var qs []named
	for _, q := range m.VerifiedQuestions {
		qs = append(qs, named{q, fmt.Sprintf("%s:%d", file, q.Line)})
	}
	// The identity of --role and --set: the learnt templates Ask would
	// answer it from (the operator's and its own, in its scope), each run
	// as it reads.
	who := s.who.AskOptions()
	ks, err := eng.ScopeKnowledge(ctx, who...)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	for _, k := range ks {
		if k.Kind == nl2sql.KnowledgeExample && len(k.Parameters) > 0 {
			qs = append(qs, named{k.Template(), k.ID})
		}
	}
	written := &verifiedBaseline{Version: 1, Results: map[string]verifiedResult{}}
	for _, n := range qs {
		for _, values := range n.q.Examples() {
			c := verifiedCase{Question: n.q.Question, Source: n.source, Bindings: values, Status: "ok"}
			res, err := eng.RunVerified(ctx, n.q, values, who...)
			if ctx.Err() != nil {
				return &exitError{code: 2, err: ctx.Err()}
			}
			key := caseKey(n.q.Question, values)
			switch {
			case err != nil:
				c.Status, c.Error = "failed", err.Error()
				var ne *nl2sql.Error
				if errors.As(err, &ne) {
					c.Code = ne.Code
				}
				rep.Failed++
			default:
				c.verifiedResult = resultOf(res)
				written.Results[key] = c.verifiedResult
				if base != nil {
					c.Changed = c.verifiedResult.differs(base.Results[key], base.Results[key].Digest != "")
				}
				if len(c.Changed) > 0 {
					c.Status = "changed"
					rep.Changed++
				} else {
					rep.OK++
				}
			}
			rep.Total++
			rep.Results = append(rep.Results, c)
		}
	}
	if writeTo != "" {
		b, _ := json.MarshalIndent(written, "", "  ")
		if err := os.WriteFile(writeTo, append(b, '\n'), 0o644); err != nil {
			return &exitError{code: 2, err: fmt.Errorf("--write-baseline: %w", err)}
		}
	}
	if err := writeJSON(s.stdout, rep); err != nil {
		return err
	}
	if rep.Failed+rep.Changed+len(rep.Definitions) > 0 {
		return &exitError{code: 1, err: fmt.Errorf("exam --verified: %d failed, %d changed, %d definition problems", rep.Failed, rep.Changed, len(rep.Definitions))}
	}
	return nil
}

// caseKey names a case in a baseline: the template and its binding.
func caseKey(question string, values map[string]string) string {
	var parts []string
	for k, v := range values {
		parts = append(parts, k+"="+v)
	}
	slices.Sort(parts)
	return question + " | " + strings.Join(parts, ", ")
}

// resultOf is the baseline's view of a result: the rows' digest does not
// depend on their order (a query without ORDER BY may return them in any).
func resultOf(res *nl2sql.Result) verifiedResult {
	r := verifiedResult{Rows: len(res.Rows)}
	for _, c := range res.Columns {
		r.Columns = append(r.Columns, c.Name+" "+c.Type)
	}
	lines := make([]string, len(res.Rows))
	for i, row := range res.Rows {
		b, _ := json.Marshal(row)
		lines[i] = string(b)
	}
	slices.Sort(lines)
	h := sha256.New()
	io.WriteString(h, strings.Join(r.Columns, "\x00")+"\x01"+strings.Join(lines, "\n"))
	r.Digest = "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
	return r
}

// differs lists what of r is not as want recorded ("not in the baseline"
// when want is empty).
func (r verifiedResult) differs(want verifiedResult, known bool) []string {
	if !known {
		return []string{"not in the baseline"}
	}
	var out []string
	if !slices.Equal(r.Columns, want.Columns) {
		out = append(out, fmt.Sprintf("columns %v, baseline %v", r.Columns, want.Columns))
	}
	if r.Rows != want.Rows {
		out = append(out, fmt.Sprintf("%d rows, baseline %d", r.Rows, want.Rows))
	}
	if r.Digest != want.Digest {
		out = append(out, "the rows' values differ from the baseline's")
	}
	return out
}
