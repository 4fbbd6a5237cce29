package execute

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// attack is an untrusted query trying to write or to leave state behind,
// and what must happen to it when the validator is bypassed: the error class
// the transaction layer returns, or classUnknown when it succeeds and is
// contained by the rollback and the connection check.
type attack struct {
	sql      string
	bypassed class
	state    string // SQLSTATE when bypassed fails
}

var attacks = []attack{
	// Stacked statements: the extended protocol parses exactly one.
	{"SELECT 1; COMMIT; CREATE TABLE pwn()", classRepairable, "42601"},
	{"SELECT 1; COMMIT; INSERT INTO items (id) VALUES (999)", classRepairable, "42601"},
	// Session settings: rolled back with the transaction.
	{"SELECT set_config('search_path', 'evil', false)", classUnknown, ""},
	{"SET search_path = evil", classUnknown, ""},
	{"SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE", classUnknown, ""},
	{"SET TRANSACTION READ WRITE", classUnknown, "25001"},
	// Session-level advisory lock: survives ROLLBACK; released by the executor.
	{"SELECT pg_advisory_lock(1)", classUnknown, ""},
	// Writes: the read-only transaction refuses them.
	// Large objects: PostgreSQL 15 does not refuse creating them in a
	// read-only transaction; the ROLLBACK removes them.
	{"SELECT lo_from_bytea(0, 'x')", classUnknown, ""},
	{"SELECT lo_create(0)", classUnknown, ""},
	{"WITH x AS (INSERT INTO items (id) VALUES (999) RETURNING id) SELECT * FROM x", classPermission, "25006"},
	{"SELECT * INTO pwn2 FROM items", classPermission, "25006"},
	{"CREATE TEMP TABLE pwn3 AS SELECT 1", classPermission, "25006"},
	{"DO $$BEGIN CREATE TABLE pwn4(); END$$", classPermission, "25006"},
	{"UPDATE items SET name = 'pwned'", classPermission, "25006"},
	{"SELECT * FROM items FOR UPDATE", classPermission, "25006"},
	{"COPY (SELECT 1) TO STDOUT", classUnknown, ""},
	// Session state that survives ROLLBACK: the connection is destroyed.
	{"PREPARE pwn AS SELECT 1", classUnknown, ""},
	{"DECLARE pwn CURSOR WITH HOLD FOR SELECT 1", classUnknown, ""},
	// Notifications: transactional, never delivered.
	{"LISTEN pwn", classUnknown, ""},
	{"NOTIFY pwn, 'attack'", classUnknown, ""},
	{"SELECT pg_notify('pwn', 'attack')", classUnknown, ""},
	// Transaction control: COMMIT of an empty read-only transaction commits
	// nothing and cannot be followed by anything.
	{"COMMIT", classUnknown, ""},
}

// notValidated lists attacks too dangerous to run without the validator on
// a superuser connection; they run only through the validator.
var notValidated = []string{
	"SELECT pg_terminate_backend(pid) FROM pg_stat_activity",
	"SELECT pg_sleep(60)",
	"SELECT * FROM pg_authid",
	"SELECT pg_read_file('/etc/passwd')",
	"SELECT nextval('items_id_seq')",
}

// TestAttacksValidated runs the attacks through the executor as a library
// user would: every one is rejected before it reaches the server, and nothing
// persists.
func TestAttacksValidated(t *testing.T) {
	dsn, pool := fixture(t, 2)
	ex := New(pool)
	mustQuery(t, ex, "SELECT 1") // a pooled connection to check at the end
	w := watchNotifications(t, dsn)
	for _, a := range append(sqlOf(attacks), notValidated...) {
		e := queryErr(t, ex, a)
		var ve *validate.Error
		if !errors.Is(e, ErrRejected) || !errors.As(e, &ve) {
			t.Errorf("%s: got %v (class %s), want a validator rejection", a, e, e.class)
		}
	}
	assertNothingPersisted(t, dsn, pool, w)
}

