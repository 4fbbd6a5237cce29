package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql/cliflags"
	"github.com/nl2sqlgo/nl2sql/provision"
)

// roleOutput is the JSON of nl2sql role.
type roleOutput struct {
	Role       string   `json:"role"`
	Database   string   `json:"database"`
	Schemas    []string `json:"schemas"`
	Password   string   `json:"password"` // "none", "scram-sha-256" (hashed here) or "server" (sent as text, hashed by the server)
	Statements []string `json:"statements"`
	Applied    bool     `json:"applied"`
}

func runRole(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("role", stderr)
	var db cliflags.Database
	var scope string
	var asJSON bool
	db.Register(fs, "PostgreSQL connection string, usually an admin's (default $NL2SQL_DSN, then $DATABASE_URL); needed by --apply")
	fs.StringVar(&scope, "scope", "", "grant this schema plus the shared schema public (added to --schema)")
	fs.BoolVar(&asJSON, "json", false, "print machine-readable JSON")
	var r provision.ReaderRole
	var schemas, owners stringsFlag
	fs.StringVar(&r.Name, "name", provision.DefaultReaderName, "role name")
	fs.Var(&schemas, "schema", "schema the role may read (repeatable or comma-separated; default public)")
	fs.StringVar(&r.Password, "password", "", "password (default $NL2SQL_ROLE_PASSWORD, which keeps it out of the process list; none: no password)")
	fs.StringVar(&r.Database, "database", "", "database the role may connect to (default: the --dsn's)")
	fs.IntVar(&r.ConnectionLimit, "connection-limit", provision.DefaultReaderConnectionLimit, "most concurrent connections of the role (-1: no limit)")
	fs.BoolVar(&r.DefaultPrivileges, "default-privileges", false, "also grant SELECT on tables created later in the schemas (by the applying role, or the --default-privileges-for roles); new tables, private ones included, become readable without a new grant")
	fs.Var(&owners, "default-privileges-for", "with --default-privileges: the role(s) whose future tables are granted (repeatable or comma-separated; implies --default-privileges)")
	fs.StringVar(&r.StatementTimeout, "statement-timeout", provision.DefaultReaderStatementTimeout, "the role's statement_timeout (- to leave it out)")
	fs.StringVar(&r.IdleInTransactionTimeout, "idle-timeout", provision.DefaultReaderIdleInTransaction, "the role's idle_in_transaction_session_timeout (- to leave it out)")
	fs.StringVar(&r.WorkMem, "work-mem", provision.DefaultReaderWorkMem, "the role's work_mem (- to leave it out)")
	fs.StringVar(&r.TempFileLimit, "temp-file-limit", provision.DefaultReaderTempFileLimit, "the role's temp_file_limit; only a superuser can set it (- to leave it out)")
	apply := fs.Bool("apply", false, "run the SQL on --dsn (one transaction; an existing role is altered to match) instead of printing it")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: nl2sql role [flags]\n\nPrints the SQL that creates a LOGIN role with SELECT on the chosen schemas and nothing else (read-only sessions, time, memory and temp-file limits); with --apply runs it on --dsn, usually as a superuser. Connect nl2sql as that role.")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("role takes no arguments, got %q", pos)
	}
	for _, s := range schemas {
		r.Schemas = append(r.Schemas, splitNames(s)...)
	}
	r.Schemas = append(r.Schemas, scopeSchemas(scope)...)
	for _, o := range owners {
		r.DefaultPrivilegesFor = append(r.DefaultPrivilegesFor, splitNames(o)...)
	}
	if len(r.DefaultPrivilegesFor) > 0 {
		r.DefaultPrivileges = true
	}
	if r.Password == "" {
		r.Password = os.Getenv("NL2SQL_ROLE_PASSWORD")
	}
	if r.Name == "" {
		return usageErr("--name is empty")
	}
	if r.ConnectionLimit == 0 || r.ConnectionLimit < -1 {
		return usageErr("--connection-limit %d: want a positive number, or -1 for no limit", r.ConnectionLimit)
	}
	if len(r.Schemas) == 0 {
		r.Schemas = []string{"public"}
	}
	r.Schemas = uniq(r.Schemas)

	var stmts []string
	if *apply {
		pool, err := connect(ctx, &db)
		if err != nil {
			return err
		}
		defer pool.Close()
		if r.Database == "" {
			if err := pool.QueryRow(ctx, "SELECT current_database()").Scan(&r.Database); err != nil {
				return &exitError{code: 2, err: err}
			}
		}
		if stmts, err = r.Apply(ctx, pool); err != nil {
			return &exitError{code: 1, err: errors.New(strings.TrimPrefix(err.Error(), "nl2sql: "))}
		}
	} else {
		if r.Database == "" {
			dsn, err := db.Resolve()
			if err != nil {
				return usageErr("no database: pass --database, or --dsn (or set NL2SQL_DSN / DATABASE_URL)")
			}
			cfg, err := pgx.ParseConfig(dsn)
			if err != nil {
				return usageErr("--dsn: %v", err)
			}
			r.Database = cfg.Database
		}
		if stmts, err = r.SQL(); err != nil {
			return usageErr("%v", err)
		}
	}

	pw := r.PasswordMode()
	if asJSON {
		return writeJSON(stdout, roleOutput{Role: r.Name, Database: r.Database, Schemas: r.Schemas, Password: pw, Statements: stmts, Applied: *apply})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "-- Role %s: LOGIN, SELECT on the tables, views and materialized views of schema(s) %s in database %s; nothing else.\n",
		pgx.Identifier{r.Name}.Sanitize(), strings.Join(r.Schemas, ", "), pgx.Identifier{r.Database}.Sanitize())
	switch pw {
	case "none":
		if *apply {
			b.WriteString("-- No password given: a new role has none (it logs in only where pg_hba.conf needs none: peer, cert, trust); an existing role keeps its own.\n")
		} else {
			b.WriteString("-- No password: the role logs in only where pg_hba.conf needs none (peer, cert, trust). Set one with $NL2SQL_ROLE_PASSWORD or --password.\n")
		}
	case "scram-sha-256":
		b.WriteString("-- The password is given as its SCRAM-SHA-256 verifier, computed here: the password itself is not in this SQL.\n")
	default:
		b.WriteString("-- The password is not printable ASCII: it is sent as a literal for the server to hash (with SASLprep), so the server's statement log may show it.\n")
	}
	if r.TempFileLimit != "-" && !*apply {
		b.WriteString("-- temp_file_limit can only be set by a superuser: apply this as one, or leave it out with --temp-file-limit -.\n")
	}
	b.WriteString("-- The role may change its session settings for itself, all but temp_file_limit; nl2sql's executor sets its own (read-only transaction, timeouts) per query anyway.\n")
	if *apply {
		b.WriteString("-- Applied (one transaction):\n")
	} else {
		b.WriteString("-- It fails if the role exists: --apply alters an existing role instead.\nBEGIN;\n")
	}
	for _, s := range stmts {
		b.WriteString(s + ";\n")
	}
	if !*apply {
		b.WriteString("COMMIT;\n")
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}

// splitNames splits a comma-separated flag value, dropping empty items.
func splitNames(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// uniq keeps the first occurrence of each name, in order.
func uniq(s []string) []string {
	var out []string
	for _, v := range s {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
