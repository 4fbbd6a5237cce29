// Package throttle counts failed sign-ins per client address, for the
// servers in front of an Engine (the web console, the MCP server): after
// too many in a window, an address is refused every token it tries, right
// or wrong, until the window ends.
package throttle

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Failed sign-ins are counted per client address (IPv6: per /64); after
// MaxFailures in Window, the address is blocked until the window ends.
const (
	MaxFailures  = 10
	Window       = time.Minute
	maxFailHosts = 10000 // addresses tracked; beyond, they share one more count
)

// Throttle is the count of failed sign-ins by address; safe for
// concurrent use.
type Throttle struct {
	mu  sync.Mutex
	now func() time.Time
	m   map[string]*failures
}

type failures struct {
	n     int
	since time.Time
}

// New returns an empty Throttle.
func New() *Throttle { return &Throttle{now: time.Now, m: map[string]*failures{}} }

// ClientKey is the address a request is counted under.
func ClientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip := net.ParseIP(host); ip != nil && ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return host
}

// Blocked reports whether key has failed too often; the duration is how
// long it still is.
func (t *Throttle) Blocked(key string) (bool, time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.entry(key, false)
	if f == nil {
		return false, 0
	}
	left := Window - t.now().Sub(f.since)
	return f.n >= MaxFailures && left > 0, left
}

// RetryAfter sets the Retry-After header of a refusal for an address
// blocked for left more, in whole seconds rounded up, and returns them.
func RetryAfter(h http.Header, left time.Duration) int {
	s := int(left.Seconds()) + 1
	h.Set("Retry-After", strconv.Itoa(s))
	return s
}

// Fail counts a failed sign-in of key.
func (t *Throttle) Fail(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.entry(key, true).n++
}

// Succeed forgets key's failures.
func (t *Throttle) Succeed(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, key)
}

// entry is key's count in its current window (a new one when create);
// t.mu is held.
func (t *Throttle) entry(key string, create bool) *failures {
	now := t.now()
	if f := t.m[key]; f != nil {
		if now.Sub(f.since) < Window {
			return f
		}
		delete(t.m, key)
	}
	if !create {
		if f := t.m["*"]; f != nil && len(t.m) >= maxFailHosts && now.Sub(f.since) < Window {
			return f // tracked under the shared count
		}
		return nil
	}
	if len(t.m) >= maxFailHosts {
		for k, f := range t.m {
			if now.Sub(f.since) >= Window {
				delete(t.m, k)
			}
		}
		if len(t.m) >= maxFailHosts {
			key = "*"
			if f := t.m[key]; f != nil {
				return f
			}
		}
	}
	f := &failures{since: now}
	t.m[key] = f
	return f
}
