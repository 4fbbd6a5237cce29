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

// An extreme is the end of a sort the question asks for ("the highest
// rating", "the 3 oldest teachers") and the end a query keeps: the first
// rows of a limited sort, a maximum or a minimum, a ranking window. A
// query that keeps only the other end answers the opposite question (the
// lowest rating), a mistake no word check sees: it reads and returns what
// the question names.

// end is one end a query keeps: high (the largest values first, a
// maximum) or low, and the words of the column names its key reads.
type end struct {
	high bool
	key  []string
}

// Question words that ask for one end. The high and low ones ask for it
// whatever the key; the time ones by the key: "the oldest" is the
// largest age but the earliest date. "top" asks for the high end only
// when no other word says which ("the top 3 cheapest" asks for the low).
var (
	cueHighEnd = cues.NewCue("most", "greatest", "highest", "largest", "biggest", "maximum", "longest")
	cueLowEnd  = cues.NewCue("least", "fewest", "lowest", "smallest", "minimum", "shortest", "cheapest")
	cueTimeEnd = cues.NewCue("oldest", "youngest", "latest", "newest", "earliest")
	cueTopEnd  = cues.NewCue("top")
)

// cueOrderBetween asks for an order from one end to the other.
var cueOrderBetween = cues.NewCue("from highest to lowest", "from lowest to highest", "from largest to smallest",
	"from smallest to largest", "from most to least", "from least to most", "from oldest to newest", "from newest to oldest",
	"from earliest to latest", "from latest to earliest")

// rankKeys are key words whose low values are the best: "the top 5 by
// ranking" sorts them ascending.
var rankKeys = []string{"rank", "ranking", "position", "place"}

// reversedEnd returns the end the question asks for and the one the query
// keeps instead ("highest", "lowest") when every end the query keeps is
// the other one; "", "" when the question asks for no end, for both ("the
// minimum and maximum", "from highest to lowest"), or the query keeps the
// one asked, or none.
func reversedEnd(q *cues.Reading, tree *pg_query.ParseResult) (asked, kept string) {
	if tree == nil {
		return "", ""
	}
	// 'Most Wanted' names a value; "at least 3" is a bound; "from highest
	// to lowest" asks for an order, not an end.
	q = q.Unquoted().Without(cueBound).Without(cueOrderBetween)
	high, low, timeWords := q.FindAll(cueHighEnd), q.FindAll(cueLowEnd), q.FindAll(cueTimeEnd)
	top := len(high) == 0 && len(low) == 0 && len(timeWords) == 0 && q.Has(cueTopEnd)
	if len(high) == 0 && len(low) == 0 && len(timeWords) == 0 && !top {
		return "", ""
	}
	ends := queryEnds(tree)
	if len(ends) == 0 {
		return "", ""
	}
	for _, e := range ends {
		if slices.ContainsFunc(e.key, func(w string) bool { return slices.Contains(rankKeys, w) }) {
			return "", "" // its low end is its best
		}
		// What the question asks of this key: "the oldest" is a high
		// age and a low date, and says nothing of a weight ("the
		// weight of the youngest dog").
		age, timed := slices.Contains(e.key, "age"), timeKey(e.key)
		wantHigh, wantLow := len(high) > 0 || top, len(low) > 0
		for _, m := range timeWords {
			switch {
			case !age && !timed:
				return "", ""
			case m.Text == "oldest":
				wantHigh, wantLow = wantHigh || age, wantLow || !age
			case m.Text == "youngest":
				wantHigh, wantLow = wantHigh || !age, wantLow || age
			case age:
				return "", "" // "the latest age" says no end of an age
			case m.Text == "earliest":
				wantLow = true
			default: // latest, newest
				wantHigh = true
			}
		}
		if wantHigh == wantLow || wantHigh == e.high {
			return "", "" // both asked, or this end is the one asked
		}
	}
	asked = "top"
	if words := append(append(high, low...), timeWords...); len(words) > 0 {
		asked = words[0].Text
	}
	return asked, endWord(ends[0].high, ends[0].key)
}

