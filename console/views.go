package console

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// opts are the options of a question of ctx's request: its evidence,
// then callOpts.
func (c *Console) opts(ctx context.Context, evidence string) []nl2sql.AskOption {
	var o []nl2sql.AskOption
	if evidence != "" {
		o = append(o, nl2sql.Evidence(evidence))
	}
	return append(o, c.callOpts(ctx)...)
}

// askPage is the question box; with ?q= it asks and shows the answer.
func (c *Console) askPage(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	ev := strings.TrimSpace(r.URL.Query().Get("evidence"))
	data := map[string]any{"Q": q, "Evidence": ev}
	if q == "" || !c.model {
		c.render(w, r, "ask", data)
		return
	}
	if fromOtherSite(r) {
		// An image, frame or script of another site (or another port of
		// this host) must not make the console call the model and run
		// a query: the question waits in the box for the user.
		data["Pending"] = true
		c.render(w, r, "ask", data)
		return
	}
	res, err := c.eng.Ask(reqCtx(r), q, c.opts(reqCtx(r), ev)...)
	e := &entry{Kind: "ask", Question: q, Evidence: ev, Res: res}
	code := http.StatusOK
	if err != nil && !abstainedErr(err) {
		e.Err = errText(err)
		if errors.Is(err, nl2sql.ErrTooLong) {
			code = http.StatusRequestEntityTooLarge
		}
	}
	if res != nil {
		c.keep(r, e)
	}
	data["Error"] = e.Err
	if res != nil {
		c.answerData(r, data, e, res, 1)
	}
	c.renderCode(w, r, code, "ask", data)
}

// fromOtherSite reports whether a browser sent r for a page of another
// origin without the user asking for it here: Sec-Fetch-Site is
// cross-site or same-site, and r is not a top-level navigation the user
// started (a link followed). Requests without the header (curl, old
// browsers) are not.
func fromOtherSite(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
		return false
	}
	return r.Header.Get("Sec-Fetch-Mode") != "navigate" || r.Header.Get("Sec-Fetch-Dest") != "document" ||
		r.Header.Get("Sec-Fetch-User") != "?1"
}

