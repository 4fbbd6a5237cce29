// Command mcp-server exposes an nl2sql engine over the Model Context
// Protocol: any MCP client (Claude Desktop, LibreChat, an agent framework)
// can ask questions in plain language, read the schema and run read-only SQL
// against one PostgreSQL database.
//
//	mcp-server --dsn postgres://... --llm ollama:qwen2.5-coder:7b          # stdio
//	mcp-server --dsn postgres://... --llm none --http :8080                # streamable HTTP
//
// On stdio, stdout carries the protocol; logs go to stderr. SIGINT,
// SIGTERM and (on stdio) the end of stdin stop the server with status 0.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/cliflags"
	"github.com/nl2sqlgo/nl2sql/identity"
	nlotel "github.com/nl2sqlgo/nl2sql/otel"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-server:", err)
		os.Exit(1)
	}
}

// flags is the command line; every field has an environment fallback.
type flags struct {
	db                      cliflags.Database
	dsn, scope, index, http string // dsn: the resolved --dsn
	maxRows                 int
	model                   cliflags.Model // --llm, --llm-url, --timeout
	maxFrame, maxDepth      int
	noLearn                 bool
	maxReply                int
	// --min-confidence, --uncertain-below: the engine's verdict thresholds.
	minConfidence, uncertainBelow float64
	httpCfg                       HTTPConfig
	store                         cliflags.Store    // --store: knowledge shared by replicas
	refreshEvery                  time.Duration     // --refresh-every: see nl2sql.WithRefreshEvery
	ident                         cliflags.Identity // --role, --set: who every read runs as
	who                           identity.Identity // their resolution
	callers                       cliflags.Callers  // --identity: each HTTP caller's identity
	ids                           *identity.Map
	otel                          bool   // --otel: see nlotel.Enabled
	semantic                      string // --semantic FILE
}

