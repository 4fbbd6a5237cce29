package erp_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func connect(t testing.TB, dsn string) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func queryInt(t testing.TB, conn *pgx.Conn, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := conn.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

func queryStrings(t testing.TB, conn *pgx.Conn, sql string, args ...any) []string {
	t.Helper()
	rows, err := conn.Query(context.Background(), sql, args...)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return out
}

// moduleTables returns the relations of the given modules, sorted.
func moduleTables(common bool) []string {
	var out []string
	for m, ts := range erp.Modules() {
		if (m == erp.ModuleCommon) == common {
			out = append(out, ts...)
		}
	}
	sort.Strings(out)
	return out
}

// relations lists tables, partitioned tables and views of schema, without
// partitions.
const relationsSQL = `SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v') AND NOT c.relispartition ORDER BY 1`

func TestDivisionSchema(t *testing.T) {
	for _, c := range []struct {
		i, n int
		want string
	}{{1, 1, "div_01"}, {7, 30, "div_07"}, {99, 99, "div_99"}, {1, 100, "div_001"}, {125, 125, "div_125"}} {
		if got := erp.DivisionSchema(c.i, c.n); got != c.want {
			t.Errorf("DivisionSchema(%d, %d) = %q, want %q", c.i, c.n, got, c.want)
		}
	}
	if s := erp.DivisionSchemas(3); !slices.Equal(s, []string{"div_01", "div_02", "div_03"}) {
		t.Errorf("DivisionSchemas(3) = %v", s)
	}
}

func TestModules(t *testing.T) {
	mods := erp.Modules()
	if len(mods) != 8 || len(erp.ModuleNames()) != 8 {
		t.Fatalf("%d modules, want 8", len(mods))
	}
	seen := map[string]string{}
	for m, ts := range mods {
		if len(ts) < 8 {
			t.Errorf("module %s has only %d relations", m, len(ts))
		}
		for _, tb := range ts {
			if prev, dup := seen[tb]; dup {
				t.Errorf("%s in modules %s and %s", tb, prev, m)
			}
			seen[tb] = m
			if erp.ModuleOf(tb) != m {
				t.Errorf("ModuleOf(%s) = %q, want %q", tb, erp.ModuleOf(tb), m)
			}
		}
	}
	mods[erp.ModuleHR][0] = "changed"
	if erp.Modules()[erp.ModuleHR][0] == "changed" {
		t.Error("Modules returns shared slices")
	}
}

func TestVersionStable(t *testing.T) {
	v := erp.Version()
	if len(v) != 16 || v != erp.Version() {
		t.Fatalf("Version() = %q, not a stable 16-hex hash", v)
	}
}

func TestExamWellFormed(t *testing.T) {
	qs, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 60 {
		t.Fatalf("exam has %d questions, want >= 60", len(qs))
	}
	byDiff, byModule := map[string]int{}, map[string]int{}
	for _, q := range qs {
		byDiff[q.Difficulty]++
		byModule[q.Module]++
		lead := strings.ToUpper(strings.Fields(q.GoldSQL)[0])
		if lead != "SELECT" && lead != "WITH" {
			t.Errorf("%s: gold SQL starts with %s", q.QID, lead)
		}
		if q.Scope != "public" {
			t.Errorf("%s: scope %q", q.QID, q.Scope)
		}
		if strings.Contains(q.GoldSQL, "public.") || strings.Contains(q.GoldSQL, "div_") {
			t.Errorf("%s: gold SQL must use unqualified names", q.QID)
		}
	}
	for _, d := range erp.Difficulties {
		if byDiff[d] < 15 {
			t.Errorf("only %d %s questions", byDiff[d], d)
		}
	}
	for _, m := range erp.ModuleNames() {
		if byModule[m] < 4 {
			t.Errorf("only %d questions in module %s", byModule[m], m)
		}
	}
	t.Logf("%d questions: %v, %v", len(qs), byDiff, byModule)
}

func TestLoadRejectsBadOptions(t *testing.T) {
	for _, o := range []erp.Options{{Divisions: -1}, {Divisions: erp.MaxDivisions + 1}, {RowScale: -0.5}} {
		if err := erp.Load(context.Background(), nil, o); !errors.Is(err, erp.ErrInvalidOptions) {
			t.Errorf("Load(%+v) = %v, want ErrInvalidOptions", o, err)
		}
	}
}

func TestSingleLayout(t *testing.T) {
	conn := connect(t, erptest.Single(t))

	got := queryStrings(t, conn, relationsSQL, "public")
	want := append(moduleTables(true), moduleTables(false)...)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Fatalf("relations in public:\n got %v\nwant %v", got, want)
	}
	tables := queryInt(t, conn, `SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition`)
	if tables < 80 || tables > 100 {
		t.Errorf("%d tables, want about 80-100", tables)
	}
	if n := queryInt(t, conn, `SELECT count(*) FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'gl_journal_lines'`); n != 4 {
		t.Errorf("gl_journal_lines has %d partitions, want 4", n)
	}
	if missing := queryStrings(t, conn, `SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v') AND obj_description(c.oid, 'pg_class') IS NULL`); len(missing) > 0 {
		t.Errorf("relations without comment: %v", missing)
	}
	var cols, commented int
	if err := conn.QueryRow(context.Background(), `SELECT count(*), count(col_description(c.oid, a.attnum))
		FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND a.attnum > 0 AND NOT a.attisdropped`).Scan(&cols, &commented); err != nil {
		t.Fatal(err)
	}
	if commented*3 < cols {
		t.Errorf("only %d of %d columns commented", commented, cols)
	}

	// Hubs: FK counts of the most referenced tables.
	for table, min := range map[string]int{"employees": 20, "customers": 6, "products": 8, "suppliers": 8, "countries": 6} {
		n := queryInt(t, conn, `SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND confrelid = $1::regclass AND conparentid = 0`, table)
		if n < min {
			t.Errorf("%s referenced by %d foreign keys, want >= %d", table, n, min)
		}
	}
	if n := queryInt(t, conn, `SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND cardinality(conkey) > 1`); n < 1 {
		t.Error("no composite foreign key")
	}
	if n := queryInt(t, conn, `SELECT count(*) FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = 'public' AND t.typtype = 'e'`); n < 3 {
		t.Errorf("%d enum types, want >= 3", n)
	}
	if n := queryInt(t, conn, `SELECT count(*) FROM pg_attribute WHERE attrelid = 'gl_account_map'::regclass AND attname = 'LegacyAcctCode'`); n != 1 {
		t.Error("mixed-case column gl_account_map.\"LegacyAcctCode\" missing")
	}

	// Data: every table (but the partition parent) has rows, tens of
	// thousands in the big ones, dates within 2022-2025.
	var empty []string
	total := 0
	for _, tb := range moduleTables(false) {
		n := queryInt(t, conn, "SELECT count(*) FROM "+pgx.Identifier{tb}.Sanitize())
		if n == 0 {
			empty = append(empty, tb)
		}
		total += n
	}
	if len(empty) > 0 {
		t.Errorf("empty relations: %v", empty)
	}
	if total < 150000 {
		t.Errorf("only %d module rows", total)
	}
	if n := queryInt(t, conn, `SELECT count(*) FROM sales_orders WHERE order_date < '2022-01-01' OR order_date > '2025-12-31'`); n != 0 {
		t.Errorf("%d sales orders outside 2022-2025", n)
	}
	if n := queryInt(t, conn, `SELECT count(*) FROM (SELECT je_id FROM gl_journal_lines GROUP BY je_id HAVING sum(debit_amt) <> sum(credit_amt)) x`); n != 0 {
		t.Errorf("%d unbalanced journal entries", n)
	}
	t.Logf("%d tables, %d module rows, %d/%d columns commented", tables, total, commented, cols)
}

