package erp

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

//go:embed sql/*.sql exam.csv
var files embed.FS

// DBTX is what Load and Drop need from a database handle; *pgx.Conn,
// *pgxpool.Pool and pgx.Tx satisfy it. Every script is sent as one Exec
// without arguments (simple protocol), so each runs in one session and one
// implicit transaction even on a pool.
type DBTX interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// DefaultDivisionRowScale is the row scale of each division when
// Options.RowScale is zero: small, so that dozens of divisions load quickly.
const DefaultDivisionRowScale = 0.05

// MaxDivisions is the largest supported number of divisions.
const MaxDivisions = 999

// Options configures Load.
type Options struct {
	// Divisions is the number of division schemas (div_01 … div_N). Zero
	// loads the single layout: everything in schema public.
	Divisions int
	// RowScale multiplies the generated row counts (lookup tables such as
	// departments keep their size, and small tables keep a floor). Zero
	// means 1 in single mode and DefaultDivisionRowScale per division.
	RowScale float64
	// NoData creates the schema (tables, comments, views) without rows.
	NoData bool
	// RLS loads the row-level tenancy layout: the single layout, every
	// table holding a tenant's rows (customers and products, and what
	// names them: contacts, leads, opportunities, quotes, orders,
	// shipments, returns, invoices, payments, projects and their tasks and
	// timesheets, stock, purchasing, the ledger) and a tenants table
	// carrying a tenant_id column, with row-level security policies
	// (FORCEd, so the owner obeys them too) that show a reader the rows of
	// the tenant its transaction sets in app.tenant_id (Tenants: 1 Aurora,
	// 2 Borealis, each customer and product name starting with its
	// tenant's), and the login role AppRole, which may only read. It
	// excludes Divisions.
	RLS bool
	// Logger receives progress at debug level; nil is silent.
	Logger *slog.Logger
}

// AppRole is the login role the RLS layout creates for the engine (once
// per cluster): not the tables' owner, without BYPASSRLS, with SELECT on
// every table of schema public. It has no password: give it one (ALTER
// ROLE) before connecting as it over anything but a trusted socket.
const AppRole = "erp_app"

// TenantSetting is the custom setting the RLS layout's policies read.
const TenantSetting = "app.tenant_id"

// Tenants returns the RLS layout's tenant names by ID (TenantSetting's
// value); the result is a fresh copy.
func Tenants() map[string]string { return map[string]string{"1": "Aurora", "2": "Borealis"} }

// ErrInvalidOptions is returned (wrapped) by Load for out-of-range options.
var ErrInvalidOptions = errors.New("erp: invalid options")

// LoadError says which step of Load failed.
type LoadError struct {
	Schema string // "public" or a division schema
	Step   string // "common" (reference tables), "modules" (module tables and their data) or "rls" (tenancy)
	Err    error
}

func (e *LoadError) Error() string {
	return fmt.Sprintf("erp: load %s (%s): %v", e.Schema, e.Step, e.Err)
}

func (e *LoadError) Unwrap() error { return e.Err }

// Load creates the ERP schema and its data in an empty database.
func Load(ctx context.Context, db DBTX, opts Options) error {
	if opts.Divisions < 0 || opts.Divisions > MaxDivisions {
		return fmt.Errorf("%w: Divisions = %d, want 0..%d", ErrInvalidOptions, opts.Divisions, MaxDivisions)
	}
	if opts.RLS && opts.Divisions > 0 {
		return fmt.Errorf("%w: RLS with Divisions = %d, want one or the other", ErrInvalidOptions, opts.Divisions)
	}
	if opts.RowScale < 0 || math.IsNaN(opts.RowScale) || math.IsInf(opts.RowScale, 0) {
		return fmt.Errorf("%w: RowScale = %v, want >= 0", ErrInvalidOptions, opts.RowScale)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	scale := opts.RowScale
	if scale == 0 {
		scale = 1
		if opts.Divisions > 0 {
			scale = DefaultDivisionRowScale
		}
	}

	start := time.Now()
	common := header("public", "erp", scale) + mustRead("sql/common_ddl.sql")
	if !opts.NoData {
		common += mustRead("sql/common_data.sql")
	}
	if _, err := db.Exec(ctx, common); err != nil {
		return &LoadError{Schema: "public", Step: "common", Err: err}
	}
	log.DebugContext(ctx, "erp: loaded common tables", "elapsed", time.Since(start))

	if opts.Divisions == 0 {
		if err := loadModules(ctx, db, "public", "", scale, opts.NoData, log); err != nil || !opts.RLS {
			return err
		}
		if _, err := db.Exec(ctx, header("public", "erp", scale)+mustRead("sql/rls.sql")); err != nil {
			return &LoadError{Schema: "public", Step: "rls", Err: err}
		}
		return nil
	}
	for _, s := range DivisionSchemas(opts.Divisions) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := loadModules(ctx, db, s, "CREATE SCHEMA "+s+";\n", scale, opts.NoData, log); err != nil {
			return err
		}
	}
	return nil
}

