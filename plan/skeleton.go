package plan

import (
	"strconv"
	"strings"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// SkeletonOption configures Tree.Skeleton.
type SkeletonOption interface{ applySkeleton(*skeletonConfig) }

type skeletonConfig struct {
	searchPath []string
	multiline  bool
	fanNotes   bool
}

type skeletonOptionFunc func(*skeletonConfig)

func (f skeletonOptionFunc) applySkeleton(c *skeletonConfig) { f(c) }

// SearchPath leaves out the schema of tables that the search path
// resolves to the same table (e.g. SearchPath("public")).
func SearchPath(schemas ...string) SkeletonOption {
	return skeletonOptionFunc(func(c *skeletonConfig) { c.searchPath = schemas })
}

// Multiline puts each JOIN on its own line.
func Multiline(on bool) SkeletonOption {
	return skeletonOptionFunc(func(c *skeletonConfig) { c.multiline = on })
}

// FanOutNotes marks each join that fans out (see Tree.FanOuts) with a
// comment after its ON condition, naming by alias the table it gives one
// row per and the one whose rows repeat:
//
//	JOIN shop.order_items oi ON oi.order_id = o.id /* one row per oi: o repeats */
func FanOutNotes(on bool) SkeletonOption {
	return skeletonOptionFunc(func(c *skeletonConfig) { c.fanNotes = on })
}

// Aliases returns the short alias of every table of the tree, as Skeleton
// uses them: the initials of the words of the table name (order_items ->
// oi), numbered on collision, never a reserved word.
func (t *Tree) Aliases() map[string]string {
	out := make(map[string]string, len(t.tables))
	used := map[string]bool{}
	for _, name := range t.tables {
		tbl := t.g.cat.Table(name)
		base := initials(tbl.Name)
		a := base
		for i := 2; used[a] || schema.QuoteIdent(a) != a; i++ {
			a = base + strconv.Itoa(i)
		}
		used[a] = true
		out[name] = a
	}
	return out
}

func initials(name string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '_' || r == ' ' || r == '-' }) {
		if r := w[0]; r >= 'a' && r <= 'z' {
			b.WriteByte(r)
		}
	}
	if b.Len() == 0 {
		return "t"
	}
	return b.String()
}

// Skeleton renders the tree as the FROM clause of a query, e.g.
//
//	FROM sales.orders o JOIN sales.customers c ON c.cust_nbr = o.cust_nbr
//
// Identifiers are quoted where PostgreSQL needs it; multi-column keys give
// ON conditions joined with AND. Tables of a forest that could not be
// connected are added with CROSS JOIN and a comment saying so.
func (t *Tree) Skeleton(opts ...SkeletonOption) string {
	var cfg skeletonConfig
	for _, o := range opts {
		o.applySkeleton(&cfg)
	}
	if len(t.tables) == 0 {
		return ""
	}
	alias := t.Aliases()
	ref := func(name string) string {
		tbl := t.g.cat.Table(name)
		q := tbl.QuoteQualified()
		if cfg.searchPath != nil && t.g.cat.Resolve(tbl.Name, cfg.searchPath) == tbl {
			q = schema.QuoteIdent(tbl.Name)
		}
		return q + " " + alias[name]
	}
	sep := " "
	if cfg.multiline {
		sep = "\n"
	}
	var b strings.Builder
	b.WriteString("FROM " + ref(t.tables[0]))
	joined := map[string]bool{t.tables[0]: true}
	var fans map[string]FanOut // by the table the join brings in
	if cfg.fanNotes {
		fans = map[string]FanOut{}
		for _, f := range t.FanOuts() {
			fans[f.Join.To] = f
		}
	}
	next := 0
	for _, comp := range t.components {
		for _, name := range comp {
			if joined[name] {
				continue
			}
			joined[name] = true
			if next < len(t.joins) && t.joins[next].To == name {
				e := t.joins[next]
				next++
				b.WriteString(sep + "JOIN " + ref(name) + " ON ")
				for i := range e.FromColumns {
					if i > 0 {
						b.WriteString(" AND ")
					}
					b.WriteString(alias[e.To] + "." + schema.QuoteIdent(e.ToColumns[i]) + " = " +
						alias[e.From] + "." + schema.QuoteIdent(e.FromColumns[i]))
				}
				if f, ok := fans[name]; ok {
					// Aliases are letters and digits: safe inside a comment.
					b.WriteString(" /* one row per " + alias[f.Many] + ": " + alias[f.One] + " repeats */")
				}
				continue
			}
			b.WriteString(sep + "CROSS JOIN " + ref(name) + " /* no join path */")
		}
	}
	return b.String()
}
