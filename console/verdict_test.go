package console_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/console"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/scopetest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// The two wrong answers, and a question whose samples split
// between two readings.
const (
	qTopCustomers = "Top 5 customers by revenue in 2024"
	sqlEmpCount   = "SELECT count(*) AS employees FROM employees"
	qEachDept     = "How many employees are in each department?"
	qLatest       = "Which are the three latest orders?"
	sqlByOrder    = "SELECT so_id FROM sales_orders ORDER BY order_date DESC LIMIT 3"
	sqlByShip     = "SELECT so_id FROM sales_orders ORDER BY requested_ship_date DESC NULLS LAST LIMIT 3"
)

// wrongModel answers the top customers with an employee count, the
// per-department count with SELECT 1, and the latest orders by order
// date at temperature 0 and by ship date when sampling.
func wrongModel(_ int, r *llmfake.Request) llmfake.Reply {
	q := r.Last()
	switch {
	case strings.Contains(q, qTopCustomers):
		return fencedSQL(sqlEmpCount)
	case strings.Contains(q, qEachDept):
		return fencedSQL("SELECT 1")
	case r.Temperature != nil && *r.Temperature > 0:
		return fencedSQL(sqlByShip)
	}
	return fencedSQL(sqlByOrder)
}

func fencedSQL(sql string) llmfake.Reply { return llmfake.Reply{Content: "```sql\n" + sql + "\n```"} }

// buttonStyle is how the page draws the confirm button beside the Ask
// button (the primary action's look).
type buttonStyle struct {
	Present           bool
	Background, AskBg string
	Size, AskSize     float64
}

const buttonStyleJS = `(() => {
	const c = document.querySelector('#confirm'), a = document.querySelector('#ask');
	if (!c) return {Present: false};
	const cs = getComputedStyle(c), as = getComputedStyle(a);
	return {Present: true, Background: cs.backgroundColor, AskBg: as.backgroundColor, Size: parseFloat(cs.fontSize), AskSize: parseFloat(as.fontSize)};
})()`

// rgb reads "rgb(r, g, b)" as its three channels.
func rgb(t *testing.T, css string) (r, g, b int) {
	t.Helper()
	m := regexp.MustCompile(`rgba?\((\d+), (\d+), (\d+)`).FindStringSubmatch(css)
	if m == nil {
		t.Fatalf("colour %q", css)
	}
	r, _ = strconv.Atoi(m[1])
	g, _ = strconv.Atoi(m[2])
	b, _ = strconv.Atoi(m[3])
	return r, g, b
}

