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
// rows of a limited sort, a maximum or a minimum, a ranking window,
// DISTINCT ON's first row, a comparison with ALL. A query that keeps only
// the other end answers the opposite question (the lowest rating), a
// mistake no word check sees: it reads and returns what the question
// names. When a word's end cannot be told ("the most affordable", "the
// biggest drop", "the longest" of a date), it says nothing.

// end is one end a query keeps: high (the largest values first, a
// maximum) or low, and the words of the column names its key reads.
type end struct {
	high bool
	key  []string
	// timed is true when the key is a date or a time itself (not a
	// difference of two, which is a duration): its high end is the
	// latest.
	timed bool
}

// Question words that ask for one end. The high and low ones ask for it
// whatever the key; the time ones by the key: "the oldest" is the
// largest age but the earliest date. "top" and "bottom" ask for an end
// only when no other word says which ("the top 3 cheapest" asks for the
// low).
var (
	cueHighEnd = cues.NewCue("most", "greatest", "highest", "largest", "biggest", "maximum", "longest", "tallest", "heaviest", "deepest")
	cueLowEnd  = cues.NewCue("least", "fewest", "lowest", "smallest", "minimum", "shortest", "cheapest")
	cueTimeEnd = cues.NewCue("oldest", "youngest", "latest", "newest", "earliest")
	cueTopEnd  = cues.NewCue("top")
	cueBottom  = cues.NewCue("bottom")
)

// cueOrderBetween asks for an order from one end to the other.
var cueOrderBetween = cues.NewCue("from highest to lowest", "from lowest to highest", "from largest to smallest",
	"from smallest to largest", "from most to least", "from least to most", "from oldest to newest", "from newest to oldest",
	"from earliest to latest", "from latest to earliest")

// rankKeys are key words whose low values are the best: "the top 5 by
// ranking" sorts them ascending. "top" says nothing of a time, a
// distance or a duration either: the top finishers have the lowest times.
var (
	rankKeys   = []string{"rank", "ranking", "position", "place", "seed"}
	bestIsLow  = []string{"distance", "duration"}
	inverseAdj = []string{"affordable", "inexpensive", "economical", "senior", "junior"}
	// lossWords after a superlative make its end the lowest value of a
	// signed measure, or the highest of a positive one: "the biggest
	// drop", "the largest loss" say no end.
	lossWords = []string{"drop", "drops", "decline", "declines", "decrease", "decreases", "loss", "losses", "fall", "falls",
		"reduction", "reductions", "deficit", "deficits"}
)

