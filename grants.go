package nl2sql

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nl2sqlgo/nl2sql/internal/sqlrefs"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// grants is what a role may read of the catalog: per table (qualified),
// the columns it may SELECT, the schema's USAGE included. A table it may
// not read at all is absent. Read once per role and state (one catalog
// fingerprint): a GRANT or REVOKE that changes no table is seen at the
// next build.
type grants struct {
	cols map[string]map[string]bool
}

// table reports whether the role may read some column of the table.
func (g *grants) table(t string) bool { return len(g.cols[t]) > 0 }

// column reports whether the role may read the column.
func (g *grants) column(t, c string) bool { return g.cols[t][c] }

// whole reports whether the role may read every column of t.
func (g *grants) whole(t *schema.Table) bool {
	cols := g.cols[t.QualifiedName()]
	return len(cols) == len(t.Columns) && !slices.ContainsFunc(t.Columns, func(c schema.Column) bool { return !cols[c.Name] })
}

// grantsSQL lists the columns of the schemas' relations that role $1 (the
// session's user when empty) may SELECT: column privileges count, and a
// table's privilege covers its columns (has_column_privilege says so).
const grantsSQL = `
SELECT n.nspname::text, c.relname::text, a.attname::text
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
CROSS JOIN (SELECT coalesce(nullif($1::text, ''), current_user::text)::name AS r) AS who
WHERE n.nspname = ANY($2::text[]) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
  AND has_schema_privilege(who.r, n.oid, 'USAGE') AND has_column_privilege(who.r, c.oid, a.attnum, 'SELECT')`

// grants returns what the scope's role may read (cached per role in the
// state; the pool's role is read by the build, so that a prepared engine
// builds a context without the database). A failure fails the request:
// without it nothing says what the prompt may show.
func (sc *scope) grants(ctx context.Context) (*grants, error) {
	if g, ok := sc.st.grants.Load(sc.role); ok {
		return g.(*grants), nil
	}
	g, err := readGrants(ctx, sc.e.db, sc.role, sc.st.cat)
	if err != nil {
		return nil, err
	}
	actual, _ := sc.st.grants.LoadOrStore(sc.role, g)
	return actual.(*grants), nil
}

// readGrants reads what role ("" the session's) may read of cat.
func readGrants(ctx context.Context, db DB, role string, cat *schema.Catalog) (*grants, error) {
	schemas := make([]string, 0, len(cat.Schemas))
	for _, s := range cat.Schemas {
		schemas = append(schemas, s.Name)
	}
	rows, err := db.Query(ctx, grantsSQL, role, schemas)
	g := &grants{cols: map[string]map[string]bool{}}
	if err == nil {
		var s, t, c string
		for rows.Next() {
			if err = rows.Scan(&s, &t, &c); err != nil {
				break
			}
			q := s + "." + t
			if g.cols[q] == nil {
				g.cols[q] = map[string]bool{}
			}
			g.cols[q][c] = true
		}
		rows.Close()
		if err == nil {
			err = rows.Err()
		}
	}
	if err != nil {
		const msg = "reading what the request's role may read failed"
		if le := lostOrEnded(ctx, msg, err); le != nil {
			return nil, le
		}
		e := &Error{Class: ClassConfig, Message: msg, Err: err}
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			e.Code = pe.Code // 42704: no such role
		}
		return nil, e
	}
	return g, nil
}

// view is what a request's prompt may show: the scope's catalog cut to the
// tables and columns its role may read, the value samples of those columns
// (the state's hold no table with row-level security: see build), and a
// repairer over that catalog for repair prompts. Cached per scope and role.
type view struct {
	g        *grants
	cat      *schema.Catalog
	examples map[string][]string // "schema.table.column" -> sample values
	repairer *repair.Repairer
}

// viewKey is a view's key in the state's cache.
type viewKey struct {
	scope scopeKey
	role  string
}

// view returns the request's view (cached).
func (sc *scope) view(ctx context.Context) (*view, error) {
	key := viewKey{sc.key, sc.role}
	if v, ok := sc.st.views.Load(key); ok {
		return v.(*view), nil
	}
	g, err := sc.grants(ctx)
	if err != nil {
		return nil, err
	}
	v := &view{g: g, cat: readableCatalog(sc.catalog(), g), examples: map[string][]string{}}
	for col, vals := range sc.st.examples {
		i := strings.LastIndexByte(col, '.')
		if v.cat.Table(col[:i]) != nil && g.column(col[:i], col[i+1:]) {
			v.examples[col] = vals
		}
	}
	v.repairer = repair.New(v.cat, repair.WithLogger(sc.e.cfg.logger), repair.WithSearchPath(sc.path...))
	actual, _ := sc.st.views.LoadOrStore(key, v)
	return actual.(*view), nil
}

// readableCatalog is cat without the tables g may not read and, in the
// others, without the columns it may not read (and the keys naming them,
// or naming a table it may not read): the catalog itself when g reads it
// all.
func readableCatalog(cat *schema.Catalog, g *grants) *schema.Catalog {
	if !slices.ContainsFunc(cat.Tables, func(t *schema.Table) bool { return !g.whole(t) || !refsReadable(t, g) }) {
		return cat
	}
	var tables []*schema.Table
	schemas := map[string]bool{}
	for _, t := range cat.Tables {
		q := t.QualifiedName()
		if !g.table(q) {
			continue
		}
		if !g.whole(t) || !refsReadable(t, g) {
			cp := *t
			cp.Columns = slices.DeleteFunc(slices.Clone(t.Columns), func(c schema.Column) bool { return !g.column(q, c.Name) })
			all := func(cols []string) bool {
				return !slices.ContainsFunc(cols, func(c string) bool { return !g.column(q, c) })
			}
			if !all(t.PrimaryKey) {
				cp.PrimaryKey = nil
				for i := range cp.Columns {
					cp.Columns[i].PrimaryKey = false
				}
			}
			cp.Unique = slices.DeleteFunc(slices.Clone(t.Unique), func(u []string) bool { return !all(u) })
			cp.ForeignKeys = slices.DeleteFunc(slices.Clone(t.ForeignKeys), func(fk schema.ForeignKey) bool {
				return !all(fk.Columns) || !fkReadable(fk, g)
			})
			t = &cp
		}
		tables = append(tables, t)
		schemas[t.Schema] = true
	}
	var ss []schema.Schema
	for _, s := range cat.Schemas {
		if schemas[s.Name] {
			ss = append(ss, s)
		}
	}
	return schema.NewCatalog(ss, tables, cat.Enums)
}

// refsReadable reports whether g may read every table and column t's
// foreign keys reference.
func refsReadable(t *schema.Table, g *grants) bool {
	return !slices.ContainsFunc(t.ForeignKeys, func(fk schema.ForeignKey) bool { return !fkReadable(fk, g) })
}

func fkReadable(fk schema.ForeignKey, g *grants) bool {
	ref := fk.RefSchema + "." + fk.RefTable
	return !slices.ContainsFunc(fk.RefColumns, func(c string) bool { return !g.column(ref, c) })
}

// tables keeps the hits of tables the view shows, without naming a table
// it does not show as the one a hit was reached from.
func (v *view) tables(hits []retrieve.TableHit) []retrieve.TableHit {
	out := slices.DeleteFunc(slices.Clone(hits), func(h retrieve.TableHit) bool { return v.cat.Table(h.Name) == nil })
	for i := range out {
		if out[i].Via != "" && v.cat.Table(out[i].Via) == nil {
			out[i].Via = ""
		}
	}
	return out
}

// links drops from r what the view does not show: the linker works on the
// whole catalog, and a glossary term or a foreign key may lead it to
// another tenant's table or to a column the role may not read.
func (v *view) links(r *link.Result) {
	table := func(t string) bool { return v.cat.Table(t) != nil }
	column := func(t, c string) bool { return table(t) && v.g.column(t, c) }
	r.Tables = slices.DeleteFunc(r.Tables, func(l link.TableLink) bool { return !table(l.Table) })
	r.Columns = slices.DeleteFunc(r.Columns, func(l link.ColumnLink) bool { return !column(l.Table, l.Column) })
	r.Values = slices.DeleteFunc(r.Values, func(l link.ValueHint) bool { return !column(l.Table, l.Column) })
	r.Warnings = slices.DeleteFunc(r.Warnings, func(w link.Warning) bool {
		return slices.ContainsFunc(w.Tables, func(t string) bool { return !table(t) })
	})
}

// reads reports whether the role may read every column of every table sql
// references (an example is shown whole, and a star reads every column).
// Whose rows it shows is not judged here: offer.go offers an identity's
// example to that identity only.
func (v *view) reads(sc *scope, sql string) bool {
	refs, err := sqlrefs.Extract(sql, sc.st.cat, sc.path)
	if err != nil {
		return false
	}
	for _, name := range refs.Tables {
		if v.cat.Table(name) == nil || !v.g.whole(sc.st.cat.Table(name)) {
			return false
		}
	}
	return true
}

// joins reports whether the view shows every column of the joins.
func (v *view) joins(js []plan.JoinEdge) bool {
	column := func(qc string) bool {
		i := strings.LastIndexByte(qc, '.')
		return i > 0 && v.g.column(qc[:i], qc[i+1:])
	}
	return !slices.ContainsFunc(js, func(j plan.JoinEdge) bool { return !column(j.From) || !column(j.To) })
}
