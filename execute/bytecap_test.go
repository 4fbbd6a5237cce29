package execute

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// clientMemory is what the test process used while f ran: the peak of the
// Go heap's live objects above where it started (sampled every
// millisecond) and the process's peak resident set (VmHWM, reset first).
type clientMemory struct {
	heapGrowth uint64 // bytes
	hwm        int64  // bytes
}

func measureClient(t testing.TB, f func()) clientMemory {
	t.Helper()
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	// 5 resets the peak resident set size to the current one.
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var peak uint64
	wg.Go(func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})
	f()
	close(stop)
	wg.Wait()
	m := clientMemory{hwm: procStatusKB(t, "self", "VmHWM") << 10}
	if peak > base {
		m.heapGrowth = peak - base
	}
	return m
}

// procStatusKB reads a kB field of /proc/<pid>/status (-1 if the process
// is gone).
func procStatusKB(t testing.TB, pid, field string) int64 {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return -1
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("/proc/%s/status %s: %v", pid, field, err)
			}
			return n
		}
	}
	return -1
}

const mib = 1 << 20

// TestByteCapBeforeBuffering sends one 128 MB value (the validator
// bypassed, the default 4 MiB byte cap): the client refuses the row after
// its header, so its heap never holds it, and reports the byte cap. (With
// pgx's own limit, 1 GiB, the heap grows by the value's size: 286 MiB for
// a 300 MB one.)
func TestByteCapBeforeBuffering(t *testing.T) {
	dsn, pool := fixture(t, 1)
	ex := New(pool)
	pid := backendPID(t, pool)
	var res *Result
	var err error
	start := time.Now()
	m := measureClient(t, func() { res, err = ex.Query(ctxT(t), "SELECT repeat(repeat('x', 10000), 12800)", unvalidated()) })
	t.Logf("128 MB value: client heap +%d MiB, process peak RSS %d MiB (%v)", m.heapGrowth/mib, m.hwm/mib, time.Since(start))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || res.RowCount != 0 || res.TruncatedBy != CapBytes || !strings.Contains(res.TruncateReason, "byte cap") ||
		strings.Contains(res.TruncateReason, "row cap") {
		t.Errorf("rows %d truncated %v (%q), want 0 rows cut at the byte cap", res.RowCount, res.Truncated, res.TruncateReason)
	}
	if m.heapGrowth > 16*mib || m.hwm > 256*mib {
		t.Errorf("client heap grew by %d MiB, peak RSS %d MiB: the row was buffered", m.heapGrowth/mib, m.hwm/mib)
	}
	if got := backendPID(t, pool); got == pid {
		t.Errorf("connection %d reused after a refused row", pid)
	}
	admin := connect(t, dsn)
	waitFor(t, "the backend to exit", func() bool {
		return !scalar[bool](t, admin, "SELECT EXISTS (SELECT FROM pg_stat_activity WHERE pid = $1)", pid)
	})
}

// TestByteCapSmall covers the two ways a byte cap ends a result: a row that
// fits the protocol limit but not the remaining budget (read, not kept), and
// a row over the protocol limit (refused after its header).
func TestByteCapSmall(t *testing.T) {
	_, pool := fixture(t, 1)
	ex := New(pool, MaxBytes(5000))
	sql := `SELECT CASE WHEN g < 3 THEN 'ab' ELSE repeat('x', $n) END FROM generate_series(1, 5) g ORDER BY g`
	for _, tc := range []struct {
		n        int
		protocol bool // refused by the protocol reader
	}{{10000, false}, {200000, true}} {
		pid := backendPID(t, pool)
		res := mustQuery(t, ex, strings.Replace(sql, "$n", strconv.Itoa(tc.n), 1), unvalidated())
		if res.RowCount != 2 || !res.Truncated || res.TruncatedBy != CapBytes || !strings.Contains(res.TruncateReason, "byte cap") || res.Bytes != 4 {
			t.Errorf("row of %d: rows %d bytes %d truncated %v (%q), want 2 rows, 4 bytes, the byte cap",
				tc.n, res.RowCount, res.Bytes, res.Truncated, res.TruncateReason)
		}
		if got := strings.Contains(res.TruncateReason, "was not read"); got != tc.protocol {
			t.Errorf("row of %d: reason %q, refused unread %v, want %v", tc.n, res.TruncateReason, got, tc.protocol)
		}
		if got := backendPID(t, pool); got == pid {
			t.Errorf("row of %d: connection reused after a cut stream", tc.n)
		}
	}
	// The limit is restored on a kept connection: a later query with a
	// larger cap reads a row over the earlier one's limit.
	pid := backendPID(t, pool)
	mustQuery(t, ex, "SELECT 1")
	res := mustQuery(t, ex, "SELECT repeat('x', 200000)", MaxBytes(1<<20), unvalidated())
	if res.RowCount != 1 || res.Truncated {
		t.Errorf("200 kB row under a 1 MiB cap: rows %d truncated %v (%q)", res.RowCount, res.Truncated, res.TruncateReason)
	}
	if got := backendPID(t, pool); got != pid {
		t.Errorf("connection replaced (pid %d -> %d)", pid, got)
	}
	if s := scalar[string](t, pool, "SELECT repeat('y', 2000000)"); len(s) != 2000000 {
		t.Errorf("the pool's own query after the executor's: %d bytes", len(s))
	}
}
