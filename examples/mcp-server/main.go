// Command mcp-server exposes an nl2sql engine over the Model Context
// Protocol: any MCP client (Claude Desktop, LibreChat, an agent framework)
// can ask questions in plain language, read the schema and run read-only SQL
// against one PostgreSQL database.
//
//	mcp-server --dsn postgres://... --llm ollama:qwen2.5-coder:7b          # stdio
//	mcp-server --dsn postgres://... --llm none --http :8080                # streamable HTTP
//
// On stdio, stdout carries the protocol; logs go to stderr.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/schema"
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
	dsn, scope, index, http string
	maxRows                 int
	timeout                 time.Duration
	model                   llmSpec
}

func parseFlags(args []string, stderr io.Writer) (*flags, error) {
	f := &flags{}
	fs := flag.NewFlagSet("mcp-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.dsn, "dsn", "", "PostgreSQL connection string (default $NL2SQL_DSN, then $DATABASE_URL)")
	fs.StringVar(&f.scope, "scope", "", "restrict to this schema plus public; also pins search_path")
	fs.StringVar(&f.index, "index", "", "use an index saved by 'nl2sql index' instead of introspecting at start")
	fs.StringVar(&f.model.spec, "llm", "", "model: ollama:MODEL, openai:MODEL, anthropic:MODEL or none (default $NL2SQL_LLM)")
	fs.StringVar(&f.model.url, "llm-url", "", "model server base URL (default $OLLAMA_HOST / $OPENAI_BASE_URL)")
	fs.IntVar(&f.maxRows, "max-rows", 1000, "row cap of every result (tool calls may ask for fewer)")
	fs.DurationVar(&f.timeout, "timeout", nl2sql.DefaultTimeout, "time budget of each question, model calls and their retries included (0: none)")
	fs.StringVar(&f.http, "http", "", "serve streamable HTTP on ADDR (e.g. :8080) instead of stdio")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if f.dsn == "" {
		f.dsn = firstNonEmpty(os.Getenv("NL2SQL_DSN"), os.Getenv("DATABASE_URL"))
	}
	if f.dsn == "" {
		return nil, errors.New("no database: pass --dsn or set NL2SQL_DSN / DATABASE_URL")
	}
	if f.maxRows < 1 {
		return nil, errors.New("--max-rows must be positive")
	}
	return f, nil
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	f, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	model, err := f.model.resolve()
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
	if err := pool.Ping(ctx); err != nil {
		return fmt.Errorf("connecting to the database: %w", err)
	}
	opts := []nl2sql.Option{nl2sql.WithMaxRows(f.maxRows), nl2sql.WithTimeout(f.timeout), nl2sql.WithLogger(logger)}
	if model != nil {
		opts = append(opts, nl2sql.WithLLM(model))
	}
	if f.index != "" {
		file, err := os.Open(f.index)
		if err != nil {
			return err
		}
		iopts, err := nl2sql.LoadIndex(file)
		file.Close()
		if err != nil {
			return fmt.Errorf("--index %s: %w", f.index, err)
		}
		opts = append(opts, iopts...)
	}
	if f.scope != "" {
		opts = append(opts, nl2sql.WithScope(f.scope),
			nl2sql.WithIntrospectOptions(schema.IncludeSchemas(f.scope, "public")))
	}
	eng, err := nl2sql.New(pool, opts...)
	if err != nil {
		return err
	}
	// Read and index the catalog in the background so the client's
	// initialize is answered at once; tool calls wait for it (and retry it
	// if it failed).
	go func() {
		start := time.Now()
		if err := eng.Prepare(ctx); err != nil {
			logger.Error("preparing the engine failed", "err", err)
			return
		}
		logger.Info("engine ready", "took", time.Since(start).Round(time.Millisecond))
	}()
	srv := NewServer(eng, Config{HasLLM: model != nil, Scope: f.scope, Logger: logger})
	if f.http == "" {
		logger.Info("serving MCP on stdio")
		return srv.Run(ctx, &mcp.StdioTransport{})
	}
	return serveHTTP(ctx, srv, f.http, logger)
}

// httpHandler serves srv's streamable HTTP transport; every session
// shares the one server (and engine).
func httpHandler(srv *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
}

// serveHTTP serves the streamable HTTP transport on addr at "/" until ctx
// ends.
func serveHTTP(ctx context.Context, srv *mcp.Server, addr string, logger *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: httpHandler(srv), ReadHeaderTimeout: 10 * time.Second}
	logger.Info("serving MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+"/")
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return hs.Shutdown(shutdown)
}