func TestDivisionLayout(t *testing.T) {
	const n = 3
	conn := connect(t, erptest.Divisions(t, n))

	if got, want := queryStrings(t, conn, relationsSQL, "public"), moduleTables(true); !slices.Equal(got, want) {
		t.Errorf("public holds %v, want the Common tables %v", got, want)
	}
	schemas := queryStrings(t, conn, `SELECT nspname::text FROM pg_namespace WHERE nspname LIKE 'div\_%' ORDER BY 1`)
	if !slices.Equal(schemas, erp.DivisionSchemas(n)) {
		t.Fatalf("division schemas %v", schemas)
	}
	var prev string
	for _, s := range schemas {
		if got, want := queryStrings(t, conn, relationsSQL, s), moduleTables(false); !slices.Equal(got, want) {
			t.Errorf("%s holds %v, want %v", s, got, want)
		}
		toPublic := queryInt(t, conn, `SELECT count(*) FROM pg_constraint c
			JOIN pg_class src ON src.oid = c.conrelid JOIN pg_namespace sn ON sn.oid = src.relnamespace
			JOIN pg_class dst ON dst.oid = c.confrelid JOIN pg_namespace dn ON dn.oid = dst.relnamespace
			WHERE c.contype = 'f' AND sn.nspname = $1 AND dn.nspname = 'public'`, s)
		if toPublic < 20 {
			t.Errorf("%s has %d foreign keys into public, want >= 20", s, toPublic)
		}
		cross := queryInt(t, conn, `SELECT count(*) FROM pg_constraint c
			JOIN pg_class src ON src.oid = c.conrelid JOIN pg_namespace sn ON sn.oid = src.relnamespace
			JOIN pg_class dst ON dst.oid = c.confrelid JOIN pg_namespace dn ON dn.oid = dst.relnamespace
			WHERE c.contype = 'f' AND sn.nspname = $1 AND dn.nspname NOT IN ($1, 'public')`, s)
		if cross != 0 {
			t.Errorf("%s has %d foreign keys into other divisions", s, cross)
		}
		// Each division has its own (seeded) data.
		var sum string
		if err := conn.QueryRow(context.Background(), fmt.Sprintf(
			`SELECT count(*) || ':' || md5(string_agg(customer_name, ',' ORDER BY customer_id)) FROM %s.customers`, s)).Scan(&sum); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(sum, "0:") || sum == prev {
			t.Errorf("%s customers %s (previous division %s)", s, sum, prev)
		}
		prev = sum
	}
}

