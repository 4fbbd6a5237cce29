package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/cliflags"
	"github.com/nl2sqlgo/nl2sql/console"
)

const serveUsage = `usage: nl2sql serve [--dsn DSN] [--llm SPEC|none] [--addr 127.0.0.1:8080] [--auth-token TOKEN | --identity FILE] [--role R] [--set NAME=VALUE] [--scope S] [--index FILE] [--min-confidence P] [--uncertain-below P] [--store DSN] [--refresh-every D] [--otel]

Serve the web console: ask, why this query, check and run SQL, schema,
retrieval and teach. It listens on loopback unless --addr says otherwise;
with --auth-token (or $NL2SQL_AUTH_TOKEN) every page needs the token (as a
bearer header or through the login form). --role and --set make every
read run as that role with those settings; --identity FILE instead maps
each caller (its bearer token, or a trusted proxy's header) to its own
role, settings and scope, and refuses unknown callers. With --scope it shows only that
schema and the shared ones. Every --refresh-every it checks whether the
catalog changed (at once, with the event trigger of 'nl2sql trigger') and
re-indexes what did, and takes on what other servers sharing --store
learnt. With --otel (nl2sql-otel only) it exports OpenTelemetry traces and
metrics. It stops on SIGINT.`

// runServe is the serve command: flags, the engine, and an http.Server
// with timeouts that shuts down gracefully when ctx ends.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s := newSub("serve", serveUsage, stdout, stderr)
	mf := s.modelFlags()
	s.identityFlags()
	var callers cliflags.Callers
	callers.Register(s.fs)
	addr := s.fs.String("addr", "127.0.0.1:8080", "address to listen on (host:port; loopback by default)")
	var allow stringsFlag
	s.fs.Var(&allow, "allow-host", "without --auth-token, a host name the console answers besides loopback (repeatable; the --addr host is allowed)")
	token := s.fs.String("auth-token", "", "require this token (default $NL2SQL_AUTH_TOKEN; none: no authentication)")
	refreshEvery := s.fs.Duration("refresh-every", time.Minute, "check this often whether the catalog changed (then re-index what changed) and take on the knowledge other servers sharing --store learnt (0: never)")
	otelFlag := s.fs.Bool("otel", false, "export OpenTelemetry traces and metrics as the OTEL_ variables say (the nl2sql-otel build; on there without the flag when an OTEL_ variable names an exporter, an endpoint or a service)")
	budget := s.fs.Int64("result-budget", console.DefaultResultBudget, "bytes of results the console keeps for paging, charts and teaching (a large one keeps its first page)")
	verdicts := s.verdictFlags("abstain (show why and the alternatives, the query not run) when an answer's confidence is below this",
		"show an answer whose confidence is below this as unsure (amber, with its reasons and the alternatives)")
	pos, err := s.parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("serve takes no arguments (got %q)", pos[0])
	}
	if *budget <= 0 {
		return usageErr("--result-budget must be positive")
	}
	if *refreshEvery < 0 {
		return usageErr("--refresh-every must not be negative")
	}
	if *token == "" {
		*token = os.Getenv("NL2SQL_AUTH_TOKEN")
	}
	ids, err := callers.Load(s.scope)
	if err != nil {
		return usageErr("--identity: %s", strings.TrimPrefix(err.Error(), "identity: "))
	}
	var engOpts []nl2sql.Option
	if ids != nil {
		if *token != "" || s.who.Role != "" || len(s.who.Settings) > 0 {
			return usageErr("--identity maps every caller to its own token, role and settings: leave out --auth-token ($NL2SQL_AUTH_TOKEN), --role and --set")
		}
		engOpts = append(engOpts, nl2sql.WithSettings(ids.Settings()...))
	}
	model, err := resolveLLM(mf)
	if err != nil {
		return err
	}
	thresholds, err := verdicts()
	if err != nil {
		return err
	}
	traced, stopTelemetry, err := telemetry(ctx, *otelFlag, mf.Label(), stderr)
	if err != nil {
		return err
	}
	defer stopTelemetry() // after the engine and the server stopped
	eng, err := s.open(ctx, model, append(append(append(thresholds, engOpts...), nl2sql.WithRefreshEvery(*refreshEvery)), traced...)...)
	if err != nil {
		return err
	}
	defer s.close()
	defer eng.Close() // the watch stops before the pools close
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return usageErr("--addr: %v", err)
	}
	host, _, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && *token == "" && ids == nil {
		fmt.Fprintf(stderr, "nl2sql: warning: listening on %s without --auth-token: anyone who can reach it can query the database\n", ln.Addr())
	}
	var opts []console.Option
	opts = append(opts, console.WithModel(model != nil), console.WithResultBudget(*budget))
	if *token != "" {
		opts = append(opts, console.WithAuthToken(*token))
	}
	if ids != nil {
		opts = append(opts, console.WithIdentities(ids))
	}
	opts = append(opts, console.WithAskOptions(s.who.AskOptions()...))
	if h, _, err := net.SplitHostPort(*addr); err == nil && h != "" {
		allow = append(allow, h) // the address it was told to listen on
	}
	opts = append(opts, console.WithAllowedHosts(allow...))
	askTimeout := mf.Timeout
	if askTimeout <= 0 {
		askTimeout = 5 * time.Minute
	}
	srv := &http.Server{
		Handler:           console.New(eng, opts...),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      askTimeout + 30*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	fmt.Fprintf(stderr, "nl2sql console: http://%s/\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = srv.Shutdown(shut)
	if e := <-done; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}
