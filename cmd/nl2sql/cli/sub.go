package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/cliflags"
	"github.com/nl2sqlgo/nl2sql/identity"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// sub is the start every subcommand shares: its flag set with the common
// flags (--dsn, --scope, --json, --index, --store; --jsonl, --evidence and
// --workload for those that take them), parsing, the connection and the
// engine. A command adds its own flags to fs, then calls parseInput (or
// parse), open or start (deferring close), and serve with how one input
// becomes one output (or batch, when it only has a batch mode).
type sub struct {
	name     string
	fs       *flag.FlagSet
	db       cliflags.Database
	scope    string
	json     bool
	index    string
	jsonl    string
	batchIn  io.Reader // the batch's input when not read from --jsonl (learn --csv)
	evidence string
	store    cliflags.Store
	workload string
	semantic string // --semantic FILE (or $NL2SQL_SEMANTIC)
	// calibrator is --calibrator (calibratorFlag).
	calibrator string
	// ident is --role and --set (identityFlags); who is what they
	// resolve to, the identity of every read the command makes.
	ident   *cliflags.Identity
	who     identity.Identity
	stdout  io.Writer
	stderr  io.Writer
	pool    *pgxpool.Pool
	storeDB *pgxpool.Pool
}

// newSub is command name's flag set with the common flags; usage is its
// help above the flags.
func newSub(name, usage string, stdout, stderr io.Writer) *sub {
	s := &sub{name: name, stdout: stdout, stderr: stderr}
	s.fs = newFlagSet(name, stderr)
	s.fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		s.fs.PrintDefaults()
	}
	s.db.Register(s.fs, "")
	s.fs.StringVar(&s.scope, "scope", "", "restrict to this schema plus the shared schema public; also pins search_path")
	s.fs.BoolVar(&s.json, "json", false, "print machine-readable JSON")
	s.fs.StringVar(&s.index, "index", "", "use an index saved by 'nl2sql index' (default: introspect and index in memory)")
	s.store.Register(s.fs)
	if !strings.HasPrefix(name, "semantic") { // semantic check FILE names its own
		s.fs.StringVar(&s.semantic, "semantic", os.Getenv("NL2SQL_SEMANTIC"), "a semantic model FILE (definitions, verified questions; default $NL2SQL_SEMANTIC)")
	}
	return s
}

// workloadFlag adds --workload FILE: what 'nl2sql learn --workload --out
// FILE' saved, given to the engine (nl2sql.WithWorkload).
func (s *sub) workloadFlag() {
	s.fs.StringVar(&s.workload, "workload", "", "use the workload knowledge saved by 'nl2sql learn --workload --out FILE' (join edges, table usage)")
}

// identityFlags adds --role and --set: every read of the command (the
// EXPLAIN of candidates, runs, value lookups) runs as that role with those
// settings, checked when the flags are parsed, before any I/O.
func (s *sub) identityFlags() {
	s.ident = &cliflags.Identity{}
	s.ident.Register(s.fs)
}

// askOpts are the options of one request of the command: evidence and
// scope (askOpts), then the identity of --role and --set.
func (s *sub) askOpts(evidence, scope string) []nl2sql.AskOption {
	return append(askOpts(evidence, scope), s.who.AskOptions()...)
}

// batchFlag adds --jsonl; help names the fields a line holds.
func (s *sub) batchFlag(help string) {
	s.fs.StringVar(&s.jsonl, "jsonl", "", help)
}

// evidenceFlag adds --evidence.
func (s *sub) evidenceFlag(help string) {
	s.fs.StringVar(&s.evidence, "evidence", "", help)
}

// parse parses the flags and returns the positional arguments.
func (s *sub) parse(args []string) ([]string, error) {
	pos, err := parse(s.fs, args)
	if err == nil && s.ident != nil {
		if s.who, err = s.ident.Resolve(); err != nil {
			return nil, usageErr("%v", err)
		}
	}
	return pos, err
}

// What the positional arguments of a command are.
type inputKind int

const (
	questionInput inputKind = iota // a QUESTION
	sqlInput                       // SQL, or - for stdin
)

// parseInput parses the flags and returns the single input of the command
// line: the question or SQL of the positional arguments, --evidence and
// --scope. The question or SQL is required unless --jsonl is given.
func (s *sub) parseInput(args []string, kind inputKind) (batchInput, error) {
	pos, err := s.parse(args)
	if err != nil {
		return batchInput{}, err
	}
	in := batchInput{Evidence: s.evidence, Scope: s.scope}
	if kind == sqlInput {
		in.SQL, err = sqlArg(pos, s.jsonl, s.name)
	} else {
		in.Question, err = questionArg(pos, s.jsonl, s.name)
	}
	return in, err
}

// start is parseInput and open, for a command without a model.
func (s *sub) start(ctx context.Context, args []string, kind inputKind) (batchInput, *nl2sql.Engine, error) {
	in, err := s.parseInput(args, kind)
	if err != nil {
		return in, nil, err
	}
	eng, err := s.open(ctx, nil)
	return in, eng, err
}

// connect opens a pool on --dsn (or $NL2SQL_DSN / $DATABASE_URL) and pings
// it: no database or a failed ping is exit 2. The caller closes the pool.
func connect(ctx context.Context, db *cliflags.Database) (*pgxpool.Pool, error) {
	pool, err := db.Connect(ctx)
	if err != nil {
		return nil, &exitError{code: 2, err: err}
	}
	return pool, nil
}

