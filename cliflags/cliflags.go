// Package cliflags is the command-line start the nl2sql CLI
// (cmd/nl2sql) and the MCP server (examples/mcp-server) share: the
// database (--dsn, $NL2SQL_DSN, $DATABASE_URL) and the model (--llm,
// $NL2SQL_LLM, --llm-url, --timeout), and the pgvector store keeping the
// index and the knowledge (--store, $NL2SQL_STORE_DSN), the identity of
// every read (--role, --set) and a server's caller mapping (--identity),
// with the same flag names, defaults, environment variables and messages
// in both. It is public so that a copy
// of the MCP server, or a command of one's own, starts the same way.
package cliflags

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/identity"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/provider"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// DSNUsage is the help text of --dsn.
const DSNUsage = "PostgreSQL connection string (default $NL2SQL_DSN, then $DATABASE_URL)"

// ErrNoDSN is Resolve's error when no database is named anywhere.
var ErrNoDSN = errors.New("no database: pass --dsn or set NL2SQL_DSN / DATABASE_URL")

// Database is the --dsn flag.
type Database struct {
	DSN string
}

// Register adds --dsn to fs, with usage as its help ("" for DSNUsage).
func (d *Database) Register(fs *flag.FlagSet, usage string) {
	if usage == "" {
		usage = DSNUsage
	}
	fs.StringVar(&d.DSN, "dsn", "", usage)
}

// Resolve is --dsn, else $NL2SQL_DSN, else $DATABASE_URL; ErrNoDSN when
// all are empty.
func (d *Database) Resolve() (string, error) {
	for _, v := range []string{d.DSN, os.Getenv("NL2SQL_DSN"), os.Getenv("DATABASE_URL")} {
		if v != "" {
			return v, nil
		}
	}
	return "", ErrNoDSN
}

