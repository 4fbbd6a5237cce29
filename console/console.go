// Package console is nl2sql's web console: an http.Handler over an
// *nl2sql.Engine with five views, rendered on the server from embedded
// templates (html/template) with a little plain JavaScript:
//
//   - Ask (/): a question and optional evidence (linkable as /?q=...), the
//     answer's SQL, description, rows (paged), confidence and a chart
//     (SVG, rendered on the server with gonum.org/v1/plot) when the result
//     has a chartable shape. An uncertain answer (nl2sql.VerdictUncertain)
//     is shown as a guess: an amber "Unsure: <reason>" banner with its
//     reasons, the confidence on a colour scale, the other answers the
//     candidates gave side by side with "Use this one" (POST /teach/use:
//     runs it and keeps it as an example), the clarifying question, and
//     "this answer is right" demoted to a small link; an abstained one
//     shows why, no rows and no figure (verdict.go, docs/console.md).
//   - Why this query (/a/ID/trace): the tables in the context with their
//     reasons, the prompt, every candidate and the per-stage timings.
//   - Check and run SQL (/check): validation issues with positions, the
//     deterministic repair, the plan cost and the rows.
//   - Schema (/schema): tables and columns, searchable; one table's
//     M-Schema and foreign-key neighbours; retrieval (/retrieve): the
//     context and prompt of a question, without a model.
//   - Teach (/knowledge): confirm or correct an answer, add a documentation
//     note, list and forget knowledge.
//
// State-changing requests are POST only and carry a CSRF token (a
// per-browser cookie echoed in a form field, plus an Origin check), the
// bearer token or not: only a request that shows no sign of a browser
// skips the form token. With WithAuthToken, every page needs the token:
// as a bearer header or through the login form, which sets a session
// cookie (POST /logout signs it out).
//
// A scoped engine (WithScope, or WithAskOptions(nl2sql.Scope(...)))
// shows only its scope: every listing goes through Engine.ScopeCatalog
// and ScopeKnowledge. Results are kept within a byte budget
// (WithResultBudget).
package console

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/identity"
	"github.com/nl2sqlgo/nl2sql/throttle"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static/*
var staticFS embed.FS

// MaxBodyBytes caps the body of every request.
const MaxBodyBytes = 1 << 20

// PageSize is the number of rows a result page shows.
const PageSize = 50

// maxResults is how many answers the console keeps for paging, charts,
// traces and teaching (the oldest go first), within the result budget
// (WithResultBudget).
const maxResults = 200

// Option configures a Console.
type Option func(*Console)

// WithAuthToken requires token on every request but static assets: as
// "Authorization: Bearer TOKEN" or through the login form.
func WithAuthToken(token string) Option { return func(c *Console) { c.token = token } }

// WithSessionTTL sets how long a sign-in lasts (default DefaultSessionTTL):
// the session cookie carries the time it was issued, under the token's
// HMAC, and is refused once older.
func WithSessionTTL(d time.Duration) Option {
	return func(c *Console) {
		if d > 0 {
			c.sessionTTL = d
		}
	}
}

// DefaultSessionTTL is how long a sign-in lasts unless WithSessionTTL says
// otherwise.
const DefaultSessionTTL = 12 * time.Hour

// WithModel says whether the engine has a model; without one the question
// box says a model is needed (schema, retrieval, check/run and teach work).
func WithModel(on bool) Option { return func(c *Console) { c.model = on } }

// WithLogger logs failed requests.
func WithLogger(l *slog.Logger) Option { return func(c *Console) { c.log = l } }

// WithAllowedHosts names the host names (as in the Host header, without
// the port) the console answers besides loopback ones, when it runs
// without an auth token: "db-console.internal" for a console reached by
// that name. Without a token every other Host is refused, so a web page
// whose domain an attacker points at 127.0.0.1 (DNS rebinding) cannot
// read the console from the user's browser.
func WithAllowedHosts(hosts ...string) Option {
	return func(c *Console) { c.hosts = append(c.hosts, hosts...) }
}

// WithResultBudget sets how many bytes of results (their values, as held
// in memory) the console keeps for paging, charts, traces and teaching
// (default DefaultResultBudget): the oldest go first once over it. A
// result over an eighth of it keeps its first page only; its other pages
// are read from the database again when asked for.
func WithResultBudget(bytes int64) Option {
	return func(c *Console) {
		if bytes > 0 {
			c.results.budget = bytes
		}
	}
}

// WithAskOptions adds options to every engine call (a scope, a role).
func WithAskOptions(opts ...nl2sql.AskOption) Option {
	return func(c *Console) { c.askOpts = append(c.askOpts, opts...) }
}

// Console is the web console's handler.
type Console struct {
	eng   *nl2sql.Engine
	token string
	ids   *identity.Map // WithIdentities; nil for none
	// sessionKey signs the session cookies of WithIdentities (random per
	// Console: a restart signs everyone out).
	sessionKey []byte
	hosts      []string // allowed Host names besides loopback (no token)
	model      bool
	log        *slog.Logger
	askOpts    []nl2sql.AskOption
	pages      map[string]*template.Template
	mux        *http.ServeMux
	results    *store
	csrfKey    []byte             // signs the forms' CSRF tokens
	fails      *throttle.Throttle // failed sign-ins by address
	signedOut  revoked            // session cookies signed out before they expired
	// sessionTTL is how long a sign-in lasts; now is the clock (tests
	// move it).
	sessionTTL time.Duration
	now        func() time.Time
}

// New is the console over eng.
func New(eng *nl2sql.Engine, opts ...Option) *Console {
	c := &Console{eng: eng, model: true, log: slog.New(slog.DiscardHandler), results: newStore(maxResults, DefaultResultBudget), csrfKey: make([]byte, 32), fails: throttle.New(),
		sessionTTL: DefaultSessionTTL, now: time.Now, sessionKey: make([]byte, 32)}
	rand.Read(c.csrfKey)
	rand.Read(c.sessionKey)
	for _, o := range opts {
		o(c)
	}
	c.pages = parsePages()
	c.routes()
	return c
}

func (c *Console) routes() {
	m := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	m.HandleFunc("GET /login", c.loginPage)
	m.HandleFunc("POST /login", c.login)
	m.HandleFunc("POST /logout", c.logout)
	m.HandleFunc("GET /{$}", c.askPage)
	m.HandleFunc("GET /a/{id}", c.answerPage)
	m.HandleFunc("GET /a/{id}/trace", c.tracePage)
	m.HandleFunc("GET /a/{id}/chart.svg", c.chartSVG)
	m.HandleFunc("GET /check", c.checkPage)
	m.HandleFunc("POST /check", c.checkPost)
	m.HandleFunc("GET /schema", c.schemaPage)
	m.HandleFunc("GET /schema/{table}", c.tablePage)
	m.HandleFunc("GET /retrieve", c.retrievePage)
	m.HandleFunc("GET /knowledge", c.knowledgePage)
	m.HandleFunc("POST /teach/confirm", c.teachConfirm)
	m.HandleFunc("POST /teach/use", c.teachUse)
	m.HandleFunc("POST /teach/correct", c.teachCorrect)
	m.HandleFunc("POST /teach/doc", c.teachDoc)
	m.HandleFunc("POST /teach/term", c.teachTerm)
	m.HandleFunc("POST /teach/forget", c.teachForget)
	c.mux = m
}

// ServeHTTP serves the console: security headers, the body cap, the token
// check and, on POST, the CSRF check.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	if !c.authOn() && !c.allowedHost(r.Host) {
		http.Error(w, "forbidden: this console answers loopback addresses only (serve --allow-host NAME to add one, or set --auth-token)", http.StatusForbidden)
		return
	}
	var who *identity.Caller
	bearer := c.bearer(r)
	if c.ids != nil {
		who, bearer = c.identify(r)
	}
	if _, tried := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); tried && c.authOn() {
		// A token guessed in a header counts as a failed sign-in; an
		// address that failed too often is refused any token.
		key := throttle.ClientKey(r)
		if blocked, left := c.fails.Blocked(key); blocked {
			throttle.RetryAfter(w.Header(), left)
			http.Error(w, "too many wrong tokens from this address: try again later", http.StatusTooManyRequests)
			return
		}
		if !bearer {
			c.fails.Fail(key)
		}
	}
	signedIn := bearer || who != nil
	if !signedIn && c.ids == nil {
		_, signedIn = c.session(r)
	}
	if c.authOn() && !signedIn && !strings.HasPrefix(r.URL.Path, "/static/") && r.URL.Path != "/login" {
		if r.Method == http.MethodGet && !strings.Contains(r.Header.Get("Accept"), "application/json") {
			http.Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
			return
		}
		http.Error(w, "authentication required", http.StatusUnauthorized)
		return
	}
	if r.Method == http.MethodPost {
		// Read the form once, here: a body over the cap is 413 and a
		// malformed one 400 (not an empty form, or a CSRF failure).
		if err := parseForm(r); err != nil {
			if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
				http.Error(w, fmt.Sprintf("request body too large (the limit is %d bytes)", MaxBodyBytes), http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "bad request: the form could not be read", http.StatusBadRequest)
			return
		}
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if err := c.checkCSRF(r, bearer); err != nil {
			http.Error(w, "forbidden: "+err.Error(), http.StatusForbidden)
			return
		}
	}
	if who != nil {
		r = r.WithContext(identity.NewContext(r.Context(), who))
	}
	c.mux.ServeHTTP(w, r)
}

// parseForm reads a POST's form: urlencoded or multipart, within the body
// cap (multipart files too are kept in memory under it).
func parseForm(r *http.Request) error {
	if ct := r.Header.Get("Content-Type"); strings.HasPrefix(strings.ToLower(strings.TrimSpace(ct)), "multipart/") {
		return r.ParseMultipartForm(MaxBodyBytes)
	}
	return r.ParseForm()
}

// allowedHost reports whether a console without a token answers a request
// for host (the Host header): loopback names and addresses, and the
// WithAllowedHosts names. With a token, the token protects it instead.
func (c *Console) allowedHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	for _, a := range c.hosts {
		if strings.EqualFold(a, host) {
			return true
		}
	}
	return false
}

// Auth: the token as a bearer header, or the session cookie the login
// form sets (an HMAC of a fixed label under the token, so the cookie
// does not hold the token itself).

const sessionCookie, csrfCookie, csrfField = "nl2sql_session", "nl2sql_csrf", "csrf"

func (c *Console) bearer(r *http.Request) bool {
	if c.token == "" {
		return false
	}
	a := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(a, "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(tok), []byte(c.token)) == 1
}

// sessionValue is the session cookie of a sign-in at issued: the time, a
// random nonce and an HMAC of both under the token. It was the token's
// HMAC alone, the same for every sign-in and valid for ever: a copied
// cookie never expired. The nonce makes every sign-in's cookie its own,
// so signing one out (logout) does not sign out another of the same
// second.
func (c *Console) sessionValue(issued int64, who *identity.Caller) string {
	b := make([]byte, 12)
	rand.Read(b)
	nonce := hex.EncodeToString(b) + sessionName(who)
	return strconv.FormatInt(issued, 10) + "." + nonce + "." + c.sessionMAC(issued, nonce)
}

func (c *Console) sessionMAC(issued int64, nonce string) string {
	key := []byte(c.token)
	if c.ids != nil {
		key = c.sessionKey
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte("nl2sql console session\x00"))
	m.Write([]byte(strconv.FormatInt(issued, 10)))
	m.Write([]byte("\x00" + nonce))
	return hex.EncodeToString(m.Sum(nil))
}

// session reports whether r carries a session cookie of this console
// issued less than the session TTL ago and not signed out, and the caller
// it names (WithIdentities; "" without).
func (c *Console) session(r *http.Request) (string, bool) {
	ck, err := r.Cookie(sessionCookie)
	if err != nil {
		return "", false
	}
	at, rest, ok := strings.Cut(ck.Value, ".")
	nonce, mac, ok2 := strings.Cut(rest, ".")
	issued, err := strconv.ParseInt(at, 10, 64)
	if !ok || !ok2 || err != nil || !hmac.Equal([]byte(mac), []byte(c.sessionMAC(issued, nonce))) {
		return "", false
	}
	age := c.now().Sub(time.Unix(issued, 0))
	return nameOf(nonce), age >= -time.Minute && age < c.sessionTTL && !c.signedOut.has(ck.Value) // a minute of clock skew
}

// logout signs the session out: its cookie is cleared in the browser and
// refused from now on, a copy of it too (until it would have expired).
// signedIn is session's second result.
func signedIn(_ string, ok bool) bool { return ok }

func (c *Console) logout(w http.ResponseWriter, r *http.Request) {
	if ck, err := r.Cookie(sessionCookie); err == nil && signedIn(c.session(r)) {
		at, _, _ := strings.Cut(ck.Value, ".")
		issued, _ := strconv.ParseInt(at, 10, 64)
		c.signedOut.add(ck.Value, time.Unix(issued, 0).Add(c.sessionTTL+time.Minute), c.now())
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: secure(r)})
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

// revoked is the set of signed-out session cookies, each until it would
// have expired anyway (then forgotten: the set holds only live ones).
type revoked struct {
	mu    sync.Mutex
	until map[string]time.Time
}

func (v *revoked) add(cookie string, until, now time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.until == nil {
		v.until = map[string]time.Time{}
	}
	for k, t := range v.until {
		if now.After(t) {
			delete(v.until, k)
		}
	}
	v.until[cookie] = until
}

func (v *revoked) has(cookie string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	_, ok := v.until[cookie]
	return ok
}

func (c *Console) loginPage(w http.ResponseWriter, r *http.Request) {
	c.render(w, r, "login", map[string]any{"Next": safeNext(r.URL.Query().Get("next"))})
}

func (c *Console) login(w http.ResponseWriter, r *http.Request) {
	next := safeNext(r.PostFormValue("next"))
	if !c.authOn() {
		http.Redirect(w, r, next, http.StatusSeeOther)
		return
	}
	key := throttle.ClientKey(r)
	if blocked, left := c.fails.Blocked(key); blocked {
		wait := throttle.RetryAfter(w.Header(), left)
		c.renderCode(w, r, http.StatusTooManyRequests, "login", map[string]any{"Next": next,
			"Error": fmt.Sprintf("too many wrong tokens from this address: try again in %d s", wait)})
		return
	}
	var who *identity.Caller
	if c.ids != nil {
		who = c.ids.Token(r.PostFormValue("token"))
	}
	if (c.ids != nil && who == nil) || (c.ids == nil && subtle.ConstantTimeCompare([]byte(r.PostFormValue("token")), []byte(c.token)) != 1) {
		c.fails.Fail(key)
		c.renderCode(w, r, http.StatusUnauthorized, "login", map[string]any{"Next": next, "Error": "wrong token"})
		return
	}
	c.fails.Succeed(key)
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: c.sessionValue(c.now().Unix(), who), Path: "/",
		MaxAge: int(c.sessionTTL.Seconds()), HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: secure(r)})
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// secure reports whether r came over HTTPS: directly, or through a proxy
// that ended TLS and says so (X-Forwarded-Proto). Trusting the header only
// adds Secure to a cookie, which a forged header cannot turn against
// anyone but its sender.
func secure(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// safeNext is a local path to go to after login ("/" for anything else).
// Browsers drop tabs and newlines from a URL and read a backslash as a
// slash, so "/\t/evil.example" and "/\\evil.example" are another host to
// them: a next with a control character or a backslash is refused, as is
// anything with a scheme or a host.
func safeNext(s string) string {
	if !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "//") ||
		strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }) {
		return "/"
	}
	if u, err := url.Parse(s); err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" {
		return "/"
	}
	return s
}

// CSRF: a random per-browser value in a cookie, and in every form an HMAC
// of it under a key of this Console's; a POST must carry both, matching,
// and an Origin (when the browser sends one) of this host. The form's
// token is not the cookie itself: a page on another port of the same host
// (or a sibling domain) can set the cookie, since cookies do not keep
// ports apart, but cannot compute its token. Origin "null" (a page that
// hides its origin) and Sec-Fetch-Site other than same-origin are refused.
//
// The bearer token does not lift any of it for a browser: a proxy that
// adds the token to every request (a common deployment) would otherwise
// let any page post through the user's browser. Only a request with the
// token and no sign of a browser (no Origin, no Sec-Fetch-* header, no
// cookie), a script's, skips the form token; the Origin and Sec-Fetch-Site
// checks apply to every state-changing request. Behind a proxy, the Origin
// must name the Host the console sees: the proxy passes the Host header
// through, or the public name is given with WithAllowedHosts.

func (c *Console) csrfFor(cookie string) string {
	m := hmac.New(sha256.New, c.csrfKey)
	m.Write([]byte("nl2sql console csrf\x00"))
	m.Write([]byte(cookie))
	return hex.EncodeToString(m.Sum(nil))
}

func (c *Console) csrfToken(w http.ResponseWriter, r *http.Request) string {
	if ck, err := r.Cookie(csrfCookie); err == nil && len(ck.Value) == 64 {
		return c.csrfFor(ck.Value)
	}
	b := make([]byte, 32)
	rand.Read(b)
	v := hex.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: v, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: secure(r)})
	// Later renders of this request see it too.
	r.AddCookie(&http.Cookie{Name: csrfCookie, Value: v})
	return c.csrfFor(v)
}

func (c *Console) checkCSRF(r *http.Request, bearer bool) error {
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if o == "null" || err != nil || !c.sameOrigin(u.Host, r.Host) {
			return errors.New("cross-origin request")
		}
	}
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" && s != "none" {
		return errors.New("cross-origin request")
	}
	if bearer && !fromBrowser(r) {
		return nil
	}
	ck, err := r.Cookie(csrfCookie)
	if err != nil || ck.Value == "" {
		return errors.New("no CSRF cookie (reload the page)")
	}
	if r.URL.Path == "/login" {
		return nil
	}
	if subtle.ConstantTimeCompare([]byte(r.PostFormValue(csrfField)), []byte(c.csrfFor(ck.Value))) != 1 {
		return errors.New("bad CSRF token (reload the page)")
	}
	return nil
}

// sameOrigin reports whether an Origin's host (with its port) is the
// request's Host, or, behind a proxy that rewrites Host, one of the
// WithAllowedHosts names (not the Host's own name on another port).
func (c *Console) sameOrigin(origin, host string) bool {
	if strings.EqualFold(origin, host) {
		return true
	}
	name, self := origin, host
	if h, _, err := net.SplitHostPort(origin); err == nil {
		name = h
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		self = h
	}
	if strings.EqualFold(name, self) {
		return false // this host on another port: another origin
	}
	for _, a := range c.hosts {
		if strings.EqualFold(a, name) {
			return true
		}
	}
	return false
}

// fromBrowser reports whether r shows a sign of a browser: an Origin, a
// Sec-Fetch-* header or a cookie.
func fromBrowser(r *http.Request) bool {
	for _, h := range []string{"Origin", "Sec-Fetch-Site", "Sec-Fetch-Mode", "Sec-Fetch-Dest", "Cookie"} {
		if r.Header.Get(h) != "" {
			return true
		}
	}
	return false
}

// render writes page name with data (a map: the console adds CSRF,
// Model and Nav).
func (c *Console) render(w http.ResponseWriter, r *http.Request, name string, data map[string]any) {
	c.renderCode(w, r, http.StatusOK, name, data)
}

// renderCode is render with status code: the headers (the CSRF cookie,
// the content type) are set before the status goes out.
func (c *Console) renderCode(w http.ResponseWriter, r *http.Request, code int, name string, data map[string]any) {
	if data == nil {
		data = map[string]any{}
	}
	data["CSRF"] = c.csrfToken(w, r)
	data["Model"] = c.model
	data["Auth"] = c.authOn()
	data["Page"] = name
	var buf bytes.Buffer
	if err := c.pages[name].ExecuteTemplate(&buf, "layout", data); err != nil {
		c.log.Error("console: render", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	w.Write(buf.Bytes())
}

func parsePages() map[string]*template.Template {
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		panic(err)
	}
	out := map[string]*template.Template{}
	for _, n := range names {
		base := strings.TrimSuffix(strings.TrimPrefix(n, "templates/"), ".html")
		if base == "layout" || strings.HasPrefix(base, "_") {
			continue
		}
		t := template.New(base).Funcs(funcs)
		out[base] = template.Must(t.ParseFS(templateFS, "templates/layout.html", "templates/_*.html", n))
	}
	return out
}

// errText is err for people: the engine's message, without its prefix.
func errText(err error) string {
	m := err.Error()
	for strings.HasPrefix(m, "nl2sql: ") {
		m = strings.TrimPrefix(m, "nl2sql: ")
	}
	var e *nl2sql.Error
	if errors.As(err, &e) && e.Code != "" && !strings.Contains(m, e.Code) {
		m = fmt.Sprintf("%s [%s]", m, e.Code)
	}
	return m
}

// ctx bounds a request's engine work by the request.
func reqCtx(r *http.Request) context.Context { return r.Context() }
