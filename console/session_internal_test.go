package console

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestSessionExpires: a sign-in gives a cookie that lasts the session TTL
// (Max-Age says so, and the server refuses it once older, whatever the
// browser does), that differs from one sign-in to the next, and whose
// issue time cannot be moved without the token. Behind a proxy that ended
// TLS (X-Forwarded-Proto: https) the cookies are Secure.
func TestSessionExpires(t *testing.T) {
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	c := New(nil, WithAuthToken("s3cret"), WithSessionTTL(time.Hour))
	c.now = func() time.Time { return now }
	do := func(method, target string, form url.Values, cookies []*http.Cookie, hdr map[string]string) *http.Response {
		var body *strings.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		} else {
			body = strings.NewReader("")
		}
		r := httptest.NewRequest(method, "http://127.0.0.1"+target, body)
		if form != nil {
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		for _, ck := range cookies {
			r.AddCookie(ck)
		}
		w := httptest.NewRecorder()
		c.ServeHTTP(w, r)
		return w.Result()
	}
	login := func(hdr map[string]string) (*http.Cookie, *http.Cookie) {
		res := do("GET", "/login", nil, nil, hdr)
		var csrfCk *http.Cookie
		for _, ck := range res.Cookies() {
			if ck.Name == csrfCookie {
				csrfCk = ck
			}
		}
		if csrfCk == nil {
			t.Fatal("no CSRF cookie on the login page")
		}
		res = do("POST", "/login", url.Values{csrfField: {c.csrfFor(csrfCk.Value)}, "token": {"s3cret"}, "next": {"/knowledge"}}, []*http.Cookie{csrfCk}, hdr)
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("login: %d", res.StatusCode)
		}
		for _, ck := range res.Cookies() {
			if ck.Name == sessionCookie {
				return ck, csrfCk
			}
		}
		t.Fatal("no session cookie")
		return nil, nil
	}
	signedIn := func(ck *http.Cookie) bool {
		return do("GET", "/knowledge", nil, []*http.Cookie{ck}, map[string]string{"Accept": "application/json"}).StatusCode != http.StatusUnauthorized
	}
	first, _ := login(nil)
	if first.MaxAge != int(time.Hour.Seconds()) || first.Secure {
		t.Errorf("session cookie Max-Age %d Secure %v, want 3600 and not Secure over plain HTTP", first.MaxAge, first.Secure)
	}
	if !signedIn(first) {
		t.Fatal("a fresh session is refused")
	}
	now = now.Add(59 * time.Minute)
	if !signedIn(first) {
		t.Error("a session refused within its TTL")
	}
	second, _ := login(nil)
	if second.Value == first.Value {
		t.Error("two sign-ins an hour apart got the same session cookie")
	}
	now = now.Add(2 * time.Minute)
	if signedIn(first) {
		t.Error("a session older than its TTL still accepted")
	}
	if !signedIn(second) {
		t.Error("the newer session refused")
	}
	// The issue time moved forward, the MAC kept: refused.
	_, mac, _ := strings.Cut(first.Value, ".")
	forged := &http.Cookie{Name: sessionCookie, Value: "9999999999." + mac}
	if signedIn(forged) {
		t.Error("a session cookie with a moved issue time accepted")
	}
	if signedIn(&http.Cookie{Name: sessionCookie, Value: c.sessionMAC(0, "")}) {
		t.Error("a cookie without an issue time accepted")
	}
	// Behind a TLS-ending proxy, and over TLS itself: Secure cookies.
	proxied, csrfCk := login(map[string]string{"X-Forwarded-Proto": "https"})
	if !proxied.Secure || !csrfCk.Secure {
		t.Errorf("behind X-Forwarded-Proto: https: session Secure %v, CSRF Secure %v", proxied.Secure, csrfCk.Secure)
	}
	r := httptest.NewRequest("GET", "https://127.0.0.1/login", nil)
	r.TLS = &tls.ConnectionState{}
	if !secure(r) {
		t.Error("a TLS request is not secure")
	}
}
