package nl2sql_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// switchablePool is a pool on dsn whose new connections fail with
// "connection refused" once down is set: the server, as the engine sees
// it, has gone away.
func switchablePool(t *testing.T, dsn string) (*pgxpool.Pool, *atomic.Bool) {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	down := new(atomic.Bool)
	cfg.ConnConfig.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if down.Load() {
			return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
		}
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool, down
}

// wantConnectionError checks that a failure is reported as the database
// being out of reach, in the error and in the result's JSON shape.
func wantConnectionError(t *testing.T, what string, res *nl2sql.Result, err error) {
	t.Helper()
	var ne *nl2sql.Error
	if !errors.Is(err, nl2sql.ErrConnection) || !errors.As(err, &ne) || ne.Code != "connection_error" {
		t.Fatalf("%s: %v, want a connection error", what, err)
	}
	if strings.Contains(err.Error(), "no candidate") || !strings.Contains(err.Error(), "could not be reached") {
		t.Errorf("%s: message %q should say the database could not be reached", what, err)
	}
	if res != nil && (res.Error == nil || res.Error.Class != nl2sql.ClassConnection || res.Error.Code != "connection_error") {
		t.Errorf("%s: result error %+v", what, res.Error)
	}
}

// TestDatabaseDown: once the database is gone, Ask, Run and Prepare say so
// as a connection error, not as a model failure or an unsafe query.
func TestDatabaseDown(t *testing.T) {
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return fenced("SELECT count(*) FROM employees")
	})
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	pool, down := switchablePool(t, erptest.Single(t))
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithModules(erp.Modules()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := eng.Ask(ctx, "how many employees are there?"); err != nil {
		t.Fatalf("with the database up: %v", err)
	}

	down.Store(true)
	pool.Reset() // the open connections go with the server
	res, err := eng.Ask(ctx, "how many employees are there?")
	wantConnectionError(t, "Ask", res, err)
	res, err = eng.Run(ctx, "SELECT count(*) FROM employees")
	wantConnectionError(t, "Run", res, err)

	// A second engine whose database is down from the start.
	cold, err := nl2sql.New(pool, nl2sql.WithLLM(model))
	if err != nil {
		t.Fatal(err)
	}
	wantConnectionError(t, "Prepare", nil, cold.Prepare(ctx))

	// Back up: the same engine answers again.
	down.Store(false)
	if _, err := eng.Ask(ctx, "how many employees are there?"); err != nil {
		t.Fatalf("after the database came back: %v", err)
	}
}

// TestModelUnreachable: a model server nobody listens on is an llm_error
// with the code llm_unreachable (the CLI exits 2 for it), and a missing
// model is a configuration error; both carry a code.
func TestModelUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	model := openai.New(openai.WithBaseURL(url), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	pool := pgtest.Pool(t, erptest.Single(t))
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithModules(erp.Modules()))
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Ask(context.Background(), "how many employees are there?")
	var ne *nl2sql.Error
	if !errors.Is(err, nl2sql.ErrLLM) || !errors.Is(err, llm.ErrUnreachable) || !errors.As(err, &ne) || ne.Code != "llm_unreachable" {
		t.Fatalf("err = %v, want ErrLLM with code llm_unreachable", err)
	}
	if res.Error == nil || res.Error.Code != "llm_unreachable" || strings.Count(err.Error(), "nl2sql: ") != 1 {
		t.Errorf("result error %+v; message %q (want one prefix)", res.Error, err)
	}

	none, err := nl2sql.New(pool)
	if err != nil {
		t.Fatal(err)
	}
	res, err = none.Ask(context.Background(), "how many employees are there?")
	if !errors.Is(err, nl2sql.ErrConfig) || res.Error == nil || res.Error.Code != "config_error" || strings.Count(err.Error(), "nl2sql: ") != 1 {
		t.Errorf("no model: %v (result error %+v)", err, res.Error)
	}
}
