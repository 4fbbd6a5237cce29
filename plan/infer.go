package plan

import (
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// colRef is a column of a graph node.
type colRef struct {
	table  int32
	column string
}

// Limits of the inference heuristic: a column name shared by many tables is
// too generic to mean a join (created_by, status_id in a 300-table schema).
const (
	maxStarGroup   = 50 // tables sharing a name that one of them owns as key
	maxKeylessPair = 8  // tables sharing a name that none of them owns
)

// inferEdges guesses foreign keys that a database does not declare. It is a
// heuristic for schemas without constraints, and only ever looks at column
// names and types:
//
//  1. An identifier-like column c (see idLike) of table A references table B
//     when B's single-column primary key or unique key is also named c and
//     the types are compatible (writes.aid -> author.aid).
//  2. A column named <b>_id or <b>id references B's key (see idKey) when b
//     is B's name or its singular (orders.customer_id -> customers.id,
//     sessions.user_id -> users.uid).
//  3. When no table of those sharing an identifier-like column name has it as
//     a key, each pair of them (at most maxKeylessPair tables) is joined by
//     an edge of Unknown cardinality.
//  4. An id-like column of A references B's id-like single-column key k when
//     both start with the same prefix (2+ characters) and A's column ends
//     with the rest of k (4+ characters): sbTransaction.sbTxCustId ->
//     sbCustomer.sbCustId, a naming style that prefixes every column. With
//     no shared prefix, A's column must end with all of k, as in a role
//     prefix (cite.citingPaperId -> paper.paperId).
//
// Columns already covered by a declared single-column foreign key are
// skipped. It returns the inferred keys per table and the keyless pairs.
func inferEdges(tables []*schema.Table, declared [][]schema.ForeignKey) ([][]schema.ForeignKey, [][2]colRef) {
	out := make([][]schema.ForeignKey, len(tables))
	byName := map[string][]colRef{}
	owners := map[string][]colRef{} // table name form -> its id-like key
	var keys []colRef               // single-column id-like keys, for rule 4
	for i, t := range tables {
		for _, c := range t.Columns {
			if idLike(c.Name) && !coveredByFK(declared[i], c.Name) {
				byName[c.Name] = append(byName[c.Name], colRef{int32(i), c.Name})
			}
		}
		if k := idKey(t); k != "" {
			for _, n := range nameForms(t.Name) {
				owners[n] = append(owners[n], colRef{int32(i), k})
			}
			if idLike(k) {
				keys = append(keys, colRef{int32(i), k})
			}
		}
	}
	// A guessed key stays inside its schema, or points at a table whose name
	// no other schema has (a shared reference table): in a multi-tenant
	// catalog, div_01.orders.customer_id must not reach div_02.customers.
	nameCount := map[string]int{}
	for _, t := range tables {
		nameCount[t.Name]++
	}
	seen := map[[2]colRef]bool{}
	add := func(from colRef, to colRef) {
		a, b := tables[from.table], tables[to.table]
		if from.table == to.table || seen[[2]colRef{from, to}] || !compatible(a.Column(from.column), b.Column(to.column)) ||
			(a.Schema != b.Schema && nameCount[b.Name] > 1) {
			return
		}
		seen[[2]colRef{from, to}] = true
		out[from.table] = append(out[from.table], schema.ForeignKey{
			Columns: []string{from.column}, RefSchema: b.Schema, RefTable: b.Name, RefColumns: []string{to.column},
		})
	}
	var pairs [][2]colRef
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names { // rules 1 and 3
		group := byName[name]
		var keyed []int32
		for _, c := range group {
			if singleKey(tables[c.table], name) {
				keyed = append(keyed, c.table)
			}
		}
		switch {
		case len(keyed) > 0 && len(group) <= maxStarGroup:
			for _, c := range group {
				for _, o := range keyed {
					if c.table < o || !slices.Contains(keyed, c.table) {
						add(c, colRef{o, name})
					}
				}
			}
		case len(keyed) == 0 && len(group) <= maxKeylessPair:
			for i, a := range group {
				for _, b := range group[i+1:] {
					ta, tb := tables[a.table], tables[b.table]
					if compatible(ta.Column(name), tb.Column(name)) && (ta.Schema == tb.Schema || nameCount[tb.Name] == 1 || nameCount[ta.Name] == 1) {
						pairs = append(pairs, [2]colRef{a, b})
					}
				}
			}
		}
	}
	suffixes := map[string][]colRef{} // rule 4 index: id-like column name suffixes
	for _, name := range names {
		for i := 1; i+minSuffix <= len(name); i++ {
			suffixes[name[i:]] = append(suffixes[name[i:]], byName[name]...)
		}
	}
	for i, t := range tables {
		for _, c := range t.Columns {
			if coveredByFK(declared[i], c.Name) {
				continue
			}
			// Rule 2: <b>_id -> b's key.
			if base, ok := strings.CutSuffix(strings.ToLower(c.Name), "id"); ok && base != "" {
				for _, o := range owners[strings.TrimSuffix(base, "_")] {
					add(colRef{int32(i), c.Name}, o)
				}
			}
		}
	}
	// Rule 4: a shared naming prefix (sbCustId, sbTxCustId).
	for _, k := range keys {
		for p := 0; len(k.column)-p >= minSuffix; p++ {
			if p > 0 && p < minPrefix {
				continue
			}
			prefix, rest := k.column[:p], k.column[p:]
			cands := suffixes[rest]
			if len(cands) > maxStarGroup {
				continue
			}
			for _, c := range cands {
				if c.column != k.column && strings.HasPrefix(c.column, prefix) && len(c.column) > len(k.column) {
					add(c, k)
				}
			}
		}
	}
	return out, pairs
}

// Rule 4 bounds: the shared prefix and the matching rest of the key name.
const (
	minPrefix = 2
	minSuffix = 4
)

// idKey returns the column a table is referenced by in rules 2 and 4: its
// single-column primary key (or else unique key) when the name ends in "id",
// or, when the table declares no keys at all, a column named after the
// table (paper.paperid) or else id.
func idKey(t *schema.Table) string {
	if len(t.PrimaryKey) == 1 && strings.HasSuffix(strings.ToLower(t.PrimaryKey[0]), "id") {
		return t.PrimaryKey[0]
	}
	if len(t.PrimaryKey) == 0 {
		for _, u := range t.Unique {
			if len(u) == 1 && strings.HasSuffix(strings.ToLower(u[0]), "id") {
				return u[0]
			}
		}
		if len(t.Unique) == 0 {
			// No keys at all: a column named after the table (paper.paperid).
			for _, f := range nameForms(t.Name) {
				for _, c := range []string{f + "id", f + "_id"} {
					if t.Column(c) != nil {
						return c
					}
				}
			}
			if t.Column("id") != nil {
				return "id"
			}
		}
	}
	return ""
}

// idLike reports whether a column name looks like a key: it ends in "id"
// (but is not just "id", which every table has) or in a code/key/number/name
// suffix used for natural keys (airport_code, state_name).
func idLike(name string) bool {
	n := strings.ToLower(name)
	if n == "id" {
		return false
	}
	if strings.HasSuffix(n, "id") {
		return true
	}
	for _, s := range []string{"_code", "_key", "_no", "_nbr", "_num", "_number", "_name"} {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

func coveredByFK(fks []schema.ForeignKey, col string) bool {
	for _, fk := range fks {
		if len(fk.Columns) == 1 && fk.Columns[0] == col {
			return true
		}
	}
	return false
}

// singleKey reports whether col alone is t's primary key or a unique key.
func singleKey(t *schema.Table, col string) bool {
	return unique(t, []string{col})
}

// nameForms returns a table name and its naive singulars (customers ->
// customer, addresses -> address, categories -> category).
func nameForms(name string) []string {
	n := strings.ToLower(name)
	forms := []string{n}
	switch {
	case strings.HasSuffix(n, "ies"):
		forms = append(forms, strings.TrimSuffix(n, "ies")+"y")
	case strings.HasSuffix(n, "sses"), strings.HasSuffix(n, "xes"), strings.HasSuffix(n, "ches"), strings.HasSuffix(n, "shes"):
		forms = append(forms, n[:len(n)-2])
	case strings.HasSuffix(n, "s") && !strings.HasSuffix(n, "ss"):
		forms = append(forms, n[:len(n)-1])
	}
	return forms
}

// compatible reports whether two columns could be compared by a join
// without a cast: same type family.
func compatible(a, b *schema.Column) bool {
	if a == nil || b == nil {
		return false
	}
	return typeFamily(a.Type) == typeFamily(b.Type)
}

func typeFamily(t string) string {
	t = strings.ToLower(t)
	if i := strings.IndexByte(t, '('); i >= 0 {
		t = t[:i]
	}
	switch strings.TrimSpace(t) {
	case "smallint", "integer", "bigint":
		return "int"
	case "text", "character varying", "character", "varchar", "char", "name":
		return "text"
	}
	return t
}

// namesTable reports whether an inferred join column is named after one of
// the joined tables (state_name or state_id for table state), which makes it
// the likelier join among several guesses between the same tables.
func namesTable(col string, tables ...string) bool {
	col = strings.ToLower(col)
	for _, t := range tables {
		for _, f := range nameForms(t) {
			if rest, ok := strings.CutPrefix(col, f); ok && rest != "" && (rest[0] == '_' || rest == "id") {
				return true
			}
		}
	}
	return false
}
