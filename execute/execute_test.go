package execute

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/validate"
)

func TestValues(t *testing.T) {
	_, pool := fixture(t, 0)
	ex := New(pool)
	res := mustQuery(t, ex, `SELECT id, name, price, created, tags, data, blob, day, ratio, NULL::int AS nothing,
		'NaN'::numeric AS nan, interval '1 day 2 hours' AS span, m, 12345678901234567890.5::numeric AS big,
		'infinity'::timestamptz AS inf, ARRAY[1.5, 2]::numeric[] AS nums, ARRAY[date '2024-02-29'] AS days,
		ARRAY[[1, 2], [3, 4]] AS grid, int4range(1, 5) AS r
		FROM items, moods WHERE id = 1`)
	wantCols := []string{"int4", "text", "numeric", "timestamptz", "_text", "jsonb", "bytea", "date", "float8", "int4",
		"numeric", "interval", "mood", "numeric", "timestamptz", "_numeric", "_date", "_int4", "int4range"}
	var gotCols []string
	for _, c := range res.Columns {
		gotCols = append(gotCols, c.Type)
	}
	if !reflect.DeepEqual(gotCols, wantCols) {
		t.Errorf("column types %v, want %v", gotCols, wantCols)
	}
	if res.RowCount != 1 || len(res.Rows) != 1 {
		t.Fatalf("rows %d, want 1", res.RowCount)
	}
	want := []any{int64(1), "item 1", json.Number("1.25"), time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), []any{"a", "b"},
		json.RawMessage(`{"k": 1}`), []byte{1, 2}, "2024-01-02", 0.25, nil, "NaN", "1 day 02:00:00", "happy",
		"12345678901234567890.5", "infinity", []any{json.Number("1.5"), json.Number("2")},
		[]any{"2024-02-29"}, []any{[]any{int64(1), int64(2)}, []any{int64(3), int64(4)}}, "[1,5)"}
	for i, w := range want {
		got := res.Rows[0][i]
		if tm, ok := got.(time.Time); ok {
			if !tm.Equal(w.(time.Time)) {
				t.Errorf("%s = %v, want %v", res.Columns[i].Name, got, w)
			}
			continue
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s = %#v (%T), want %#v (%T)", res.Columns[i].Name, got, got, w, w)
		}
	}
	if _, err := json.Marshal(res.Rows); err != nil {
		t.Errorf("rows do not marshal to JSON: %v", err)
	}
	if !strings.Contains(res.SQL, "LIMIT 1001") {
		t.Errorf("ran %q, want the validator's rewrite with LIMIT 1001 (row cap + 1)", res.SQL)
	}
	if res.Validation == nil || len(res.Validation.Tables) != 2 {
		t.Errorf("validation report %+v, want the two tables read", res.Validation)
	}
}

func TestScope(t *testing.T) {
	_, pool := fixture(t, 0)
	ex := New(pool)
	for _, tc := range []struct {
		scope []string
		want  string
	}{
		{[]string{"div_01", "public"}, "one"},
		{[]string{"div_02"}, "two"},
		{[]string{`Weird "Name", x`}, "weird"},
	} {
		res := mustQuery(t, ex, "SELECT v FROM t", Scope(tc.scope...))
		if res.RowCount != 1 || res.Rows[0][0] != tc.want {
			t.Errorf("scope %q: rows %v, want %q", tc.scope, res.Rows, tc.want)
		}
	}
	// Default scope public: t does not exist there; the server says so.
	e := queryErr(t, ex, "SELECT v FROM t")
	if !errors.Is(e, ErrRepairable) || e.SQLState != "42P01" || e.Position == 0 || e.Op != "query" {
		t.Errorf("got %+v, want a repairable 42P01 with a position", e)
	}
	for _, bad := range [][]string{{""}, {strings.Repeat("s", 64)}, {"a\x00b"}} {
		e := queryErr(t, ex, "SELECT 1", Scope(bad...))
		if e.class != classUnknown || e.Op != "options" {
			t.Errorf("scope %q: got %+v, want an options error", bad, e)
		}
	}
}

