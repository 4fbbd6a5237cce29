package throttle

import (
	"strconv"
	"testing"
	"time"
)

// TestThrottleWindow: the block ends with the window; the count of
// tracked addresses is bounded, the extra ones sharing one count.
func TestThrottleWindow(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	th := New()
	th.now = func() time.Time { return now }
	for range MaxFailures - 1 {
		th.Fail("a")
	}
	if b, _ := th.Blocked("a"); b {
		t.Fatal("blocked before the tenth failure")
	}
	th.Fail("a")
	if b, left := th.Blocked("a"); !b || left != Window {
		t.Fatalf("after %d failures: blocked %v for %v", MaxFailures, b, left)
	}
	now = now.Add(Window - time.Second)
	if b, _ := th.Blocked("a"); !b {
		t.Fatal("unblocked within the window")
	}
	now = now.Add(time.Second)
	if b, _ := th.Blocked("a"); b {
		t.Fatal("still blocked after the window")
	}
	for i := range maxFailHosts + 50 {
		th.Fail("h" + strconv.Itoa(i))
	}
	if len(th.m) > maxFailHosts+1 {
		t.Errorf("%d addresses tracked, cap %d plus the shared count", len(th.m), maxFailHosts)
	}
	if b, _ := th.Blocked("new"); !b {
		t.Error("with the table full, a new address should share the (exhausted) overflow count")
	}
	now = now.Add(Window)
	th.Fail("later")
	if len(th.m) != 1 {
		t.Errorf("expired entries not dropped: %d", len(th.m))
	}
}