// checksumSQL digests a few generated tables of the search path's schema.
const checksumSQL = `SELECT md5(string_agg(x, '|')) FROM (
    (SELECT md5(string_agg(e::text, ',' ORDER BY emp_id)) AS x FROM employees e)
    UNION ALL (SELECT md5(string_agg(s::text, ',' ORDER BY so_id)) FROM sales_orders s)
    UNION ALL (SELECT md5(string_agg(l::text, ',' ORDER BY je_id, line_no)) FROM gl_journal_lines l)
    UNION ALL (SELECT md5(string_agg(t::text, ',' ORDER BY timesheet_id)) FROM timesheets t)) d`

func checksum(t *testing.T, conn *pgx.Conn, schema string) string {
	t.Helper()
	ctx := context.Background()
	if _, err := conn.Exec(ctx, "SELECT set_config('search_path', $1, false)", schema+", public"); err != nil {
		t.Fatal(err)
	}
	var s string
	if err := conn.QueryRow(ctx, checksumSQL).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLoadIsDeterministic loads one division afresh and compares it with
// div_01 of the three-division template: the data of a division depends on
// its name and the row scale only, not on the load or the division count.
func TestLoadIsDeterministic(t *testing.T) {
	fresh := connect(t, pgtest.NewDatabase(t))
	if err := erp.Load(context.Background(), fresh, erp.Options{Divisions: 1}); err != nil {
		t.Fatal(err)
	}
	tpl := connect(t, erptest.Divisions(t, 3))
	a, b := checksum(t, fresh, "div_01"), checksum(t, tpl, "div_01")
	if a != b {
		t.Errorf("div_01 differs between two loads: %s vs %s", a, b)
	}
	if c := checksum(t, tpl, "div_02"); c == a {
		t.Error("div_01 and div_02 have the same data")
	}
}

func TestLoadTwiceFailsThenDropReloads(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, pgtest.NewDatabase(t))
	opts := erp.Options{Divisions: 2, NoData: true}
	if err := erp.Load(ctx, conn, opts); err != nil {
		t.Fatal(err)
	}
	err := erp.Load(ctx, conn, opts)
	var le *erp.LoadError
	if !errors.As(err, &le) || le.Schema != "public" {
		t.Fatalf("second Load = %v, want a *LoadError on public", err)
	}
	if err := erp.Drop(ctx, conn); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, conn, `SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' OR n.nspname LIKE 'div\_%'`); n != 0 {
		t.Fatalf("%d relations left after Drop", n)
	}
	if err := erp.Load(ctx, conn, erp.Options{NoData: true}); err != nil {
		t.Fatalf("reload after Drop: %v", err)
	}
	if got, want := len(queryStrings(t, conn, relationsSQL, "public")), len(moduleTables(true))+len(moduleTables(false)); got != want {
		t.Errorf("reload created %d relations, want %d", got, want)
	}
}

func TestLoadHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	conn := connect(t, pgtest.NewDatabase(t))
	if err := erp.Load(ctx, conn, erp.Options{NoData: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("Load with cancelled context = %v", err)
	}
}

// TestExamGoldQueries runs every gold query read-only in both layouts.
func TestExamGoldQueries(t *testing.T) {
	qs, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	layouts := []struct{ name, dsn, searchPath string }{
		{"single", erptest.Single(t), "public"},
		{"division", erptest.Divisions(t, 3), "div_01, public"},
	}
	for _, l := range layouts {
		conn := connect(t, l.dsn)
		counts := map[int]int{}
		for _, q := range qs {
			n, err := runGold(conn, l.searchPath, q.GoldSQL)
			if err != nil {
				t.Errorf("%s %s: %v\n%s", l.name, q.QID, err, q.GoldSQL)
				continue
			}
			if n == 0 {
				t.Errorf("%s %s: no rows with a non-NULL value", l.name, q.QID)
			}
			counts[n]++
		}
		if len(counts) < 8 {
			t.Errorf("%s: row counts are too uniform: %v", l.name, counts)
		}
	}
}

// runGold runs sql in a read-only transaction and returns the number of rows,
// or 0 when no row has a non-NULL value (e.g. a sum over nothing).
func runGold(conn *pgx.Conn, searchPath, sql string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if _, err := tx.Exec(ctx, "SELECT set_config('search_path', $1, true)", searchPath); err != nil {
		return 0, err
	}
	rows, err := tx.Query(ctx, sql)
	if err != nil {
		return 0, err
	}
	n, nonNull := 0, false
	for rows.Next() {
		n++
		vals, err := rows.Values()
		if err != nil {
			return 0, err
		}
		for _, v := range vals {
			nonNull = nonNull || v != nil
		}
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if !nonNull {
		return 0, nil
	}
	return n, nil
}

// BenchmarkLoadDivisionsDDL measures DDL-only loads of many divisions, e.g.
// go test -bench LoadDivisionsDDL -benchtime 1x ./examples/erp
func BenchmarkLoadDivisionsDDL(b *testing.B) {
	for _, n := range []int{30, 125} {
		b.Run(fmt.Sprintf("divisions=%d", n), func(b *testing.B) {
			if testing.Short() {
				b.Skip("-short: many divisions are left to a full benchmark run")
			}
			for b.Loop() {
				b.StopTimer()
				conn := connect(b, pgtest.NewDatabase(b))
				b.StartTimer()
				if err := erp.Load(context.Background(), conn, erp.Options{Divisions: n, NoData: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoadSingle measures a full single-layout load.
func BenchmarkLoadSingle(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		conn := connect(b, pgtest.NewDatabase(b))
		b.StartTimer()
		if err := erp.Load(context.Background(), conn, erp.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
