package main

import (
	"context"
	"encoding/hex"
	"errors"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql/identity"
	"github.com/nl2sqlgo/nl2sql/throttle"
)

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
// authenticated (the SDK hands its TokenInfo to every call of the
// request); without, the server's own identity (--role, --set).
func (h *handlers) caller(extra *mcp.RequestExtra) (caller, error) {
	if h.cfg.Callers == nil {
		return caller{Identity: h.cfg.Identity}, nil
	}
	if extra == nil || extra.TokenInfo == nil {
		return caller{}, errUnknownCaller
	}
	c := h.cfg.Callers.Caller(extra.TokenInfo.UserID)
	if c == nil {
		return caller{}, errUnknownCaller
	}
	return caller{name: c.Name, Identity: c.Identity}, nil
}

// callerAuth lets through requests whose caller m knows (its bearer
// token, or its trusted proxy's header); others get 401. As bearerAuth,
// an address that sent throttle.MaxFailures unknown tokens within
// throttle.Window gets 429 until the window ends. Neither the token nor
// the header's value is logged or echoed.
//
// The caller reaches the handlers as the SDK's auth.TokenInfo, whose
// UserID is its name: the request goes on with its Authorization header
// replaced by one naming the caller (hex), which auth.RequireBearerToken
// turns into the TokenInfo. The SDK then also binds a session to the
// caller that opened it (another caller's request on it is 403), and the
// real token goes no further than this middleware.
func callerAuth(m *identity.Map, next http.Handler) http.Handler {
	fails := throttle.New()
	named := auth.RequireBearerToken(func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
		b, err := hex.DecodeString(tok)
		if err != nil || m.Caller(string(b)) == nil {
			return nil, auth.ErrInvalidToken // only callerAuth sets the header
		}
		return &auth.TokenInfo{UserID: string(b)}, nil
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+hex.EncodeToString([]byte(who.Name)))
		named.ServeHTTP(w, r)
	})
}
