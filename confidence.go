package nl2sql

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/describe"
)

// Verdict says what the engine makes of its answer, from its calibrated
// confidence (Result.Confidence): answer, answer with a caveat, or refuse.
// In JSON it is the "status" of a Result or a pick (Candidate.Status is
// another thing: what checking one candidate found).
type Verdict string

// Verdicts.
const (
	// VerdictAnswered: the confidence is at least the uncertain threshold
	// (WithUncertainBelow, default DefaultUncertainBelow).
	VerdictAnswered Verdict = "answered"
	// VerdictUncertain: the query ran, but its confidence is below the
	// uncertain threshold: show the answer with its Reasons and
	// Alternatives, as a guess.
	VerdictUncertain Verdict = "uncertain"
	// VerdictAbstained: the confidence is below the minimum
	// (WithMinConfidence); Ask did not run the query and returned
	// ErrLowConfidence with the Result's Reasons and Alternatives.
	VerdictAbstained Verdict = "abstained"
)

// DefaultUncertainBelow is the default uncertain threshold: answers less
// likely than this to be right are VerdictUncertain. On spider-pools,
// cross-validated by database, answers at or above it are right about 9
// times in 10 (docs/benchmarks.md).
const DefaultUncertainBelow = 0.7

// ErrLowConfidence is the cause (errors.Is) of the ErrNoAnswer an Ask
// returns when the answer's confidence is below WithMinConfidence: the
// Result still carries the SQL it did not run, the Reasons and the
// Alternatives.
var ErrLowConfidence = errors.New("nl2sql: low confidence")

// codeLowConfidence is the Error.Code of an abstention.
const codeLowConfidence = "low_confidence"

// WithCalibrator sets how the signals of an answer become its confidence
// (default confidence.Default(); nil keeps it).
func WithCalibrator(c confidence.Calibrator) Option {
	return optionFunc(func(cfg *config) {
		if c != nil {
			cfg.calibrator = c
		}
	})
}

// WithMinConfidence makes Ask abstain, with ErrLowConfidence and without
// running the query, when the answer's confidence is below p (default 0:
// never abstain). It is WithAbstainBelow's new name.
func WithMinConfidence(p float64) Option { return optionFunc(func(c *config) { c.abstain = p }) }

// MinConfidence overrides WithMinConfidence for this request.
func MinConfidence(p float64) AskOption {
	return askOptionFunc(func(c *askConfig) { c.abstain = p })
}

// WithUncertainBelow sets the confidence below which an answer is
// VerdictUncertain (default DefaultUncertainBelow).
func WithUncertainBelow(p float64) Option { return optionFunc(func(c *config) { c.uncertain = p }) }

// Alternative is another answer the candidates gave, when they disagree:
// shown beside the chosen one so that a user can say which they meant.
type Alternative struct {
	SQL         string   `json:"sql"`
	Description string   `json:"description,omitempty"`
	Columns     []Column `json:"columns,omitempty"`
	// Rows are its first rows (at most alternativeRows), when it was run
	// to compare results.
	Rows [][]any `json:"rows,omitempty"`
	// Support is the share of the candidates' votes that gave this answer.
	Support float64 `json:"support"`
}

// Alternatives shown at most, and rows each.
const (
	maxAlternatives = 2
	alternativeRows = 3
	// minAlternativeSupport is the share of the votes an answer needs to
	// be shown as an alternative: one stray sample is not a reading of
	// the question.
	minAlternativeSupport = 0.2
)

// Assessment is what the engine makes of its chosen answer beside its
// Confidence, in Result and PickResult.
type Assessment struct {
	// Verdict is what the engine makes of the answer by its Confidence:
	// answered, uncertain (below WithUncertainBelow: show it as a guess)
	// or abstained (below WithMinConfidence: Ask did not run the query).
	// JSON calls it "status"; empty when no query was chosen.
	Verdict Verdict `json:"status,omitempty"`
	// Reasons say in words why the answer may be wrong ("the question
	// asks for 5 rows; the query returns one count", "the query computes
	// revenue without its filter status <> 'Cancelled'"); empty when
	// nothing is in doubt.
	Reasons []string `json:"reasons,omitempty"`
	// Alternatives are the strongest other answers the candidates gave,
	// for an uncertain or abstained answer whose candidates disagree;
	// Clarify is the question that tells the chosen answer from the first
	// alternative ("By order date or by ship date?").
	Alternatives []Alternative `json:"alternatives,omitempty"`
	Clarify      string        `json:"clarify,omitempty"`
	// Signals are the evidence the confidence was computed from; nil when
	// no query was chosen.
	Signals *confidence.Signals `json:"signals,omitempty"`
}

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
	for _, g := range groups {
		c := ok[g.rep]
		alt := Alternative{SQL: c.validated.SQL, Support: float64(g.votes) / float64(total)}
		if d, err := describe.SQL(alt.SQL); err == nil {
			alt.Description = d.Text
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
	return out, clarify(ok[sc.best].validated.SQL, out[0].SQL)
}

// clarify asks the question that tells query a from query b, from the
// first part their descriptions differ in: the sort, the grouping, the
// conditions, what they return, what they read ("By order date or by ship
// date?").
func clarify(a, b string) string {
	da, erra := describe.SQL(a)
	db, errb := describe.SQL(b)
	if erra != nil || errb != nil {
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