// TestSessionPinned bypasses the validator (current_setting is denied) to
// look at the transaction the query runs in, then checks the pooled
// connection is back to its own settings.
func TestSessionPinned(t *testing.T) {
	_, pool := fixture(t, 1)
	ex := New(pool, WithStatementTimeout(7*time.Second), WithLockTimeout(3*time.Second),
		WithIdleInTransactionTimeout(11*time.Second))
	res := mustQuery(t, ex, `SELECT current_setting('search_path'), current_setting('statement_timeout'),
		current_setting('lock_timeout'), current_setting('idle_in_transaction_session_timeout'),
		current_setting('transaction_read_only'), current_setting('client_connection_check_interval')`,
		Scope("div_01", "public"), unvalidated())
	want := []any{`"div_01", "public", pg_temp`, "7s", "3s", "11s", "on", "1s"}
	if !reflect.DeepEqual(res.Rows[0], want) {
		t.Errorf("settings in the query's transaction %v, want %v", res.Rows[0], want)
	}
	after := scalar[string](t, pool, "SELECT current_setting('search_path') || ' ' || current_setting('statement_timeout')")
	if after != `"$user", public 0` {
		t.Errorf("pooled connection after the query: %q, want the defaults", after)
	}
}

func TestTruncateRows(t *testing.T) {
	dsn, pool := fixture(t, 1)
	ex := New(pool)
	pid := backendPID(t, pool)
	res := mustQuery(t, ex, "SELECT id FROM items ORDER BY id", MaxRows(10))
	if res.RowCount != 10 || !res.Truncated || res.TruncatedBy != CapRows || !strings.Contains(res.TruncateReason, "row cap") {
		t.Errorf("rows %d truncated %v (%q), want 10 rows truncated at the row cap", res.RowCount, res.Truncated, res.TruncateReason)
	}
	if !strings.Contains(res.SQL, "LIMIT 11") {
		t.Errorf("ran %q, want LIMIT 11", res.SQL)
	}
	if got := backendPID(t, pool); got != pid {
		t.Errorf("connection replaced (pid %d -> %d): a LIMIT-ended result needs no stop", pid, got)
	}
	res = mustQuery(t, ex, "SELECT id FROM items", MaxRows(50))
	if res.RowCount != 50 || res.Truncated {
		t.Errorf("exactly the cap: rows %d truncated %v, want 50, false", res.RowCount, res.Truncated)
	}
	// Without the validator's LIMIT the stream goes on: reading stops, the
	// server query is cancelled and the connection discarded.
	res = mustQuery(t, ex, "SELECT generate_series(1, 1000000000)", MaxRows(5), unvalidated())
	if res.RowCount != 5 || !res.Truncated {
		t.Errorf("endless stream: rows %d truncated %v, want 5, true", res.RowCount, res.Truncated)
	}
	if got := backendPID(t, pool); got == pid {
		t.Errorf("connection %d reused after a stream was cut", pid)
	}
	admin := connect(t, dsn)
	waitFor(t, "the cut query to stop on the server", func() bool {
		return scalar[int](t, admin, "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%1000000000%' AND pid <> pg_backend_pid()") == 0
	})
}

func TestTruncateBytes(t *testing.T) {
	_, pool := fixture(t, 0)
	ex := New(pool, MaxBytes(5000))
	res := mustQuery(t, ex, "SELECT repeat('x', 1000) FROM items")
	if res.RowCount != 5 || !res.Truncated || res.TruncatedBy != CapBytes || !strings.Contains(res.TruncateReason, "byte cap") || res.Bytes != 5000 {
		t.Errorf("rows %d bytes %d truncated %v (%q), want 5 rows, 5000 bytes, byte cap", res.RowCount, res.Bytes, res.Truncated, res.TruncateReason)
	}
	res = mustQuery(t, ex, "SELECT repeat('x', 1000) FROM items", MaxBytes(100000))
	if res.RowCount != 50 || res.Truncated {
		t.Errorf("per-query cap: rows %d truncated %v, want 50, false", res.RowCount, res.Truncated)
	}
}

