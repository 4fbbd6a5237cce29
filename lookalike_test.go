package nl2sql_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/lookalikes"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestEntryPointsRefuseLookalikes: a tenant's look-alikes in its own schema
// (div_01) and in public never run through any entry point. The names the
// server resolves on the search path (functions, aggregates, operators)
// are pinned out of it: the built-in runs, or another object of the
// relation read refuses the query. Every other attack of
// internal/lookalikes (casts, domains, views, policies, indexes) is refused
// by Check, Run, Repair, Pick, Ask and the executor, Check and Run with
// V029 or V025 naming the planted object (or with a static refusal the
// prepared catalog allows: a field that is no column, V014; a type the
// engine was not given, V016). No answer, error or result holds div_02's
// secret or the look-alikes' marker.
func TestEntryPointsRefuseLookalikes(t *testing.T) {
	pool := lookalikes.New(t).Pool(t)
	var answer string
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply { return fenced(answer) })
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithScope("div_01"), nl2sql.WithValueIndex(false),
		nl2sql.WithK(1, 1, 1), nl2sql.WithRepairAttempts(0))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := eng.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	ex := execute.New(pool, execute.WithScope("div_01", "public"))
	leaked := func(where string, v any) {
		if s := fmt.Sprintf("%+v", v); lookalikes.Leaked(s) {
			t.Errorf("%s: the look-alike ran: %s", where, s)
		}
	}
	refused := func(issues []validate.Issue, object string) bool {
		for _, is := range issues {
			if is.Severity == validate.SeverityError && ((is.Code == validate.CodeLookalike &&
				strings.Contains(strings.ReplaceAll(is.Message, "div_01.", ""), strings.ReplaceAll(object, "div_01.", ""))) ||
				is.Code == validate.CodeMutable || is.Code == validate.CodeFuncNotation || is.Code == validate.CodeType) {
				return true
			}
		}
		return false
	}
	lookalike, objects := 0, 0
	for _, a := range lookalikes.Attacks {
		if a.OnPath() {
			// Pinned off the path (validate.Pin): every entry point either
			// refuses the query for another object of the relation it
			// reads or runs the built-in; none runs the look-alike.
			chk, err := eng.Check(ctx, a.SQL)
			leaked(a.Name+" Check", fmt.Sprint(chk, err))
			res, err := eng.Run(ctx, a.SQL)
			leaked(a.Name+" Run", fmt.Sprint(res, err))
			var ve *validate.Error
			if err != nil && !errors.As(err, &ve) {
				t.Errorf("%s Run: err = %v, want the built-in's answer or a refusal", a.Name, err)
			}
			rr, err := eng.Repair(ctx, a.SQL)
			leaked(a.Name+" Repair", fmt.Sprint(rr, err))
			pr, err := eng.Pick(ctx, "attack", []string{a.SQL})
			leaked(a.Name+" Pick", fmt.Sprint(pr, err))
			answer = a.SQL
			ar, err := eng.Ask(ctx, "attack")
			leaked(a.Name+" Ask", fmt.Sprint(ar, err))
			xr, err := ex.Query(ctx, a.SQL)
			leaked(a.Name+" executor", fmt.Sprint(xr, err))
			continue
		}
		objects++
		chk, err := eng.Check(ctx, a.SQL)
		if err != nil || chk.OK || !refused(chk.Issues, a.Object) {
			t.Errorf("%s Check: ok=%v err=%v issues=%v, want V029 or V025 naming %s", a.Name, chk != nil && chk.OK, err, issuesOf(chk), a.Object)
		} else if hasViolation(chk.Issues, validate.CodeLookalike) || hasViolation(chk.Issues, validate.CodeMutable) {
			lookalike++
		}
		leaked(a.Name+" Check", chk)
		res, err := eng.Run(ctx, a.SQL)
		var ve *validate.Error
		if !errors.As(err, &ve) || !refused(ve.Issues, a.Object) || res != nil && len(res.Rows) > 0 {
			t.Errorf("%s Run: err = %v, want V029 or V025 naming %s", a.Name, err, a.Object)
		}
		leaked(a.Name+" Run", fmt.Sprint(res, err))
		rr, err := eng.Repair(ctx, a.SQL)
		if err != nil || rr.Executes {
			t.Errorf("%s Repair: err=%v result=%+v", a.Name, err, rr)
		}
		leaked(a.Name+" Repair", rr)
		pr, err := eng.Pick(ctx, "attack", []string{a.SQL})
		if pr == nil || pr.Chosen >= 0 {
			t.Errorf("%s Pick chose it: %+v %v", a.Name, pr, err)
		}
		leaked(a.Name+" Pick", fmt.Sprint(pr, err))
		answer = a.SQL
		ar, err := eng.Ask(ctx, "attack")
		if err == nil {
			t.Errorf("%s Ask answered: %+v", a.Name, ar)
		}
		leaked(a.Name+" Ask", fmt.Sprint(ar, err))
		xr, err := ex.Query(ctx, a.SQL)
		if !errors.As(err, &ve) || !(ve.Has(validate.CodeLookalike) || ve.Has(validate.CodeMutable)) {
			t.Errorf("%s executor: err = %v, want V025 or V029", a.Name, err)
		}
		leaked(a.Name+" executor", fmt.Sprint(xr, err))
	}
	if lookalike < objects-2 {
		t.Errorf("%d of %d attacks on objects refused with V025 or V029 by Check, want all but the field and the type", lookalike, objects)
	}
}
