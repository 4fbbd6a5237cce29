package semantic

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors; every *Error wraps one of them (errors.Is).
var (
	// ErrTooLarge: the file is larger than MaxFileSize (checked before parsing).
	ErrTooLarge = errors.New("semantic: file too large")
	// ErrSyntax: the file is not YAML of the model's shape (a type mismatch,
	// an unknown key, a duplicated key).
	ErrSyntax = errors.New("semantic: syntax error")
	// ErrInvalid: a required field is missing, a name is repeated or a
	// value is out of range.
	ErrInvalid = errors.New("semantic: invalid model")
	// ErrUnknownName: a table, column, measure or metric the model names
	// does not exist.
	ErrUnknownName = errors.New("semantic: unknown name")
	// ErrUnsafe: an expression or a verified query is refused by the
	// validator's safety policy (Error.Code holds the validator code).
	ErrUnsafe = errors.New("semantic: refused by the safety policy")
	// ErrParameter: a verified question's placeholders and parameters do not
	// match, or a parameter value cannot be bound.
	ErrParameter = errors.New("semantic: parameter error")
)

// Error is one problem of a model file, with where it is.
type Error struct {
	File string // the file name given to Read or Load; "" for a reader without one
	Line int    // 1-based line in File; 0 when unknown
	// Where names the item, e.g. "measure revenue" or "verified question 3".
	Where string
	// Code is the validator code (V0xx, L0xx) when the validator decided.
	Code string
	Msg  string
	Err  error // the sentinel
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("semantic: ")
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(":")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "%d:", e.Line)
	}
	if e.File != "" || e.Line > 0 {
		b.WriteString(" ")
	}
	if e.Where != "" {
		b.WriteString(e.Where)
		b.WriteString(": ")
	}
	if e.Code != "" {
		b.WriteString(e.Code)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Errors is every problem found in one model, sorted by line. errors.As
// finds the first *Error; errors.Is matches any of their sentinels.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Unwrap returns the errors, for errors.Is and errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// problems collects errors while a model is read or checked.
type problems struct {
	file string
	list Errors
}

func (p *problems) add(line int, where string, sentinel error, format string, args ...any) {
	p.list = append(p.list, &Error{File: p.file, Line: line, Where: where, Msg: fmt.Sprintf(format, args...), Err: sentinel})
}

func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	sortErrors(p.list)
	return p.list
}