// loadModules creates the module tables in schema and fills them, as one
// script, so a pool runs it on one connection in one transaction.
func loadModules(ctx context.Context, db DBTX, schema, prefix string, scale float64, noData bool, log *slog.Logger) error {
	start := time.Now()
	seed := schema
	if schema == "public" {
		seed = "erp"
	}
	script := prefix + header(schema, seed, scale) + mustRead("sql/modules_ddl.sql")
	if !noData {
		script += mustRead("sql/prelude.sql") + mustRead("sql/fk_off.sql") +
			mustRead("sql/modules_data.sql") + mustRead("sql/fk_on.sql")
	}
	if _, err := db.Exec(ctx, script); err != nil {
		return &LoadError{Schema: schema, Step: "modules", Err: err}
	}
	log.DebugContext(ctx, "erp: loaded modules", "schema", schema, "data", !noData, "elapsed", time.Since(start))
	return nil
}

// header sets the transaction-local search path and generator settings.
func header(schema, seed string, scale float64) string {
	path := schema
	if schema != "public" {
		path = schema + ", public"
	}
	return fmt.Sprintf("SELECT set_config('search_path', %s, true), set_config('erp.seed', %s, true), set_config('erp.scale', %s, true);\n",
		quote(path), quote(seed), quote(strconv.FormatFloat(scale, 'g', -1, 64)))
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func mustRead(name string) string {
	b, err := files.ReadFile(name)
	if err != nil {
		panic("erp: embedded file missing: " + name) // only if the embed directive is broken
	}
	return string(b) + "\n"
}

// DivisionSchema returns the schema name of division i (1-based) out of n:
// div_01 … div_99, or div_001 … when n >= 100.
func DivisionSchema(i, n int) string {
	if n >= 100 {
		return fmt.Sprintf("div_%03d", i)
	}
	return fmt.Sprintf("div_%02d", i)
}

// DivisionSchemas returns the schema names of n divisions.
func DivisionSchemas(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = DivisionSchema(i+1, n)
	}
	return out
}

// Drop removes every ERP object: all division schemas (div_ followed by
// digits) and the ERP tables, views and types in public. It commits after
// each division, so it must not run inside a transaction block.
func Drop(ctx context.Context, db DBTX) error {
	var rels []string
	for _, m := range ModuleNames() {
		for _, t := range Modules()[m] {
			rels = append(rels, "public."+t)
		}
	}
	sort.Strings(rels)
	var views, tables []string
	for _, r := range rels {
		if strings.HasPrefix(r, "public.v_") {
			views = append(views, r)
		} else {
			tables = append(tables, r)
		}
	}
	script := `DO $$
DECLARE s text;
BEGIN
    FOR s IN SELECT nspname FROM pg_namespace WHERE nspname ~ '^div_[0-9]+$' ORDER BY nspname LOOP
        EXECUTE format('DROP SCHEMA %I CASCADE', s);
        COMMIT;
    END LOOP;
END $$`
	if _, err := db.Exec(ctx, script); err != nil {
		return fmt.Errorf("erp: drop division schemas: %w", err)
	}
	script = "DROP VIEW IF EXISTS " + strings.Join(views, ", ") + " CASCADE;\n" +
		"DROP TABLE IF EXISTS " + strings.Join(tables, ", ") + ", public.tenants CASCADE;\n" +
		"DROP TYPE IF EXISTS public.employment_type, public.deal_stage, public.asset_condition, public.priority_level CASCADE;\n"
	if _, err := db.Exec(ctx, script); err != nil {
		return fmt.Errorf("erp: drop public objects: %w", err)
	}
	return nil
}

// Version is a content hash of everything embedded (SQL and exam); use it
// in cache keys of template databases.
func Version() string {
	h := sha256.New()
	err := fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := files.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		panic("erp: walking embedded files: " + err.Error())
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
