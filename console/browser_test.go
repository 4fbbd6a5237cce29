package console_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/nl2sqlgo/nl2sql/console"
)

// chromium is the headless browser binary, "" when none is installed.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// stepBudget bounds one run of browser actions. It is per run, not per
// browser: a shared budget let a slow machine fail whichever subtest
// happened to be last (CI, stop 34).
const stepBudget = 60 * time.Second

// startBrowser starts headless Chromium for the test (skipping it when
// none is installed) and returns its context, ended with the test.
func startBrowser(t *testing.T) context.Context {
	t.Helper()
	bin := chromium()
	if bin == "" {
		t.Skip("no chromium binary found (apt-get install chromium)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.WindowSize(1280, 1000), chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	bctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	// The first Do binds the browser's life to its context, so it gets
	// the browser's own (the test binary's -timeout bounds a hung start).
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return bctx
}

// TestBrowser drives the console in headless Chromium (one browser for
// every view): ask and see the rows and the chart, open the trace, check
// bad SQL, confirm an answer and find it in knowledge, and the schema and
// retrieval views without a model. It writes a screenshot of each view
// under .cache/.
func TestBrowser(t *testing.T) {
	bctx := startBrowser(t)
	withModel := httptest.NewServer(console.New(newEngine(t, true)))
	t.Cleanup(withModel.Close)
	noModel := httptest.NewServer(console.New(newEngine(t, false), console.WithModel(false)))
	t.Cleanup(noModel.Close)

	shot, text, count := screenshot, textOf, countOf
	run := func(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		runIn(t, bctx, actions...)
	}

	var chartURL string
	var categories []string
	t.Run("ask", func(t *testing.T) {
		var rows int
		var sql string
		run(t,
			chromedp.Navigate(withModel.URL+"/"),
			chromedp.WaitVisible(chromedp.CSS("#q")),
			chromedp.SendKeys(chromedp.CSS("#q"), qPerDept),
			chromedp.Click(chromedp.CSS("#ask")),
			chromedp.WaitVisible(chromedp.CSS("#rows table")),
			chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := chromedp.Poll[bool](`(() => { const i = document.querySelector('#chart-img'); return i && i.complete && i.naturalWidth > 0; })()`)(ctx, tg)
				return err
			}),
			count(&rows, "#rows tbody tr"),
			text(&sql, "#sql"),
			chromedp.Func(func(ctx context.Context, tg *chromedp.Target) (err error) {
				chartURL, err = chromedp.Evaluate[string](`document.querySelector('#chart-img').src`)(ctx, tg)
				if err == nil {
					categories, err = chromedp.Evaluate[[]string](`[...document.querySelectorAll('#rows tbody tr td:first-child')].map(td => td.textContent.trim())`)(ctx, tg)
				}
				return err
			}),
			shot("ask"),
		)
		if rows == 0 || !strings.Contains(sql, "GROUP BY") {
			t.Errorf("rows %d, sql %q", rows, sql)
		}
	})
	t.Run("trace", func(t *testing.T) {
		var cands int
		run(t,
			chromedp.Click(chromedp.CSS("#why")),
			chromedp.WaitVisible(chromedp.CSS("#context-tables")),
			chromedp.WaitVisible(chromedp.CSS("svg.waterfall")),
			chromedp.Click(chromedp.CSS("#prompt summary")),
			chromedp.WaitVisible(chromedp.CSS("#prompt pre")),
			count(&cands, ".candidate"),
			shot("trace"),
		)
		if cands == 0 {
			t.Error("no candidates in the trace")
		}
	})
	// The chart's category labels, drawn by the browser, end left of the
	// bars: the plot measured them with the font the browser draws (they
	// ran over the axis when it measured with another), and the chart
	// opened on its own is drawn with its styles (the console's policy had
	// refused them: Times at the browser's default size, over the bars).
	t.Run("chart labels", func(t *testing.T) {
		if chartURL == "" || len(categories) == 0 {
			t.Fatal("the ask view gave no chart or no rows")
		}
		type overlap struct {
			Label       string
			Right, Bars float64
		}
		var got struct {
			Labels int
			Bars   float64
			Over   []overlap
		}
		run(t,
			chromedp.Navigate(chartURL),
			chromedp.Func(func(ctx context.Context, tg *chromedp.Target) (err error) {
				names, _ := json.Marshal(categories)
				got, err = chromedp.Evaluate[struct {
					Labels int
					Bars   float64
					Over   []overlap
				}](`(() => {
					const names = new Set(`+string(names)+`);
					const bars = [...document.querySelectorAll('path')].filter(p => /fill:#1F77B4/i.test(p.getAttribute('style') || ''));
					const left = Math.min(...bars.map(b => b.getBoundingClientRect().left));
					const labels = [...document.querySelectorAll('text')].filter(x => names.has(x.textContent));
					const over = labels.map(x => ({Label: x.textContent, Right: x.getBoundingClientRect().right, Bars: left})).filter(o => o.Right > o.Bars);
					return {Labels: labels.length, Bars: left, Over: over};
				})()`)(ctx, tg)
				return err
			}),
		)
		if got.Labels != len(categories) {
			t.Errorf("%d category labels in the chart, want %d (%v)", got.Labels, len(categories), categories)
		}
		for _, o := range got.Over {
			t.Errorf("label %q ends at x=%.1f, right of the bars (x=%.1f)", o.Label, o.Right, o.Bars)
		}
	})
	t.Run("check", func(t *testing.T) {
		var issue string
		run(t,
			chromedp.Navigate(withModel.URL+"/check"),
			chromedp.WaitVisible(chromedp.CSS("#sql-in")),
			chromedp.SendKeys(chromedp.CSS("#sql-in"), "SELECT emp_nam FROM employees"),
			chromedp.Click(chromedp.CSS("#check")),
			chromedp.WaitVisible(chromedp.CSS("#verdict mark")),
			text(&issue, "#verdict"),
			shot("check"),
		)
		if !strings.Contains(issue, "emp_nam") || !strings.Contains(issue, "line 1, column 8") {
			t.Errorf("verdict: %q", issue)
		}
	})
	t.Run("confirm", func(t *testing.T) {
		var kn string
		run(t,
			chromedp.Navigate(withModel.URL+"/?q="+url.QueryEscape(qActive)),
			chromedp.WaitVisible(chromedp.CSS("#figure")),
			chromedp.Click(chromedp.CSS("#confirm")),
			chromedp.WaitVisible(chromedp.CSS("#learned")),
			text(&kn, "#knowledge"),
			shot("knowledge"),
		)
		if !strings.Contains(kn, qActive) || !strings.Contains(kn, "active_employees") {
			t.Errorf("knowledge: %q", kn)
		}
	})
	// After signing in, the browser lands on the console whatever next
	// says: "/\t/host" is "//host" to the browser's URL parser (Chromium
	// then refuses the hop, the policy's form-action 'self', and the user
	// was left on the login page; a browser without it went to host).
	t.Run("login redirect", func(t *testing.T) {
		locked := httptest.NewServer(console.New(newEngine(t, false), console.WithModel(false), console.WithAuthToken("s3cret")))
		t.Cleanup(locked.Close)
		evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<!doctype html><title>elsewhere</title><p id=elsewhere>elsewhere</p>"))
		}))
		t.Cleanup(evil.Close)
		next := "/\t/" + strings.TrimPrefix(evil.URL, "http://") + "/"
		var host string
		run(t,
			chromedp.Navigate(locked.URL+"/login?next="+url.QueryEscape(next)),
			chromedp.WaitVisible(chromedp.CSS("#token")),
			chromedp.SendKeys(chromedp.CSS("#token"), "s3cret"),
			chromedp.Click(chromedp.CSS("#login")),
			chromedp.WaitVisible(chromedp.CSS("#need-model")),
			chromedp.Func(func(ctx context.Context, tg *chromedp.Target) (err error) {
				host, err = chromedp.Evaluate[string](`location.host + location.pathname`)(ctx, tg)
				return err
			}),
		)
		if want := strings.TrimPrefix(locked.URL, "http://") + "/"; host != want {
			t.Errorf("after login the browser is on %s, want %s", host, want)
		}
	})
	t.Run("no model", func(t *testing.T) {
		var tables, neighbours string
		run(t,
			chromedp.Navigate(noModel.URL+"/"),
			chromedp.WaitVisible(chromedp.CSS("#need-model")),
			chromedp.Navigate(noModel.URL+"/schema"),
			chromedp.WaitVisible(chromedp.CSS("#schema-q")),
			chromedp.SendKeys(chromedp.CSS("#schema-q"), "dept_name"),
			chromedp.Click(chromedp.CSS("#search")),
			// The search's own page (the full list has the link too).
			chromedp.WaitVisible(chromedp.CSS(`#tables[data-q="dept_name"] a[href="/schema/public.departments"]`)),
			text(&tables, "#tables"),
			chromedp.Click(chromedp.CSS(`#tables a[href="/schema/public.departments"]`)),
			chromedp.WaitVisible(chromedp.CSS("#mschema")),
			text(&neighbours, "#neighbours"),
			shot("schema"),
			chromedp.Navigate(noModel.URL+"/retrieve"),
			chromedp.WaitVisible(chromedp.CSS("#rq")),
			chromedp.SendKeys(chromedp.CSS("#rq"), qPerDept),
			chromedp.Click(chromedp.CSS("#retrieve")),
			chromedp.WaitVisible(chromedp.CSS("#context-tables")),
			shot("retrieve"),
		)
		if !strings.Contains(tables, "public.departments") || !strings.Contains(neighbours, "public.employees") {
			t.Errorf("schema: tables %q neighbours %q", tables, neighbours)
		}
	})
}

// runIn runs actions in the browser, failing t on an error.
func runIn(t *testing.T, bctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(bctx, stepBudget)
	defer cancel()
	start := time.Now()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("after %v: %v", time.Since(start).Round(time.Millisecond), err)
	}
}

// screenshot writes the page as .cache/console/NAME.png, as a step.
func screenshot(name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		shots := filepath.Join("..", ".cache", "console")
		if err := os.MkdirAll(shots, 0o755); err != nil {
			return err
		}
		png, err := chromedp.FullScreenshot(100)(ctx, tg)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644)
	})
}

// textOf and countOf read a value into *dst, as a step.
func textOf(dst *string, sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) (err error) {
		*dst, err = chromedp.Text(chromedp.CSS(sel))(ctx, tg)
		return err
	})
}

func countOf(dst *int, sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) (err error) {
		*dst, err = chromedp.Evaluate[int]("document.querySelectorAll("+strconv.Quote(sel)+").length")(ctx, tg)
		return err
	})
}
