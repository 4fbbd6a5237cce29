package main

import (
	"errors"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql/identity"
	"github.com/nl2sqlgo/nl2sql/throttle"
)

// callerHeader carries, from callerAuth to the tool handlers (the SDK
// hands them each request's header), the name of the caller the request
// authenticated as. callerAuth removes any value a client sent.
const callerHeader = "X-Nl2sql-Caller"

// errUnknownCaller is a call whose caller is not in --identity's file;
// callerAuth answers such a request 401 before it reaches a handler.
var errUnknownCaller = errors.New("unknown caller: this server maps callers to identities (--identity) and this call names none")

// caller is who a call comes from: its name in --identity's file ("" for
// none) and the identity every read of the call runs as.
type caller struct {
	name string
	identity.Identity
}

// caller is the caller of a call: with --identity, the one callerAuth
// authenticated; without, the server's own identity (--role, --set).
func (h *handlers) caller(extra *mcp.RequestExtra) (caller, error) {
	if h.cfg.Callers == nil {
		return caller{Identity: h.cfg.Identity}, nil
	}
	if extra == nil || extra.Header == nil {
		return caller{}, errUnknownCaller
	}
	name := extra.Header.Get(callerHeader)
	c := h.cfg.Callers.Caller(name)
	if name == "" || c == nil {
		return caller{}, errUnknownCaller
	}
	return caller{name: c.Name, Identity: c.Identity}, nil
}

// callerAuth lets through requests whose caller m knows (its bearer
// token, or its trusted proxy's header), naming it in callerHeader for
// the handlers; others get 401. As bearerAuth, an address that sent
// throttle.MaxFailures unknown tokens within throttle.Window gets 429
// until the window ends. Neither the token nor the header's value is
// logged or echoed.
func callerAuth(m *identity.Map, next http.Handler) http.Handler {
	fails := throttle.New()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del(callerHeader)
		key := throttle.ClientKey(r)
		if blocked, left := fails.Blocked(key); blocked {
			throttle.RetryAfter(w.Header(), left)
			httpError(w, http.StatusTooManyRequests, "too many unknown callers from this address: try again later")
			return
		}
		who, err := m.Authenticate(r)
		if err != nil {
			msg := "missing bearer token"
			if errors.Is(err, identity.ErrUnknownCaller) {
				fails.Fail(key)
				msg = "unknown caller"
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="nl2sql-mcp"`)
			httpError(w, http.StatusUnauthorized, msg)
			return
		}
		r.Header.Set(callerHeader, who.Name)
		next.ServeHTTP(w, r)
	})
}