// TestAttacksBypassValidator runs the attacks with the validator switched off
// (test-only): the transaction layer alone — extended protocol, READ ONLY,
// ROLLBACK, the end-of-query session check — contains every one.
func TestAttacksBypassValidator(t *testing.T) {
	dsn, pool := fixture(t, 2)
	ex := New(pool)
	mustQuery(t, ex, "SELECT 1") // a pooled connection to check at the end
	w := watchNotifications(t, dsn)
	admin := connect(t, dsn)
	for _, a := range attacks {
		res, err := ex.Query(ctxT(t), a.sql, unvalidated())
		// Check after each attack, before a later failure destroys the
		// connection that ran it for another reason.
		assertPoolClean(t, admin, pool, a.sql)
		if a.bypassed == classUnknown && a.state == "" {
			if err != nil {
				t.Errorf("%s: %v, want success contained by the transaction", a.sql, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.SQLState != a.state || (a.bypassed != classUnknown && e.class != a.bypassed) {
			t.Errorf("%s: got %v (%+v), want SQLSTATE %s class %s", a.sql, err, res, a.state, a.bypassed)
		}
	}
	assertNothingPersisted(t, dsn, pool, w)
}

func sqlOf(as []attack) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.sql
	}
	return out
}

// watchNotifications listens on channel pwn from a separate connection.
func watchNotifications(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	c := connect(t, dsn)
	if _, err := c.Exec(ctxT(t), "LISTEN pwn"); err != nil {
		t.Fatal(err)
	}
	return c
}

// assertNothingPersisted checks, from separate connections, that no attack
// left a trace: no table, no row, no large object, no advisory lock, no
// notification, and every pooled connection has its own settings and no
// prepared statement, cursor or LISTEN.
func assertNothingPersisted(t *testing.T, dsn string, pool *pgxpool.Pool, listener *pgx.Conn) {
	t.Helper()
	admin := connect(t, dsn)
	if n := scalar[int](t, admin, "SELECT count(*) FROM pg_class WHERE relname LIKE 'pwn%'"); n != 0 {
		t.Errorf("%d relations named pwn*", n)
	}
	if n := scalar[int](t, admin, "SELECT count(*) FROM items WHERE id = 999 OR name = 'pwned'"); n != 0 {
		t.Errorf("%d rows written to items", n)
	}
	if n := scalar[int](t, admin, "SELECT count(*) FROM pg_largeobject_metadata"); n != 0 {
		t.Errorf("%d large objects", n)
	}
	// Notifications are delivered in commit order: if any attack had
	// committed one, it would arrive before this sentinel.
	if _, err := admin.Exec(ctxT(t), "NOTIFY pwn, 'sentinel'"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n, err := listener.WaitForNotification(ctx)
	if err != nil || n.Payload != "sentinel" {
		t.Errorf("first notification %+v (%v), want the sentinel", n, err)
	}
	assertPoolClean(t, admin, pool, "all attacks")
}

// assertPoolClean checks that no advisory lock is held in the database and
// that every idle pooled connection has its own settings and no prepared
// statement, cursor or LISTEN.
func assertPoolClean(t *testing.T, admin *pgx.Conn, pool *pgxpool.Pool, after string) {
	t.Helper()
	// A destroyed backend releases its locks as it exits: wait for that.
	waitFor(t, "no advisory lock held after "+after, func() bool {
		return scalar[int](t, admin, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'
			AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`) == 0
	})
	// No idle connection means the one used was destroyed: nothing to check.
	conns := pool.AcquireAllIdle(ctxT(t))
	for _, c := range conns {
		got := scalar[string](t, c, `SELECT current_setting('search_path') || '|' || current_setting('transaction_read_only')
			|| '|' || current_setting('default_transaction_read_only')
			|| '|' || (SELECT count(*) FROM pg_prepared_statements WHERE from_sql)
			|| '|' || (SELECT count(*) FROM pg_cursors WHERE name <> '') || '|' || (SELECT count(*) FROM pg_listening_channels())`)
		if want := `"$user", public|off|off|0|0|0`; got != want {
			t.Errorf("after %s: pooled connection state %q, want %q", after, got, want)
		}
		c.Release()
	}
}

// TestStandardStrings runs a query whose meaning depends on how backslashes
// in string literals are read, on a pool whose sessions set
// standard_conforming_strings off. The validator reads 'x\' as a complete
// literal (two literals, no table); a server reading backslash escapes would
// see one literal and then FROM secret. The executor pins the setting on, so
// the server reads the text as the validator did.
func TestStandardStrings(t *testing.T) {
	dsn, _ := fixture(t, 0)
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["standard_conforming_strings"] = "off"
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if got := scalar[string](t, pool, "SHOW standard_conforming_strings"); got != "off" {
		t.Fatalf("session standard_conforming_strings = %s, want off", got)
	}
	sql := `SELECT 'x\', ' FROM secret -- '`
	// The threat is real: read raw in this session, the text is one
	// literal from secret.
	if got := scalar[string](t, pool, sql); got != "x', " {
		t.Fatalf("raw read under standard_conforming_strings=off: %q, want \"x', \"", got)
	}
	ex := New(pool, WithValidateOptions(validate.WithTables(validate.Table{Schema: "public", Name: "items"})))
	res := mustQuery(t, ex, sql)
	if len(res.Columns) != 2 || res.RowCount != 1 || res.Rows[0][0] != `x\` || res.Rows[0][1] != ` FROM secret -- ` {
		t.Fatalf("got columns %v rows %v, want the two literals of the validated reading", res.Columns, res.Rows)
	}
	// And through EXPLAIN: the plan scans no relation (the verbose plan
	// prints the literal ' FROM secret -- ' among its outputs).
	r := validate.New(validate.WithTables(validate.Table{Schema: "public", Name: "items"})).
		Explain(ctxT(t), pool, []string{sql})[0]
	if r.Err != nil || strings.Contains(string(r.Plan), `"Relation Name"`) || !strings.Contains(string(r.Plan), "FROM secret --") {
		t.Fatalf("EXPLAIN: err %v, plan %s", r.Err, r.Plan)
	}
}
