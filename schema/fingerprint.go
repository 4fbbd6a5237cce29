package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// fingerprints caches a catalog's fingerprints: a Catalog is immutable, so
// they are computed once, on first use.
type fingerprints struct {
	once    sync.Once
	catalog string
	tables  map[*Table]string
}

// Fingerprint returns a stable hash of the catalog's structure: schemas,
// tables, columns, types, keys, comments and enum labels. Row estimates and
// view definitions' formatting are left out, so ANALYZE does not make an
// index look stale, while any change a prompt or an index would show does.
func (c *Catalog) Fingerprint() string {
	if c.fp == nil { // a Catalog built without NewCatalog
		cat, _ := c.computeFingerprints()
		return cat
	}
	c.fp.once.Do(func() { c.fp.catalog, c.fp.tables = c.computeFingerprints() })
	return c.fp.catalog
}

// TableFingerprint returns t.Fingerprint(), cached for the catalog's tables.
func (c *Catalog) TableFingerprint(t *Table) string {
	if c.fp != nil {
		c.fp.once.Do(func() { c.fp.catalog, c.fp.tables = c.computeFingerprints() })
		if s, ok := c.fp.tables[t]; ok {
			return s
		}
	}
	return t.Fingerprint()
}

func (c *Catalog) computeFingerprints() (string, map[*Table]string) {
	tables := make(map[*Table]string, len(c.Tables))
	var b []byte
	for _, s := range c.Schemas {
		b = appendField(b, "schema", s.Name, s.Comment)
	}
	names := make([]string, 0, len(c.Enums))
	for n := range c.Enums {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b = appendField(b, append([]string{"enum", n}, c.Enums[n]...)...)
	}
	for _, t := range c.Tables { // sorted by NewCatalog
		fp := t.Fingerprint()
		tables[t] = fp
		b = appendField(b, "table", fp)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), tables
}

// Fingerprint returns a stable hash of one table's structure, so an index can
// re-embed only the tables that changed.
func (t *Table) Fingerprint() string {
	b := make([]byte, 0, 256+64*len(t.Columns))
	b = appendField(b, "t", t.Schema, t.Name, string(t.Kind), t.Comment, t.PartitionOf)
	if t.RowSecurity {
		// Only when set, so the fingerprints of other tables stay as they
		// were; enabling it changes what the value index may hold.
		b = appendField(b, "rls")
	}
	for _, c := range t.Columns {
		b = appendField(b, "c", c.Name, c.Type, strconv.FormatBool(c.NotNull), c.Default, c.Comment)
		b = appendField(b, c.EnumLabels...)
	}
	b = appendField(b, append([]string{"pk"}, t.PrimaryKey...)...)
	fks := append([]ForeignKey(nil), t.ForeignKeys...)
	sort.Slice(fks, func(i, j int) bool { return fks[i].Name < fks[j].Name })
	for _, fk := range fks {
		b = appendField(b, "fk", fk.Name, strings.Join(fk.Columns, ","), fk.RefSchema, fk.RefTable, strings.Join(fk.RefColumns, ","))
	}
	uq := make([]string, len(t.Unique))
	for i, u := range t.Unique {
		uq[i] = strings.Join(u, ",")
	}
	sort.Strings(uq)
	b = appendField(b, append([]string{"uq"}, uq...)...)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// appendField appends length-prefixed strings and a newline, so that field
// boundaries can't be forged by the content ("a,b" + "c" != "a" + "b,c").
func appendField(b []byte, parts ...string) []byte {
	for _, p := range parts {
		b = strconv.AppendInt(b, int64(len(p)), 10)
		b = append(b, ':')
		b = append(b, p...)
	}
	return append(b, '\n')
}
