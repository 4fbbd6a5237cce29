package schema_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/schema"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestMain(m *testing.M) { pgtest.Main(m) }

func fixtureDB(t *testing.T) string {
	t.Helper()
	dsn := pgtest.NewDatabase(t)
	b, err := os.ReadFile("testdata/fixture.sql")
	if err != nil {
		t.Fatal(err)
	}
	pgtest.Exec(t, dsn, string(b))
	return dsn
}

func introspect(t *testing.T, dsn string, opts ...schema.IntrospectOption) *schema.Catalog {
	t.Helper()
	cat, err := schema.Introspect(context.Background(), pgtest.Pool(t, dsn), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func tableNames(c *schema.Catalog) []string {
	var out []string
	for _, t := range c.Tables {
		out = append(out, t.QualifiedName())
	}
	return out
}

func TestIntrospectFixture(t *testing.T) {
	cat := introspect(t, fixtureDB(t), schema.WithoutSchemas("skip*"))

	want := []string{
		"Legacy.CustomerNotes", "public.countries", "public.fk_outside", "public.ledger",
		"sales.customer_counts", "sales.customers", "sales.open_orders", "sales.order_lines",
		"sales.orders", "sales.shipments",
	}
	if got := tableNames(cat); !reflect.DeepEqual(got, want) {
		t.Fatalf("tables:\n got %v\nwant %v", got, want)
	}
	var schemas []string
	for _, s := range cat.Schemas {
		schemas = append(schemas, s.Name)
	}
	if !reflect.DeepEqual(schemas, []string{"Legacy", "public", "sales"}) {
		t.Errorf("schemas = %v", schemas)
	}
	if cat.Schemas[2].Comment != "Sales module" {
		t.Errorf("schema comment = %q", cat.Schemas[2].Comment)
	}

	cust := cat.Table("sales.customers")
	if cust.Comment != "Customers who buy from us" || cust.Kind != schema.KindTable {
		t.Errorf("customers: %+v", cust)
	}
	if !reflect.DeepEqual(cust.PrimaryKey, []string{"cust_nbr"}) || !cust.Column("cust_nbr").PrimaryKey {
		t.Errorf("customers pk = %v", cust.PrimaryKey)
	}
	if c := cust.Column("cust_nm"); c.Type != "character varying(80)" || !c.NotNull || c.Comment != "Customer name" {
		t.Errorf("cust_nm = %+v", c)
	}
	if c := cust.Column("created_at"); c.Default != "now()" || c.Type != "timestamp with time zone" {
		t.Errorf("created_at = %+v", c)
	}
	if c := cust.Column("tags"); c.Type != "text[]" {
		t.Errorf("tags = %+v", c)
	}

	orders := cat.Table("sales.orders")
	if len(orders.Columns) != 5 || orders.Column("dropped_col") != nil {
		t.Errorf("orders columns (dropped column must vanish): %+v", orders.Columns)
	}
	if c := orders.Column("status"); !reflect.DeepEqual(c.EnumLabels, []string{"draft", "open", "shipped", "closed"}) || c.Type != "order_status" {
		t.Errorf("status enum = %+v", c)
	}
	if c := orders.Column("channel"); !reflect.DeepEqual(c.EnumLabels, []string{"web", "store"}) || c.Type != "sales.channel" {
		t.Errorf("channel enum = %+v", c)
	}
	if !reflect.DeepEqual(cat.Enums["public.order_status"], []string{"draft", "open", "shipped", "closed"}) {
		t.Errorf("enums = %v", cat.Enums)
	}

	ship := cat.Table("sales.shipments")
	if len(ship.ForeignKeys) != 1 {
		t.Fatalf("shipments fks = %+v", ship.ForeignKeys)
	}
	fk := ship.ForeignKeys[0]
	if fk.Name != "shipments_line_fk" || !reflect.DeepEqual(fk.Columns, []string{"order_id", "line_no"}) ||
		!reflect.DeepEqual(fk.RefColumns, []string{"order_id", "line_no"}) || fk.Ref() != "sales.order_lines" {
		t.Errorf("composite fk = %+v", fk)
	}
	if !reflect.DeepEqual(ship.Unique, [][]string{{"order_id", "line_no"}}) {
		t.Errorf("shipments unique = %v", ship.Unique)
	}
	if !reflect.DeepEqual(cat.Table("countries").Unique, [][]string{{"name"}}) {
		t.Errorf("countries unique = %v", cat.Table("countries").Unique)
	}
	if ol := cat.Table("sales.order_lines"); !reflect.DeepEqual(ol.PrimaryKey, []string{"order_id", "line_no"}) {
		t.Errorf("composite pk = %v", ol.PrimaryKey)
	}

	notes := cat.Lookup("Legacy", "CustomerNotes")
	if notes == nil || notes.Column("Cust Nbr") == nil || notes.ForeignKeys[0].Columns[0] != "Cust Nbr" {
		t.Fatalf("quoted identifiers: %+v", notes)
	}
	if got := notes.QuoteQualified(); got != `"Legacy"."CustomerNotes"` {
		t.Errorf("QuoteQualified = %s", got)
	}

	ledger := cat.Table("public.ledger")
	if ledger.Kind != schema.KindPartitionedTable || ledger.EstimatedRows != 1000 {
		t.Errorf("ledger kind=%s rows=%d, want partitioned with 1000 rows rolled up", ledger.Kind, ledger.EstimatedRows)
	}
	if len(ledger.ForeignKeys) != 1 {
		t.Errorf("ledger fks (partition copies must not duplicate) = %+v", ledger.ForeignKeys)
	}

	if v := cat.Table("sales.open_orders"); v.Kind != schema.KindView || !strings.Contains(v.Definition, "status") || v.Comment != "Orders not yet shipped" {
		t.Errorf("view = %+v", v)
	}
	if v := cat.Table("sales.customer_counts"); v.Kind != schema.KindMaterializedView || len(v.Columns) != 2 {
		t.Errorf("matview = %+v", v)
	}

	refs := cat.ReferencedBy("sales.customers")
	var from []string
	for _, r := range refs {
		from = append(from, r.From.QualifiedName())
	}
	if !reflect.DeepEqual(from, []string{"Legacy.CustomerNotes", "sales.orders"}) {
		t.Errorf("referenced by = %v", from)
	}
}

func TestIntrospectFilters(t *testing.T) {
	dsn := fixtureDB(t)
	cat := introspect(t, dsn, schema.WithSchemas("sales"), schema.WithViews(false))
	for _, tb := range cat.Tables {
		if tb.Schema != "sales" || tb.Kind == schema.KindView || tb.Kind == schema.KindMaterializedView {
			t.Errorf("unexpected %s (%s)", tb.QualifiedName(), tb.Kind)
		}
	}
	if len(cat.Tables) != 4 {
		t.Errorf("tables = %v", tableNames(cat))
	}
	// FKs into filtered-out schemas are still complete.
	if fk := cat.Table("sales.customers").ForeignKeys[0]; fk.Ref() != "public.countries" || fk.RefColumns[0] != "iso2" {
		t.Errorf("fk out of filter = %+v", fk)
	}

	parts := introspect(t, dsn, schema.WithSchemas("public"), schema.WithPartitions(true))
	if p := parts.Table("public.ledger_2023"); p == nil || p.PartitionOf != "public.ledger" {
		t.Errorf("partition = %+v", p)
	}

	_, err := schema.Introspect(context.Background(), pgtest.Pool(t, dsn), schema.WithSchemas("nope"))
	if !errors.Is(err, schema.ErrNoSchemas) {
		t.Errorf("err = %v, want ErrNoSchemas", err)
	}
	_, err = schema.Introspect(context.Background(), pgtest.Pool(t, dsn), schema.WithSchemas("[bad"))
	if err == nil || !strings.Contains(err.Error(), "bad schema pattern") {
		t.Errorf("bad pattern err = %v", err)
	}
}

func TestIntrospectCompositeFKOutsideFilter(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	b, _ := os.ReadFile("testdata/fixture_outside.sql")
	pgtest.Exec(t, dsn, string(b))
	cat := introspect(t, dsn, schema.WithSchemas("public"))
	fk := cat.Table("public.child").ForeignKeys[0]
	if fk.Ref() != "hidden.parent" || !reflect.DeepEqual(fk.RefColumns, []string{"a", "b"}) {
		t.Errorf("fk = %+v", fk)
	}
}

func TestIntrospectErrorsAreTyped(t *testing.T) {
	pool := pgtest.Pool(t, pgtest.NewDatabase(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := schema.Introspect(ctx, pool)
	var ie *schema.IntrospectError
	if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want IntrospectError wrapping context.Canceled", err)
	}
	if ie.Step != "schemas" {
		t.Errorf("step = %q, want schemas", ie.Step)
	}
}

func TestFingerprint(t *testing.T) {
	dsn := fixtureDB(t)
	a := introspect(t, dsn)
	b := introspect(t, dsn)
	if a.Fingerprint() != b.Fingerprint() {
		t.Fatal("fingerprint not stable across introspections")
	}
	for _, tb := range a.Tables {
		if a.TableFingerprint(tb) != tb.Fingerprint() {
			t.Fatalf("cached table fingerprint of %s differs", tb.QualifiedName())
		}
	}
	if lit := (&schema.Catalog{Schemas: a.Schemas, Tables: a.Tables, Enums: a.Enums}); lit.Fingerprint() != a.Fingerprint() {
		t.Error("a Catalog literal (no NewCatalog) fingerprints differently")
	}
	// ANALYZE-only changes keep it; a comment, a column or a type change it.
	pgtest.Exec(t, dsn, "INSERT INTO public.countries VALUES ('FR','France'); ANALYZE")
	if c := introspect(t, dsn); c.Fingerprint() != a.Fingerprint() {
		t.Error("fingerprint changed on data/ANALYZE only")
	}
	before := a.Table("sales.orders").Fingerprint()
	for _, ddl := range []string{
		"COMMENT ON COLUMN sales.orders.status IS 'Lifecycle state'",
		"ALTER TABLE sales.orders ADD COLUMN note text",
		"ALTER TABLE sales.orders ALTER COLUMN tot_amt TYPE numeric(14,2)",
		"ALTER TYPE order_status ADD VALUE 'cancelled'",
	} {
		prev := introspect(t, dsn)
		pgtest.Exec(t, dsn, ddl)
		next := introspect(t, dsn)
		if prev.Fingerprint() == next.Fingerprint() {
			t.Errorf("catalog fingerprint unchanged after %q", ddl)
		}
		if next.Table("sales.orders").Fingerprint() == before {
			t.Errorf("table fingerprint unchanged after %q", ddl)
		}
		before = next.Table("sales.orders").Fingerprint()
		if prev.Table("sales.customers").Fingerprint() != next.Table("sales.customers").Fingerprint() {
			t.Errorf("unrelated table fingerprint changed after %q", ddl)
		}
	}
}

func TestCatalogJSONRoundTrip(t *testing.T) {
	cat := introspect(t, fixtureDB(t))
	b, err := json.Marshal(cat)
	if err != nil {
		t.Fatal(err)
	}
	var back schema.Catalog
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Fingerprint() != cat.Fingerprint() {
		t.Error("fingerprint differs after JSON round trip")
	}
	if back.Table("sales.orders") == nil || len(back.ReferencedBy("sales.orders")) != 1 {
		t.Error("indexes not rebuilt after unmarshal")
	}
}

func TestMSchemaGolden(t *testing.T) {
	cat := introspect(t, fixtureDB(t), schema.WithoutSchemas("skipme"))
	cases := []struct {
		name string
		text string
	}{
		{"full", cat.MSchema(schema.WithDBID("fixture"))},
		{"subset_examples", schema.MSchema(cat.Subset([]string{"sales.orders", "sales.customers", "public.countries"}).Tables,
			schema.WithUnqualified("public"),
			schema.WithRowEstimates(true),
			schema.WithExamples(map[string][]string{
				"sales.customers.cust_nm": {"Acme GmbH", "Globex, Inc.", "Initech", "Umbrella"},
				"public.countries.name":   {"Germany"},
			}))},
		{"composite_fk", schema.MSchema(cat.Subset([]string{"sales.order_lines", "sales.shipments"}).Tables)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join("testdata", "golden", c.name+".mschema")
			if *update {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if c.text != string(want) {
				t.Errorf("M-Schema differs from %s:\n%s", path, c.text)
			}
		})
	}
}

// TestIntrospectInvalidUniqueIndex: a unique index left invalid by a
// CREATE UNIQUE INDEX CONCURRENTLY that failed on duplicates is no unique
// set (the table holds the duplicates); a valid one is.
func TestIntrospectInvalidUniqueIndex(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE TABLE dup (id int PRIMARY KEY, email text, code text);
INSERT INTO dup VALUES (1, 'a', 'x'), (2, 'a', 'y');
CREATE UNIQUE INDEX dup_code ON dup (code)`)
	pool := pgtest.Pool(t, dsn)
	if _, err := pool.Exec(context.Background(), `CREATE UNIQUE INDEX CONCURRENTLY dup_email ON dup (email)`); err == nil {
		t.Fatal("the concurrent unique index over duplicates was built")
	}
	var invalid bool
	if err := pool.QueryRow(context.Background(), `SELECT NOT indisvalid FROM pg_index WHERE indexrelid = 'dup_email'::regclass`).Scan(&invalid); err != nil || !invalid {
		t.Fatalf("no invalid index left behind: %v", err)
	}
	if got := introspect(t, dsn).Table("dup").Unique; !reflect.DeepEqual(got, [][]string{{"code"}}) {
		t.Errorf("unique sets %v, want only [code]", got)
	}
}
