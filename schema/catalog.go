package schema

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
)

// Kind is the kind of a relation.
type Kind string

// Relation kinds, as in pg_class.relkind.
const (
	KindTable            Kind = "table"
	KindView             Kind = "view"
	KindMaterializedView Kind = "materialized_view"
	KindPartitionedTable Kind = "partitioned_table"
	KindForeignTable     Kind = "foreign_table"
)

// Schema is a namespace of the catalog.
type Schema struct {
	Name    string `json:"name"`
	Comment string `json:"comment,omitempty"`
}

// Table is a relation that can appear in FROM: a table, view, materialized
// view, partitioned table or foreign table. Leaf partitions of a partitioned
// table are folded into their parent unless introspection asked for them.
type Table struct {
	Schema  string `json:"schema"`
	Name    string `json:"name"`
	Kind    Kind   `json:"kind"`
	Comment string `json:"comment,omitempty"`
	// EstimatedRows is the planner's row estimate (pg_class.reltuples, summed
	// over partitions); -1 when the table was never analyzed.
	EstimatedRows int64        `json:"estimated_rows"`
	Columns       []Column     `json:"columns"`
	PrimaryKey    []string     `json:"primary_key,omitempty"`
	ForeignKeys   []ForeignKey `json:"foreign_keys,omitempty"`
	// Unique lists the column sets of unique constraints and plain unique
	// indexes (no expressions, no predicate), primary key excluded.
	Unique [][]string `json:"unique,omitempty"`
	// Definition is the SQL of a view or materialized view.
	Definition string `json:"definition,omitempty"`
	// PartitionOf names the parent ("schema.table") of a leaf partition when
	// partitions are included.
	PartitionOf string `json:"partition_of,omitempty"`
	// RowSecurity is true when row-level security is enabled on the table
	// (pg_class.relrowsecurity): which of its rows a reader sees depends
	// on the reader, so its values are not one view shared by every
	// request.
	RowSecurity bool `json:"row_security,omitempty"`
}

// Column is a column of a table.
type Column struct {
	Name    string `json:"name"`
	Type    string `json:"type"` // format_type(), e.g. "character varying(40)"
	NotNull bool   `json:"not_null,omitempty"`
	Default string `json:"default,omitempty"`
	Comment string `json:"comment,omitempty"`
	// PrimaryKey is true when the column is part of the primary key.
	PrimaryKey bool `json:"primary_key,omitempty"`
	// EnumLabels holds the labels, in sort order, when the type is an enum
	// (or an array of one).
	EnumLabels []string `json:"enum_labels,omitempty"`
}

// ForeignKey is a (possibly multi-column) foreign key of a table.
type ForeignKey struct {
	Name       string   `json:"name"`
	Columns    []string `json:"columns"`
	RefSchema  string   `json:"ref_schema"`
	RefTable   string   `json:"ref_table"`
	RefColumns []string `json:"ref_columns"`
}

// Ref returns the qualified name of the referenced table.
func (fk ForeignKey) Ref() string { return fk.RefSchema + "." + fk.RefTable }

// QualifiedName returns "schema.name", unquoted. It is the key used across
// the library for a table; use QuoteQualified for SQL text.
func (t *Table) QualifiedName() string { return t.Schema + "." + t.Name }

// QuoteQualified returns the table name quoted for SQL where needed.
func (t *Table) QuoteQualified() string { return QuoteIdent(t.Schema) + "." + QuoteIdent(t.Name) }

// ColumnNames returns the names of the columns, in table order.
func (t *Table) ColumnNames() []string {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	return names
}

// Column returns the column named name, or nil.
func (t *Table) Column(name string) *Column {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	return nil
}

// Catalog is the structure of a database: the vocabulary every stage speaks.
// Tables are sorted by schema then name. A Catalog is immutable after
// construction and safe for concurrent use.
type Catalog struct {
	Schemas []Schema `json:"schemas"`
	Tables  []*Table `json:"tables"`
	// Enums maps a qualified enum type name to its labels in sort order.
	Enums map[string][]string `json:"enums,omitempty"`

	byName       map[string]*Table
	referencedBy map[string][]Reference
	fp           *fingerprints
}

// Reference is a foreign key seen from the referenced side.
type Reference struct {
	From *Table
	FK   ForeignKey
}

// NewCatalog builds a catalog from tables, sorting them and indexing names
// and foreign keys. The tables are owned by the catalog afterwards.
func NewCatalog(schemas []Schema, tables []*Table, enums map[string][]string) *Catalog {
	c := &Catalog{Schemas: schemas, Tables: tables, Enums: enums}
	c.init()
	return c
}

