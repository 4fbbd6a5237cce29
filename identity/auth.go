package identity

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
)

// ErrNoCredentials is Authenticate's error for a request that names no
// caller (no bearer token, no trusted header): a server answers 401.
var ErrNoCredentials = errors.New("identity: no credentials: send Authorization: Bearer TOKEN")

// ErrUnknownCaller is Authenticate's error for a token or trusted user no
// caller has: a server answers 401. It never holds the token.
var ErrUnknownCaller = errors.New("identity: unknown caller")

// Authenticate returns the caller of r: by the trusted header when r
// comes from a trusted proxy and carries it, else by its bearer token.
// The trusted header of any other address is ignored; one that comes
// twice, or holds a comma (a proxy that appended its value to the
// client's), names no caller. It never returns a
// nil caller with a nil error.
func (m *Map) Authenticate(r *http.Request) (*Caller, error) {
	if m.header != "" && m.trusted(r.RemoteAddr) {
		if vals := r.Header.Values(m.header); len(vals) > 0 {
			// More than one value: a proxy that adds its header to the
			// client's instead of replacing it; which is whose is unknown.
			if len(vals) > 1 || strings.Contains(vals[0], ",") {
				return nil, ErrUnknownCaller
			}
			user := vals[0]
			for _, c := range m.callers {
				if c.user != "" && c.user == user {
					return c, nil
				}
			}
			return nil, ErrUnknownCaller
		}
	}
	tok, ok := BearerToken(r)
	if !ok {
		return nil, ErrNoCredentials
	}
	if c := m.Token(tok); c != nil {
		return c, nil
	}
	return nil, ErrUnknownCaller
}

// BearerToken is the token of r's "Authorization: Bearer TOKEN" header
// (the scheme in any case), false without one.
func BearerToken(r *http.Request) (string, bool) {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}

// Token returns the caller whose token is tok, nil for none. It hashes
// tok and compares the hash with every caller's in constant time, so the
// time taken says nothing of which caller, or how much of a hash, was
// near.
func (m *Map) Token(tok string) *Caller {
	sum := sha256.Sum256([]byte(tok))
	var found *Caller
	for _, c := range m.callers {
		eq := subtle.ConstantTimeCompare(sum[:], c.token[:])
		if eq == 1 && c.hasToken && found == nil {
			found = c
		}
	}
	return found
}

// trusted reports whether remote (an http.Request's RemoteAddr) is one of
// the trusted proxies.
func (m *Map) trusted(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	a = a.Unmap().WithZone("")
	return slices.ContainsFunc(m.proxies, func(p netip.Prefix) bool { return p.Contains(a) })
}

// Caller returns the caller named name, nil for none.
func (m *Map) Caller(name string) *Caller {
	for _, c := range m.callers {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Callers are the callers' names, in the file's order.
func (m *Map) Callers() []string {
	out := make([]string, len(m.callers))
	for i, c := range m.callers {
		out[i] = c.Name
	}
	return out
}

// TrustedHeader is the trusted header's canonical name, "" for none.
func (m *Map) TrustedHeader() string { return m.header }

// Settings are the setting names any caller sets, sorted and each once
// (lower case): the engine's nl2sql.WithSettings.
func (m *Map) Settings() []string {
	var out []string
	for _, c := range m.callers {
		for _, s := range c.Settings {
			if n := strings.ToLower(s.Name); !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out
}

type callerKey struct{}

// NewContext returns ctx carrying c.
func NewContext(ctx context.Context, c *Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// FromContext returns the caller ctx carries, nil for none.
func FromContext(ctx context.Context) *Caller {
	c, _ := ctx.Value(callerKey{}).(*Caller)
	return c
}
