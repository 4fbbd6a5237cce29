package execute

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestArgs: a template runs with its values as parameters, typed as the
// literals the validator judged (an enum compared with a string, a date,
// an int), pinned along the scope's path (the literal found where pinning
// moved it); a value is data, never SQL; and what Args does not take is
// refused before anything runs.
func TestArgs(t *testing.T) {
	_, pool := fixture(t, 0)
	ex := New(pool, MaxRows(10))
	day := time.Date(2024, 1, 10, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		sql  string
		args []any
		opts []QueryOption
		want string
	}{
		{"SELECT id, name FROM items WHERE id <= $1 AND name <> $2 AND day >= $3 ORDER BY id", []any{12, "item 10", day}, nil, "[[9 item 9] [11 item 11] [12 item 12]]"},
		{"SELECT count(*) FROM moods WHERE m = $1", []any{"happy"}, nil, "[[1]]"},
		{"SELECT count(*) FROM moods WHERE m = $1::mood AND $1 <> 'x'", []any{"sad"}, nil, "[[0]]"},
		{"SELECT v FROM t WHERE v = $1", []any{"two"}, []QueryOption{Scope("div_02", "public")}, "[[two]]"},
		{"SELECT id FROM items WHERE name = $1", []any{"x' OR '1'='1"}, nil, "[]"},
		{"SELECT id FROM items WHERE name = $1", []any{"item 1'; SELECT 1 --"}, nil, "[]"},
		{"SELECT $$ $1 $$ AS s, $1::int + 1 AS n", []any{41}, nil, "[[ $1  42]]"},
		{"SELECT id FROM items ORDER BY id LIMIT $1;", []any{3}, nil, "[[1] [2] [3]]"},
		// Every place a value goes: a CTE, VALUES, a sublink, LATERAL, a window frame.
		{"WITH c AS (SELECT id FROM items WHERE id <= $1) SELECT count(*) FROM c", []any{5}, nil, "[[5]]"},
		{"SELECT v FROM (VALUES ($1), ('b')) AS x(v) ORDER BY v", []any{"a"}, nil, "[[a] [b]]"},
		{"SELECT count(*) FROM items WHERE id IN (SELECT id FROM items WHERE id < $1)", []any{3}, nil, "[[2]]"},
		{"SELECT count(*) FROM items i, LATERAL (SELECT i.id WHERE i.id > $1) l", []any{45}, nil, "[[5]]"},
		{"SELECT sum(id) OVER (ORDER BY id ROWS BETWEEN $1 PRECEDING AND CURRENT ROW) FROM items ORDER BY id LIMIT 3", []any{1}, nil, "[[1] [3] [5]]"},
		{"SELECT count(*) FROM pg_catalog.generate_series(1, $1) g", []any{4}, nil, "[[4]]"},
	} {
		res := mustQuery(t, ex, c.sql, append(c.opts, Args(c.args...))...)
		if got := fmt.Sprint(res.Rows); got != c.want {
			t.Errorf("%s %v: %s, want %s", c.sql, c.args, got, c.want)
		}
	}
	for _, c := range []struct {
		sql  string
		args []any
		code string // the validator's, when it decides
	}{
		{"SELECT id FROM items WHERE id = $2", []any{1}, ""},           // no argument
		{"SELECT id FROM items WHERE id = $1", []any{1, 2}, ""},        // unused
		{"SELECT id FROM items WHERE name = '$1'", []any{"x"}, ""},     // not a parameter: unused
		{"SELECT id FROM items WHERE name = U&\"$1\"", []any{"x"}, ""}, // a quoted name
		{"SELECT id FROM items /* $1 */ WHERE id = 1", []any{1}, ""},   // a comment
		{"SELECT E'\\' $1' AS s", []any{1}, ""},                        // an escaped quote
		{"SELECT $q$ $1 $q$ AS s", []any{1}, ""},                       // a dollar quote
		{"WITH c AS (SELECT pg_sleep($1)) SELECT * FROM c", []any{1}, validate.CodeFuncDenied},
		{"SELECT 1 FROM items WHERE id = (SELECT $1 FROM pg_catalog.pg_user LIMIT 1)", []any{1}, validate.CodeSystemCatalog},
		{"SELECT id FROM items WHERE ratio = $1", []any{0.5}, ""},                                    // a float
		{"SELECT id FROM items WHERE id = $1", []any{-1}, ""},                                        // a negative int
		{"SELECT id FROM items WHERE name = $1", []any{"a\x00b"}, ""},                                // NUL
		{"SELECT pg_sleep($1)", []any{1}, validate.CodeFuncDenied},                                   // judged as inlined
		{"SELECT id FROM items ORDER BY id LIMIT $1", []any{1000}, ""},                               // rewritten LIMIT
		{"SELECT id FROM pg_catalog.pg_authid WHERE oid = $1", []any{1}, validate.CodeSystemCatalog}, // the policy still decides
	} {
		e := queryErr(t, ex, c.sql, Args(c.args...))
		if !errors.Is(e, ErrRejected) {
			t.Errorf("%s %v: %v, want a refusal", c.sql, c.args, e)
			continue
		}
		var ve *validate.Error
		if c.code != "" && (!errors.As(e, &ve) || !ve.Has(c.code)) {
			t.Errorf("%s %v: %v, want %s", c.sql, c.args, e, c.code)
		}
	}
	if e := queryErr(t, ex, "SELECT 1 WHERE 1 = $1", Args(1), unvalidated()); e.Op != "options" {
		t.Errorf("Args without the validator: %v", e)
	}
}

// TestArgsPrepared: what is prepared is the template, each use of a value
// its own parameter, and the literal text the validator judged is gone
// from it; a literal not where the checked text has it fails closed.
func TestArgsPrepared(t *testing.T) {
	b, err := bind(" SELECT a FROM t WHERE b = $2 AND c = $1 AND d = $2 ; ", []any{"O'Brien", 2024})
	if err != nil {
		t.Fatal(err)
	}
	if want := "SELECT a FROM t WHERE b = 2024 AND c = 'O''Brien' AND d = 2024"; b.inlined != want {
		t.Errorf("inlined %q, want %q", b.inlined, want)
	}
	got, err := b.prepared(b.inlined+" LIMIT 11", nil)
	if want := "SELECT a FROM t WHERE b = $1 AND c = $2 AND d = $3 LIMIT 11"; err != nil || got != want {
		t.Errorf("prepared %q, %v; want %q", got, err, want)
	}
	if fmt.Sprint(b.oids) != "[23 0 23]" || fmt.Sprintf("%s", b.values) != "[2024 O'Brien 2024]" {
		t.Errorf("oids %v values %s", b.oids, b.values)
	}
	if _, err := b.prepared("SELECT a FROM t WHERE b = 2025 AND c = 'O''Brien' AND d = 2024", nil); !errors.Is(err, errArgs) {
		t.Errorf("a moved literal: %v, want errArgs", err)
	}
}