// TestBrowserVerdicts drives the answer view in headless Chromium with a
// fake model that answers wrong: "Top 5 customers by revenue in 2024"
// answered with an employee count is shown as unsure, with the reason
// naming what the query reads and what the question asks, its confidence
// on the red end of the scale and "this answer is right" no longer the
// primary action; SELECT 1 for a question about two tables is unsure (or
// abstained), and below a minimum confidence abstained: no figure, no
// rows, no confirm, only why; a question whose samples split shows the
// other answer side by side, and "Use this one" runs it and teaches it.
func TestBrowserVerdicts(t *testing.T) {
	bctx := startBrowser(t)
	eng := newEngineScript(t, wrongModel)
	plain := httptest.NewServer(console.New(eng))
	t.Cleanup(plain.Close)
	strict := httptest.NewServer(console.New(eng, console.WithAskOptions(nl2sql.MinConfidence(0.5))))
	t.Cleanup(strict.Close)
	run := func(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		runIn(t, bctx, actions...)
	}
	// asked asks q on the console at base, waits for the verdict banner,
	// reads the verdict and the banner's text, then does more.
	asked := func(base, q string, verdict, banner *string, more ...chromedp.Action[chromedp.Void]) []chromedp.Action[chromedp.Void] {
		return append([]chromedp.Action[chromedp.Void]{
			chromedp.Navigate(base + "/?q=" + url.QueryEscape(q)),
			chromedp.WaitVisible(chromedp.CSS("#verdict")),
			evalInto(verdict, `document.querySelector('#answer').dataset.verdict`),
			textOf(banner, "#verdict"),
		}, more...)
	}

	t.Run("employee count for top customers", func(t *testing.T) {
		var verdict, banner, confClass, confBg, figureColour string
		var confirm buttonStyle
		run(t, asked(plain.URL, qTopCustomers, &verdict, &banner,
			evalInto(&confClass, `document.querySelector('#confidence').className`),
			evalInto(&confBg, `getComputedStyle(document.querySelector('#confidence')).backgroundColor`),
			evalInto(&figureColour, `(() => { const f = document.querySelector('#figure .big'); return f ? getComputedStyle(f).color : ''; })()`),
			evalInto(&confirm, buttonStyleJS),
			screenshot("uncertain"),
		)...)
		if verdict != "uncertain" && verdict != "abstained" {
			t.Fatalf("verdict %q, want uncertain or abstained", verdict)
		}
		if verdict == "uncertain" && !strings.HasPrefix(banner, "Unsure:") {
			t.Errorf("banner %q, want it to start with Unsure:", banner)
		}
		for _, want := range []string{"the query reads employees", "the question asks about customers", "revenue"} {
			if !strings.Contains(banner, want) {
				t.Errorf("banner %q does not say %q", banner, want)
			}
		}
		// The confidence is on the red end of the scale, not grey.
		if r, g, b := rgb(t, confBg); r < g+60 || r < b+60 {
			t.Errorf("confidence %s drawn in %s, want a red", confClass, confBg)
		}
		if confirm.Present && (confirm.Background == confirm.AskBg || confirm.Size >= confirm.AskSize) {
			t.Errorf("the confirm button looks primary: %+v", confirm)
		}
		if figureColour != "" && figureColour == confirm.AskBg {
			t.Errorf("the figure is drawn in the accent colour %s, as if it were the answer", figureColour)
		}
	})
	t.Run("SELECT 1 for two tables", func(t *testing.T) {
		var verdict, reasons string
		run(t, asked(plain.URL, qEachDept, &verdict, &reasons)...)
		if (verdict != "uncertain" && verdict != "abstained") || !strings.Contains(reasons, "reads no table") {
			t.Errorf("verdict %q, reasons %q", verdict, reasons)
		}
	})
	t.Run("abstained", func(t *testing.T) {
		var verdict, banner, reasons string
		var figures, rows, errs int
		var confirm buttonStyle
		var sqlShown bool
		run(t, asked(strict.URL, qEachDept, &verdict, &banner,
			textOf(&reasons, "#reasons"),
			countOf(&figures, "#figure, #chart"),
			countOf(&rows, "#rows"),
			countOf(&errs, "#error"),
			evalInto(&sqlShown, `document.querySelector('#sql').checkVisibility()`), // folded in "The query (not run)"
			evalInto(&confirm, buttonStyleJS),
			screenshot("abstained"),
		)...)
		if verdict != "abstained" || !strings.HasPrefix(banner, "No answer.") || !strings.Contains(banner, "did not run") || !strings.Contains(reasons, "reads no table") {
			t.Errorf("verdict %q, banner %q, reasons %q", verdict, banner, reasons)
		}
		if figures != 0 || rows != 0 || confirm.Present || errs != 0 || sqlShown {
			t.Errorf("an abstention shows %d figures, %d row tables, %d errors, confirm %v, the SQL unfolded %v", figures, rows, errs, confirm.Present, sqlShown)
		}
	})

	split := newEngineScript(t, wrongModel, nl2sql.WithK(2, 2, 2), nl2sql.WithUncertainBelow(1.01))
	alts := httptest.NewServer(console.New(split))
	t.Cleanup(alts.Close)
	t.Run("use this one", func(t *testing.T) {
		var clarify, alt, sql, conf, taught string
		var cards, rows int
		run(t,
			chromedp.Navigate(alts.URL+"/?q="+url.QueryEscape(qLatest)),
			chromedp.WaitVisible(chromedp.CSS("#alternatives")),
			countOf(&cards, "#alternatives .alt"),
			textOf(&clarify, "#clarify"),
			textOf(&alt, "#alt-0"),
			screenshot("alternatives"),
			chromedp.Click(chromedp.CSS("#use-0")),
			chromedp.WaitVisible(chromedp.CSS("#taught")),
			textOf(&sql, "#sql"),
			textOf(&conf, "#confidence"),
			textOf(&taught, "#taught"),
			countOf(&rows, "#rows tbody tr"),
		)
		if cards != 1 || !strings.Contains(alt, "requested_ship_date") || !strings.Contains(alt, "Use this one") || !strings.Contains(alt, "Support") {
			t.Errorf("%d alternatives, the first %q", cards, alt)
		}
		if !strings.Contains(clarify, "order date") || !strings.Contains(clarify, "ship date") {
			t.Errorf("clarify %q", clarify)
		}
		if !strings.Contains(sql, "requested_ship_date") || conf != "Your choice" || rows != 3 {
			t.Errorf("after Use this one: sql %q, confidence %q, %d rows", sql, conf, rows)
		}
		ks, err := split.Knowledge(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(ks, func(k nl2sql.Knowledge) bool {
			return k.ID == taught && k.Question == qLatest && strings.Contains(k.SQL, "requested_ship_date")
		}) {
			t.Errorf("the chosen answer %q is not an example: %+v", taught, ks)
		}
	})
}

// TestConsoleUseAlternative: "Use this one" is a POST like every teach
// action: refused without the CSRF token, and it takes an answer's ID and
// an alternative's index, nothing else (an unknown answer, an index out
// of range are not found).
func TestConsoleUseAlternative(t *testing.T) {
	eng := newEngineScript(t, wrongModel, nl2sql.WithK(2, 2, 2), nl2sql.WithUncertainBelow(1.01))
	c := newClient(t, console.New(eng))
	code, page := c.get("/?q=" + url.QueryEscape(qLatest))
	if code != 200 || !strings.Contains(page, `id="use-0"`) {
		t.Fatalf("ask: %d, no alternative:\n%s", code, page)
	}
	tok := csrf(t, page)
	id := regexp.MustCompile(`name="id" value="([0-9a-f]+)"`).FindStringSubmatch(page)[1]
	// The trace says why this confidence: the verdict and the signals.
	if _, trace := c.get("/a/" + id + "/trace"); !strings.Contains(trace, `id="trace-confidence"`) || !strings.Contains(trace, ": uncertain.") ||
		strings.Count(trace, "<tr><td><code>") < 5 {
		t.Errorf("the trace does not show the signals of the confidence:\n%s", trace)
	}
	if code, _ := c.post("/teach/use", url.Values{"id": {id}, "alt": {"0"}}); code != http.StatusForbidden {
		t.Errorf("without CSRF: %d", code)
	}
	if code, _ := c.post("/teach/use", url.Values{"id": {id}, "alt": {"0"}, "csrf": {tok}}, "Origin", "http://evil.example"); code != http.StatusForbidden {
		t.Errorf("cross-origin: %d", code)
	}
	for _, bad := range []url.Values{{"id": {"nope"}, "alt": {"0"}}, {"id": {id}, "alt": {"1"}}, {"id": {id}, "alt": {"-1"}}, {"id": {id}, "alt": {"x"}}, {"id": {id}}} {
		bad.Set("csrf", tok)
		if code, _ := c.post("/teach/use", bad); code != http.StatusNotFound {
			t.Errorf("%v: %d, want 404", bad, code)
		}
	}
	if ks, _ := eng.Knowledge(t.Context()); len(ks) != 0 {
		t.Errorf("refused requests taught %+v", ks)
	}
	c.c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	code, _ = c.post("/teach/use", url.Values{"id": {id}, "alt": {"0"}, "csrf": {tok}})
	if ks, _ := eng.Knowledge(t.Context()); code != http.StatusSeeOther || len(ks) != 1 || !strings.Contains(ks[0].SQL, "requested_ship_date") {
		t.Errorf("use: %d, knowledge %+v", code, ks)
	}
}

// TestConsoleScopeAlternatives: a scoped console never shows, nor lets a
// user choose, an answer reading another tenant's tables, though the
// model offers one: the alternatives are the in-scope answers only.
func TestConsoleScopeAlternatives(t *testing.T) {
	fake := llmfake.New(t, func(n int, r *llmfake.Request) llmfake.Reply {
		switch {
		case r.Temperature == nil || *r.Temperature == 0:
			return fencedSQL("SELECT count(*) AS n FROM employees")
		case n%2 == 0:
			return fencedSQL(`SELECT count(*) AS n FROM "DIV_02".secret_plans`)
		}
		return fencedSQL("SELECT count(*) AS n FROM departments")
	})
	model := openai.New(openai.WithBaseURL(fake.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	eng, _ := scopetest.Engine(t, nl2sql.WithLLM(model), nl2sql.WithK(4, 4, 4), nl2sql.WithUncertainBelow(1.01))
	c := newClient(t, console.New(eng))
	const q = "How many employees are there?"
	_, page := c.get("/?q=" + url.QueryEscape(q))
	if !strings.Contains(page, `id="alternatives"`) || !strings.Contains(page, "departments") {
		t.Fatalf("no in-scope alternative:\n%s", page)
	}
	if leak := scopetest.Leak(page); leak != "" {
		t.Errorf("the answer page shows %s", leak)
	}
	tok := csrf(t, page)
	id := regexp.MustCompile(`name="id" value="([0-9a-f]+)"`).FindStringSubmatch(page)[1]
	// The model did offer div_02's table: the validator refused it.
	if _, trace := c.get("/a/" + id + "/trace"); !strings.Contains(trace, "st-rejected") {
		t.Errorf("no candidate was refused: the model never offered the other tenant's table")
	}
	for n := range 3 {
		_, body := c.post("/teach/use", url.Values{"id": {id}, "alt": {strconv.Itoa(n)}, "csrf": {tok}})
		if leak := scopetest.Leak(body); leak != "" {
			t.Errorf("use %d shows %s", n, leak)
		}
	}
	ks, _ := eng.ScopeKnowledge(t.Context())
	for _, k := range ks {
		if leak := scopetest.Leak(k.SQL); leak != "" {
			t.Errorf("taught %s", leak)
		}
	}
}

// evalInto evaluates js into *dst, as a step.
func evalInto[T any](dst *T, js string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) (err error) {
		*dst, err = chromedp.Evaluate[T](js)(ctx, tg)
		return err
	})
}
