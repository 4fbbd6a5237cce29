package repair

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/internal/corpus"
)

// engineRounds is how many times the engine asks Fix about one candidate
// (ask.go's maxFixRounds) before giving up.
const engineRounds = 3

// rounds is the engine's deterministic repair loop on one statement:
// Normalize, then while the server rejects it, Fix keyed on the SQLSTATE,
// taking the first fix. It stops at the first statement that runs, at the
// first Fix error, or after engineRounds fixes.
type rounds struct {
	sql     string   // the last statement sent to the server
	first   *Failure // the server's first error (nil: the input ran)
	last    *Failure // the server's error on sql (nil: sql runs)
	err     error    // Fix's error on the last failure
	applied []string // rules of the fixes taken
}

func repairRounds(ctx context.Context, t *testing.T, r *Repairer, pool *pgxpool.Pool, sql string) rounds {
	t.Helper()
	var out rounds
	norm, changes, err := r.Normalize(sql)
	if err != nil {
		t.Fatalf("Normalize: %v", err)
	}
	for _, c := range changes {
		out.applied = append(out.applied, c.Rule)
	}
	out.sql = norm
	for round := 0; ; round++ {
		f, err := failure(ctx, pool, out.sql)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if round == 0 {
			out.first = f
		}
		out.last = f
		if f == nil || round == engineRounds {
			return out
		}
		fixes, err := r.Fix(out.sql, *f)
		if err != nil {
			out.err = err
			return out
		}
		// As the engine does: a fix whose Verify query finds a row is not
		// applied.
		if fixes = verified(t, pool, fixes); len(fixes) == 0 {
			out.err = ErrNoFix
			return out
		}
		for _, c := range fixes[0].Changes {
			out.applied = append(out.applied, c.Rule)
		}
		out.sql = fixes[0].SQL
	}
}

// TestNoFixCorpus: every query of testdata/nofix fails on the fixture and
// comes out of the engine's repair loop unrepaired, with exactly the
// outcome its case states (see testdata/nofix/README.md).
func TestNoFixCorpus(t *testing.T) {
	cases, err := corpus.Read("testdata/nofix")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("%d cases, want at least 40", len(cases))
	}
	pool, cat := fixture(t)
	r := New(cat)
	ctx := context.Background()
	outcomes := map[string]int{}
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			outcome, want, err := parseOutcome(c.Code)
			if err != nil {
				t.Fatal(err)
			}
			if c.Server.Mode != "error" {
				t.Fatal("a case needs a -- server: error SQLSTATE line")
			}
			got := repairRounds(ctx, t, r, pool, c.SQL)
			switch {
			case got.first == nil:
				t.Fatalf("the broken query runs: %s", c.SQL)
			case got.first.SQLState != c.Server.SQLState:
				t.Errorf("first failure %s (%s), want %s", got.first.SQLState, got.first.Message, c.Server.SQLState)
			}
			if len(got.applied) > 0 || got.last == nil {
				t.Fatalf("repaired (%v) into %s (server: %v)", got.applied, got.sql, got.last)
			}
			if !errors.Is(got.err, ErrNoFix) {
				t.Fatalf("Fix: %v, want ErrNoFix", got.err)
			}
			var amb *AmbiguousError
			isAmb := errors.As(got.err, &amb)
			switch {
			case outcome == "none" && isAmb:
				t.Fatalf("Fix: %v, want plain ErrNoFix", got.err)
			case outcome == "none":
				outcomes[outcome]++
				return
			case !isAmb:
				t.Fatalf("Fix: %v, want an *AmbiguousError", got.err)
			}
			if amb.Tied != (outcome == "tied") || !reflect.DeepEqual(amb.Alternatives, want) {
				t.Errorf("Fix: tied %t %q, want %s %q\n%v", amb.Tied, amb.Alternatives, outcome, want, got.err)
			}
			if amb.SQLState != got.last.SQLState || amb.Name == "" || len(amb.Fixes) != len(amb.Alternatives) {
				t.Errorf("AmbiguousError %+v for failure %+v", amb, got.last)
			}
			// Every alternative is a real candidate: the server resolves
			// it (its statement runs, or fails on something else, e.g.
			// shipped_at is no boolean).
			for i, fx := range amb.Fixes {
				f, err := failure(ctx, pool, fx.SQL)
				if err != nil || f != nil && f.SQLState == got.last.SQLState && f.Message == got.last.Message {
					t.Errorf("alternative %s: %s fails the same way: %v %v", amb.Alternatives[i], fx.SQL, f, err)
				}
			}
			// The same answer every time (no map order leaks into it).
			for i := 0; i < 5; i++ {
				if _, again := r.Fix(got.sql, *got.last); !reflect.DeepEqual(again, got.err) {
					t.Fatalf("Fix again: %v, first %v", again, got.err)
				}
			}
			outcomes[outcome]++
		})
	}
	t.Logf("%d no-fix cases: %v", len(cases), outcomes)
}

// parseOutcome reads an "-- expect:" value: "none", or "tied"/"loose"
// followed by alternatives separated by " | ".
func parseOutcome(code string) (string, []string, error) {
	outcome, rest, _ := strings.Cut(code, " ")
	switch outcome {
	case "none":
		if rest != "" {
			return "", nil, fmt.Errorf("expect %q: none takes no alternatives", code)
		}
		return outcome, nil, nil
	case "tied", "loose":
		var alts []string
		for _, a := range strings.Split(rest, "|") {
			if a = strings.TrimSpace(a); a != "" {
				alts = append(alts, a)
			}
		}
		if len(alts) == 0 {
			return "", nil, fmt.Errorf("expect %q: no alternatives", code)
		}
		return outcome, alts, nil
	}
	return "", nil, fmt.Errorf("expect %q: want none, tied or loose", code)
}
