package console

import (
	"context"
	"encoding/hex"
	"net/http"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/identity"
)

// WithIdentities maps every caller to its own role, settings and scope
// (identity.Map): a caller signs in with its bearer token (as a header, or
// through the login form) or comes through a trusted proxy's header, and
// every engine call of its requests reads as its identity, after
// WithAskOptions (so a caller's scope and role win). Answers are kept per
// caller: another caller's answer id is "no longer kept". Unknown callers
// get 401 (the login form, for a browser). It replaces WithAuthToken.
// The engine must declare the callers' setting names (nl2sql.WithSettings
// with m.Settings()).
func WithIdentities(m *identity.Map) Option { return func(c *Console) { c.ids = m } }

// authOn reports whether the console needs a sign-in.
func (c *Console) authOn() bool { return c.token != "" || c.ids != nil }

// callOpts are the options of every engine call of ctx's request:
// WithAskOptions's, then its caller's identity.
func (c *Console) callOpts(ctx context.Context) []nl2sql.AskOption {
	o := append([]nl2sql.AskOption{}, c.askOpts...)
	if who := identity.FromContext(ctx); who != nil {
		o = append(o, who.AskOptions()...)
	}
	return o
}

// callerName is the name of r's caller, "" without WithIdentities.
func callerName(r *http.Request) string {
	if who := identity.FromContext(r.Context()); who != nil {
		return who.Name
	}
	return ""
}

// keep keeps e as an answer of r's caller.
func (c *Console) keep(r *http.Request, e *entry) {
	e.caller = callerName(r)
	c.results.put(e)
}

// entry is the kept answer id of r's caller, nil when there is none (or
// it is another caller's).
func (c *Console) entry(r *http.Request, id string) *entry {
	e := c.results.get(id)
	if e == nil || e.caller != callerName(r) {
		return nil
	}
	return e
}

// identify returns r's caller: by its trusted header or bearer token
// (bearer: it came with a valid Authorization header), else by its
// session cookie; nil when none.
func (c *Console) identify(r *http.Request) (who *identity.Caller, bearer bool) {
	if who, err := c.ids.Authenticate(r); err == nil {
		tok, ok := identity.BearerToken(r)
		return who, ok && c.ids.Token(tok) == who
	}
	if name, ok := c.session(r); ok {
		return c.ids.Caller(name), false
	}
	return nil, false
}

// sessionName is the part of a session cookie's nonce that names its
// caller (hex, so that it holds no separator), "" without WithIdentities.
func sessionName(who *identity.Caller) string {
	if who == nil {
		return ""
	}
	return "~" + hex.EncodeToString([]byte(who.Name))
}

// nameOf is the caller a session nonce names, "" for none.
func nameOf(nonce string) string {
	for i := range len(nonce) {
		if nonce[i] == '~' {
			b, err := hex.DecodeString(nonce[i+1:])
			if err != nil {
				return ""
			}
			return string(b)
		}
	}
	return ""
}
