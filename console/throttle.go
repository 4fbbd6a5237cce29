package console

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// Failed sign-ins (a wrong token in the login form or a bearer header)
// are counted per client address (IPv6: per /64); after maxFailures in
// failWindow, that address gets 429 for every token it tries, right or
// wrong, until the window ends. A browser already signed in (its session
// cookie) is not affected.
const (
	maxFailures  = 10
	failWindow   = time.Minute
	maxFailHosts = 10000 // addresses tracked; beyond, they share one more count
)

type throttle struct {
	mu  sync.Mutex
	now func() time.Time
	m   map[string]*failures
}

type failures struct {
	n     int
	since time.Time
}

func newThrottle() *throttle { return &throttle{now: time.Now, m: map[string]*failures{}} }

// clientKey is the address a request is counted under.
func clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip := net.ParseIP(host); ip != nil && ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return host
}

// blocked reports whether key has failed too often; the duration is how
// long it still is.
func (t *throttle) blocked(key string) (bool, time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.entry(key, false)
	if f == nil {
		return false, 0
	}
	left := failWindow - t.now().Sub(f.since)
	return f.n >= maxFailures && left > 0, left
}

// fail counts a failed sign-in of key.
func (t *throttle) fail(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.entry(key, true).n++
}

// succeed forgets key's failures.
func (t *throttle) succeed(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, key)
}

// entry is key's count in its current window (a new one when create);
// t.mu is held.
func (t *throttle) entry(key string, create bool) *failures {
	now := t.now()
	if f := t.m[key]; f != nil {
		if now.Sub(f.since) < failWindow {
			return f
		}
		delete(t.m, key)
	}
	if !create {
		if f := t.m["*"]; f != nil && len(t.m) >= maxFailHosts && now.Sub(f.since) < failWindow {
			return f // tracked under the shared count
		}
		return nil
	}
	if len(t.m) >= maxFailHosts {
		for k, f := range t.m {
			if now.Sub(f.since) >= failWindow {
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
