// Package ttlcache keeps values for a fixed time, up to a number of keys.
package ttlcache

import (
	"sync"
	"time"
)

// Cache maps keys to values that expire ttl after they were put. It is
// safe for concurrent use; the zero value is not usable (New).
type Cache[V any] struct {
	ttl time.Duration
	max int
	now func() time.Time

	mu sync.Mutex
	m  map[string]entry[V]
}

type entry[V any] struct {
	v       V
	expires time.Time
}

// New returns a cache of at most max keys whose values live for ttl.
func New[V any](ttl time.Duration, max int) *Cache[V] {
	return &Cache[V]{ttl: ttl, max: max, now: time.Now, m: map[string]entry[V]{}}
}

// Get returns the value of key while it has not expired.
func (c *Cache[V]) Get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok || !c.now().Before(e.expires) {
		var zero V
		return zero, false
	}
	return e.v, true
}

// Put stores v under key for the cache's ttl. A full cache first drops
// its expired entries, then, if still full, all of them: the values are
// cheap to compute again.
func (c *Cache[V]) Put(key string, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if _, ok := c.m[key]; !ok && len(c.m) >= c.max {
		for k, e := range c.m {
			if !now.Before(e.expires) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= c.max {
			clear(c.m)
		}
	}
	c.m[key] = entry[V]{v: v, expires: now.Add(c.ttl)}
}

// Keys returns the keys held, expired ones included (for tests and
// diagnostics).
func (c *Cache[V]) Keys() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := make([]string, 0, len(c.m))
	for k := range c.m {
		keys = append(keys, k)
	}
	return keys
}