// connect is connect on the command's --dsn; close closes the pool.
func (s *sub) connect(ctx context.Context) (*pgxpool.Pool, error) {
	pool, err := connect(ctx, &s.db)
	s.pool = pool
	return pool, err
}

// close closes the pool, if one was opened.
func (s *sub) close() {
	if s.pool != nil {
		s.pool.Close()
	}
	if s.storeDB != nil {
		s.storeDB.Close()
	}
}

// open connects and prepares an Engine for the common flags (and model, nil
// for none), drawing a progress line on stderr when it is a terminal. The
// caller defers close.
func (s *sub) open(ctx context.Context, model nl2sql.LLM, opts ...nl2sql.Option) (*nl2sql.Engine, error) {
	pool, err := s.connect(ctx)
	if err != nil {
		return nil, err
	}
	eng, err := s.engine(ctx, pool, model, opts)
	if err != nil {
		s.close()
	}
	return eng, err
}

func (s *sub) engine(ctx context.Context, pool *pgxpool.Pool, model nl2sql.LLM, opts []nl2sql.Option) (*nl2sql.Engine, error) {
	base := []nl2sql.Option{nl2sql.WithLLM(model)}
	where, err := s.storeOptions(ctx)
	if err != nil {
		return nil, err
	}
	base = append(base, where...)
	if co, err := s.calibratorOption(); err != nil {
		return nil, err
	} else if co != nil {
		base = append(base, co)
	}
	if s.scope != "" {
		base = append(base, nl2sql.WithScope(s.scope))
	}
	if s.semantic != "" {
		m, err := semantic.Load(s.semantic) // errors name the file and line
		if err != nil {
			return nil, &exitError{code: 2, err: err}
		}
		base = append(base, nl2sql.WithSemantic(m))
	}
	if names := s.who.Names(); len(names) > 0 {
		base = append(base, nl2sql.WithSettings(names...)) // the policies reading them pass the plan check
	}
	if isTerminal(s.stderr) {
		base = append(base, nl2sql.WithProgress(prepareBar(s.stderr)))
	}
	eng, err := nl2sql.New(pool, append(base, opts...)...)
	if err == nil {
		err = eng.Prepare(ctx)
	}
	if err != nil {
		return nil, &exitError{code: 2, err: err}
	}
	return eng, nil
}

// storeOptions are the options of where the index (and the knowledge)
// lives: --index FILE, --store DSN (or $NL2SQL_STORE_DSN), else none (in
// memory); and of --workload FILE.
func (s *sub) storeOptions(ctx context.Context) ([]nl2sql.Option, error) {
	var out []nl2sql.Option
	if s.workload != "" {
		k, err := readWorkload(s.workload)
		if err != nil {
			return nil, err
		}
		out = append(out, nl2sql.WithWorkload(k))
	}
	if s.index != "" && s.store.Resolve() != "" {
		return nil, usageErr("--index and --store name two places for the index: pass one")
	}
	if s.index != "" {
		// Bound to the file: a Learn or Forget writes it back, merged with
		// what other writers stored since.
		iopts, err := nl2sql.LoadIndexFile(ctx, s.index)
		if err != nil {
			return nil, usageErr("--index %s: %v", s.index, err)
		}
		return append(out, iopts...), nil
	}
	store, db, err := s.store.Open(ctx, defaultDim)
	if err != nil {
		return nil, &exitError{code: 2, err: fmt.Errorf("--store: %w", err)}
	}
	if store != nil {
		s.storeDB = db
		out = append(out, nl2sql.WithStore(store))
	}
	return out, nil
}

// defaultDim is the dimension of the retrieval's default embedder (the
// Engine's without WithEmbedder), the one --store's vectors have.
var defaultDim = retrieve.NewHashEmbedder(0).Dimension()

// serve is the command's work on its inputs: with --jsonl, one on every
// line, one output line each (see batch); else one on the command line's
// input in, its output and error handed to show.
func serve[T any](ctx context.Context, s *sub, in batchInput, one func(context.Context, batchInput) (T, error), show func(T, error) error) error {
	if s.jsonl != "" {
		return s.batch(ctx, func(ctx context.Context, in batchInput) (any, error) { return one(ctx, in) })
	}
	return show(one(ctx, in))
}

// printJSON prints out as indented JSON, then returns exit status 1 when
// negative (a negative answer: the JSON says why).
func (s *sub) printJSON(out any, negative bool) error {
	if err := writeJSON(s.stdout, out); err != nil {
		return err
	}
	if negative {
		return &exitError{code: 1}
	}
	return nil
}

// scopeSchemas is the schema filter a --scope implies.
func scopeSchemas(scope string) []string {
	if scope == "" {
		return nil
	}
	return searchPath(scope)
}

// searchPath is the search path a scope implies.
func searchPath(scope string) []string {
	if scope == "" || scope == "public" {
		return []string{"public"}
	}
	return []string{scope, "public"}
}

// modelFlags adds --llm, --llm-url and --timeout to the command.
func (s *sub) modelFlags() *cliflags.Model {
	m := &cliflags.Model{}
	m.Register(s.fs)
	return m
}

// resolveLLM builds the model named by --llm (or $NL2SQL_LLM); nil for none.
func resolveLLM(m *cliflags.Model) (nl2sql.LLM, error) {
	model, err := m.Resolve()
	if err != nil {
		return nil, usageErr("--llm: %v", err)
	}
	return model, nil
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
