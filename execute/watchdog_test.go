package execute

import (
	"bytes"
	"context"
	"log/slog"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestWatchdog freezes the backend running a query (SIGSTOP), as a call
// that never checks for interrupts would. The backstop gives up on it, and
// the watchdog, from its own connection of a one-connection pool, cancels
// it, then terminates it, logging each step and that it runs on. Once the
// backend runs again (SIGCONT) it acts on the pending terminate: the
// process exits instead of returning to idle. No goroutine outlives Query.
func TestWatchdog(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	dsn, pool := fixture(t, 1)
	admin := connect(t, dsn)
	var log bytes.Buffer
	grace := 500 * time.Millisecond
	ex := New(pool, WithStatementTimeout(time.Second), WithWatchdog(grace),
		WithLogger(slog.New(slog.NewTextHandler(&syncWriter{w: &log}, &slog.HandlerOptions{Level: slog.LevelInfo}))))
	var pid int32
	done := whenHeavyRuns(admin, func(p int32) {
		pid = p
		if err := syscall.Kill(int(p), syscall.SIGSTOP); err != nil {
			t.Error(err)
		}
	})
	e := queryErr(t, ex, heavySQL)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(int(pid), syscall.SIGCONT) //nolint:errcheck
	if !strings.Contains(e.Message, "did not stop") {
		t.Errorf("got %v, want the backstop's timeout", e)
	}
	got := log.String()
	for _, want := range []string{"cancelling it", "terminating it", "runs on after cancel and terminate", "pid=" + strconv.Itoa(int(pid))} {
		if !strings.Contains(got, want) {
			t.Errorf("the watchdog's log lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "_backend failed") {
		t.Errorf("a signal failed (the pool's role signals its own backends):\n%s", got)
	}
	if err := syscall.Kill(int(pid), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	// Terminated: the process ends (a cancelled backend would stay, idle).
	waitFor(t, "the terminated backend to exit", func() bool { return procStatusKB(t, strconv.Itoa(int(pid)), "VmHWM") < 0 })
	mustQuery(t, ex, "SELECT 1")
	admin.Close(context.Background())
	pool.Close()
	goleak.VerifyNone(t, ignore)
}

// TestWatchdogBackendStops: a backend that stops within the grace (frozen
// only until just after the backstop) is neither cancelled nor terminated
// by the watchdog; a negative grace turns the watchdog off.
func TestWatchdogBackendStops(t *testing.T) {
	dsn, pool := fixture(t, 0)
	admin := connect(t, dsn)
	for _, grace := range []time.Duration{3 * time.Second, -1} {
		var log bytes.Buffer
		timeout := time.Second
		ex := New(pool, WithStatementTimeout(timeout), WithWatchdog(grace),
			WithLogger(slog.New(slog.NewTextHandler(&syncWriter{w: &log}, &slog.HandlerOptions{Level: slog.LevelInfo}))))
		done := whenHeavyRuns(admin, func(p int32) {
			if err := syscall.Kill(int(p), syscall.SIGSTOP); err != nil {
				t.Error(err)
			}
			time.AfterFunc(timeout+backstopSlack+300*time.Millisecond, func() { _ = syscall.Kill(int(p), syscall.SIGCONT) })
		})
		queryErr(t, ex, heavySQL)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		waitHeavyGone(t, admin)
		got := log.String()
		if strings.Contains(got, "cancelling") || strings.Contains(got, "terminating") {
			t.Errorf("grace %v: the watchdog signalled a backend that stopped on its own:\n%s", grace, got)
		}
		if stopped := strings.Contains(got, "watchdog: the backend stopped"); stopped != (grace > 0) {
			t.Errorf("grace %v: watchdog logged a stop: %v, want %v:\n%s", grace, stopped, grace > 0, got)
		}
	}
}