func (c *Catalog) init() {
	sort.Slice(c.Schemas, func(i, j int) bool { return c.Schemas[i].Name < c.Schemas[j].Name })
	sort.Slice(c.Tables, func(i, j int) bool {
		a, b := c.Tables[i], c.Tables[j]
		if a.Schema != b.Schema {
			return a.Schema < b.Schema
		}
		return a.Name < b.Name
	})
	c.fp = &fingerprints{}
	c.byName = make(map[string]*Table, len(c.Tables))
	c.referencedBy = make(map[string][]Reference)
	for _, t := range c.Tables {
		c.byName[t.QualifiedName()] = t
	}
	for _, t := range c.Tables {
		for _, fk := range t.ForeignKeys {
			c.referencedBy[fk.Ref()] = append(c.referencedBy[fk.Ref()], Reference{From: t, FK: fk})
		}
	}
}

// UnmarshalJSON decodes a catalog saved with encoding/json and rebuilds its indexes.
func (c *Catalog) UnmarshalJSON(b []byte) error {
	type plain Catalog
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*c = Catalog(p)
	c.init()
	return nil
}

// Table returns the table with the qualified name "schema.name", or nil.
// A name without a schema is looked up in "public".
func (c *Catalog) Table(qualified string) *Table {
	if !strings.Contains(qualified, ".") {
		qualified = "public." + qualified
	}
	return c.byName[qualified]
}

// Lookup returns the table schema.name, or nil.
func (c *Catalog) Lookup(schemaName, name string) *Table { return c.byName[schemaName+"."+name] }

// Resolve finds an unqualified table name along a search path, like
// PostgreSQL does. It returns nil when no schema of the path has it.
func (c *Catalog) Resolve(name string, searchPath []string) *Table {
	for _, s := range searchPath {
		if t := c.byName[s+"."+name]; t != nil {
			return t
		}
	}
	return nil
}

// ReferencedBy returns the foreign keys pointing at the table, in catalog order.
func (c *Catalog) ReferencedBy(qualified string) []Reference { return c.referencedBy[qualified] }

// Subset returns a catalog holding only the named tables (qualified names);
// unknown names are ignored. The tables are shared, not copied.
func (c *Catalog) Subset(names []string) *Catalog {
	seen := make(map[string]bool, len(names))
	var tables []*Table
	schemas := map[string]bool{}
	for _, n := range names {
		if t := c.Table(n); t != nil && !seen[t.QualifiedName()] {
			seen[t.QualifiedName()] = true
			tables = append(tables, t)
			schemas[t.Schema] = true
		}
	}
	var ss []Schema
	for _, s := range c.Schemas {
		if schemas[s.Name] {
			ss = append(ss, s)
		}
	}
	return NewCatalog(ss, tables, c.Enums)
}

// QuoteIdent quotes an identifier for SQL when PostgreSQL would otherwise
// fold or reject it (upper case, spaces, keywords are the caller's concern
// only for reserved words: those are quoted too).
func QuoteIdent(s string) string {
	if s != "" && isPlainIdent(s) && !reserved[s] {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func isPlainIdent(s string) bool {
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r == '_':
		case (r >= '0' && r <= '9') || r == '$':
			if i == 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// reserved holds PostgreSQL's reserved key words (those that cannot be
// column or table names unquoted).
var reserved = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`all analyse analyze and any array as asc asymmetric authorization binary both case cast
		check collate collation column concurrently constraint create cross current_catalog current_date current_role
		current_schema current_time current_timestamp current_user default deferrable desc distinct do else end except
		false fetch for foreign freeze from full grant group having ilike in initially inner intersect into is isnull join
		lateral leading left like limit localtime localtimestamp natural not notnull null offset on only or order outer
		overlaps placing primary references returning right select session_user similar some symmetric system_user table
		tablesample then to trailing true union unique user using variadic verbose when where window with`) {
		m[w] = true
	}
	return m
}()

// InSchemas returns a catalog holding only the tables of the named
// schemas, those schemas, and the enum types they define or their columns
// use: what a caller limited to them may see. A table with a foreign key
// into another schema is a copy without it (the key would name a table
// the caller may not see); ReferencedBy lists only the kept tables.
func (c *Catalog) InSchemas(names ...string) *Catalog {
	keep := func(s string) bool { return slices.Contains(names, s) }
	var tables []*Table
	used := map[string]bool{}
	for _, t := range c.Tables {
		if keep(t.Schema) {
			if slices.ContainsFunc(t.ForeignKeys, func(fk ForeignKey) bool { return !keep(fk.RefSchema) }) {
				cp := *t
				cp.ForeignKeys = slices.DeleteFunc(slices.Clone(t.ForeignKeys), func(fk ForeignKey) bool { return !keep(fk.RefSchema) })
				t = &cp
			}
			tables = append(tables, t)
			for _, col := range t.Columns {
				used[col.Type] = true
			}
		}
	}
	var ss []Schema
	for _, s := range c.Schemas {
		if keep(s.Name) {
			ss = append(ss, s)
		}
	}
	enums := map[string][]string{}
	for name, labels := range c.Enums {
		if sch, _, ok := strings.Cut(name, "."); (ok && keep(sch)) || used[name] {
			enums[name] = labels
		}
	}
	return NewCatalog(ss, tables, enums)
}
