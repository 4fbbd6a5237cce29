package main

import (
	"context"
	"flag"
	"io"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql"
)

// commonFlags are shared by every subcommand that talks to a database.
type commonFlags struct {
	dsn   string
	scope string
	json  bool
	index string
}

func (f *llmFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.spec, "llm", "", "model: ollama:MODEL, openai:MODEL, anthropic:MODEL or none (default $NL2SQL_LLM)")
	fs.StringVar(&f.url, "llm-url", "", "model server base URL (default $OLLAMA_HOST / $OPENAI_BASE_URL)")
	fs.DurationVar(&f.timeout, "timeout", nl2sql.DefaultTimeout, "time budget of each question, model calls and their retries included (0: none)")
}

func (c *commonFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.dsn, "dsn", "", "PostgreSQL connection string (default $NL2SQL_DSN, then $DATABASE_URL)")
	fs.StringVar(&c.scope, "scope", "", "restrict to this schema plus the shared schema public; also pins search_path")
	fs.BoolVar(&c.json, "json", false, "print machine-readable JSON")
	fs.StringVar(&c.index, "index", "", "use an index saved by 'nl2sql index' (default: introspect and index in memory)")
}

func (c *commonFlags) resolveDSN() (string, error) {
	for _, v := range []string{c.dsn, os.Getenv("NL2SQL_DSN"), os.Getenv("DATABASE_URL")} {
		if v != "" {
			return v, nil
		}
	}
	return "", usageErr("no database: pass --dsn or set NL2SQL_DSN / DATABASE_URL")
}

// connect opens a pool and checks it with a ping, so a bad DSN is a
// connection error (exit 2) before any work starts.
func (c *commonFlags) connect(ctx context.Context) (*pgxpool.Pool, error) {
	dsn, err := c.resolveDSN()
	if err != nil {
		return nil, err
	}
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, &exitError{code: 2, err: err}
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, &exitError{code: 2, err: err}
	}
	return pool, nil
}

// scopeSchemas is the schema filter a --scope implies.
func (c *commonFlags) scopeSchemas() []string {
	if c.scope == "" {
		return nil
	}
	if c.scope == "public" {
		return []string{"public"}
	}
	return []string{c.scope, "public"}
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("nl2sql "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parse parses flags, accepting them before and after positional arguments.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, &exitError{code: 0}
			}
			return nil, &exitError{code: 2}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

type stringsFlag []string

func (s *stringsFlag) String() string     { return "" }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }
