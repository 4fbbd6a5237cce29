package schema

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
)

// Querier is the part of pgx that introspection needs. *pgx.Conn,
// *pgxpool.Pool and pgx.Tx satisfy it.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// ErrNoSchemas is returned when the schema filters leave nothing to introspect.
var ErrNoSchemas = errors.New("schema: no schema matches the filters")

// IntrospectError reports which catalog query failed.
type IntrospectError struct {
	Step string // "schemas", "tables", "columns", "constraints", "indexes", "enums"
	Err  error
}

func (e *IntrospectError) Error() string {
	return "schema: introspect " + e.Step + ": " + e.Err.Error()
}
func (e *IntrospectError) Unwrap() error { return e.Err }

// IntrospectOption configures Introspect.
type IntrospectOption interface{ applyIntrospect(*introspectConfig) }

type introspectConfig struct {
	include, exclude  []string
	partitions, views bool
	logger            *slog.Logger
}

type introspectOptionFunc func(*introspectConfig)

func (f introspectOptionFunc) applyIntrospect(c *introspectConfig) { f(c) }

// WithSchemas keeps only schemas matching one of the patterns
// (path.Match syntax: "public", "div_*"). By default every non-system schema
// is introspected.
func WithSchemas(patterns ...string) IntrospectOption {
	return introspectOptionFunc(func(c *introspectConfig) { c.include = append(c.include, patterns...) })
}

// WithoutSchemas drops schemas matching one of the patterns. Exclusion wins
// over inclusion.
func WithoutSchemas(patterns ...string) IntrospectOption {
	return introspectOptionFunc(func(c *introspectConfig) { c.exclude = append(c.exclude, patterns...) })
}

// WithPartitions lists leaf partitions as tables of their own. By default
// they are folded into their partitioned parent, which is what queries use.
func WithPartitions(on bool) IntrospectOption {
	return introspectOptionFunc(func(c *introspectConfig) { c.partitions = on })
}

// WithViews controls whether views and materialized views are included
// (default true).
func WithViews(on bool) IntrospectOption {
	return introspectOptionFunc(func(c *introspectConfig) { c.views = on })
}

// WithLogger sets the logger for debug timings (silent by default).
func WithLogger(l *slog.Logger) IntrospectOption {
	return introspectOptionFunc(func(c *introspectConfig) {
		if l != nil {
			c.logger = l
		}
	})
}

// systemSchema reports schemas that are never user data.
func systemSchema(name string) bool {
	if name == "pg_catalog" || name == "information_schema" || name == "pg_toast" {
		return true
	}
	m1, _ := path.Match("pg_temp_*", name)
	m2, _ := path.Match("pg_toast_temp_*", name)
	return m1 || m2
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, err := path.Match(p, name); err == nil && ok {
			return true
		}
	}
	return false
}

// Introspect reads the catalog of the database db is connected to from
// pg_catalog (information_schema is slow and hides comments). It issues a
// fixed number of set-based queries, so its cost grows with the catalog size,
// not with round trips. Only tables the role can see in pg_class are listed.
func Introspect(ctx context.Context, db Querier, opts ...IntrospectOption) (*Catalog, error) {
	cfg := introspectConfig{views: true, logger: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o.applyIntrospect(&cfg)
	}
	for _, p := range append(append([]string{}, cfg.include...), cfg.exclude...) {
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("schema: bad schema pattern %q: %w", p, err)
		}
	}
	start := time.Now()

	// 1. schemas
	var schemas []Schema
	var oids []uint32
	err := queryEach(ctx, db, "schemas", `
SELECT n.oid, n.nspname, coalesce(d.description, '')
FROM pg_namespace n
LEFT JOIN pg_description d ON d.objoid = n.oid AND d.classoid = 'pg_namespace'::regclass AND d.objsubid = 0
ORDER BY n.nspname`, nil, func(r pgx.Rows) error {
		var oid uint32
		var s Schema
		if err := r.Scan(&oid, &s.Name, &s.Comment); err != nil {
			return err
		}
		if systemSchema(s.Name) || (len(cfg.include) > 0 && !matchAny(cfg.include, s.Name)) || matchAny(cfg.exclude, s.Name) {
			return nil
		}
		schemas = append(schemas, s)
		oids = append(oids, oid)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(schemas) == 0 {
		return nil, ErrNoSchemas
	}

	// 2. relations
	kinds := []string{"r", "p", "f"}
	if cfg.views {
		kinds = append(kinds, "v", "m")
	}
	type rel struct {
		t      *Table
		parent uint32
	}
	rels := map[uint32]*rel{}
	var order []uint32
	err = queryEach(ctx, db, "tables", `
SELECT c.oid, n.nspname, c.relname, c.relkind::text, coalesce(d.description, ''), c.reltuples::float8,
       c.relispartition, coalesce(i.inhparent, 0),
       CASE WHEN c.relkind IN ('v','m') THEN coalesce(pg_get_viewdef(c.oid), '') ELSE '' END,
       c.relrowsecurity
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_description d ON d.objoid = c.oid AND d.classoid = 'pg_class'::regclass AND d.objsubid = 0
LEFT JOIN pg_inherits i ON c.relispartition AND i.inhrelid = c.oid
WHERE c.relnamespace = ANY($1::oid[]) AND c.relkind::text = ANY($2::text[])`, []any{oids, kinds}, func(r pgx.Rows) error {
		var (
			oid, parent uint32
			t           Table
			kind        string
			tuples      float64
			isPart      bool
		)
		if err := r.Scan(&oid, &t.Schema, &t.Name, &kind, &t.Comment, &tuples, &isPart, &parent, &t.Definition, &t.RowSecurity); err != nil {
			return err
		}
		t.Kind = map[string]Kind{"r": KindTable, "p": KindPartitionedTable, "f": KindForeignTable, "v": KindView, "m": KindMaterializedView}[kind]
		t.EstimatedRows = int64(tuples)
		if tuples < 0 {
			t.EstimatedRows = -1
		}
		rels[oid] = &rel{t: &t, parent: parent}
		order = append(order, oid)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Partitions: roll row estimates up into the top-level parent.
	top := func(oid uint32) uint32 {
		for i := 0; i < 64; i++ { // partition trees are shallow; the bound guards cycles
			r := rels[oid]
			if r == nil || r.parent == 0 || rels[r.parent] == nil {
				return oid
			}
			oid = r.parent
		}
		return oid
	}
	// A partitioned parent's own reltuples is only set by an explicit ANALYZE
	// of it (autovacuum never does), so the leaves' sum is the better estimate.
	leafSum := map[uint32]int64{}
	for _, oid := range order {
		r := rels[oid]
		if r.parent == 0 || rels[r.parent] == nil {
			continue
		}
		if root := top(oid); r.t.EstimatedRows >= 0 && r.t.Kind != KindPartitionedTable {
			leafSum[root] += r.t.EstimatedRows
		}
		if cfg.partitions {
			r.t.PartitionOf = rels[r.parent].t.QualifiedName()
		}
	}
	for root, n := range leafSum {
		rels[root].t.EstimatedRows = n
	}

	// 3. columns
	attnames := map[uint32]map[int16]string{}
	type enumRef struct {
		t   *Table
		col int
		oid uint32
	}
	var enumCols []enumRef
	err = queryEach(ctx, db, "columns", `
SELECT a.attrelid, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
       coalesce(pg_get_expr(ad.adbin, ad.adrelid), ''), coalesce(d.description, ''),
       CASE WHEN t.typtype = 'e' THEN t.oid WHEN et.typtype = 'e' THEN et.oid ELSE 0 END
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_type t ON t.oid = a.atttypid
LEFT JOIN pg_type et ON et.oid = t.typelem AND t.typcategory = 'A'
LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
LEFT JOIN pg_description d ON d.objoid = a.attrelid AND d.classoid = 'pg_class'::regclass AND d.objsubid = a.attnum
WHERE c.relnamespace = ANY($1::oid[]) AND c.relkind::text = ANY($2::text[]) AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY a.attrelid, a.attnum`, []any{oids, kinds}, func(r pgx.Rows) error {
		var (
			rel     uint32
			num     int16
			col     Column
			enumOID uint32
		)
		if err := r.Scan(&rel, &num, &col.Name, &col.Type, &col.NotNull, &col.Default, &col.Comment, &enumOID); err != nil {
			return err
		}
		rl := rels[rel]
		if rl == nil {
			return nil
		}
		if enumOID != 0 {
			enumCols = append(enumCols, enumRef{rl.t, len(rl.t.Columns), enumOID})
		}
		rl.t.Columns = append(rl.t.Columns, col)
		if attnames[rel] == nil {
			attnames[rel] = map[int16]string{}
		}
		attnames[rel][num] = col.Name
		return nil
	})
	if err != nil {
		return nil, err
	}

	// 4. enums (all enum types; cheap, and a column may use one from another schema)
	enumLabels := map[uint32][]string{}
	enums := map[string][]string{}
	enumNames := map[uint32]string{}
	err = queryEach(ctx, db, "enums", `
SELECT e.enumtypid, n.nspname || '.' || t.typname, array_agg(e.enumlabel::text ORDER BY e.enumsortorder)
FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid JOIN pg_namespace n ON n.oid = t.typnamespace
GROUP BY 1, 2`, nil, func(r pgx.Rows) error {
		var oid uint32
		var name string
		var labels []string
		if err := r.Scan(&oid, &name, &labels); err != nil {
			return err
		}
		enumLabels[oid] = labels
		if s := name[:len(name)-len(path.Ext(name))]; !systemSchema(s) {
			enums[name] = labels
			enumNames[oid] = name
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	for _, e := range enumCols {
		e.t.Columns[e.col].EnumLabels = enumLabels[e.oid]
		used[enumNames[e.oid]] = true
	}
	// A schema filter hides the other schemas' enum types too (their
	// labels are another tenant's data), but those the kept columns use.
	for name := range enums {
		s := name[:len(name)-len(path.Ext(name))]
		if ((len(cfg.include) > 0 && !matchAny(cfg.include, s)) || matchAny(cfg.exclude, s)) && !used[name] {
			delete(enums, name)
		}
	}

	names := func(rel uint32, nums []int16) []string {
		out := make([]string, len(nums))
		for i, n := range nums {
			out[i] = attnames[rel][n]
		}
		return out
	}

	// 5. constraints: primary and foreign keys. conparentid = 0 skips the
	// copies PostgreSQL makes on each partition.
	type fkOutside struct {
		t    *Table
		fk   int
		ref  uint32
		keys []int16
	}
	var outside []fkOutside
	err = queryEach(ctx, db, "constraints", `
SELECT con.conrelid, con.contype::text, con.conname, con.conkey, coalesce(con.confkey, '{}'),
       coalesce(rn.nspname, ''), coalesce(rc.relname, ''), con.confrelid
FROM pg_constraint con
JOIN pg_class c ON c.oid = con.conrelid
LEFT JOIN pg_class rc ON rc.oid = con.confrelid
LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
WHERE c.relnamespace = ANY($1::oid[]) AND con.contype IN ('p','f') AND con.conparentid = 0
ORDER BY con.conrelid, con.contype, con.conname`, []any{oids}, func(r pgx.Rows) error {
		var (
			rel, refRel  uint32
			typ, name    string
			keys, fkeys  []int16
			rschema, rtb string
		)
		if err := r.Scan(&rel, &typ, &name, &keys, &fkeys, &rschema, &rtb, &refRel); err != nil {
			return err
		}
		rl := rels[rel]
		if rl == nil {
			return nil
		}
		if typ == "p" {
			rl.t.PrimaryKey = names(rel, keys)
			for _, k := range rl.t.PrimaryKey {
				if c := rl.t.Column(k); c != nil {
					c.PrimaryKey = true
				}
			}
			return nil
		}
		fk := ForeignKey{Name: name, Columns: names(rel, keys), RefSchema: rschema, RefTable: rtb}
		if _, ok := attnames[refRel]; ok {
			fk.RefColumns = names(refRel, fkeys)
		} else {
			outside = append(outside, fkOutside{rl.t, len(rl.t.ForeignKeys), refRel, fkeys})
		}
		rl.t.ForeignKeys = append(rl.t.ForeignKeys, fk)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Foreign keys into schemas left out by the filters: fetch the referenced
	// column names so the key is still complete.
	if len(outside) > 0 {
		var refOIDs []uint32
		for _, o := range outside {
			refOIDs = append(refOIDs, o.ref)
		}
		err = queryEach(ctx, db, "constraints", `
SELECT attrelid, attnum, attname FROM pg_attribute WHERE attrelid = ANY($1::oid[]) AND attnum > 0`, []any{refOIDs}, func(r pgx.Rows) error {
			var rel uint32
			var num int16
			var name string
			if err := r.Scan(&rel, &num, &name); err != nil {
				return err
			}
			if attnames[rel] == nil {
				attnames[rel] = map[int16]string{}
			}
			attnames[rel][num] = name
			return nil
		})
		if err != nil {
			return nil, err
		}
		for _, o := range outside {
			o.t.ForeignKeys[o.fk].RefColumns = names(o.ref, o.keys)
		}
	}

	// 6. unique column sets: unique indexes without expressions or predicates
	// (this covers unique constraints, which are backed by such indexes),
	// valid ones only: a CREATE UNIQUE INDEX CONCURRENTLY that failed on
	// duplicates leaves an invalid index that guarantees nothing.
	err = queryEach(ctx, db, "indexes", `
SELECT i.indrelid, i.indkey::int2[]
FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
WHERE c.relnamespace = ANY($1::oid[]) AND i.indisunique AND NOT i.indisprimary
  AND i.indisvalid AND i.indpred IS NULL AND i.indexprs IS NULL
ORDER BY i.indrelid, i.indexrelid`, []any{oids}, func(r pgx.Rows) error {
		var rel uint32
		var keys []int16
		if err := r.Scan(&rel, &keys); err != nil {
			return err
		}
		if rl := rels[rel]; rl != nil {
			rl.t.Unique = appendUniqueSet(rl.t.Unique, names(rel, keys))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}

	tables := make([]*Table, 0, len(rels))
	for _, r := range rels {
		if r.parent != 0 && rels[r.parent] != nil && !cfg.partitions {
			continue
		}
		tables = append(tables, r.t)
	}
	cat := NewCatalog(schemas, tables, enums)
	cfg.logger.LogAttrs(ctx, slog.LevelDebug, "schema introspected",
		slog.Int("schemas", len(schemas)), slog.Int("tables", len(tables)), slog.Duration("took", time.Since(start)))
	return cat, nil
}

// queryEach runs one catalog query and calls fn for each row.
func queryEach(ctx context.Context, db Querier, step, sql string, args []any, fn func(pgx.Rows) error) error {
	rows, err := db.Query(ctx, sql, args...)
	if err != nil {
		return &IntrospectError{Step: step, Err: err}
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return &IntrospectError{Step: step, Err: err}
		}
	}
	if err := rows.Err(); err != nil {
		return &IntrospectError{Step: step, Err: err}
	}
	return nil
}

// appendUniqueSet adds cols unless the same set is already there.
func appendUniqueSet(sets [][]string, cols []string) [][]string {
	key := fmt.Sprint(sortedCopy(cols))
	for _, s := range sets {
		if fmt.Sprint(sortedCopy(s)) == key {
			return sets
		}
	}
	return append(sets, cols)
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}
