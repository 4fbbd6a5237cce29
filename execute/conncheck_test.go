package execute

import (
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// TestConnectionCheckInterval: with client_connection_check_interval (the
// executor sets connCheckInterval on PostgreSQL 14+, TestSessionPinned),
// a backend whose client closed its socket, with no cancel request, stops
// at its next check: within the interval plus 3 s. It helps only a backend
// that checks for interrupts (heavySQL does, per row); one that does not
// is TestWatchdog's.
func TestConnectionCheckInterval(t *testing.T) {
	dsn, _ := fixture(t, 0)
	admin := connect(t, dsn)
	client := connect(t, dsn) // its cleanup's Close of the hijacked connection is a no-op
	if serverMajor(client.PgConn()) < 14 {
		t.Skip("client_connection_check_interval is PostgreSQL 14+")
	}
	if _, err := client.Exec(ctxT(t), "SELECT set_config('client_connection_check_interval', $1, false)", ms(connCheckInterval)); err != nil {
		t.Fatal(err)
	}
	pid := client.PgConn().PID()
	// Taken from pgconn, which would send a CancelRequest when its socket
	// fails: here the socket is only closed.
	hc, err := client.PgConn().Hijack()
	if err != nil {
		t.Fatal(err)
	}
	done := whenHeavyRuns(admin, func(int32) { _ = hc.Conn.Close() })
	start := time.Now()
	hc.Frontend.Send(&pgproto3.Query{String: heavySQL})
	if err := hc.Frontend.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the backend to exit", func() bool { return procStatusKB(t, strconv.Itoa(int(pid)), "VmHWM") < 0 })
	if took, limit := time.Since(start), connCheckInterval+3*time.Second; took > limit {
		t.Errorf("the backend ran %v after its client left, want within %v", took, limit)
	}
}
