package execute

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// serverUse samples, from the test process on the server's machine, the
// peak resident set of a backend (and of its parallel workers) and the
// size of the cluster's temporary files while a query runs.
type serverUse struct {
	stop chan struct{}
	wg   sync.WaitGroup
	mu   sync.Mutex
	peak map[int32]int64 // VmHWM per process, bytes
	temp int64           // bytes
}

func watchServer(t *testing.T, dsn string, pid int32, tempDir string) *serverUse {
	t.Helper()
	conn := connect(t, dsn) // the sampler's own: a pgx.Conn is not for two goroutines
	// 5 resets the peak resident set size to the current one.
	if err := os.WriteFile("/proc/"+strconv.Itoa(int(pid))+"/clear_refs", []byte("5"), 0); err != nil {
		t.Fatal(err)
	}
	u := &serverUse{stop: make(chan struct{}), peak: map[int32]int64{}}
	u.wg.Go(func() {
		for {
			pids := []int32{pid}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			rows, err := conn.Query(ctx, "SELECT pid FROM pg_stat_activity WHERE leader_pid = $1 AND pid <> $1", pid)
			if err == nil {
				workers, _ := pgx.CollectRows(rows, pgx.RowTo[int32])
				pids = append(pids, workers...)
			}
			cancel()
			var temp int64
			_ = filepath.WalkDir(tempDir, func(_ string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					if fi, err := d.Info(); err == nil {
						temp += fi.Size()
					}
				}
				return nil
			})
			u.mu.Lock()
			for _, p := range pids {
				if kb := procStatusKB(t, strconv.Itoa(int(p)), "VmHWM"); kb > 0 {
					u.peak[p] = max(u.peak[p], kb<<10)
				}
			}
			u.temp = max(u.temp, temp)
			u.mu.Unlock()
			select {
			case <-u.stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	return u
}

// done stops sampling and returns the backend's peak plus its workers'
// (an upper bound of their peak together) and the temporary files' peak.
func (u *serverUse) done() (memory, temp int64) {
	close(u.stop)
	u.wg.Wait()
	for _, b := range u.peak {
		memory += b
	}
	return memory, u.temp
}

// TestResourceBombs runs queries built to exhaust the server or the client,
// with the validator bypassed: the executor's own layer (statement timeout
// and its backstop, work_mem, temp_file_limit, the byte cap enforced on the
// protocol reader) has to bound them. For each it measures the time until
// Query returns, the backend's peak memory, the temporary files and the
// client's memory.
//
// What the executor bounds: time (every query returns within the statement
// timeout plus backstopSlack, plus connection handling), temporary files
// (temp_file_limit), memory of sorts and hashes (work_mem) and the client's
// memory (the byte cap). What it cannot: memory a single call builds up
// (format's padding, repeat, array_agg, a huge row being assembled) grows
// until the call ends or the timeout interrupts it; PostgreSQL caps one
// allocation at 1 GB, and the row's send buffers copy it again. Those
// bombs are the validator's to refuse (V022, V023); here their backend
// memory is measured and logged, not asserted.
func TestResourceBombs(t *testing.T) {
	dsn, pool := fixture(t, 1)
	admin := connect(t, dsn)
	if _, err := admin.Exec(ctxT(t), "CREATE TABLE big AS SELECT g AS x FROM generate_series(1, 3000) g"); err != nil {
		t.Fatal(err)
	}
	tempDir := filepath.Join(scalar[string](t, admin, "SHOW data_directory"), "base", "pgsql_tmp")
	const gib = 1 << 30
	for _, b := range []struct {
		name, sql string
		timeout   time.Duration
		// bounded: the backend's memory is bounded by the executor's
		// settings (work_mem) and is asserted under 1 GiB.
		bounded bool
	}{
		// Not interruptible: format pads in one go, past the timeout.
		{"format width", "SELECT format('%300000000s', 'x')", 3 * time.Second, false},
		// array_agg's state is not bounded by work_mem; 9 million values.
		{"array_agg over a cross join", "SELECT array_agg(a.x) FROM big a, big b", 3 * time.Second, false},
		// One 1 GB value: one palloc, filled until the timeout.
		{"nested repeat", "SELECT repeat(repeat('x', 10000), 100000)", 3 * time.Second, false},
		// A sort of 10^8 rows spills; temp_file_limit (512 MiB) stops
		// it, given the time to reach it.
		{"sort spilling to disk", "SELECT g FROM generate_series(1, 100000000) g ORDER BY g DESC", 8 * time.Second, true},
		// A row of four 250 MB values.
		{"1 GB row", `SELECT repeat(repeat('a', 10000), 25000), repeat(repeat('b', 10000), 25000),
			repeat(repeat('c', 10000), 25000), repeat(repeat('d', 10000), 25000)`, 3 * time.Second, false},
	} {
		t.Run(b.name, func(t *testing.T) {
			ex := New(pool, WithStatementTimeout(b.timeout))
			pid := backendPID(t, pool)
			use := watchServer(t, dsn, pid, tempDir)
			var res *Result
			var err error
			start := time.Now()
			client := measureClient(t, func() { res, err = ex.Query(ctxT(t), b.sql, unvalidated()) })
			elapsed := time.Since(start)
			// Sample on until the backend is idle again or gone (a call
			// that ignores interrupts runs on after the client left).
			if backendPID(t, pool) != pid {
				waitFor(t, "the backend to exit", func() bool { return procStatusKB(t, strconv.Itoa(int(pid)), "VmHWM") < 0 })
			}
			memory, temp := use.done()
			var outcome string
			if e := (*Error)(nil); errors.As(err, &e) {
				outcome = e.class.String() + " error: " + e.Error()
			} else if err != nil {
				outcome = "error: " + err.Error()
			} else {
				outcome = "result: " + strconv.Itoa(res.RowCount) + " rows, " + res.TruncateReason
			}
			t.Logf("returned after %v; backend peak %d MiB, temporary files %d MiB, client heap +%d MiB (peak RSS %d MiB); %s",
				elapsed.Round(time.Millisecond), memory/mib, temp/mib, client.heapGrowth/mib, client.hwm/mib, outcome)

			var e *Error
			switch {
			case err == nil && !res.Truncated:
				t.Errorf("the whole result came back: %d rows, %d bytes", res.RowCount, res.Bytes)
			case err != nil && (!errors.As(err, &e) || e.class == classCanceled || e.class == classUnknown):
				t.Errorf("error %v, want the server's refusal or a timeout", err)
			}
			if limit := b.timeout + backstopSlack + 8*time.Second; elapsed > limit {
				t.Errorf("returned after %v, want within %v", elapsed, limit)
			}
			if client.heapGrowth > 64*mib || client.hwm > 256*mib {
				t.Errorf("client heap +%d MiB, peak RSS %d MiB, want under 64 and 256 MiB", client.heapGrowth/mib, client.hwm/mib)
			}
			if temp >= gib {
				t.Errorf("temporary files reached %d MiB, want under 1 GiB", temp/mib)
			}
			if b.bounded && memory >= gib {
				t.Errorf("backend peak %d MiB, want under 1 GiB", memory/mib)
			}
		})
	}
}
