package console_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/console"
)

// browserResolve is where a browser goes for a Location header: the URL
// parser drops leading and trailing C0 controls and spaces and every tab
// and newline, and reads a backslash as a slash in http(s) URLs.
func browserResolve(base *url.URL, loc string) (*url.URL, error) {
	loc = strings.TrimFunc(loc, func(r rune) bool { return r <= ' ' })
	loc = strings.NewReplacer("\t", "", "\n", "", "\r", "", `\`, "/").Replace(loc)
	u, err := url.Parse(loc)
	if err != nil {
		return nil, err
	}
	return base.ResolveReference(u), nil
}

// TestConsoleLoginRedirectStaysLocal: the page the login form goes to
// afterwards (next) is always on the console, however next is spelt: a
// tab or newline in "/\t/evil.example" is dropped by the browser, which
// then reads "//evil.example" (another host).
func TestConsoleLoginRedirectStaysLocal(t *testing.T) {
	c := newClient(t, console.New(newEngine(t, false), console.WithModel(false), console.WithAuthToken("s3cret")))
	c.c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	base, _ := url.Parse(c.base)
	_, login := c.get("/login")
	tok := csrf(t, login)
	for _, next := range []string{
		"/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example", "\t//evil.example", "/\t\\evil.example",
		"//evil.example", "/\\evil.example", "https://evil.example/", "/ /evil.example", "\x00//evil.example",
		"/%2F/evil.example", "/schema?x=//evil.example",
	} {
		req, _ := http.NewRequest("POST", c.base+"/login", strings.NewReader(url.Values{"csrf": {tok}, "token": {"s3cret"}, "next": {next}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for _, ck := range c.c.Jar.Cookies(base) {
			req.AddCookie(ck)
		}
		// The transport, not the client: the client refuses to parse a
		// Location with a control character, which a browser follows.
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		loc := resp.Header.Get("Location")
		if resp.StatusCode != http.StatusSeeOther {
			t.Errorf("next %q: %d", next, resp.StatusCode)
			continue
		}
		u, err := browserResolve(base, loc)
		if err != nil || u.Host != base.Host || u.Scheme != base.Scheme {
			t.Errorf("next %q: Location %q takes the browser to %v (%v)", next, loc, u, err)
		}
	}
	// A plain local path is kept, with its query.
	req, _ := http.NewRequest("POST", c.base+"/login", strings.NewReader(url.Values{"csrf": {tok}, "token": {"s3cret"}, "next": {"/schema?q=dept"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); loc != "/schema?q=dept" {
		t.Errorf("next /schema?q=dept: Location %q", loc)
	}
}

// TestConsoleCSRFTossedCookie: a page on another port of localhost (or a
// sibling domain) can set the console's CSRF cookie, which the browser
// then sends with a form it posts, and can hide its Origin ("null", with
// Referrer-Policy: no-referrer). The form's token must be one the
// console made for that cookie, and Origin "null" is refused.
func TestConsoleCSRFTossedCookie(t *testing.T) {
	eng := newEngine(t, false)
	c := newClient(t, console.New(eng, console.WithModel(false)))
	base, _ := url.Parse(c.base)
	tossed := strings.Repeat("ab", 32)
	c.c.Jar.SetCookies(base, []*http.Cookie{{Name: "nl2sql_csrf", Value: tossed, Path: "/"}})
	for _, origin := range []string{"", "null"} {
		var hdr []string
		if origin != "" {
			hdr = []string{"Origin", origin}
		}
		code, _ := c.post("/teach/doc", url.Values{"csrf": {tossed}, "text": {"planted note " + origin}}, hdr...)
		if code != http.StatusForbidden {
			t.Errorf("tossed cookie, Origin %q: %d, want 403", origin, code)
		}
	}
	// The console's own token for that cookie works; Origin "null" does
	// not, even with it.
	_, page := c.get("/knowledge")
	tok := csrf(t, page)
	if code, _ := c.post("/teach/doc", url.Values{"csrf": {tok}, "text": {"x"}}, "Origin", "null"); code != http.StatusForbidden {
		t.Errorf("Origin null with a good token: %d, want 403", code)
	}
	if code, body := c.post("/teach/doc", url.Values{"csrf": {tok}, "text": {"a real note"}}, "Origin", c.base); code != http.StatusOK || !strings.Contains(body, "a real note") {
		t.Errorf("same origin, good token: %d", code)
	}
	if ks, _ := eng.Knowledge(t.Context()); len(ks) != 1 {
		t.Errorf("knowledge: %+v, want the one real note", ks)
	}
}

// TestConsoleCrossSiteAsk: a page on another site cannot make the console
// ask the model (which costs money and runs a query) by loading
// /?q=... in an image, a frame or a script; the question is put in the
// box instead. A link the user follows, and the console's own form, ask.
func TestConsoleCrossSiteAsk(t *testing.T) {
	h := console.New(newEngine(t, true))
	ask := func(hdr map[string]string) (int, string) {
		req := httptest.NewRequest("GET", "/?q="+url.QueryEscape(qPerDept), nil)
		req.Host = "127.0.0.1:8080"
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	for name, hdr := range map[string]map[string]string{
		"img":           {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"},
		"iframe":        {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"},
		"script nav":    {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"},
		"other port":    {"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"},
		"fetch no-cors": {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "empty"},
	} {
		code, page := ask(hdr)
		if code != http.StatusOK || strings.Contains(page, `id="answer"`) || !strings.Contains(page, `id="confirm-ask"`) || !strings.Contains(page, "How many employees does each department have?") {
			t.Errorf("%s: %d, asked the model or lost the question", name, code)
		}
	}
	for name, hdr := range map[string]map[string]string{
		"own form":     {"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Sec-Fetch-User": "?1"},
		"typed URL":    {"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Sec-Fetch-User": "?1"},
		"link clicked": {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Sec-Fetch-User": "?1"},
		"curl":         {},
	} {
		if code, page := ask(hdr); code != http.StatusOK || !strings.Contains(page, `id="answer"`) {
			t.Errorf("%s: %d, no answer", name, code)
		}
	}
}

// TestConsoleBadBodies: a body over the cap is 413 and a form that does
// not parse is 400, not a CSRF failure or an empty form.
func TestConsoleBadBodies(t *testing.T) {
	c := newClient(t, console.New(newEngine(t, false), console.WithModel(false)))
	_, page := c.get("/check")
	tok := csrf(t, page)
	big := url.Values{"csrf": {tok}, "sql": {"SELECT 1 -- " + strings.Repeat("x", console.MaxBodyBytes)}}
	if code, body := c.post("/check", big); code != http.StatusRequestEntityTooLarge {
		t.Errorf("%d-byte body: %d %.200s", len(big.Encode()), code, body)
	}
	req, _ := http.NewRequest("POST", c.base+"/check", strings.NewReader("csrf="+tok+"&sql=%zz"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("malformed form: %d", resp.StatusCode)
	}
	// A multipart form over the cap too.
	var mp bytes.Buffer
	mp.WriteString("--b\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n" + tok + "\r\n--b\r\nContent-Disposition: form-data; name=\"sql\"\r\n\r\n")
	mp.WriteString(strings.Repeat("x", console.MaxBodyBytes))
	mp.WriteString("\r\n--b--\r\n")
	req, _ = http.NewRequest("POST", c.base+"/check", &mp)
	req.Header.Set("Content-Type", "multipart/form-data; boundary=b")
	resp, err = c.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("multipart over the cap: %d", resp.StatusCode)
	}
}

// TestConsoleChartControlCharacters: labels and column names with
// control characters (data anyone can store) still make a well-formed
// SVG: XML 1.0 forbids most C0 characters, so a browser would show an
// error instead of the chart.
func TestConsoleChartControlCharacters(t *testing.T) {
	c := newClient(t, console.New(newEngine(t, false), console.WithModel(false)))
	_, page := c.get("/check")
	tok := csrf(t, page)
	sql := `SELECT 'a' || chr(1) || '<b>&' AS "cat` + "\x02" + `", 3 AS n UNION ALL SELECT chr(27) || 'b', 5 UNION ALL SELECT E'c\x0b', 4`
	code, run := c.post("/check", url.Values{"csrf": {tok}, "sql": {sql}, "action": {"run"}})
	m := regexp.MustCompile(`/a/([0-9a-f]+)/chart\.svg`).FindStringSubmatch(run)
	if code != 200 || m == nil {
		t.Fatalf("run: %d, no chart\n%s", code, run)
	}
	code, svg := c.get("/a/" + m[1] + "/chart.svg")
	if code != 200 {
		t.Fatalf("chart: %d", code)
	}
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the chart is not well-formed XML: %v", err)
		}
	}
	if !strings.Contains(svg, "a\uFFFD&lt;b&gt;&amp;") {
		t.Errorf("the label is not shown with a replacement character")
	}
}

// TestConsoleErrorPagesHeaders: a page rendered with an error status
// still sets its headers (the CSRF cookie its forms need, the content
// type); they were set after the status had gone out, and dropped.
func TestConsoleErrorPagesHeaders(t *testing.T) {
	h := console.New(newEngine(t, false), console.WithModel(false))
	for path, want := range map[string]int{"/a/nosuch": http.StatusNotFound, "/schema/no.such_table": http.StatusNotFound} {
		req := httptest.NewRequest("GET", path, nil)
		req.Host = "127.0.0.1"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		res := rec.Result()
		var cookie bool
		for _, ck := range res.Cookies() {
			cookie = cookie || ck.Name == "nl2sql_csrf" && ck.HttpOnly && ck.SameSite == http.SameSiteStrictMode
		}
		if res.StatusCode != want || !cookie || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("GET %s: %d, CSRF cookie %v, Content-Type %q", path, res.StatusCode, cookie, res.Header.Get("Content-Type"))
		}
	}
}

// TestConsoleLoginThrottle: an address that sends ten wrong tokens (login
// form or bearer header) gets 429 for any token for a while, the right one
// too, so the token cannot be guessed at line speed; other addresses and
// browsers already signed in are not affected.
func TestConsoleLoginThrottle(t *testing.T) {
	h := console.New(newEngine(t, false), console.WithModel(false), console.WithAuthToken("s3cret"))
	csrfCookie := &http.Cookie{Name: "nl2sql_csrf", Value: strings.Repeat("0", 64)}
	do := func(from, token, bearer string, cookies ...*http.Cookie) *http.Response {
		var req *http.Request
		if bearer != "" {
			req = httptest.NewRequest("GET", "/schema", nil)
			req.Header.Set("Authorization", "Bearer "+bearer)
		} else if token != "" {
			req = httptest.NewRequest("POST", "/login", strings.NewReader(url.Values{"token": {token}, "next": {"/schema"}}.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.AddCookie(csrfCookie)
		} else {
			req = httptest.NewRequest("GET", "/schema", nil)
		}
		for _, ck := range cookies {
			req.AddCookie(ck)
		}
		req.RemoteAddr = from
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Result()
	}
	// A browser signs in first.
	res := do("192.0.2.1:5000", "s3cret", "")
	var session *http.Cookie
	for _, ck := range res.Cookies() {
		if ck.Name == "nl2sql_session" {
			session = ck
		}
	}
	if res.StatusCode != http.StatusSeeOther || session == nil {
		t.Fatalf("login: %d, session %v", res.StatusCode, session)
	}
	for i := range 10 {
		if i%2 == 0 {
			if code := do("192.0.2.1:5000", "guess"+strconv.Itoa(i), "").StatusCode; code != http.StatusUnauthorized {
				t.Fatalf("wrong token %d: %d", i, code)
			}
		} else if code := do("192.0.2.1:5001", "", "guess"+strconv.Itoa(i)).StatusCode; code == http.StatusOK || code == http.StatusTooManyRequests {
			t.Fatalf("wrong bearer %d: %d", i, code)
		}
	}
	for name, res := range map[string]*http.Response{
		"login, right token":  do("192.0.2.1:5002", "s3cret", ""),
		"bearer, right token": do("192.0.2.1:5003", "", "s3cret"),
		"bearer, wrong token": do("192.0.2.1:5003", "", "guess"),
	} {
		if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
			t.Errorf("%s after 10 failures: %d (Retry-After %q), want 429", name, res.StatusCode, res.Header.Get("Retry-After"))
		}
	}
	if code := do("192.0.2.1:5004", "", "", session).StatusCode; code != http.StatusOK {
		t.Errorf("signed-in browser at the blocked address: %d", code)
	}
	if code := do("192.0.2.2:5000", "s3cret", "").StatusCode; code != http.StatusSeeOther {
		t.Errorf("another address, right token: %d", code)
	}
	// IPv6: one /64 is one address.
	for i := range 10 {
		do("[2001:db8::"+strconv.Itoa(i+1)+"]:5000", "guess", "")
	}
	if code := do("[2001:db8::ff]:5000", "s3cret", "").StatusCode; code != http.StatusTooManyRequests {
		t.Errorf("same /64, right token: %d", code)
	}
	if code := do("[2001:db8:0:1::1]:5000", "s3cret", "").StatusCode; code != http.StatusSeeOther {
		t.Errorf("another /64, right token: %d", code)
	}
}

// TestConsoleHeld: what already held, kept so: database values and column
// names are text in the result table and the chart's alt; every route but
// the login page and the assets needs the token (chart.svg and the trace
// of a known ID too); the assets cannot be left by "..".
func TestConsoleHeld(t *testing.T) {
	eng := newEngine(t, false)
	c := newClient(t, console.New(eng, console.WithModel(false)))
	_, page := c.get("/check")
	tok := csrf(t, page)
	_, run := c.post("/check", url.Values{"csrf": {tok}, "action": {"run"},
		"sql": {`SELECT '<img src=x onerror=alert(1)>' AS "<script>alert(2)</script>", 1 AS "n"" onload=""x" UNION ALL SELECT 'b', 2`}})
	if strings.Contains(run, "<img src=x") || strings.Contains(run, "<script>alert(2)") || strings.Contains(run, `" onload="x`) ||
		!strings.Contains(run, "&lt;img src=x onerror=alert(1)&gt;") {
		t.Errorf("result values or column names not escaped")
	}
	id := regexp.MustCompile(`/a/([0-9a-f]+)/chart\.svg`).FindStringSubmatch(run)
	if id == nil {
		t.Fatal("no chart")
	}
	locked := newClient(t, console.New(eng, console.WithModel(false), console.WithAuthToken("s3cret")))
	locked.c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	for _, p := range []string{"/", "/a/" + id[1], "/a/" + id[1] + "/chart.svg", "/a/" + id[1] + "/trace", "/schema", "/knowledge", "/check", "/retrieve", "/static/../schema", "/static/%2e%2e/schema", "//schema"} {
		if code, body := locked.get(p); code == http.StatusOK || strings.Contains(body, "public.employees") {
			t.Errorf("GET %s without the token: %d", p, code)
		}
	}
	if code, _ := locked.get("/static/app.js"); code != http.StatusOK {
		t.Errorf("assets: %d", code)
	}
	if code, _ := locked.post("/teach/doc", url.Values{"text": {"x"}}); code != http.StatusUnauthorized {
		t.Errorf("POST without the token: %d", code)
	}
}
