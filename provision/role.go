package provision

import (
	"context"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// Defaults of ReaderRole.
const (
	DefaultReaderName              = "nl2sql_reader"
	DefaultReaderConnectionLimit   = 20
	DefaultReaderStatementTimeout  = "30s"
	DefaultReaderIdleInTransaction = "1min"
	DefaultReaderWorkMem           = "16MB"
	DefaultReaderTempFileLimit     = "1GB"
)

const (
	scramIterations      = 4096 // PostgreSQL's own default
	scramSaltLen         = 16
	maxIdentifierLen     = 63 // NAMEDATALEN - 1
	redactedPassword     = "'********'"
	readerSettingOmitted = "-"
)

// ReaderRole is a least-privilege PostgreSQL login role for nl2sql: it may
// connect to one database, use the chosen schemas and SELECT from their
// tables, views and materialized views (not their sequences), and nothing
// else: no superuser, CREATEDB, CREATEROLE, REPLICATION or BYPASSRLS, no
// role memberships (NOINHERIT, should per-user roles be granted to it for
// AsRole), no writes, no CREATE. Its session defaults make every
// transaction read-only and bound its time, memory and temporary files.
//
// SQL returns the statements; Apply runs them. Both quote every identifier
// and literal, so names and passwords may hold quotes, spaces or any
// Unicode.
//
// What the role adds to nl2sql's other layers: its privileges are enforced
// by the server whatever SQL reaches it. Its settings are session defaults:
// the role itself can change default_transaction_read_only,
// statement_timeout, idle_in_transaction_session_timeout and work_mem (with
// SET, or ALTER ROLE for itself); only temp_file_limit, which needs a
// superuser to set, binds it. Like every role it also has what PUBLIC has:
// CONNECT and TEMPORARY on databases (TEMPORARY needs a read-write
// transaction, which default_transaction_read_only refuses unless the
// session turns it off), EXECUTE on functions, reading the system catalogs;
// on PostgreSQL 14 and older also CREATE on schema public unless revoked.
// And no privilege governs creating large objects, which PostgreSQL allows
// even in a read-only transaction: lo_creat and lo_from_bytea work for any
// role (nl2sql's validator denies them, its executor rolls back).
type ReaderRole struct {
	// Name of the role (default DefaultReaderName).
	Name string
	// Password, "" for none: the role then logs in only where pg_hba.conf
	// needs no password (peer, cert, trust). A printable-ASCII password is
	// sent as a SCRAM-SHA-256 verifier computed here, so the password itself
	// never reaches the server, its logs or the printed SQL; any other is
	// sent as a literal and hashed by the server (which applies SASLprep to
	// it, as clients do when they log in).
	Password string
	// Schemas the role may read (default "public").
	Schemas []string
	// Database the role may connect to. SQL needs it; Apply defaults it to
	// the database it is connected to, and refuses another one (schema
	// grants apply to the connected database only).
	Database string
	// ConnectionLimit caps the role's concurrent connections (0: default
	// DefaultReaderConnectionLimit; -1: no limit).
	ConnectionLimit int
	// DefaultPrivileges also grants SELECT on tables created later in the
	// schemas (ALTER DEFAULT PRIVILEGES ... GRANT SELECT ON TABLES), by the
	// roles in DefaultPrivilegesFor, or by the role running the SQL when it
	// is empty. New tables then need no new grant, but every new table in
	// those schemas becomes readable, including ones meant to stay private,
	// and the role cannot be dropped before DROP OWNED BY removes those
	// entries. Off by default: re-run SQL or Apply after schema changes.
	DefaultPrivileges    bool
	DefaultPrivilegesFor []string
	// Session defaults (ALTER ROLE ... SET), in PostgreSQL's syntax; "" for
	// the default, "-" to leave a setting out. TempFileLimit can only be set
	// by a superuser: leave it out when a non-superuser applies the SQL.
	StatementTimeout         string // default DefaultReaderStatementTimeout
	IdleInTransactionTimeout string // default DefaultReaderIdleInTransaction
	WorkMem                  string // default DefaultReaderWorkMem
	TempFileLimit            string // default DefaultReaderTempFileLimit
}

// withDefaults returns r with its zero fields set to the defaults.
func (r ReaderRole) withDefaults() ReaderRole {
	if r.Name == "" {
		r.Name = DefaultReaderName
	}
	if len(r.Schemas) == 0 {
		r.Schemas = []string{"public"}
	}
	r.Schemas = dedup(r.Schemas)
	r.DefaultPrivilegesFor = dedup(r.DefaultPrivilegesFor)
	if r.ConnectionLimit == 0 {
		r.ConnectionLimit = DefaultReaderConnectionLimit
	}
	for _, s := range []struct {
		v   *string
		def string
	}{
		{&r.StatementTimeout, DefaultReaderStatementTimeout},
		{&r.IdleInTransactionTimeout, DefaultReaderIdleInTransaction},
		{&r.WorkMem, DefaultReaderWorkMem},
		{&r.TempFileLimit, DefaultReaderTempFileLimit},
	} {
		if *s.v == "" {
			*s.v = s.def
		}
	}
	return r
}

// dedup keeps the first occurrence of each string, in order.
func dedup(s []string) []string {
	var out []string
	for _, v := range s {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

func (r ReaderRole) check() error {
	names := append([]string{r.Name, r.Database}, r.Schemas...)
	names = append(names, r.DefaultPrivilegesFor...)
	for _, n := range names {
		if n == "" {
			return errors.New("nl2sql: role: empty name")
		}
		if len(n) > maxIdentifierLen {
			return fmt.Errorf("nl2sql: role: name %q is longer than %d bytes", n, maxIdentifierLen)
		}
		if strings.ContainsRune(n, 0) {
			return fmt.Errorf("nl2sql: role: name %q holds a NUL byte", n)
		}
	}
	if strings.ContainsRune(r.Password, 0) {
		return errors.New("nl2sql: role: the password holds a NUL byte")
	}
	if r.ConnectionLimit < -1 {
		return fmt.Errorf("nl2sql: role: connection limit %d (want -1 for none, or a positive number)", r.ConnectionLimit)
	}
	for _, v := range []string{r.StatementTimeout, r.IdleInTransactionTimeout, r.WorkMem, r.TempFileLimit} {
		if strings.ContainsRune(v, 0) {
			return errors.New("nl2sql: role: a setting holds a NUL byte")
		}
	}
	return nil
}

// roleAttrs are an existing role's attributes, as pg_roles has them.
type roleAttrs struct {
	super, inherit, createRole, createDB, login, replication, bypassRLS bool
	connLimit                                                           int
}

// SQL returns the statements that create the role and grant it its
// privileges, in order; run them in one transaction. On a role that exists
// already, the CREATE ROLE fails: Apply handles that case.
func (r ReaderRole) SQL() ([]string, error) {
	stmts, _, err := r.withDefaults().statements(nil)
	return stmts, err
}

// statements builds the SQL for a new role (existing nil) or for an
// existing one (only the attributes that differ are altered, and its
// password is kept unless one is given). shown is the same SQL with a
// password sent as plain text redacted.
func (r ReaderRole) statements(existing *roleAttrs) (stmts, shown []string, err error) {
	if r.Database == "" {
		return nil, nil, errors.New("nl2sql: role: no database (set ReaderRole.Database)")
	}
	if err := r.check(); err != nil {
		return nil, nil, err
	}
	role := ident(r.Name)
	add := func(s string) { stmts, shown = append(stmts, s), append(shown, s) }

	var pw, pwShown string
	if r.Password != "" {
		if pw, err = passwordLiteral(r.Password); err != nil {
			return nil, nil, err
		}
		pwShown = pw
		if !scramable(r.Password) {
			pwShown = redactedPassword
		}
	}
	limit := strconv.Itoa(r.ConnectionLimit)
	if existing == nil {
		opts := "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT CONNECTION LIMIT " + limit
		if pw == "" {
			add("CREATE ROLE " + role + " WITH " + opts + " PASSWORD NULL")
		} else {
			stmts = append(stmts, "CREATE ROLE "+role+" WITH "+opts+" PASSWORD "+pw)
			shown = append(shown, "CREATE ROLE "+role+" WITH "+opts+" PASSWORD "+pwShown)
		}
	} else {
		var opts []string
		for _, a := range []struct {
			have, want bool
			yes, no    string
		}{
			{existing.login, true, "LOGIN", "NOLOGIN"},
			{existing.super, false, "SUPERUSER", "NOSUPERUSER"},
			{existing.createDB, false, "CREATEDB", "NOCREATEDB"},
			{existing.createRole, false, "CREATEROLE", "NOCREATEROLE"},
			{existing.replication, false, "REPLICATION", "NOREPLICATION"},
			{existing.bypassRLS, false, "BYPASSRLS", "NOBYPASSRLS"},
			{existing.inherit, false, "INHERIT", "NOINHERIT"},
		} {
			if a.have != a.want {
				if a.want {
					opts = append(opts, a.yes)
				} else {
					opts = append(opts, a.no)
				}
			}
		}
		if existing.connLimit != r.ConnectionLimit {
			opts = append(opts, "CONNECTION LIMIT "+limit)
		}
		alter := "ALTER ROLE " + role + " WITH " + strings.Join(opts, " ")
		switch {
		case pw != "":
			sep := " "
			if len(opts) == 0 {
				sep = ""
			}
			stmts = append(stmts, alter+sep+"PASSWORD "+pw)
			shown = append(shown, alter+sep+"PASSWORD "+pwShown)
		case len(opts) > 0:
			add(alter)
		}
	}
	add("GRANT CONNECT ON DATABASE " + ident(r.Database) + " TO " + role)
	for _, s := range r.Schemas {
		add("GRANT USAGE ON SCHEMA " + ident(s) + " TO " + role)
		add("GRANT SELECT ON ALL TABLES IN SCHEMA " + ident(s) + " TO " + role)
		if r.DefaultPrivileges {
			if len(r.DefaultPrivilegesFor) == 0 {
				add("ALTER DEFAULT PRIVILEGES IN SCHEMA " + ident(s) + " GRANT SELECT ON TABLES TO " + role)
			}
			for _, o := range r.DefaultPrivilegesFor {
				add("ALTER DEFAULT PRIVILEGES FOR ROLE " + ident(o) + " IN SCHEMA " + ident(s) + " GRANT SELECT ON TABLES TO " + role)
			}
		}
	}
	add("ALTER ROLE " + role + " SET default_transaction_read_only = on")
	for _, s := range []struct{ name, value string }{
		{"statement_timeout", r.StatementTimeout},
		{"idle_in_transaction_session_timeout", r.IdleInTransactionTimeout},
		{"work_mem", r.WorkMem},
		{"temp_file_limit", r.TempFileLimit},
	} {
		if s.value != readerSettingOmitted {
			add("ALTER ROLE " + role + " SET " + s.name + " = " + quoteLiteral(s.value))
		}
	}
	return stmts, shown, nil
}

// PasswordMode says how the password reaches the server: "none" (no
// password), "scram-sha-256" (as a verifier computed here) or "server" (as a
// literal the server hashes).
func (r ReaderRole) PasswordMode() string {
	switch {
	case r.Password == "":
		return "none"
	case scramable(r.Password):
		return "scram-sha-256"
	}
	return "server"
}

// Beginner starts transactions; *pgxpool.Pool, *pgx.Conn and pgx.Tx
// satisfy it.
type Beginner interface {
	Begin(ctx context.Context) (pgx.Tx, error)
}

// Apply creates the role, or brings an existing one to the same attributes
// and grants (its password is changed only when Password is set), in one
// transaction on db, which must be connected to Database (default: the
// database it is connected to) as a role allowed to do so: a superuser, or
// for everything but temp_file_limit a role with CREATEROLE that owns or
// holds grant options on the schemas' tables. Running it again is harmless.
//
// Before committing it checks what the role can do, and rolls back with an
// error when it can do more than the reader needs: an existing role that
// kept grants outside the schemas, writes, CREATE or membership in a
// predefined role that reaches server files, programs, other sessions or
// every table (revoke them, or drop the role first), or CREATE that PUBLIC
// holds on a schema (PostgreSQL 14 and older, on public). Memberships in
// other roles, granted for AsRole / WithRole, are kept: NOINHERIT makes
// their privileges apply only after SET ROLE.
//
// It returns the statements run, with a password sent as plain text
// redacted.
func (r ReaderRole) Apply(ctx context.Context, db Beginner) ([]string, error) {
	r = r.withDefaults()
	tx, err := db.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck // a no-op after Commit
	var current string
	if err := tx.QueryRow(ctx, "SELECT current_database()").Scan(&current); err != nil {
		return nil, err
	}
	if r.Database == "" {
		r.Database = current
	} else if r.Database != current {
		return nil, fmt.Errorf("nl2sql: role: connected to database %q, not %q: schema grants apply to the connected database", current, r.Database)
	}
	var existing *roleAttrs
	var a roleAttrs
	var limit int32
	err = tx.QueryRow(ctx, `SELECT rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin, rolreplication, rolbypassrls, rolconnlimit
		FROM pg_catalog.pg_roles WHERE rolname = $1`, r.Name).
		Scan(&a.super, &a.inherit, &a.createRole, &a.createDB, &a.login, &a.replication, &a.bypassRLS, &limit)
	switch {
	case err == nil:
		a.connLimit = int(limit)
		existing = &a
	case !errors.Is(err, pgx.ErrNoRows):
		return nil, err
	}
	stmts, shown, err := r.statements(existing)
	if err != nil {
		return nil, err
	}
	for i, s := range stmts {
		if _, err := tx.Exec(ctx, s); err != nil {
			return nil, fmt.Errorf("nl2sql: role: %s: %w", shown[i], err)
		}
	}
	// Memberships in roles other than the risky ones stay: a NOINHERIT
	// role uses their privileges only after SET ROLE, which the validator
	// refuses and only the executor's AsRole does.
	p, err := ReadPrivileges(ctx, tx, r.Name, nil, r.Schemas)
	if err != nil {
		return nil, fmt.Errorf("nl2sql: role: checking the result: %w", err)
	}
	if found := p.Findings(); len(found) > 0 {
		return nil, fmt.Errorf("nl2sql: role %q can do more than read %s (nothing was changed): %s; revoke that, or drop the role first (DROP OWNED BY %s; DROP ROLE %s)",
			r.Name, strings.Join(r.Schemas, ", "), strings.Join(found, "; "), ident(r.Name), ident(r.Name))
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, err
	}
	return shown, nil
}

func ident(s string) string { return pgx.Identifier{s}.Sanitize() }

// quoteLiteral quotes s as a string literal that reads the same whatever
// standard_conforming_strings is: an E” literal when it holds a backslash.
func quoteLiteral(s string) string {
	q := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	if strings.Contains(s, `\`) {
		q = "E'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", "''") + "'"
	}
	return q
}

// scramable reports whether the password is hashed here: printable ASCII,
// which SASLprep leaves as it is (the server, libpq and pgx all agree on it).
func scramable(pw string) bool {
	for i := 0; i < len(pw); i++ {
		if pw[i] < 0x20 || pw[i] > 0x7e {
			return false
		}
	}
	return true
}

// passwordLiteral is the PASSWORD argument for pw: a SCRAM-SHA-256 verifier
// when pw is printable ASCII, else pw itself as a literal.
func passwordLiteral(pw string) (string, error) {
	if !scramable(pw) {
		return quoteLiteral(pw), nil
	}
	salt := make([]byte, scramSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	v, err := scramVerifier(pw, salt, scramIterations)
	if err != nil {
		return "", err
	}
	return quoteLiteral(v), nil
}

// scramVerifier computes PostgreSQL's stored form of a SCRAM-SHA-256
// password (RFC 5802, RFC 7677): SCRAM-SHA-256$iter:salt$StoredKey:ServerKey.
func scramVerifier(pw string, salt []byte, iter int) (string, error) {
	salted, err := pbkdf2.Key(sha256.New, pw, salt, iter, sha256.Size)
	if err != nil {
		return "", err
	}
	mac := func(msg string) []byte {
		h := hmac.New(sha256.New, salted)
		h.Write([]byte(msg))
		return h.Sum(nil)
	}
	stored := sha256.Sum256(mac("Client Key"))
	b64 := base64.StdEncoding.EncodeToString
	return fmt.Sprintf("SCRAM-SHA-256$%d:%s$%s:%s", iter, b64(salt), b64(stored[:]), b64(mac("Server Key"))), nil
}
