package repair

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// AmbiguousError is returned by Fix (and Table) when a name the server
// rejected could stand for several things and nothing decides between
// them, or when what it resembles is too far from it to be replaced
// without changing what the query asks. Fix then proposes no repair for
// the failure: a wrong column that runs is worse than an error, since
// nothing downstream can tell it from a right one.
//
// errors.Is(err, ErrNoFix) holds for it. Alternatives are what a caller
// shows as candidates (e.g. a JSON "candidates" list or a repair prompt);
// Fixes are the statements with each alternative applied, for a caller
// that wants to try them itself (score them, or ask the user).
type AmbiguousError struct {
	// SQLState is the failure's SQLSTATE ("" from Table).
	SQLState string
	// Rule is the repair that was declined (RuleFuzzyColumn,
	// RuleJoinNeighbor, RuleFuzzyTable, RuleMissingFrom, RuleAmbiguous...).
	Rule string
	// Name is the rejected name as written: "nme", "c.name", "custmer".
	Name string
	// Tied is true when several alternatives are equally close; false
	// when the only ones are too loose to apply (shipped for shipped_at,
	// a neighbour's name for a generic "name", a column that would need a
	// row-multiplying JOIN, a word that may be a value).
	Tied bool
	// Alternatives are what Name could stand for, closest first (ties in
	// catalog and FROM order), at most MaxAlternatives, each as the
	// repaired statement would write it: a column reference ("p.name",
	// "countries.name"), a table ("customers", "hr.employees"), or a
	// string constant for a word that may be a value ("'shipped'").
	Alternatives []string
	// Fixes[i] is the statement with Alternatives[i] applied (empty from
	// Table). Fixes are not checked against the server.
	Fixes []Fix
}

// MaxAlternatives bounds AmbiguousError.Alternatives.
const MaxAlternatives = 8

func (e *AmbiguousError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "repair: no deterministic fix: %q ", e.Name)
	if e.Tied {
		b.WriteString("is ambiguous: ")
	} else {
		b.WriteString("is not close enough to ")
	}
	for i, a := range e.Alternatives {
		switch {
		case i == 0:
		case i == len(e.Alternatives)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(a)
	}
	return b.String()
}

// Unwrap makes errors.Is(err, ErrNoFix) hold.
func (e *AmbiguousError) Unwrap() error { return ErrNoFix }

// target is one thing an unknown name could stand for.
type target struct {
	rank  rank
	level int     // 0: the query holding the name; outer queries count up
	label string  // as the repaired statement writes it
	col   string  // the column (or table) name it resolves to
	score float64 // loose resemblance, to order weak candidates
	child bool    // a JOIN to a referencing table (repeats rows)
	table *schema.Table
	rel   *rel // the relation of a column target in the query
	rival bool // a loose column holding all the wanted words, no foreign key (see withRivals)
	edit  edit
}

// pick returns the one strongest target, or nil and the targets tied for
// strongest. Targets keep their given (catalog, FROM) order on ties.
func pick(ts []target) (*target, []target) {
	if len(ts) == 0 {
		return nil, nil
	}
	sort.SliceStable(ts, func(i, j int) bool {
		if ts[i].rank != ts[j].rank {
			return ts[i].rank < ts[j].rank
		}
		return ts[i].level < ts[j].level
	})
	n := 1
	for n < len(ts) && ts[n].rank == ts[0].rank {
		n++
	}
	best := ts[:n]
	if n > 1 {
		// The same column in the query and in an outer one: spelt right,
		// the name is the inner query's, as PostgreSQL resolves it.
		same := true
		for _, t := range best {
			same = same && t.col == best[0].col
		}
		if same {
			k := 1
			for k < n && best[k].level == best[0].level {
				k++
			}
			best = best[:k]
		}
	}
	if len(best) == 1 {
		return &best[0], nil
	}
	return nil, best
}

// byScore orders loose candidates, closest first (stable).
func byScore(ts []target) []target {
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].score > ts[j].score })
	return ts
}

// decline records that the analysis found no single safe repair; Fix turns
// it into an *AmbiguousError once the alternatives' statements are built.
func (d *doc) decline(rule, name string, tied bool, ts []target) {
	if len(ts) == 0 {
		return
	}
	var seen []string
	var keep []target
	for _, t := range ts {
		if len(keep) == MaxAlternatives {
			break
		}
		if hasString(seen, t.label+"\x00"+t.edit.note) {
			continue
		}
		seen = append(seen, t.label+"\x00"+t.edit.note)
		keep = append(keep, t)
	}
	d.declined = &declined{rule: rule, name: name, tied: tied, targets: keep}
}

type declined struct {
	rule, name string
	tied       bool
	targets    []target
}

// ambiguity builds the error for a declined repair, or nil.
func (d *doc) ambiguity(state string) *AmbiguousError {
	dc := d.declined
	if dc == nil {
		return nil
	}
	e := &AmbiguousError{SQLState: state, Rule: dc.rule, Name: dc.name, Tied: dc.tied}
	for _, t := range dc.targets {
		out, err := d.apply(t.edit)
		if err != nil {
			d.r.cfg.logger.Debug("repair: alternative dropped", "rule", t.edit.rule, "err", err)
			continue
		}
		e.Alternatives = append(e.Alternatives, t.label)
		e.Fixes = append(e.Fixes, Fix{SQL: out, Rule: t.edit.rule, Note: t.edit.note, Changes: []Change{{Rule: t.edit.rule, Note: t.edit.note}}})
	}
	if len(e.Alternatives) == 0 {
		return nil
	}
	return e
}

func hasString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
