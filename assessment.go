package nl2sql

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/describe"
)

// Alternatives shown at most, and rows each.
const (
	maxAlternatives = 2
	alternativeRows = 3
	// minAlternativeSupport is the share of the votes an answer needs to
	// be shown as an alternative: one stray sample is not a reading of
	// the question.
	minAlternativeSupport = 0.2
)

// assess calibrates the chosen candidate's signals into a confidence (in
// [0, 1]) and a verdict, and gathers the alternatives when the candidates
// disagree.
func (e *Engine) assess(sc *scoring, ok []*candidate, ac askConfig) (float64, Assessment) {
	s := confidence.Of(sc.in, sc.scores, sc.best)
	a := Assessment{Signals: &s}
	p := e.cfg.calibrator.Confidence(&s)
	if math.IsNaN(p) {
		p = 0
	}
	p = max(0, min(1, deviationCap(p, &s)))
	switch {
	case p < ac.abstain:
		a.Verdict = VerdictAbstained
	case p < e.cfg.uncertain:
		a.Verdict = VerdictUncertain
	default:
		a.Verdict = VerdictAnswered
	}
	a.Reasons = s.Reasons()
	if a.Verdict != VerdictAnswered {
		a.Alternatives, a.Clarify = alternatives(sc, ok)
	}
	return p, a
}

// alternatives returns the strongest answers other than the chosen one
// (one per distinct result, or per distinct query when results were not
// compared), strongest first, and a question that tells the first one
// from the chosen one.
func alternatives(sc *scoring, ok []*candidate) ([]Alternative, string) {
	type group struct {
		key   string
		votes int
		rep   int // its best-scored candidate
	}
	keyOf := func(i int) string {
		if sc.runs[i].group >= 0 {
			return "r" + strconv.Itoa(sc.runs[i].group)
		}
		return "q" + ok[i].validated.SQL
	}
	var groups []*group
	total := 0
	for i := range ok {
		total += ok[i].Votes
		k := keyOf(i)
		j := slices.IndexFunc(groups, func(g *group) bool { return g.key == k })
		if j < 0 {
			groups = append(groups, &group{key: k, rep: i})
			j = len(groups) - 1
		}
		g := groups[j]
		g.votes += ok[i].Votes
		if sc.scores[i] > sc.scores[g.rep] {
			g.rep = i
		}
	}
	chosen := keyOf(sc.best)
	groups = slices.DeleteFunc(groups, func(g *group) bool {
		return g.key == chosen || total == 0 || float64(g.votes)/float64(total) < minAlternativeSupport
	})
	slices.SortStableFunc(groups, func(a, b *group) int {
		if a.votes != b.votes {
			return b.votes - a.votes
		}
		switch {
		case sc.scores[a.rep] > sc.scores[b.rep]:
			return -1
		case sc.scores[a.rep] < sc.scores[b.rep]:
			return 1
		}
		return 0
	})
	if len(groups) > maxAlternatives {
		groups = groups[:maxAlternatives]
	}
	var out []Alternative
	var first *describe.Description // out[0]'s
	for _, g := range groups {
		c := ok[g.rep]
		alt := Alternative{SQL: c.validated.SQL, Support: float64(g.votes) / float64(total)}
		if d := sc.described[g.rep]; d != nil {
			alt.Description = d.Text
		}
		if len(out) == 0 {
			first = sc.described[g.rep]
		}
		if r := sc.runs[g.rep].result; r != nil {
			for _, col := range r.Columns {
				alt.Columns = append(alt.Columns, Column{Name: col.Name, Type: col.Type})
			}
			alt.Rows = r.Rows[:min(len(r.Rows), alternativeRows)]
		}
		out = append(out, alt)
	}
	if len(out) == 0 {
		return nil, ""
	}
	return out, clarify(sc.described[sc.best], first)
}

// clarify asks the question that tells query a from query b, from the
// first part their descriptions da and db differ in: the sort, the
// grouping, the conditions, what they return, what they read ("By order
// date or by ship date?"); "" when either is not described (nil).
func clarify(da, db *describe.Description) string {
	if da == nil || db == nil {
		return ""
	}
	either := func(x, y string) string {
		r, n := utf8.DecodeRuneInString(x)
		return string(unicode.ToUpper(r)) + x[n:] + " or " + y + "?"
	}
	// side says one side's part, or its absence.
	side := func(prefix, s, none string) string {
		if s == "" {
			return none
		}
		return prefix + s
	}
	if x, y, ok := differ(da.Order, db.Order, stripDirection); ok {
		return either(side("by ", x, "in any order"), side("by ", y, "in any order"))
	}
	if x, y, ok := differ(da.GroupBy, db.GroupBy, nil); ok {
		return either(side("for each ", x, "in total"), side("for each ", y, "in total"))
	}
	if x, y, ok := differ(da.Filters, db.Filters, nil); ok {
		return either(side("where ", x, "without that condition"), side("where ", y, "without that condition"))
	}
	if x, y, ok := differ(da.Columns, db.Columns, nil); ok && x != "" && y != "" {
		return either(x, y)
	}
	if x, y, ok := differ(da.Tables, db.Tables, nil); ok && x != "" && y != "" {
		return either("from "+x, "from "+y)
	}
	if da.Text != db.Text {
		return "Do you mean: " + strings.TrimSuffix(da.Text, ".") + "; or: " + strings.TrimSuffix(db.Text, ".") + "?"
	}
	return ""
}

// differ returns what a has that b lacks and the other way round (each
// joined with "and"; "" for none), and whether they differ at all.
func differ(a, b []string, norm func(string) string) (string, string, bool) {
	if norm == nil {
		norm = func(s string) string { return s }
	}
	only := func(x, y []string) []string {
		var out []string
		for _, v := range x {
			if !slices.ContainsFunc(y, func(w string) bool { return norm(w) == norm(v) }) {
				out = append(out, norm(v))
			}
		}
		return out
	}
	x, y := only(a, b), only(b, a)
	return strings.Join(x, " and "), strings.Join(y, " and "), len(x)+len(y) > 0
}

// stripDirection drops a sort key's direction ("(highest first)").
func stripDirection(s string) string {
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		return s[:i]
	}
	return s
}