// reversedEnd returns the end the question asks for and the one the query
// keeps instead ("highest", "lowest") when every end the query keeps is
// the other one; "", "" when the question asks for no end, for both ("the
// minimum and maximum", "from highest to lowest"), an end it cannot tell,
// or the query keeps the one asked, or none. q is the question read
// without its quoted values ('Most Wanted' names a value).
func reversedEnd(q *cues.Reading, tree *pg_query.ParseResult) (asked, kept string) {
	if tree == nil {
		return "", ""
	}
	// "at least 3" is a bound; "from highest to lowest" asks for an
	// order, not an end.
	q = q.Without(cueBound).Without(cueOrderBetween)
	if !q.Has(cueHighEnd) && !q.Has(cueLowEnd) && !q.Has(cueTimeEnd) && !q.Has(cueTopEnd) && !q.Has(cueBottom) {
		return "", "" // most questions: no tree walk
	}
	cols := columnWords(tree)
	high, low, timeWords := endWords(q, cueHighEnd, cols), endWords(q, cueLowEnd, cols), endWords(q, cueTimeEnd, cols)
	for _, m := range append(append(slices.Clone(high), low...), timeWords...) {
		after := q.After(m, 2)
		if slices.ContainsFunc(after, func(w string) bool { return slices.Contains(lossWords, w) }) ||
			(m.Text == "most" || m.Text == "least") && len(after) > 0 && slices.Contains(inverseAdj, after[0]) {
			return "", "" // "the biggest drop", "the most affordable"
		}
	}
	weak := ""
	if len(high) == 0 && len(low) == 0 && len(timeWords) == 0 {
		switch top, bottom := endWords(q, cueTopEnd, cols), endWords(q, cueBottom, cols); {
		case len(top) > 0 && len(bottom) == 0 && !superlativeAfter(q, top[0]):
			weak, high = "top", top
		case len(bottom) > 0 && len(top) == 0 && !superlativeAfter(q, bottom[0]):
			weak, low = "bottom", bottom
		default:
			return "", ""
		}
	}
	ends := queryEnds(tree)
	if len(ends) == 0 {
		return "", ""
	}
	for _, e := range ends {
		if hasAny(e.key, rankKeys) || weak != "" && (e.timed || hasAny(e.key, bestIsLow)) {
			return "", "" // its low end is its best
		}
		// What the question asks of this key: "the oldest" is a high
		// age and a low date, and says nothing of a weight ("the
		// weight of the youngest dog"); "the longest" of a date is its
		// earliest, "the shortest" its latest: no end to tell.
		age, timed := slices.Contains(e.key, "age"), e.timed
		if timed && slices.ContainsFunc(append(slices.Clone(high), low...), func(m cues.Match) bool {
			return m.Text == "longest" || m.Text == "shortest"
		}) {
			return "", ""
		}
		wantHigh, wantLow := len(high) > 0, len(low) > 0
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
	asked = weak
	if words := append(append(high, low...), timeWords...); weak == "" && len(words) > 0 {
		asked = words[0].Text
	}
	return asked, endWord(ends[0].high, ends[0].timed)
}

// endWords are the places q says cue as a word of the question: not a
// word of a name ("Top Gun"), of a bound ("a minimum of 3 seats"), nor of
// a column the query reads ("the top speed": top_speed; "the highest
// minimum wage": minimum_wage).
func endWords(q *cues.Reading, cue cues.Cue, cols [][]string) []cues.Match {
	var out []cues.Match
	for _, m := range q.FindAll(cue) {
		if q.InName(m) || q.Before(m) == "a" || namesColumn(q, m, cols) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// namesColumn reports whether m and the word after it are words of one
// column the query reads: the question names the column, not an
// aggregate or an end ("the maximum temperature": max_temperature_f).
func namesColumn(q *cues.Reading, m cues.Match, cols [][]string) bool {
	next := q.After(m, 1)
	if len(next) == 0 {
		return false
	}
	word, following := gloss.Stem(m.Text), gloss.Stem(next[0])
	return slices.ContainsFunc(cols, func(c []string) bool {
		return slices.Contains(c, word) && slices.Contains(c, following)
	})
}

// columnWords are the stems of the words of every column name the query
// reads, abbreviations spelled out (max_temperature_f: maximum,
// temperature, f), one list per column reference; a name the query gives
// an output itself (AS max_itch_score) is its own, not the schema's.
func columnWords(tree *pg_query.ParseResult) [][]string {
	var out [][]string
	for _, name := range columnRefNames(tree) {
		var words []string
		for _, w := range gloss.Words(name) {
			words = append(words, gloss.Stem(strings.ToLower(w)))
		}
		out = append(out, words)
	}
	return out
}

// columnRefNames are the names, as written, of the columns the tree's
// column references read (their last field; a star reads none), but the
// names the query gives its outputs: ORDER BY store_12_sales reads the
// query's own output, not a column.
func columnRefNames(tree *pg_query.ParseResult) []string {
	aliases := outputAliases(tree)
	var out []string
	pgparse.Walk(tree.ProtoReflect(), func(m protoreflect.Message) bool {
		if ref, ok := m.Interface().(*pg_query.ColumnRef); ok && len(ref.Fields) > 0 {
			if name := columnName(ref); name != "" && !aliases[strings.ToLower(name)] {
				out = append(out, name)
			}
		}
		return true
	})
	return out
}

// outputAliases are the names the query gives its outputs (AS total),
// in lower case, anywhere in it.
func outputAliases(tree *pg_query.ParseResult) map[string]bool {
	out := map[string]bool{}
	pgparse.Walk(tree.ProtoReflect(), func(m protoreflect.Message) bool {
		if rt, ok := m.Interface().(*pg_query.ResTarget); ok && rt.Name != "" {
			out[strings.ToLower(rt.Name)] = true
		}
		return true
	})
	return out
}

// superlativeAfter reports whether a word of the "-est" form follows m
// within two words: "the top 5 fastest laps" asks for the fastest, whose
// end "top" does not say.
func superlativeAfter(q *cues.Reading, m cues.Match) bool {
	return slices.ContainsFunc(q.After(m, 2), func(w string) bool { return len(w) > 5 && strings.HasSuffix(w, "est") })
}

func hasAny(words, of []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return slices.Contains(of, w) })
}

// endWord says an end in words: the highest values, or the latest of a
// date.
func endWord(high, timed bool) string {
	switch {
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
func timeKey(key []string) bool { return hasAny(key, timeKeyWords) }

// timeKeyWords name a date or a time in a column's name (created_at,
// start_dt, birth_year, signup_ts, year_founded): their high end is the
// latest.
var timeKeyWords = []string{"date", "time", "year", "day", "month", "created", "updated", "timestamp", "dt", "at", "birthday", "dob",
	"datetime", "founded", "established", "built", "opened", "born", "birth"}

// queryEnds are the ends the query keeps, anywhere in it: the first key
// of each sort a LIMIT cuts (of a query, a WITH query or a subquery), of
// each ranking or first_value window, the first key after DISTINCT ON's,
// each comparison with ALL of a subquery (price >= ALL (...)), and each
// maximum and minimum but those a cut sort's query returns or sorts by:
// there the sort keeps the end ("the top 3 diagnoses by maximum score"
// sorts the maxima).
func queryEnds(tree *pg_query.ParseResult) []end {
	var out []end
	measures := map[*pg_query.FuncCall]bool{}
	pgparse.Walk(tree.ProtoReflect(), func(m protoreflect.Message) bool {
		switch n := m.Interface().(type) {
		case *pg_query.SelectStmt:
			if on := len(n.DistinctClause); on > 0 && n.DistinctClause[0].GetNode() != nil && len(n.SortClause) > on {
				if e, ok := sortEnd(n.SortClause[on], n.TargetList); ok {
					out = append(out, e) // DISTINCT ON keeps each key's first row
				}
			}
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
		case *pg_query.SubLink:
			if n.SubLinkType == pg_query.SubLinkType_ALL_SUBLINK && len(n.OperName) > 0 {
				switch op := n.OperName[len(n.OperName)-1].GetString_().GetSval(); op {
				case ">=", ">", "<=", "<":
					out = append(out, keyEnd(op[0] == '>', n.Testexpr))
				}
			}
		case *pg_query.FuncCall:
			switch name := strings.ToLower(pgparse.BuiltinName(n)); {
			case measures[n]:
			case name == "max" || name == "min":
				if len(n.Args) == 1 {
					out = append(out, keyEnd(name == "max", n.Args[0]))
				}
			case (name == "row_number" || name == "rank" || name == "dense_rank" || name == "first_value") && n.Over != nil && len(n.Over.OrderClause) > 0:
				if e, ok := sortEnd(n.Over.OrderClause[0], nil); ok {
					out = append(out, e)
				}
			}
		}
		return true
	})
	return out
}

// sortEnd is the end a sort key keeps first: DESC keeps the high end. A
// key naming an output column (ORDER BY total, ORDER BY 2) reads what that
// column's expression reads too.
func sortEnd(n *pg_query.Node, targets []*pg_query.Node) (end, bool) {
	sb := n.GetSortBy()
	if sb == nil || sb.SortbyDir == pg_query.SortByDir_SORTBY_USING {
		return end{}, false
	}
	key := sb.Node
	if k, ok := pgparse.OutputPosition(key, len(targets)); ok {
		key = targets[k-1].GetResTarget().GetVal()
	} else if ref := key.GetColumnRef(); ref != nil && len(ref.Fields) == 1 {
		name := ref.Fields[0].GetString_().GetSval()
		for _, t := range targets {
			if rt := t.GetResTarget(); rt != nil && rt.Name != "" && strings.EqualFold(rt.Name, name) {
				key = rt.Val
			}
		}
	}
	e := keyEnd(sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC, key)
	if e.key == nil {
		return end{}, false
	}
	if key != sb.Node {
		e.key = append(keyWords(sb.Node), e.key...)
	}
	return e, true
}

// keyEnd is the end high keeps of key. A negated key (-price,
// current_date - birth_date) keeps the other end; a difference of two
// times is a duration, no time; a difference of two other columns
// (sales_2024 - sales_2023) keeps no end to tell (a nil key).
func keyEnd(high bool, key *pg_query.Node) end {
	e := end{high: high, key: keyWords(key)}
	x := pgparse.Uncast(key).GetAExpr()
	if x == nil || x.Kind != pg_query.A_Expr_Kind_AEXPR_OP || len(x.Name) != 1 {
		e.timed = timeKey(e.key) && x == nil
		return e
	}
	if x.Name[0].GetString_().GetSval() != "-" {
		return e // a sum, a ratio, a product: no time
	}
	switch {
	case x.Lexpr == nil || constantOrClock(x.Lexpr): // -price, current_date - birth_date
		e.high, e.timed = !e.high, timeKey(e.key)
	case timeKey(keyWords(x.Lexpr)) && timeKey(keyWords(x.Rexpr)): // arrival_time - departure_time
	default:
		e.key = nil
	}
	return e
}

// constantOrClock reports whether an expression is a constant or reads
// the clock only (2024, current_date, now()): what a column subtracted
// from it is negated by.
func constantOrClock(n *pg_query.Node) bool {
	n = pgparse.Uncast(n)
	f := n.GetFuncCall()
	return n.GetAConst() != nil || clockValue(n) || f != nil && len(f.Args) == 0 && nowFunctions[strings.ToLower(pgparse.BuiltinName(f))]
}

// keyWords are the lower-case words of the column names (abbreviations
// spelled out: signup_ts reads signup, timestamp) and function names
// (count) an expression reads.
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
					for _, w := range gloss.Words(columnName(v)) {
						out = append(out, strings.ToLower(w))
					}
				}
			case *pg_query.FuncCall:
				out = append(out, strings.ToLower(pgparse.BuiltinName(v)))
			}
			return true
		})
	}
	return out
}