// answerPage is a kept answer, at a page of its rows.
func (c *Console) answerPage(w http.ResponseWriter, r *http.Request) {
	e := c.entry(r, r.PathValue("id"))
	if e == nil {
		c.gone(w, r)
		return
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	data := map[string]any{"Q": e.Question, "Evidence": e.Evidence, "Error": e.Err}
	res := e.Res
	if e.paged {
		// A large result kept its first page only: its rows are read
		// from the database again, with the cap it ran with.
		again, err := c.eng.Run(reqCtx(r), e.Res.SQL, append(c.callOpts(reqCtx(r)), nl2sql.MaxRows(e.Res.RowCap))...)
		if err != nil {
			data["Error"] = "the rows could not be read again: " + errText(err)
		} else {
			// Its rows, with the answer's confidence, verdict and trace
			// (a Run has none of them).
			whole := *e.Res
			whole.Rows = again.Rows
			res = &whole
		}
	}
	c.answerData(r, data, e, res, page)
	c.render(w, r, "ask", data)
}

func (c *Console) gone(w http.ResponseWriter, r *http.Request) {
	c.renderCode(w, r, http.StatusNotFound, "ask", map[string]any{"Error": "this answer is no longer kept: ask again"})
}

// rowsView is one page of a result's rows.
type rowsView struct {
	Columns    []nl2sql.Column
	Rows       [][]string
	Total      int
	Page       int
	Pages      int
	First      int
	Last       int
	Truncated  bool
	Truncation string
	Prev, Next string
}

func pageRows(res *nl2sql.Result, page int, base string) *rowsView {
	v := &rowsView{Columns: res.Columns, Total: len(res.Rows), Truncated: res.Truncated}
	v.Pages = (v.Total + PageSize - 1) / PageSize
	if v.Pages == 0 {
		v.Pages = 1
	}
	if page < 1 {
		page = 1
	}
	if page > v.Pages {
		page = v.Pages
	}
	v.Page = page
	lo, hi := (page-1)*PageSize, page*PageSize
	if hi > v.Total {
		hi = v.Total
	}
	if lo > hi {
		lo = hi
	}
	v.First, v.Last = lo+1, hi
	for _, row := range res.Rows[lo:hi] {
		cells := make([]string, len(row))
		for i, x := range row {
			cells[i] = cell(x)
		}
		v.Rows = append(v.Rows, cells)
	}
	if res.Truncated {
		switch res.TruncatedBy {
		case "byte_cap":
			v.Truncation = "Truncated: the values reached the executor's byte cap after " + strconv.Itoa(v.Total) + " rows; the query has more."
		default:
			v.Truncation = "Truncated: the row cap is " + strconv.Itoa(res.RowCap) + " and the query has more rows."
		}
	}
	if base != "" {
		if page > 1 {
			v.Prev = base + "?page=" + strconv.Itoa(page-1)
		}
		if page < v.Pages {
			v.Next = base + "?page=" + strconv.Itoa(page+1)
		}
	}
	return v
}

// answerData is the data of e's answer page, its rows those of res (e's
// whole result, or its rows read again when e keeps only a page).
func (c *Console) answerData(r *http.Request, data map[string]any, e *entry, res *nl2sql.Result, page int) {
	data["ID"] = e.ID
	data["Res"] = res
	data["SQL"] = formatSQL(res.SQL)
	data["Chosen"], data["Taught"] = e.Chosen, e.Taught
	c.verdictData(reqCtx(r), data, res)
	if res.SQL != "" && res.Verdict != nl2sql.VerdictAbstained {
		data["Rows"] = pageRows(res, page, "/a/"+e.ID)
		ch := e.chartOf()
		data["Chart"] = ch
	}
	data["Link"] = "/?" + url.Values{"q": {e.Question}, "evidence": {e.Evidence}}.Encode()
}

func (e *entry) chartOf() *chart {
	e.chartOnce.Do(func() { e.chart = shape(e.Res) })
	return e.chart
}

func (c *Console) chartSVG(w http.ResponseWriter, r *http.Request) {
	e := c.entry(r, r.PathValue("id"))
	if e == nil || e.Res == nil {
		http.NotFound(w, r)
		return
	}
	ch := e.chartOf()
	if ch == nil || ch.Kind == "figure" {
		http.NotFound(w, r)
		return
	}
	svg, err := ch.svg()
	if err != nil {
		c.log.Error("console: chart", "err", err)
		http.Error(w, "chart failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	// The SVG styles its text in style attributes, which the pages' policy
	// (style-src 'self') refuses when the chart is opened on its own; it
	// holds no script, and may load nothing.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	w.Header().Set("Cache-Control", "private, max-age=3600")
	w.Write(svg)
}

// stageOrder is the order of Ask's stages (trace.go).
var stageOrder = []string{"retrieve", "link", "plan", "prompt", "generate", "validate", "backward", "repair", "score", "execute"}

// bar is one stage of the timings waterfall.
type bar struct {
	Stage      string
	Took       string
	X, W, Y    float64
	LabelY     float64
	TookMillis float64
}

func waterfall(t nl2sql.Timings) ([]bar, string, float64) {
	var stages []string
	seen := map[string]bool{}
	for _, s := range stageOrder {
		if _, ok := t[s]; ok {
			stages = append(stages, s)
			seen[s] = true
		}
	}
	var rest []string
	for s := range t {
		if !seen[s] && s != "total" {
			rest = append(rest, s)
		}
	}
	sort.Strings(rest)
	stages = append(stages, rest...)
	var sum time.Duration
	for _, s := range stages {
		sum += t[s]
	}
	total := t["total"]
	if total < sum {
		total = sum
	}
	const width = 600.0
	var out []bar
	var at time.Duration
	for i, s := range stages {
		d := t[s]
		b := bar{Stage: s, Took: ms(d), Y: float64(i) * 22, TookMillis: float64(d.Microseconds()) / 1000}
		b.LabelY = b.Y + 15
		if total > 0 {
			b.X = 110 + width*float64(at)/float64(total)
			b.W = width * float64(d) / float64(total)
		}
		if b.W < 1 {
			b.W = 1
		}
		at += d
		out = append(out, b)
	}
	return out, ms(total), float64(len(stages))*22 + 4
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
}

// tracePage is "why this query": the context with its reasons, the
// prompt, the candidates and the timings.
func (c *Console) tracePage(w http.ResponseWriter, r *http.Request) {
	e := c.entry(r, r.PathValue("id"))
	if e == nil || e.Res == nil {
		c.gone(w, r)
		return
	}
	data := map[string]any{"ID": e.ID, "Q": e.Question, "Evidence": e.Evidence, "Res": e.Res, "Error": e.Err,
		"ConfClass": confidenceClass(e.Res.Confidence), "Signals": signalRows(e.Res.Signals)}
	if e.Kind == "ask" {
		cx, err := e.context(reqCtx(r), func(ctx context.Context) (*nl2sql.SchemaContext, error) {
			return c.eng.SchemaContext(ctx, e.Question, c.opts(ctx, e.Evidence)...)
		})
		data["Context"] = cx
		if err != nil {
			data["ContextError"] = errText(err)
		}
	}
	bars, total, h := waterfall(e.Res.Timings)
	data["Bars"], data["Total"], data["WaterfallH"] = bars, total, h
	var cands []map[string]any
	for _, cd := range e.Res.Candidates {
		cands = append(cands, map[string]any{"C": cd, "SQL": formatSQL(cd.SQL)})
	}
	data["Candidates"] = cands
	c.render(w, r, "trace", data)
}

// checkPage is the SQL box.
func (c *Console) checkPage(w http.ResponseWriter, r *http.Request) {
	c.render(w, r, "check", map[string]any{"SQLIn": r.URL.Query().Get("sql")})
}

// checkPost checks (and with action=run, runs) the SQL.
func (c *Console) checkPost(w http.ResponseWriter, r *http.Request) {
	sql := r.PostFormValue("sql")
	data := map[string]any{"SQLIn": sql}
	if strings.TrimSpace(sql) == "" {
		data["Error"] = "no SQL"
		c.render(w, r, "check", data)
		return
	}
	ctx := reqCtx(r)
	chk, err := c.eng.Check(ctx, sql, c.callOpts(reqCtx(r))...)
	if err != nil {
		data["Error"] = errText(err)
		c.render(w, r, "check", data)
		return
	}
	data["Check"] = chk
	var issues []map[string]any
	for _, is := range chk.Issues {
		text := sql
		if chk.SQL != "" {
			text = chk.SQL
		}
		issues = append(issues, map[string]any{"I": is, "At": position(text, is.Location)})
	}
	data["Issues"] = issues
	if chk.SQLState != "" {
		data["PlanAt"] = position(chk.SQL, chk.Position)
	}
	if !chk.OK && !refused(chk.Issues) {
		// Repairs mend mistakes (a misspelt name, a missing join); a policy
		// refusal has none, and the verdict has said why.
		if rep, err := c.eng.Repair(ctx, sql, c.callOpts(reqCtx(r))...); err == nil {
			data["Repair"] = rep
			data["RepairSQL"] = formatSQL(rep.SQLOut)
		}
	}
	// SQL the check refused is not run: Run would refuse it again, and
	// the page would say the same thing twice.
	if r.PostFormValue("action") == "run" && chk.OK {
		res, err := c.eng.Run(ctx, sql, c.callOpts(reqCtx(r))...)
		if err != nil {
			data["RunError"] = errText(err)
		} else {
			e := &entry{Kind: "run", Question: "", Res: res}
			c.keep(r, e)
			data["ID"] = e.ID
			data["Res"] = res
			data["Rows"] = pageRows(res, 1, "/a/"+e.ID)
			data["Chart"] = e.chartOf()
		}
	}
	c.render(w, r, "check", data)
}

// refused reports whether an issue is a policy refusal (validate.Unsafe).
func refused(issues []validate.Issue) bool {
	return slices.ContainsFunc(issues, func(is validate.Issue) bool {
		return is.Severity == validate.SeverityError && validate.Unsafe(is.Code)
	})
}

// at is where an issue points: line and column (1-based) and the text
// around it; nil when it applies to the whole statement.
type at struct {
	Line, Col           int
	Before, Mark, After string
}

func position(text string, off int) *at {
	if off < 0 || off > len(text) {
		return nil
	}
	line := 1 + strings.Count(text[:off], "\n")
	start := strings.LastIndexByte(text[:off], '\n') + 1
	end := strings.IndexByte(text[off:], '\n')
	if end < 0 {
		end = len(text)
	} else {
		end += off
	}
	p := &at{Line: line, Col: len([]rune(text[start:off])) + 1, Before: text[start:off]}
	if off < end {
		n := off + 1
		for n < end && (text[n]&0xC0) == 0x80 {
			n++
		}
		// Mark the word at the position.
		for n < end && isWord(text[n]) && isWord(text[off]) {
			n++
		}
		p.Mark, p.After = text[off:n], text[n:end]
	}
	return p
}

func isWord(b byte) bool {
	return b == '_' || b == '.' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// schemaPage lists the tables, filtered by ?q= (names, columns, comments).
func (c *Console) schemaPage(w http.ResponseWriter, r *http.Request) {
	q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
	cat, err := c.eng.ScopeCatalog(reqCtx(r), c.callOpts(reqCtx(r))...)
	data := map[string]any{"Q": r.URL.Query().Get("q")}
	if err != nil {
		data["Error"] = errText(err)
		c.render(w, r, "schema", data)
		return
	}
	type row struct {
		T       *schema.Table
		Name    string
		Matched []string
	}
	var rows []row
	for _, t := range cat.Tables {
		name := t.QualifiedName()
		if q == "" || strings.Contains(strings.ToLower(name), q) || strings.Contains(strings.ToLower(t.Comment), q) {
			rows = append(rows, row{T: t, Name: name})
			continue
		}
		var m []string
		for _, col := range t.Columns {
			if strings.Contains(strings.ToLower(col.Name), q) || strings.Contains(strings.ToLower(col.Comment), q) {
				m = append(m, col.Name)
			}
		}
		if len(m) > 0 {
			rows = append(rows, row{T: t, Name: name, Matched: m})
		}
	}
	data["Tables"] = rows
	data["Count"] = len(cat.Tables)
	c.render(w, r, "schema", data)
}

// tablePage is one table: M-Schema, columns, foreign-key neighbours.
func (c *Console) tablePage(w http.ResponseWriter, r *http.Request) {
	cat, err := c.eng.ScopeCatalog(reqCtx(r), c.callOpts(reqCtx(r))...)
	if err != nil {
		c.render(w, r, "table", map[string]any{"Error": errText(err)})
		return
	}
	t := cat.Table(r.PathValue("table"))
	if t == nil {
		c.renderCode(w, r, http.StatusNotFound, "table", map[string]any{"Error": "no table " + r.PathValue("table")})
		return
	}
	var in []map[string]string
	for _, ref := range cat.ReferencedBy(t.QualifiedName()) {
		in = append(in, map[string]string{"Table": ref.From.QualifiedName(), "Columns": strings.Join(ref.FK.Columns, ", "), "RefColumns": strings.Join(ref.FK.RefColumns, ", ")})
	}
	c.render(w, r, "table", map[string]any{"T": t, "Name": t.QualifiedName(), "MSchema": schema.MSchema([]*schema.Table{t}), "In": in})
}

// retrievePage is the context and prompt of a question, without a model.
func (c *Console) retrievePage(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	ev := strings.TrimSpace(r.URL.Query().Get("evidence"))
	data := map[string]any{"Q": q, "Evidence": ev}
	if q != "" {
		cx, err := c.eng.SchemaContext(reqCtx(r), q, c.opts(reqCtx(r), ev)...)
		if err != nil {
			data["Error"] = errText(err)
		}
		data["Context"] = cx
	}
	c.render(w, r, "retrieve", data)
}

func (c *Console) knowledgePage(w http.ResponseWriter, r *http.Request) {
	ks, err := c.eng.ScopeKnowledge(reqCtx(r), c.callOpts(reqCtx(r))...)
	data := map[string]any{"Knowledge": ks}
	if err != nil {
		data["Error"] = errText(err)
	}
	// The status of a teach redirect, from a fixed set: a link cannot make
	// the page say what its author wants. The ID learnt is shown when it is
	// one of those listed.
	q := r.URL.Query()
	switch q.Get("done") {
	case "learned":
		data["Learned"] = true
		if id := q.Get("id"); slices.ContainsFunc(ks, func(k nl2sql.Knowledge) bool { return k.ID == id }) {
			data["LearnedID"] = id
		}
	case "forgot":
		data["Forgot"] = true
	}
	c.render(w, r, "knowledge", data)
}

func (c *Console) learn(w http.ResponseWriter, r *http.Request, k nl2sql.Knowledge) {
	var err error
	if k.Kind == nl2sql.KnowledgeExample && r.PostFormValue("parameters") == "auto" {
		note := k.Note
		if k, err = c.eng.ProposeTemplate(reqCtx(r), k.Question, k.SQL, c.callOpts(reqCtx(r))...); err == nil {
			k.Note = note
		}
	}
	got := k
	if err == nil {
		got, err = c.eng.Learn(reqCtx(r), k, c.callOpts(reqCtx(r))...)
	}
	if err != nil {
		ks, _ := c.eng.ScopeKnowledge(reqCtx(r), c.callOpts(reqCtx(r))...)
		c.renderCode(w, r, http.StatusUnprocessableEntity, "knowledge", map[string]any{"Knowledge": ks, "Error": "not learnt: " + errText(err), "Draft": k})
		return
	}
	http.Redirect(w, r, "/knowledge?done=learned&id="+url.QueryEscape(got.ID), http.StatusSeeOther)
}

// teachConfirm stores a kept answer as an example.
func (c *Console) teachConfirm(w http.ResponseWriter, r *http.Request) {
	e := c.entry(r, r.PostFormValue("id"))
	if e == nil || e.Res == nil || e.Res.SQL == "" || e.Question == "" {
		c.gone(w, r)
		return
	}
	c.learn(w, r, nl2sql.Example(e.Question, e.Res.SQL))
}

// teachCorrect stores a question with corrected SQL (the engine validates
// and plans it first).
func (c *Console) teachCorrect(w http.ResponseWriter, r *http.Request) {
	k := nl2sql.Example(strings.TrimSpace(r.PostFormValue("question")), strings.TrimSpace(r.PostFormValue("sql")))
	k.Note = strings.TrimSpace(r.PostFormValue("note"))
	c.learn(w, r, k)
}

func (c *Console) teachDoc(w http.ResponseWriter, r *http.Request) {
	c.learn(w, r, nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Text: strings.TrimSpace(r.PostFormValue("text")),
		Table: strings.TrimSpace(r.PostFormValue("table")), Column: strings.TrimSpace(r.PostFormValue("column"))})
}

// teachTerm stores what a business word means: its targets, one table
// (schema.table or a bare name) or table.column per comma or line.
func (c *Console) teachTerm(w http.ResponseWriter, r *http.Request) {
	var targets []string
	for _, t := range strings.FieldsFunc(r.PostFormValue("targets"), func(r rune) bool { return r == ',' || r == '\n' }) {
		if t = strings.TrimSpace(t); t != "" {
			targets = append(targets, t)
		}
	}
	c.learn(w, r, nl2sql.Knowledge{Kind: nl2sql.KnowledgeTerm, Term: strings.TrimSpace(r.PostFormValue("term")), Targets: targets})
}

func (c *Console) teachForget(w http.ResponseWriter, r *http.Request) {
	id := r.PostFormValue("id")
	// Only what this console's scope lists can be forgotten here.
	ks, err := c.eng.ScopeKnowledge(reqCtx(r), c.callOpts(reqCtx(r))...)
	if err == nil && !slices.ContainsFunc(ks, func(k nl2sql.Knowledge) bool { return k.ID == id }) {
		err = &nl2sql.Error{Class: nl2sql.ClassInput, Message: fmt.Sprintf("no knowledge %q in this scope", id)}
	}
	if err == nil {
		err = c.eng.Forget(reqCtx(r), id)
	}
	if err != nil {
		ks, _ := c.eng.ScopeKnowledge(reqCtx(r), c.callOpts(reqCtx(r))...)
		c.renderCode(w, r, http.StatusUnprocessableEntity, "knowledge", map[string]any{"Knowledge": ks, "Error": errText(err)})
		return
	}
	http.Redirect(w, r, "/knowledge?done=forgot", http.StatusSeeOther)
}