// TestRollbackAlways proves the transaction is rolled back, not committed: a
// session-level setting made inside it (allowed in a read-only transaction)
// is gone on the same, reused connection. The validator is bypassed because
// it would reject set_config.
func TestRollbackAlways(t *testing.T) {
	_, pool := fixture(t, 1)
	ex := New(pool)
	pid := backendPID(t, pool)
	mustQuery(t, ex, "SELECT set_config('application_name', 'pwned', false)", unvalidated())
	if got := backendPID(t, pool); got != pid {
		t.Fatalf("connection replaced (pid %d -> %d); this test needs it reused", pid, got)
	}
	if got := scalar[string](t, pool, "SHOW application_name"); got == "pwned" {
		t.Error("session setting survived: the transaction was committed")
	}
	res := mustQuery(t, ex, "SHOW transaction_read_only", unvalidated())
	if res.Rows[0][0] != "on" {
		t.Errorf("transaction_read_only = %v, want on", res.Rows[0][0])
	}
	e := queryErr(t, ex, "CREATE TEMP TABLE tmp_x (i int)", unvalidated())
	if !errors.Is(e, ErrPermission) || e.SQLState != "25006" {
		t.Errorf("temp table: %v, want 25006 read-only", e)
	}
}

func TestRejected(t *testing.T) {
	_, pool := fixture(t, 0)
	ex := New(pool, WithValidateOptions(validate.WithTables(validate.Table{Name: "items"})))
	e := queryErr(t, ex, "SELECT s FROM secret")
	var ve *validate.Error
	if !errors.Is(e, ErrRejected) || !errors.Is(e, validate.ErrRejected) || !errors.As(e, &ve) || !ve.Has(validate.CodeTableNotAllowed) {
		t.Errorf("got %v, want a rejection carrying V012", e)
	}
	// The step is said once: the validator's message names it.
	if msg := e.Error(); strings.Count(msg, "validate") != 1 || !strings.HasPrefix(msg, "execute: validate: query rejected: V012: ") {
		t.Errorf("message %q, want \"execute: validate: query rejected: V012: ...\"", msg)
	}
	mustQuery(t, ex, "SELECT id FROM items LIMIT 1")
	// Per-query options add to the executor's.
	mustQuery(t, ex, "SELECT s FROM secret", ValidateOptions(validate.WithTables(validate.Table{Name: "secret"})))
}

func TestErrorClasses(t *testing.T) {
	_, pool := fixture(t, 0)
	ex := New(pool)
	for _, tc := range []struct {
		sql   string
		state string
		is    error
	}{
		{"SELECT nope FROM items", "42703", ErrRepairable},
		{"SELECT 1 / 0", "22012", ErrRepairable},
		{"SELECT 'x'::int", "22P02", ErrRepairable},
		{"SELECT (SELECT id FROM items)", "21000", ErrRepairable},
	} {
		e := queryErr(t, ex, tc.sql)
		if e.SQLState != tc.state || !errors.Is(e, tc.is) || e.Message == "" {
			t.Errorf("%s: got %s %v (class %s), want %s", tc.sql, e.SQLState, e, e.class, tc.state)
		}
	}
}

func BenchmarkQuery(b *testing.B) {
	_, pool := fixture(b, 0)
	ex := New(pool)
	ctx := ctxT(b)
	b.ReportAllocs()
	for b.Loop() {
		res, err := ex.Query(ctx, "SELECT id, name, price FROM items WHERE id < 10 ORDER BY id")
		if err != nil || res.RowCount != 9 {
			b.Fatal(err)
		}
	}
}

func BenchmarkQueryUnvalidated(b *testing.B) {
	_, pool := fixture(b, 0)
	ex := New(pool)
	ctx := ctxT(b)
	for b.Loop() {
		if _, err := ex.Query(ctx, "SELECT id, name, price FROM items WHERE id < 10 ORDER BY id LIMIT 1001", unvalidated()); err != nil {
			b.Fatal(err)
		}
	}
}

func TestConcurrent(t *testing.T) {
	_, pool := fixture(t, 4)
	ex := New(pool)
	scopes := map[string]string{"div_01": "one", "div_02": "two"}
	var wg sync.WaitGroup
	errs := make(chan error, 80)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 10 {
				schema := []string{"div_01", "div_02"}[(i+j)%2]
				res, err := ex.Query(ctxT(t), "SELECT v FROM t", Scope(schema), MaxRows(1+j))
				if err != nil {
					errs <- err
					continue
				}
				if res.Rows[0][0] != scopes[schema] || !strings.Contains(res.SQL, fmt.Sprintf("LIMIT %d", j+2)) {
					errs <- fmt.Errorf("scope %s cap %d: %v from %q", schema, j+1, res.Rows, res.SQL)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
