package cliflags

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/provider"
)

func TestDatabaseResolve(t *testing.T) {
	for _, tc := range []struct{ flag, nl2sqlDSN, databaseURL, want string }{
		{"f", "n", "d", "f"},
		{"", "n", "d", "n"},
		{"", "", "d", "d"},
	} {
		t.Setenv("NL2SQL_DSN", tc.nl2sqlDSN)
		t.Setenv("DATABASE_URL", tc.databaseURL)
		if got, err := (&Database{DSN: tc.flag}).Resolve(); got != tc.want || err != nil {
			t.Errorf("%+v: got %q, %v", tc, got, err)
		}
	}
	t.Setenv("NL2SQL_DSN", "")
	t.Setenv("DATABASE_URL", "")
	if _, err := (&Database{}).Resolve(); !errors.Is(err, ErrNoDSN) {
		t.Errorf("no DSN: %v", err)
	}
	if _, err := (&Database{}).Connect(t.Context()); !errors.Is(err, ErrNoDSN) {
		t.Errorf("Connect without a DSN: %v", err)
	}
}

func TestFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var d Database
	var m Model
	d.Register(fs, "")
	m.Register(fs)
	if err := fs.Parse([]string{"--dsn", "postgres://h/db", "--llm", "none", "--llm-url", "http://u", "--timeout", "3s"}); err != nil {
		t.Fatal(err)
	}
	if d.DSN != "postgres://h/db" || m.Spec != "none" || m.URL != "http://u" || m.Timeout.Seconds() != 3 {
		t.Errorf("parsed %+v %+v", d, m)
	}
	if fs.Lookup("dsn").Usage != DSNUsage || fs.Lookup("timeout").DefValue != nl2sql.DefaultTimeout.String() {
		t.Errorf("usage %q, default timeout %q", fs.Lookup("dsn").Usage, fs.Lookup("timeout").DefValue)
	}
}

func TestModel(t *testing.T) {
	t.Setenv("NL2SQL_LLM", "")
	if got, err := (&Model{}).Resolve(); got != nil || err != nil {
		t.Errorf("no spec: %v, %v", got, err)
	}
	if l := (&Model{}).Label(); l != "the model" {
		t.Errorf("label %q", l)
	}
	t.Setenv("NL2SQL_LLM", "bogus")
	if _, err := (&Model{}).Resolve(); !errors.Is(err, provider.ErrSpec) {
		t.Errorf("$NL2SQL_LLM bogus: %v", err)
	}
	if l := (&Model{}).Label(); l != "bogus" {
		t.Errorf("label %q", l)
	}
	if got, err := (&Model{Spec: "none"}).Resolve(); got != nil || err != nil {
		t.Errorf("--llm none over $NL2SQL_LLM: %v, %v", got, err)
	}
}

func TestHint(t *testing.T) {
	dial := &net.OpError{Op: "dial", Err: errors.New("connection refused")}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("x: %w", llm.ErrUnreachable), "is the model server running, and is --llm-url right?"},
		{fmt.Errorf("connect: %w", dial), "is the server running, and are the host and port of --dsn right?"},
		{fmt.Errorf("x: %w", nl2sql.ErrConnection), "is the server running, and are the host and port of --dsn right?"},
		{errors.New("other"), ""},
	} {
		if got := Hint(tc.err); got != tc.want {
			t.Errorf("Hint(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

func TestStore(t *testing.T) {
	var s Store
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	s.Register(fs)
	t.Setenv(StoreDSNEnv, "from-env")
	if err := fs.Parse(nil); err != nil || s.Resolve() != "from-env" || s.Schema != "nl2sql" || s.Namespace != "default" {
		t.Errorf("defaults: %+v %q %v", s, s.Resolve(), err)
	}
	if err := fs.Parse([]string{"--store", "from-flag", "--store-schema", "kb"}); err != nil || s.Resolve() != "from-flag" || s.Schema != "kb" {
		t.Errorf("flags: %+v %v", s, err)
	}
	t.Setenv(StoreDSNEnv, "")
	if st, pool, err := (&Store{}).Open(context.Background(), 8); st != nil || pool != nil || err != nil {
		t.Errorf("no store: %v %v %v", st, pool, err)
	}
	// A store out of reach fails at Open, not at the first Learn.
	if _, _, err := (&Store{DSN: "postgres://nobody@127.0.0.1:1/x?connect_timeout=2"}).Open(context.Background(), 8); err == nil {
		t.Error("unreachable store opened")
	}
}

// TestIdentityFlags: --role and --set become the identity; a --set that is
// not NAME=VALUE with a custom dotted name, or sets a name twice, is an
// error naming the flag.
func TestIdentityFlags(t *testing.T) {
	parse := func(args ...string) (string, error) {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var id Identity
		id.Register(fs)
		if err := fs.Parse(args); err != nil {
			return "", err
		}
		got, err := id.Resolve()
		return fmt.Sprintf("%s %v %d", got.Role, got.Settings, len(got.AskOptions())), err
	}
	if got, err := parse("--role", "r", "--set", "app.tenant_id=42", "--set", "app.region=eu=1"); err != nil || got != "r [{app.tenant_id 42} {app.region eu=1}] 3" {
		t.Errorf("got %q, %v", got, err)
	}
	for _, bad := range [][]string{{"--set", "work_mem=1GB"}, {"--set", "app.tenant_id"}, {"--set", "app.t=1", "--set", "APP.T=2"}} {
		if _, err := parse(bad...); err == nil || !strings.HasPrefix(err.Error(), "--set: invalid setting") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