// Connect opens a pool on the resolved DSN and checks it with a ping, so
// that a bad DSN fails before any work starts. Hint says what to check
// after its error.
func (d *Database) Connect(ctx context.Context) (*pgxpool.Pool, error) {
	dsn, err := d.Resolve()
	if err != nil {
		return nil, err
	}
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// Hint is what to check after err, "" when there is nothing to say: the
// model server and --llm-url, or the database server and --dsn.
func Hint(err error) string {
	var op *net.OpError
	switch {
	case errors.Is(err, llm.ErrUnreachable):
		return "is the model server running, and is --llm-url right?"
	case errors.As(err, &op) && op.Op == "dial", errors.Is(err, nl2sql.ErrConnection):
		return "is the server running, and are the host and port of --dsn right?"
	}
	return ""
}

// Model is the --llm, --llm-url and --timeout flags.
type Model struct {
	Spec    string
	URL     string
	Timeout time.Duration
}

// Register adds --llm, --llm-url and --timeout to fs.
func (m *Model) Register(fs *flag.FlagSet) {
	fs.StringVar(&m.Spec, "llm", "", "model: ollama:MODEL, openai:MODEL, anthropic:MODEL or none (default $NL2SQL_LLM)")
	fs.StringVar(&m.URL, "llm-url", "", "model server base URL (default $OLLAMA_HOST / $OPENAI_BASE_URL)")
	fs.DurationVar(&m.Timeout, "timeout", nl2sql.DefaultTimeout, "time budget of each question, model calls and their retries included (0: none)")
}

// spec is --llm, else $NL2SQL_LLM.
func (m *Model) spec() string {
	if m.Spec != "" {
		return m.Spec
	}
	return os.Getenv("NL2SQL_LLM")
}

// Label names the model for humans ("openai:gpt-4o-mini"), "the model"
// when none is named.
func (m *Model) Label() string {
	if s := m.spec(); s != "" {
		return s
	}
	return "the model"
}

// Resolve builds the model named by --llm (or $NL2SQL_LLM) at --llm-url;
// nil for none. See provider.FromSpec for the spec forms, URLs and keys;
// its errors wrap provider.ErrSpec.
func (m *Model) Resolve() (nl2sql.LLM, error) {
	return provider.FromSpec(m.spec(), m.URL)
}

// StoreDSNEnv is the environment variable --store defaults to.
const StoreDSNEnv = "NL2SQL_STORE_DSN"

// Store is the --store, --store-schema and --store-namespace flags: a
// pgvector schema store (retrieve.PGVectorStore) that keeps the index and
// what the engine learnt (Engine.Learn) in a database.
type Store struct {
	DSN       string
	Schema    string
	Namespace string
}

// Register adds --store, --store-schema and --store-namespace to fs.
func (s *Store) Register(fs *flag.FlagSet) {
	fs.StringVar(&s.DSN, "store", "", "pgvector database keeping the index and the learnt knowledge (default $"+StoreDSNEnv+")")
	fs.StringVar(&s.Schema, "store-schema", "nl2sql", "schema of the --store table")
	fs.StringVar(&s.Namespace, "store-namespace", "default", "namespace of this database's documents in the --store table")
}

// Resolve is --store, else $NL2SQL_STORE_DSN; "" for none.
func (s *Store) Resolve() string {
	if s.DSN != "" {
		return s.DSN
	}
	return os.Getenv(StoreDSNEnv)
}

// Open connects to the store's database (checked with a ping) and opens
// the pgvector store for vectors of dim dimensions (the Engine's default
// embedder has 384), creating its table when missing. The caller closes
// the pool; both are nil when no store is named.
func (s *Store) Open(ctx context.Context, dim int) (*retrieve.PGVectorStore, *pgxpool.Pool, error) {
	dsn := s.Resolve()
	if dsn == "" {
		return nil, nil, nil
	}
	pool, err := (&Database{DSN: dsn}).Connect(ctx)
	if err != nil {
		return nil, nil, err
	}
	var opts []retrieve.PGVectorOption
	if s.Schema != "" {
		opts = append(opts, retrieve.WithStoreSchema(s.Schema))
	}
	if s.Namespace != "" {
		opts = append(opts, retrieve.WithNamespace(s.Namespace))
	}
	store, err := retrieve.NewPGVectorStore(ctx, pool, dim, opts...)
	if err != nil {
		pool.Close()
		return nil, nil, err
	}
	return store, pool, nil
}

// Identity is the --role and --set flags: who every read of the command
// runs as (nl2sql.AsRole, nl2sql.Setting). --set takes custom dotted names
// only, checked by Check before any I/O.
type Identity struct {
	Role string
	Sets []string // NAME=VALUE, as given
}

// Register adds --role and --set (repeatable) to fs.
func (id *Identity) Register(fs *flag.FlagSet) {
	fs.StringVar(&id.Role, "role", "", "run every read as this role (SET LOCAL ROLE): its privileges and row-level security policies apply")
	fs.Func("set", "set a custom setting for every read, NAME=VALUE (repeatable; dotted names only, e.g. app.tenant_id=42, read by row-level security policies with current_setting)", func(v string) error {
		id.Sets = append(id.Sets, v)
		return nil
	})
}

// Resolve checks the flags and returns the identity they name: a --set
// without "=", a name that is not a custom dotted one, or a name set
// twice is an error saying which --set.
func (id *Identity) Resolve() (identity.Identity, error) {
	out := identity.Identity{Role: id.Role}
	for _, s := range id.Sets {
		kv, err := identity.ParseSetting(s)
		if err != nil {
			return identity.Identity{}, fmt.Errorf("--set: %s", strings.TrimPrefix(err.Error(), "identity: "))
		}
		out.Settings = append(out.Settings, kv)
	}
	if err := out.Check(); err != nil {
		return identity.Identity{}, fmt.Errorf("--set: %s", strings.TrimPrefix(err.Error(), "identity: "))
	}
	return out, nil
}

// Callers is a server's --identity flag: the config file mapping each
// authenticated caller to its role, settings and scope (identity.Load).
type Callers struct {
	File string
}

// Register adds --identity to fs.
func (c *Callers) Register(fs *flag.FlagSet) {
	fs.StringVar(&c.File, "identity", "", "map each caller (bearer token, or a trusted proxy's header) to a role, settings and scope from this YAML or JSON file; unknown callers get 401 (see docs/deployment.md#identity)")
}

// Load reads --identity's file; nil without the flag. Its errors name the
// file and the line. With a server scope (--scope; "" for none), a
// caller's scope must be it or public: the server reads no other schema.
func (c *Callers) Load(scope string) (*identity.Map, error) {
	if c.File == "" {
		return nil, nil
	}
	m, err := identity.Load(c.File)
	if err != nil || scope == "" {
		return m, err
	}
	for _, name := range m.Callers() {
		if s := m.Caller(name).Scope; s != "" && s != scope && s != "public" {
			return nil, fmt.Errorf("identity: %s: caller %q: scope %q is outside the server's --scope %q", c.File, name, s, scope)
		}
	}
	return m, nil
}
