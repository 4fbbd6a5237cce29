package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
)

// Fingerprint returns a stable hash of the catalog's structure: schemas,
// tables, columns, types, keys, comments and enum labels. Row estimates and
// view definitions' formatting are left out, so ANALYZE does not make an
// index look stale, while any change a prompt or an index would show does.
func (c *Catalog) Fingerprint() string {
	h := sha256.New()
	for _, s := range c.Schemas {
		writeField(h, "schema", s.Name, s.Comment)
	}
	names := make([]string, 0, len(c.Enums))
	for n := range c.Enums {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		writeField(h, append([]string{"enum", n}, c.Enums[n]...)...)
	}
	for _, t := range c.Tables { // sorted by NewCatalog
		writeField(h, "table", t.Fingerprint())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Fingerprint returns a stable hash of one table's structure, so an index can
// re-embed only the tables that changed.
func (t *Table) Fingerprint() string {
	h := sha256.New()
	writeField(h, "t", t.Schema, t.Name, string(t.Kind), t.Comment, t.PartitionOf)
	for _, c := range t.Columns {
		writeField(h, append([]string{"c", c.Name, c.Type, strconv.FormatBool(c.NotNull), c.Default, c.Comment}, c.EnumLabels...)...)
	}
	writeField(h, append([]string{"pk"}, t.PrimaryKey...)...)
	fks := append([]ForeignKey(nil), t.ForeignKeys...)
	sort.Slice(fks, func(i, j int) bool { return fks[i].Name < fks[j].Name })
	for _, fk := range fks {
		writeField(h, "fk", fk.Name, strings.Join(fk.Columns, ","), fk.RefSchema, fk.RefTable, strings.Join(fk.RefColumns, ","))
	}
	uq := make([]string, len(t.Unique))
	for i, u := range t.Unique {
		uq[i] = strings.Join(u, ",")
	}
	sort.Strings(uq)
	writeField(h, append([]string{"uq"}, uq...)...)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// writeField writes length-prefixed strings so that field boundaries can't
// be forged by the content ("a,b" + "c" != "a" + "b,c").
func writeField(h interface{ Write([]byte) (int, error) }, parts ...string) {
	for _, p := range parts {
		h.Write([]byte(strconv.Itoa(len(p))))
		h.Write([]byte{':'})
		h.Write([]byte(p))
	}
	h.Write([]byte{'\n'})
}
