package console_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/console"
)

// behindProxy serves a token-protected console through a reverse proxy
// that adds the bearer token to every request (the deployment the red
// team attacked), passing the Host header through. It returns the
// engine and the proxy's URL.
func behindProxy(t *testing.T) (*nl2sql.Engine, string) {
	eng := newEngine(t, false)
	srv := httptest.NewServer(console.New(eng, console.WithModel(false), console.WithAuthToken("s3cret")))
	t.Cleanup(srv.Close)
	target, _ := url.Parse(srv.URL)
	rp := httputil.NewSingleHostReverseProxy(target)
	direct := rp.Director
	rp.Director = func(r *http.Request) {
		direct(r)
		r.Header.Set("Authorization", "Bearer s3cret")
	}
	proxy := httptest.NewServer(rp)
	t.Cleanup(proxy.Close)
	return eng, proxy.URL
}

func learnt(t *testing.T, eng *nl2sql.Engine, text string) bool {
	ks, err := eng.Knowledge(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range ks {
		if k.Text == text {
			return true
		}
	}
	return false
}

// TestBrowserProxyCSRF: behind a proxy that adds the bearer token, a page
// of another origin that posts a form to the console in the user's
// Chromium is refused (the bearer token once skipped every CSRF check, and
// the console learnt the page's doc); the user's own form, through the
// same proxy, still works.
func TestBrowserProxyCSRF(t *testing.T) {
	bctx := startBrowser(t)
	eng, proxy := behindProxy(t)
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><form id=f method=post action="` + proxy + `/teach/doc"><input name=text value="planted by another page"></form>` +
			`<script>document.getElementById('f').submit()</script>`))
	}))
	t.Cleanup(evil.Close)
	var body string
	ctx, cancel := context.WithTimeout(bctx, stepBudget)
	defer cancel()
	err := chromedp.Do(ctx,
		chromedp.Navigate(evil.URL+"/"),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) (err error) {
			// The form's response is the page the browser ends on.
			_, err = chromedp.Poll[bool](`location.href.startsWith(`+jsString(proxy)+`) && document.readyState === "complete"`)(ctx, tg)
			if err == nil {
				body, err = chromedp.Evaluate[string](`document.body.innerText`)(ctx, tg)
			}
			return err
		}),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, "cross-origin") || learnt(t, eng, "planted by another page") {
		t.Errorf("another page's post was answered %q; learnt: %v", body, learnt(t, eng, "planted by another page"))
	}
	var status string
	ctx, cancel = context.WithTimeout(bctx, stepBudget)
	defer cancel()
	err = chromedp.Do(ctx,
		chromedp.Navigate(proxy+"/knowledge"),
		chromedp.WaitVisible(chromedp.CSS("#doc-text")),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('details').open = true`),
		chromedp.SendKeys(chromedp.CSS("#doc-text"), "written by the user"),
		chromedp.Click(chromedp.CSS("#add-doc")),
		chromedp.WaitVisible(chromedp.CSS("#learned")),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) (err error) {
			status, err = chromedp.Text(chromedp.CSS("#learned"))(ctx, tg)
			return err
		}),
	)
	if err != nil || !learnt(t, eng, "written by the user") || !strings.Contains(status, "Learnt") {
		t.Errorf("the user's own doc through the proxy: %v, status %q", err, status)
	}
}

func jsString(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// TestConsoleBearerCSRF: with the bearer token, a state-changing request
// showing a browser (an Origin, a Sec-Fetch-* header, a cookie) still
// needs a same-origin Origin and Sec-Fetch-Site and the form's CSRF token;
// one with no sign of a browser (a script's) needs the token alone. An
// Origin naming an --allow-host name passes (a proxy that rewrites Host),
// the console's own host on another port does not.
func TestConsoleBearerCSRF(t *testing.T) {
	eng := newEngine(t, false)
	c := newClient(t, console.New(eng, console.WithModel(false), console.WithAuthToken("s3cret"), console.WithAllowedHosts("console.example")))
	host := strings.TrimPrefix(c.base, "http://")
	name, _, _ := strings.Cut(host, ":")
	auth := []string{"Authorization", "Bearer s3cret"}
	for i, hdr := range [][]string{
		{"Origin", "http://evil.example"},
		{"Origin", "null"},
		{"Origin", "http://" + name + ":1"},
		{"Sec-Fetch-Site", "cross-site"},
		{"Sec-Fetch-Site", "same-site"},
		{"Sec-Fetch-Mode", "navigate"},
		{"Origin", "http://" + host},
		{"Cookie", "other=1"},
	} {
		text := "refused " + hdr[0] + " " + hdr[1]
		if code, body := c.post("/teach/doc", url.Values{"text": {text}}, append(auth, hdr...)...); code != http.StatusForbidden {
			t.Errorf("case %d %v: %d %.100s", i, hdr, code, body)
		}
		if learnt(t, eng, text) {
			t.Errorf("case %d %v: learnt", i, hdr)
		}
	}
	// (The client follows the redirect to the knowledge page.)
	if code, _ := c.post("/teach/doc", url.Values{"text": {"from a script"}}, auth...); code != http.StatusOK || !learnt(t, eng, "from a script") {
		t.Errorf("a script with the token: %d", code)
	}
	// A browser behind a proxy that rewrites Host, with its form token.
	_, page := c.get("/login")
	tok := csrf(t, page)
	if code, _ := c.post("/teach/doc", url.Values{"text": {"via the proxy"}, "csrf": {tok}}, append(auth, "Origin", "https://console.example")...); code != http.StatusOK || !learnt(t, eng, "via the proxy") {
		t.Errorf("an allowed origin with the form token: %d", code)
	}
}