// endWord says an end in words: the highest values, or the latest of a
// date.
func endWord(high bool, key []string) string {
	switch timed := timeKey(key); {
	case timed && high:
		return "latest"
	case timed:
		return "earliest"
	case high:
		return "highest"
	}
	return "lowest"
}

// timeKey reports whether a key's words name a date or a time.
func timeKey(key []string) bool {
	return slices.ContainsFunc(key, func(w string) bool { return slices.Contains(timeKeyWords, w) })
}

// timeKeyWords name a date or a time in a column's name (created_at,
// start_dt, birth_year): their high end is the latest.
var timeKeyWords = []string{"date", "time", "year", "day", "month", "created", "updated", "timestamp", "dt", "at", "birthday", "dob"}

// queryEnds are the ends the query keeps, anywhere in it: the first key
// of each sort a LIMIT cuts (of a query, a WITH query or a subquery) and
// of each ranking window, and each maximum and minimum but those a cut
// sort's query returns or sorts by: there the sort keeps the end ("the
// top 3 diagnoses by maximum score" sorts the maxima).
func queryEnds(tree *pg_query.ParseResult) []end {
	var out []end
	measures := map[*pg_query.FuncCall]bool{}
	pgparse.Walk(tree.ProtoReflect(), func(m protoreflect.Message) bool {
		switch n := m.Interface().(type) {
		case *pg_query.SelectStmt:
			if n.LimitCount != nil && len(n.SortClause) > 0 {
				if e, ok := sortEnd(n.SortClause[0], n.TargetList); ok {
					out = append(out, e)
				}
				for _, list := range [][]*pg_query.Node{n.TargetList, n.SortClause} {
					for _, x := range list {
						pgparse.Walk(x.ProtoReflect(), func(m protoreflect.Message) bool {
							if f, ok := m.Interface().(*pg_query.FuncCall); ok {
								measures[f] = true
							}
							return true
						})
					}
				}
			}
		case *pg_query.FuncCall:
			switch name := strings.ToLower(builtinName(n)); {
			case measures[n]:
			case name == "max" || name == "min":
				out = append(out, end{high: name == "max", key: keyWords(n.Args...)})
			case (name == "row_number" || name == "rank" || name == "dense_rank") && n.Over != nil && len(n.Over.OrderClause) > 0:
				if e, ok := sortEnd(n.Over.OrderClause[0], nil); ok {
					out = append(out, e)
				}
			}
		}
		return true
	})
	return out
}

// sortEnd is the end a sort key keeps first: DESC keeps the high end.
// A key naming an output column (ORDER BY total) reads what that
// column's expression reads too.
func sortEnd(n *pg_query.Node, targets []*pg_query.Node) (end, bool) {
	sb := n.GetSortBy()
	if sb == nil || sb.SortbyDir == pg_query.SortByDir_SORTBY_USING {
		return end{}, false
	}
	e := end{high: sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC, key: keyWords(sb.Node)}
	if ref := sb.Node.GetColumnRef(); ref != nil && len(ref.Fields) == 1 {
		name := ref.Fields[0].GetString_().GetSval()
		for _, t := range targets {
			if rt := t.GetResTarget(); rt != nil && rt.Name != "" && strings.EqualFold(rt.Name, name) {
				e.key = append(e.key, keyWords(rt.Val)...)
			}
		}
	}
	return e, true
}

// keyWords are the lower-case words of the column names (and function
// names: count) an expression reads.
func keyWords(nodes ...*pg_query.Node) []string {
	var out []string
	for _, n := range nodes {
		if n == nil {
			continue
		}
		pgparse.Walk(n.ProtoReflect(), func(m protoreflect.Message) bool {
			switch v := m.Interface().(type) {
			case *pg_query.ColumnRef:
				if len(v.Fields) > 0 {
					for _, w := range gloss.Split(v.Fields[len(v.Fields)-1].GetString_().GetSval()) {
						out = append(out, strings.ToLower(w))
					}
				}
			case *pg_query.FuncCall:
				out = append(out, strings.ToLower(builtinName(v)))
			}
			return true
		})
	}
	return out
}