func parseFlags(args []string, stderr io.Writer) (*flags, error) {
	f := &flags{}
	fs := flag.NewFlagSet("mcp-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f.db.Register(fs, "")
	fs.StringVar(&f.scope, "scope", "", "restrict to this schema plus public; also pins search_path")
	fs.StringVar(&f.index, "index", "", "use an index saved by 'nl2sql index' instead of introspecting at start")
	fs.StringVar(&f.semantic, "semantic", os.Getenv("NL2SQL_SEMANTIC"), "a semantic model FILE: definitions and verified questions, answered without the model (default $NL2SQL_SEMANTIC)")
	f.store.Register(fs)
	fs.DurationVar(&f.refreshEvery, "refresh-every", time.Minute, "check this often whether the catalog changed (then re-index what changed) and take on the knowledge other replicas sharing --store learnt (0: never)")
	fs.BoolVar(&f.httpCfg.Stateless, "stateless", false, "HTTP: keep no session between requests, so any replica behind a load balancer serves any request (no server-to-client requests, no GET stream)")
	f.model.Register(fs)
	f.ident.Register(fs)
	f.callers.Register(fs)
	fs.BoolVar(&f.otel, "otel", false, "export OpenTelemetry traces and metrics as the OTEL_ variables say (default OTLP to $OTEL_EXPORTER_OTLP_ENDPOINT); on without it when an OTEL_ variable names an exporter, an endpoint or a service")
	fs.IntVar(&f.maxRows, "max-rows", 1000, "row cap of every result (tool calls may ask for fewer)")
	fs.BoolVar(&f.noLearn, "no-learn", false, "leave out the learn tool: clients cannot teach the engine examples or docs")
	fs.Float64Var(&f.minConfidence, "min-confidence", 0, "abstain when an answer's confidence is below this: nl_query returns status abstained, the reasons, the alternatives and a question for the user, and runs nothing")
	fs.Float64Var(&f.uncertainBelow, "uncertain-below", nl2sql.DefaultUncertainBelow, "an answer whose confidence is below this is status uncertain: returned with its reasons, the alternatives and a question for the user")
	fs.IntVar(&f.maxReply, "max-reply-bytes", defaultMaxReply, "byte budget of one nl_query or run_sql reply: rows past it are left out, and the reply says so")
	fs.StringVar(&f.http, "http", "", "serve streamable HTTP on ADDR (e.g. :8080) instead of stdio")
	fs.IntVar(&f.maxFrame, "max-frame", defaultMaxFrame, "largest message in bytes: a stdio line or an HTTP request body")
	fs.IntVar(&f.maxDepth, "max-depth", defaultMaxDepth, "deepest JSON nesting of a stdio message")
	fs.DurationVar(&f.httpCfg.SessionIdle, "session-idle", 10*time.Minute, "HTTP: close a session idle this long (0: never)")
	fs.IntVar(&f.httpCfg.MaxSessions, "max-sessions", 1000, "HTTP: most live sessions; more get 503 (0: no cap)")
	fs.IntVar(&f.httpCfg.MaxSessionsPerClient, "max-sessions-per-client", 100, "HTTP: most live sessions of one client address; more get 429 (0: no cap; behind a proxy every client has its address)")
	fs.IntVar(&f.httpCfg.MaxCalls, "max-calls", defaultMaxCalls, "HTTP: most requests in flight in all; more get 429")
	fs.IntVar(&f.httpCfg.MaxCallsPerSession, "max-calls-per-session", defaultMaxCallsPerSession, "HTTP: most requests in flight of one session (with --stateless, of one client address); more get 429")
	fs.StringVar(&f.httpCfg.Token, "auth-token", "", "HTTP: bearer token required on every request but /healthz (default $NL2SQL_MCP_TOKEN)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	var err error
	if f.who, err = f.ident.Resolve(); err != nil {
		return nil, err
	}
	if f.ids, err = f.callers.Load(f.scope); err != nil {
		return nil, err
	}
	if f.ids != nil {
		switch {
		case f.http == "":
			return nil, errors.New("--identity maps HTTP callers: it needs --http (on stdio use --role and --set)")
		case f.who.Role != "" || len(f.who.Settings) > 0:
			return nil, errors.New("--identity maps every caller to its own role and settings: leave out --role and --set")
		}
	}
	dsn, err := f.db.Resolve()
	if err != nil {
		return nil, err
	}
	f.dsn = dsn
	if f.refreshEvery < 0 {
		return nil, errors.New("--refresh-every must not be negative")
	}
	if f.index != "" && f.store.Resolve() != "" {
		return nil, errors.New("--index and --store name two places for the index: pass one")
	}
	if f.maxRows < 1 {
		return nil, errors.New("--max-rows must be positive")
	}
	if f.minConfidence < 0 || f.minConfidence > 1 || f.uncertainBelow < 0 {
		return nil, errors.New("--min-confidence must be within 0..1, --uncertain-below not negative")
	}
	if f.maxFrame < 1 || f.maxDepth < 1 || f.maxReply < 1 {
		return nil, errors.New("--max-frame, --max-depth and --max-reply-bytes must be positive")
	}
	if f.httpCfg.SessionIdle < 0 || f.httpCfg.MaxSessions < 0 || f.httpCfg.MaxSessionsPerClient < 0 || f.httpCfg.MaxCalls < 0 || f.httpCfg.MaxCallsPerSession < 0 {
		return nil, errors.New("--session-idle, --max-sessions, --max-sessions-per-client, --max-calls and --max-calls-per-session must not be negative")
	}
	if f.httpCfg.Token == "" {
		f.httpCfg.Token = os.Getenv("NL2SQL_MCP_TOKEN")
	}
	if f.ids != nil && f.httpCfg.Token != "" {
		return nil, errors.New("--identity gives every caller its own token: leave out --auth-token ($NL2SQL_MCP_TOKEN)")
	}
	f.httpCfg.Callers = f.ids
	f.httpCfg.MaxBody = int64(f.maxFrame)
	return f, nil
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	f, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	model, err := f.model.Resolve()
	if err != nil {
		return err
	}
	pool, err := pgxpool.New(ctx, f.dsn)
	if err != nil {
		return err
	}
	defer pool.Close()
	// Cancelled before the pool closes, so a Prepare still running in the
	// background stops instead of holding connections.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// A database that cannot be reached at start does not stop the server:
	// exiting would leave a stdio client with nothing but "connection
	// closed" (the reason on a stderr it may never show). The session
	// starts anyway, the initialize instructions carry the reason, every
	// tool call tries the database again and, while it still cannot reach
	// it, answers a tool error naming the reason.
	var startErr error
	if err := pool.Ping(ctx); err != nil {
		startErr = err
		logger.Error("the database could not be reached; serving anyway, tool calls will retry it", "err", err)
	}
	opts := []nl2sql.Option{nl2sql.WithMaxRows(f.maxRows), nl2sql.WithTimeout(f.model.Timeout), nl2sql.WithLogger(logger),
		nl2sql.WithMinConfidence(f.minConfidence), nl2sql.WithUncertainBelow(f.uncertainBelow), nl2sql.WithRefreshEvery(f.refreshEvery)}
	if f.ids != nil {
		opts = append(opts, nl2sql.WithSettings(f.ids.Settings()...)) // the policies reading them pass the plan check
	} else if names := f.who.Names(); len(names) > 0 {
		opts = append(opts, nl2sql.WithSettings(names...))
	}
	// Replicas share what they learn through one store: each takes on
	// the others' knowledge within --refresh-every.
	store, storeDB, err := f.store.Open(ctx, retrieve.NewHashEmbedder(0).Dimension())
	if err != nil {
		return fmt.Errorf("--store: %w", err)
	}
	if store != nil {
		defer storeDB.Close()
		opts = append(opts, nl2sql.WithStore(store))
	}
	if model != nil {
		opts = append(opts, nl2sql.WithLLM(model))
	}
	if f.index != "" {
		// Bound to the file: a learn writes it back, merged with what other
		// writers (the CLI, another server) stored since.
		iopts, err := nl2sql.LoadIndexFile(ctx, f.index)
		if err != nil {
			return fmt.Errorf("--index %s: %w", f.index, err)
		}
		opts = append(opts, iopts...)
	}
	if f.semantic != "" {
		m, err := semantic.Load(f.semantic) // its errors name the file and line
		if err != nil {
			return err
		}
		opts = append(opts, nl2sql.WithSemantic(m))
	}
	if f.scope != "" {
		opts = append(opts, nl2sql.WithScope(f.scope),
			nl2sql.WithIntrospectOptions(schema.WithSchemas(f.scope, "public")))
	}
	if nlotel.Enabled(f.otel) {
		tr, shutdown, err := nlotel.Setup(ctx, "nl2sql-mcp-server", nlotel.WithModelSpec(f.model.Label()))
		if err != nil {
			return fmt.Errorf("--otel: %w", err)
		}
		defer flushTelemetry(shutdown, logger)
		opts = append(opts, nl2sql.WithTracer(tr))
		logger.Info("exporting OpenTelemetry traces and metrics")
	}
	eng, err := nl2sql.New(pool, opts...)
	if err != nil {
		return err
	}
	defer eng.Close() // stops the watch before the pools close
	// Read and index the catalog in the background so the client's
	// initialize is answered at once; tool calls wait for it (and retry it
	// if it failed).
	go func() {
		start := time.Now()
		if startErr != nil {
			return // the first tool call prepares it, once the database is up
		}
		if err := eng.Prepare(ctx); err != nil {
			if ctx.Err() != nil {
				return // shutting down
			}
			logger.Error("preparing the engine failed", "err", err)
			return
		}
		logger.Info("engine ready", "took", time.Since(start).Round(time.Millisecond))
	}()
	srv := NewServer(eng, Config{HasLLM: model != nil, Verified: f.semantic != "" || !f.noLearn, Scope: f.scope, MaxRows: f.maxRows, StartErr: startErr,
		NoLearn: f.noLearn, MaxReply: f.maxReply, Logger: logger, Identity: f.who, Callers: f.ids})
	if f.http == "" {
		logger.Info("serving MCP on stdio")
		return serveStdio(ctx, srv, &lineTransport{In: os.Stdin, Out: os.Stdout, MaxFrame: f.maxFrame, MaxDepth: f.maxDepth}, logger)
	}
	return serveHTTP(ctx, srv, f.http, f.httpCfg, logger)
}

// flushTelemetry exports what the tracer still buffers, for at most 5 s
// after the server stopped.
func flushTelemetry(shutdown func(context.Context) error, logger *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := shutdown(ctx); err != nil {
		logger.Warn("flushing OpenTelemetry", "err", err)
	}
}

// serveStdio serves one session on t until the client closes it (end of
// input) or ctx ends; both are a normal stop. (mcp.Server.Run logs an
// error and returns ctx.Err() when ctx ends, which made a signal look
// like a failure.)
func serveStdio(ctx context.Context, srv *mcp.Server, t mcp.Transport, logger *slog.Logger) error {
	ss, err := srv.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case <-ctx.Done():
		_ = ss.Close()
		<-done
		logger.Info("stopping: signal received")
		return nil
	case err := <-done:
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
			return err
		}
		logger.Info("stopping: the client closed stdin")
		return nil
	}
}

// serveHTTP serves the streamable HTTP transport on addr at "/" until ctx
// ends.
func serveHTTP(ctx context.Context, srv *mcp.Server, addr string, cfg HTTPConfig, logger *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	hs := newHTTPServer(httpHandler(srv, cfg))
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); cfg.Token == "" && cfg.Callers == nil {
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			logger.Warn("listening beyond loopback without --auth-token: anyone who can reach " + ln.Addr().String() +
				" can query the database (set --auth-token or NL2SQL_MCP_TOKEN, or listen on 127.0.0.1)")
		}
	}
	logger.Info("serving MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+"/",
		"auth", cfg.Token != "" || cfg.Callers != nil, "session_idle", cfg.SessionIdle, "max_sessions", cfg.MaxSessions)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("stopping: signal received")
	// Open SSE streams never go idle by themselves: close the sessions
	// first so Shutdown does not wait the full grace period for them.
	for ss := range srv.Sessions() {
		_ = ss.Close()
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil {
		if !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		logger.Warn("requests still running after 5s were cut off")
	}
	return nil
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}
