package confidence

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/cues"
	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// unreturnedColumns are the columns (qualified names), linked or used,
// of the tables the query reads that the question asks to show by their
// own name ("Return the make, model and total revenue": cars.make) and that
// no output of the query holds: a query grouping by make and returning
// model twice answers another question. An output is any column a
// select list (of the query, a WITH query or a subquery) reads or
// names, so a column shown through a step counts; a star shows every
// column, and nothing is then missing.
func unreturnedColumns(q *cues.Reading, tables, linked, used []string, tree *pg_query.ParseResult) []string {
	requests := q.Requests()
	if len(requests) == 0 || tree == nil {
		return nil
	}
	var asked [][]string
	for _, r := range requests {
		var stems []string
		for _, w := range r {
			if w != "," {
				w = gloss.Stem(w)
			}
			stems = append(stems, w)
		}
		asked = append(asked, stems)
	}
	shown, all := outputNames(tree)
	if all {
		return nil
	}
	read := tableWords(tables)
	var out []string
	for _, l := range append(slices.Clone(linked), used...) {
		i := strings.LastIndexByte(l, '.')
		if i <= 0 || !slices.Contains(tables, l[:i]) {
			continue
		}
		col := strings.ToLower(l[i+1:])
		if slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o[strings.LastIndexByte(o, '.')+1:], col) }) {
			continue // one name is reported once
		}
		words := entityWords(col)
		named := nonIdentifiers(words)
		// "in each city" asks to show what names the city: a column
		// named for it (restaurant.city_name, location.city_id). A
		// city table read names it by any of its columns instead (its
		// name is what "the number of cities" counts).
		thing := len(named) > 0 && len(named) < len(words) && slices.ContainsFunc(named, func(w string) bool { return !read[w] }) &&
			slices.ContainsFunc(asked, func(r []string) bool { return requestsColumn(r, named, l[:i]) })
		if len(words) == 0 || !thing && !slices.ContainsFunc(asked, func(r []string) bool { return requestsColumn(r, words, l[:i]) }) {
			continue
		}
		// A column named after a table read (airlines.airline,
		// cartoon.channel) is what "the number of airlines" counts, not
		// a column to show.
		if !slices.ContainsFunc(words, func(w string) bool { return !identifierWords[w] && !read[w] }) &&
			!slices.ContainsFunc(words, func(w string) bool { return identifierWords[w] }) {
			continue
		}
		// A key is shown by a key of the table it names: "the coupon
		// ID" is the coupon's key (coupons.cid) as well as the sales'
		// reference to it (transactions.coupon_id).
		key := strings.HasSuffix(col, "id")
		if slices.ContainsFunc(shown, func(n string) bool {
			return n == col || phraseIn(entityWords(n), words) || key && strings.HasSuffix(n, "id") && keyOf(n, named, used) ||
				thing && phraseIn(entityWords(n), named)
		}) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// nonIdentifiers are words but "id", "name", "code"...
func nonIdentifiers(words []string) []string {
	var out []string
	for _, w := range words {
		if !identifierWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// keyOf reports whether a column of the name n, of the columns used
// (qualified names), is of a table named by words (all of them): cid of
// coupons for "coupon". No words: any key.
func keyOf(n string, words, used []string) bool {
	for _, u := range used {
		i := strings.LastIndexByte(u, '.')
		if i <= 0 || !strings.EqualFold(u[i+1:], n) {
			continue
		}
		own := tableWords([]string{u[:i]})
		if !slices.ContainsFunc(words, func(w string) bool { return !own[w] }) {
			return true
		}
	}
	return false
}

// outputNames are the names (in lower case) of the columns every select
// list of the tree reads (but what count() counts) and the names it gives
// its outputs; all is true when one holds a star.
func outputNames(tree *pg_query.ParseResult) (names []string, all bool) {
	pgparse.Walk(tree.ProtoReflect(), func(m protoreflect.Message) bool {
		s, ok := m.Interface().(*pg_query.SelectStmt)
		if !ok {
			return true
		}
		for _, t := range s.TargetList {
			rt := t.GetResTarget()
			if rt == nil {
				continue
			}
			if rt.Name != "" {
				names = append(names, strings.ToLower(rt.Name))
			}
			if rt.Val == nil {
				continue
			}
			pgparse.Walk(rt.Val.ProtoReflect(), func(m protoreflect.Message) bool {
				// count(x) shows how many, not x.
				if f, ok := m.Interface().(*pg_query.FuncCall); ok && pgparse.BuiltinName(f) == "count" {
					return false
				}
				ref, ok := m.Interface().(*pg_query.ColumnRef)
				if !ok || len(ref.Fields) == 0 {
					return true
				}
				last := ref.Fields[len(ref.Fields)-1]
				if last.GetAStar() != nil {
					all = true
				} else if s := last.GetString_(); s != nil {
					names = append(names, strings.ToLower(s.Sval))
				}
				return true
			})
		}
		return true
	})
	return names, all
}

// requestsColumn reports whether a request's words (stemmed) name a
// column by its name's words. A name that only identifies ("name", "id",
// "code") is the column's when nothing but a determiner, a list's "and"
// or a word of its table stands before it: "the continent name" is the
// continent's, not country.name. The words end an item of the request
// (the placebo of "the placebo treatment id" says which treatments),
// and two may stand apart as in "first and last name".
func requestsColumn(request, words []string, table string) bool {
	own := tableWords([]string{table})
	// An item's last words: "placebo" in "the placebo treatment id"
	// says which treatments.
	last := func(end int) bool { return end == len(request) || itemEnds[request[end]] }
	// "their first and last name" requests first_name as well.
	if len(words) == 2 {
		for i := 0; i+3 < len(request); i++ {
			if request[i] == words[0] && (request[i+1] == "and" || request[i+1] == "or") && request[i+3] == words[1] && last(i+4) {
				return true
			}
		}
	}
	for i := 0; i+len(words) <= len(request); i++ {
		if !slices.Equal(request[i:i+len(words)], words) || !last(i+len(words)) {
			continue
		}
		if slices.ContainsFunc(words, func(w string) bool { return !identifierWords[w] }) || i == 0 {
			return true
		}
		if before := request[i-1]; own[before] || listWords[before] {
			return true
		}
	}
	return false
}

// itemEnds end an item of a list of things to show.
var itemEnds = map[string]bool{",": true, "and": true, "or": true}

// listWords may stand before a name in a list of things to show.
var listWords = map[string]bool{"the": true, "and": true, "or": true, "a": true, "an": true, "their": true, "its": true, "his": true, "her": true, "each": true, "all": true}
