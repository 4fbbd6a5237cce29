package console

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/confidence"
)

// How an answer's assessment is shown: the verdict (answered, uncertain,
// abstained) as a banner with its reasons, the confidence on a colour
// scale, the other answers the candidates gave side by side, each with
// "Use this one", and the clarifying question. An uncertain answer is a
// guess and looks like one: amber, "Unsure: <reason>", its figure muted,
// and "this answer is right" demoted to a small link; an abstained one
// shows no rows and no figure, only why and the alternatives.

// confidenceLevels are the lower bounds of the confidence colour scale's
// steps (classes conf-0 .. conf-4: red, orange, amber, olive, green).
var confidenceLevels = []float64{0, 0.3, 0.5, 0.7, 0.9}

// confidenceClass is the CSS class of a confidence on the colour scale.
func confidenceClass(p float64) string {
	level := 0
	for i, lo := range confidenceLevels {
		if p >= lo {
			level = i
		}
	}
	return "conf-" + strconv.Itoa(level)
}

// altView is an alternative answer as the page shows it.
type altView struct {
	N           int // its index in Result.Alternatives, for "Use this one"
	SQL         string
	Description string
	Support     float64
	Columns     []nl2sql.Column
	Rows        [][]string
}

// alternativeViews are res's alternatives the caller's scope may run (the
// engine checks each again in the console's scope: one that reads a table
// outside it is not shown), with their first rows as text.
func (c *Console) alternativeViews(ctx context.Context, res *nl2sql.Result) []altView {
	var out []altView
	for i, a := range res.Alternatives {
		if chk, err := c.eng.Check(ctx, a.SQL, c.callOpts(ctx)...); err != nil || !chk.OK {
			continue
		}
		v := altView{N: i, SQL: formatSQL(a.SQL), Description: a.Description, Support: a.Support, Columns: a.Columns}
		for _, row := range a.Rows {
			cells := make([]string, len(row))
			for j, x := range row {
				cells[j] = cell(x)
			}
			v.Rows = append(v.Rows, cells)
		}
		out = append(out, v)
	}
	return out
}

// verdictData adds what the page shows of res's assessment to data.
func (c *Console) verdictData(ctx context.Context, data map[string]any, res *nl2sql.Result) {
	data["Verdict"] = string(res.Verdict)
	data["ConfClass"] = confidenceClass(res.Confidence)
	if len(res.Reasons) > 1 {
		data["MoreReasons"] = res.Reasons[1:] // the first is the banner's
	}
	if res.Verdict == nl2sql.VerdictUncertain || res.Verdict == nl2sql.VerdictAbstained {
		alts := c.alternativeViews(ctx, res)
		data["Alternatives"] = alts
		if len(alts) > 0 && alts[0].N == 0 {
			// The question tells the chosen answer from the first
			// alternative: asked only when that one is shown.
			data["Clarify"] = res.Clarify
		}
	}
}

// signal is one of the signals an answer's confidence was computed from,
// as the trace shows it.
type signal struct{ Name, Value string }

// signalRows are sig's fields by their JSON names, sorted, their values
// as JSON: whatever fields the engine's Signals has.
func signalRows(sig *confidence.Signals) []signal {
	if sig == nil {
		return nil
	}
	b, err := json.Marshal(sig)
	var fields map[string]json.RawMessage
	if err != nil || json.Unmarshal(b, &fields) != nil {
		return nil
	}
	out := make([]signal, 0, len(fields))
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		v := string(fields[name])
		if f, err := strconv.ParseFloat(v, 64); err == nil && f != math.Trunc(f) {
			v = strconv.FormatFloat(f, 'f', 3, 64) // 0.667, not 0.6666666666666666
		}
		out = append(out, signal{Name: name, Value: v})
	}
	return out
}

// abstainedErr reports whether err is an abstention: the page says so in
// its verdict banner, not as a failure.
func abstainedErr(err error) bool { return errors.Is(err, nl2sql.ErrLowConfidence) }

// teachUse answers a kept question with one of its alternatives ("Use
// this one"): the alternative's SQL is run as the answer (Engine.Run, in
// the console's scope) and taught as an example of the question, as
// "This answer is right" teaches the answer shown. The form names the
// answer and the alternative's index, never SQL: only what the engine
// offered can be chosen here (Correct it takes SQL, validated).
func (c *Console) teachUse(w http.ResponseWriter, r *http.Request) {
	e := c.entry(r, r.PostFormValue("id"))
	n, err := strconv.Atoi(r.PostFormValue("alt"))
	if e == nil || e.Res == nil || e.Question == "" || err != nil || n < 0 || n >= len(e.Res.Alternatives) {
		c.gone(w, r)
		return
	}
	sql := e.Res.Alternatives[n].SQL
	ctx := reqCtx(r)
	res, err := c.eng.Run(ctx, sql, c.callOpts(reqCtx(r))...)
	if err != nil {
		data := map[string]any{"Q": e.Question, "Evidence": e.Evidence, "Error": "the alternative could not be run: " + errText(err)}
		c.renderCode(w, r, http.StatusUnprocessableEntity, "ask", data)
		return
	}
	used := &entry{Kind: "ask", Question: e.Question, Evidence: e.Evidence, Res: res, Chosen: true}
	k, err := c.eng.Learn(ctx, nl2sql.Example(e.Question, sql), c.callOpts(reqCtx(r))...)
	if err != nil {
		used.Err = "the answer was not kept as an example: " + errText(err)
	} else {
		used.Taught = k.ID
	}
	c.keep(r, used)
	http.Redirect(w, r, "/a/"+url.PathEscape(used.ID), http.StatusSeeOther)
}
