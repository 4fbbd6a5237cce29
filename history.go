package nl2sql

import (
	"fmt"
	"slices"

	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// Turn is an earlier question of a conversation and the SQL that answered
// it, with its result's column names when known.
type Turn = generate.Turn

// History limits.
const (
	// MaxHistoryTurns is the most turns History accepts; more is an
	// input error.
	MaxHistoryTurns = 20
	// promptTurns is how many of the latest turns the prompt shows.
	promptTurns = 3
)

// Retrieval reasons of the previous turn's tables: "history" when the
// question only makes sense as a follow-up (it names no table of its own)
// and the previous tables are its subject, "previous" when it stands on its
// own and they are shown for reference only (never joined in).
const (
	reasonHistory  = "history"
	reasonPrevious = "previous"
)

// History gives this request the conversation so far, oldest first: the
// prompt shows the latest turns, the previous turn's tables join the
// context, and a question that names nothing of the schema ("and in
// 2023?", "only for Sales") is answered as a follow-up of the previous
// turn instead of being refused as a retrieval miss.
func History(turns ...Turn) AskOption {
	return askOptionFunc(func(c *askConfig) { c.history = turns })
}

// checkHistory returns the input error of a history over its limits: too
// many turns, a question over the question limit, SQL over MaxSQLBytes.
func (e *Engine) checkHistory(turns []Turn) error {
	if len(turns) > MaxHistoryTurns {
		return &Error{Class: ClassInput, Code: "too_long", Message: fmt.Sprintf("the history has %d turns; the limit is %d", len(turns), MaxHistoryTurns), Err: ErrTooLong}
	}
	for i, t := range turns {
		if err := e.checkText(t.Question, ""); err != nil {
			return &Error{Class: ClassInput, Message: fmt.Sprintf("history turn %d: %s", i+1, err.(*Error).Message), Err: ErrTooLong}
		}
		if err := checkSQL(fmt.Sprintf("the SQL of history turn %d", i+1), t.SQL); err != nil {
			return err
		}
	}
	return nil
}

// withHistory adds the previous turn's tables to a retrieval result: the
// tables its SQL reads that this request may read (validated against the
// request's scope, so a turn never brings in another tenant's table). A
// question that matched nothing becomes a follow-up about them.
func (sc *scope) withHistory(rr *retrieve.Result, turns []Turn) {
	if len(turns) == 0 {
		return
	}
	vr, err := sc.validator().Validate(turns[len(turns)-1].SQL)
	if err != nil || len(vr.Tables) == 0 {
		return // nothing usable: the prompt still shows the turn
	}
	reason := reasonPrevious
	if rr.Match == retrieve.MatchNone {
		reason, rr.Match = reasonHistory, retrieve.MatchWeak
	}
	for _, name := range vr.Tables {
		if !slices.ContainsFunc(rr.Tables, func(h retrieve.TableHit) bool { return h.Name == name }) {
			rr.Tables = append(rr.Tables, retrieve.TableHit{Name: name, Reasons: []string{reason}})
		}
	}
}

// promptHistory is the part of the conversation the prompt shows.
func promptHistory(turns []Turn) []Turn {
	return turns[max(0, len(turns)-promptTurns):]
}
