package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
)

// bigSQL reads 1000 rows of 8000 '<': the executor's 4 MiB byte cap stops
// it first, and every '<' is six bytes of JSON (\u003c).
const bigSQL = "SELECT g, repeat('<', 8000) AS pad FROM generate_series(1, 1000) g"

// peakHeap samples HeapInuse until stop is closed and returns the most seen.
func peakHeap(stop chan struct{}) func() uint64 {
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		defer close(done)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return func() uint64 { <-done; return peak.Load() }
}

// openSession initializes a session the 2025 way over raw HTTP and
// returns its id.
func openSession(t *testing.T, url string) string {
	t.Helper()
	code, h, body := post(t, url, strings.NewReader(initializeBody), nil)
	id := h.Get("Mcp-Session-Id")
	if code != 200 || id == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	hdr := map[string]string{"Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18"}
	if code, _, body := post(t, url, strings.NewReader(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), hdr); code != http.StatusAccepted {
		t.Fatalf("initialized: %d %s", code, body)
	}
	return id
}

// TestHTTPMemoryUnderAttack: the attacks that took the server to 3.2 GB
// (a JSON-RPC batch of 500 calls; many byte-capped run_sql calls at once,
// each reply 15-21 MB) now meet a refused batch, calls in flight bounded
// per session and in all (429 beyond), and replies within the byte
// budget; the heap stays far below what they once took.
func TestHTTPMemoryUnderAttack(t *testing.T) {
	_, hs := httpTestServer(t, HTTPConfig{})
	id := openSession(t, hs.URL)
	hdr := map[string]string{"Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18"}
	call := func(n int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_sql","arguments":{"sql":%q}}}`, n, bigSQL)
	}
	var batch []string
	for i := range 500 {
		batch = append(batch, call(i))
	}
	if code, _, body := post(t, hs.URL, strings.NewReader("\n ["+strings.Join(batch, ",")+"]"), hdr); code != http.StatusBadRequest || !strings.Contains(body, "batches are not supported") {
		t.Errorf("a batch of 500 calls: %d %.200s", code, body)
	}

	sessions := []map[string]string{hdr}
	for range 5 {
		sessions = append(sessions, map[string]string{"Mcp-Session-Id": openSession(t, hs.URL), "Mcp-Protocol-Version": "2025-06-18"})
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.HeapInuse
	stop := make(chan struct{})
	peak := peakHeap(stop)
	var wg sync.WaitGroup
	var ok, refused, biggest atomic.Int64
	for s, h := range sessions {
		for i := range 10 {
			wg.Go(func() {
				resp, err := http.DefaultClient.Do(mcpPost(t.Context(), hs.URL, strings.NewReader(call(100*s+i)), h))
				if err != nil {
					t.Error(err)
					return
				}
				defer resp.Body.Close()
				n, _ := io.Copy(io.Discard, resp.Body)
				switch resp.StatusCode {
				case http.StatusOK:
					ok.Add(1)
					for old := biggest.Load(); n > old && !biggest.CompareAndSwap(old, n); old = biggest.Load() {
					}
				case http.StatusTooManyRequests:
					refused.Add(1)
				default:
					t.Errorf("call: %d", resp.StatusCode)
				}
			})
		}
	}
	wg.Wait()
	close(stop)
	grew := int64(peak()) - int64(before)
	t.Logf("60 byte-capped calls from 6 sessions: %d answered, %d refused (429); the biggest reply %d KiB; peak heap +%d MiB",
		ok.Load(), refused.Load(), biggest.Load()>>10, grew>>20)
	if ok.Load() == 0 || refused.Load() == 0 {
		t.Errorf("%d answered, %d refused: want both (16 in flight at most)", ok.Load(), refused.Load())
	}
	if b := biggest.Load(); b > defaultMaxReply {
		t.Errorf("a reply of %d bytes, over the %d-byte budget", b, defaultMaxReply)
	}
	if grew > 512<<20 {
		t.Errorf("peak heap grew by %d MiB, over 512 MiB", grew>>20)
	}
}

// TestReplyRowsOnce: a reply carries its rows once (the structured
// content; the text has a summary and a bounded preview, no JSON copy of
// the output), and rows past the reply's byte budget are left out with a
// note and truncated_by reply_budget.
func TestReplyRowsOnce(t *testing.T) {
	dsn := erptest.Single(t)
	cs := connect(t, NewServer(mustEngine(t, dsn), Config{MaxReply: 128 << 10}))
	res := call(t, cs, "run_sql", map[string]any{"sql": "SELECT g, 'row ' || g AS label FROM generate_series(1, 1000) g"})
	out := decode[RunSQLOutput](t, res)
	if len(out.Rows) != 1000 || out.Truncated || len(res.Content) != 1 {
		t.Fatalf("%d rows, truncated %v, %d content blocks", len(out.Rows), out.Truncated, len(res.Content))
	}
	if txt := text(res); len(txt) > previewBytes+1024 || !strings.Contains(txt, "(the first ") || !strings.Contains(txt, `[1,"row 1"]`) {
		t.Errorf("text of %d bytes: %.300s", len(txt), txt)
	}
	res = call(t, cs, "run_sql", map[string]any{"sql": "SELECT g, repeat('<', 1000) AS pad FROM generate_series(1, 1000) g"})
	out = decode[RunSQLOutput](t, res)
	b, _ := json.Marshal(res)
	if !out.Truncated || out.TruncatedBy != capReply || len(out.Rows) == 0 || len(out.Rows) >= 1000 || len(b) > 128<<10 ||
		!strings.Contains(strings.Join(out.Notes, " "), "at most 131072 bytes a reply") || !strings.Contains(text(res), "byte budget") {
		t.Errorf("%d rows, truncated %v by %q, reply %d bytes, notes %q", len(out.Rows), out.Truncated, out.TruncatedBy, len(b), out.Notes)
	}
}
