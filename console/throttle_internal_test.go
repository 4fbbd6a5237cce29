package console

import (
	"strconv"
	"testing"
	"time"
)

// TestThrottleWindow: the block ends with the window; the count of
// tracked addresses is bounded, the extra ones sharing one count.
func TestThrottleWindow(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	th := newThrottle()
	th.now = func() time.Time { return now }
	for range maxFailures - 1 {
		th.fail("a")
	}
	if b, _ := th.blocked("a"); b {
		t.Fatal("blocked before the tenth failure")
	}
	th.fail("a")
	if b, left := th.blocked("a"); !b || left != failWindow {
		t.Fatalf("after %d failures: blocked %v for %v", maxFailures, b, left)
	}
	now = now.Add(failWindow - time.Second)
	if b, _ := th.blocked("a"); !b {
		t.Fatal("unblocked within the window")
	}
	now = now.Add(time.Second)
	if b, _ := th.blocked("a"); b {
		t.Fatal("still blocked after the window")
	}
	for i := range maxFailHosts + 50 {
		th.fail("h" + strconv.Itoa(i))
	}
	if len(th.m) > maxFailHosts+1 {
		t.Errorf("%d addresses tracked, cap %d plus the shared count", len(th.m), maxFailHosts)
	}
	if b, _ := th.blocked("new"); !b {
		t.Error("with the table full, a new address should share the (exhausted) overflow count")
	}
	now = now.Add(failWindow)
	th.fail("later")
	if len(th.m) != 1 {
		t.Errorf("expired entries not dropped: %d", len(th.m))
	}
}
