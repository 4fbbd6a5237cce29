package ttlcache

import (
	"fmt"
	"testing"
	"time"
)

func TestCache(t *testing.T) {
	now := time.Unix(1000, 0)
	c := New[int](10*time.Second, 2)
	c.now = func() time.Time { return now }
	if _, ok := c.Get("a"); ok {
		t.Fatal("empty cache hit")
	}
	c.Put("a", 1)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Fatalf("Get(a) = %v, %v", v, ok)
	}
	now = now.Add(10 * time.Second)
	if _, ok := c.Get("a"); ok {
		t.Error("expired value returned")
	}
	c.Put("b", 2)
	c.Put("c", 3) // a (expired) is dropped to make room
	if len(c.m) != 2 {
		t.Errorf("%d keys, want 2", len(c.m))
	}
	c.Put("d", 4) // full of live keys: all dropped
	if v, ok := c.Get("d"); !ok || v != 4 || len(c.m) != 1 {
		t.Errorf("after overflow: %v %v, %d keys", v, ok, len(c.m))
	}
	for i := range 100 {
		c.Put(fmt.Sprint(i), i)
		if len(c.m) > 2 {
			t.Fatalf("%d keys, max 2", len(c.m))
		}
	}
}
