package nl2sql

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// Input limits. They are checked first, before any retrieval, linking,
// tokenizing or parsing, so an over-long input costs nothing but its length
// check (see WithInputLimits).
const (
	// DefaultMaxQuestionChars is the default longest question, in
	// characters (Unicode code points).
	DefaultMaxQuestionChars = 4000
	// DefaultMaxEvidenceChars is the default longest evidence text, in
	// characters.
	DefaultMaxEvidenceChars = 8000
	// MaxSQLBytes is the longest SQL text Check, Repair, Pick and Run accept,
	// in bytes (64 KiB: what the parser takes; validate reports longer text
	// as V024).
	MaxSQLBytes = pgparse.MaxLen
)

// WithInputLimits sets the longest question and evidence text Ask, SchemaContext
// and Pick accept, in characters (defaults DefaultMaxQuestionChars and
// DefaultMaxEvidenceChars; 0 keeps the default). A longer input fails at
// once with an *Error of class ClassInput wrapping ErrTooLong.
func WithInputLimits(questionChars, evidenceChars int) Option {
	return optionFunc(func(c *config) {
		if questionChars > 0 {
			c.limits.question = questionChars
		}
		if evidenceChars > 0 {
			c.limits.evidence = evidenceChars
		}
	})
}

func (l inputLimits) orDefault() inputLimits {
	if l.question <= 0 {
		l.question = DefaultMaxQuestionChars
	}
	if l.evidence <= 0 {
		l.evidence = DefaultMaxEvidenceChars
	}
	return l
}

// tooLongChars reports whether s has more than max characters, cheaply: a
// text of more than 4*max bytes is too long without counting, and a shorter
// one is counted (at most 4*max bytes read).
func tooLongChars(s string, max int) bool {
	if len(s) <= max {
		return false
	}
	if len(s) > utf8.UTFMax*max {
		return true
	}
	return utf8.RuneCountInString(s) > max
}

// checkText returns the input error of a question and evidence over the
// engine's limits, nil if both fit.
func (e *Engine) checkText(question, evidence string) error {
	l := e.cfg.limits.orDefault()
	if tooLongChars(question, l.question) {
		return tooLong("the question", chars(question, l.question), l.question, "characters")
	}
	if tooLongChars(evidence, l.evidence) {
		return tooLong("the evidence", chars(evidence, l.evidence), l.evidence, "characters")
	}
	return nil
}

// chars is how many characters s has, said as cheaply as tooLongChars
// decided: counted when s is at most UTFMax*max bytes, else the lower
// bound its bytes give ("at least N").
func chars(s string, max int) string {
	if len(s) > utf8.UTFMax*max {
		return fmt.Sprintf("at least %d", (len(s)+utf8.UTFMax-1)/utf8.UTFMax)
	}
	return strconv.Itoa(utf8.RuneCountInString(s))
}

// checkQuestion returns the input error of a question to answer (empty,
// or over its limit) and its evidence.
func (e *Engine) checkQuestion(question, evidence string) error {
	if strings.TrimSpace(question) == "" {
		return errEmptyQuestion()
	}
	return e.checkText(question, evidence)
}

// checkSQL returns the input error of SQL text over MaxSQLBytes.
func checkSQL(what, sql string) error {
	if len(sql) > MaxSQLBytes {
		e := tooLong(what, strconv.Itoa(len(sql)), MaxSQLBytes, "bytes")
		e.Code = validate.CodeTooLarge
		return e
	}
	return nil
}

// errEmptyQuestion is the input error of a question with nothing to
// answer (empty, or only white space).
func errEmptyQuestion() *Error { return &Error{Class: ClassInput, Message: "empty question"} }

// tooLong is the input error of a text of size units over limit: a text
// is measured in the unit its limit is set in (characters or bytes).
func tooLong(what, size string, limit int, unit string) *Error {
	return &Error{Class: ClassInput, Message: fmt.Sprintf("%s is too long (%s %s; the limit is %d %s)", what, size, unit, limit, unit), Err: ErrTooLong}
}
