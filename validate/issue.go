package validate

import (
	"errors"
	"fmt"
	"strings"
)

// ErrRejected is matched (errors.Is) by every *Error returned by Validate.
var ErrRejected = errors.New("validate: query rejected")

// Severity ranks an Issue. Issues of SeverityError reject the query.
type Severity int

// Severities, from least to most serious.
const (
	SeverityInfo Severity = iota
	SeverityWarning
	SeverityError
)

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	switch s {
	case SeverityInfo:
		return "info"
	case SeverityWarning:
		return "warning"
	case SeverityError:
		return "error"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// Issue is one finding about a query: a violation (SeverityError), a lint
// warning, or a note about a rewrite (SeverityInfo).
type Issue struct {
	// Code is stable across releases; see the Code constants.
	Code     string
	Severity Severity
	// Message says what is wrong and what to do about it, in words an LLM
	// can act on.
	Message string
	// Location is the byte offset in the validated SQL text the issue
	// points at, or -1 when it applies to the statement as a whole.
	Location int
}

// String formats the issue as "V011 error at 7: function ...".
func (i Issue) String() string {
	if i.Location >= 0 {
		return fmt.Sprintf("%s %s at %d: %s", i.Code, i.Severity, i.Location, i.Message)
	}
	return fmt.Sprintf("%s %s: %s", i.Code, i.Severity, i.Message)
}

// Error is the error Validate returns for a rejected query. It lists every
// violation found, not only the first, so that a repair step can fix them
// all at once. Warnings found along the way are in Issues too.
type Error struct {
	SQL    string  // the SQL given to Validate
	Issues []Issue // at least one has SeverityError
}

// Error lists the violations.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("validate: query rejected: ")
	n := 0
	for _, is := range e.Issues {
		if is.Severity != SeverityError {
			continue
		}
		if n > 0 {
			b.WriteString("; ")
		}
		b.WriteString(is.Code)
		b.WriteString(": ")
		b.WriteString(is.Message)
		n++
	}
	return b.String()
}

// Is reports whether target is ErrRejected.
func (e *Error) Is(target error) bool { return target == ErrRejected }

// Violations returns the issues of SeverityError.
func (e *Error) Violations() []Issue {
	var out []Issue
	for _, is := range e.Issues {
		if is.Severity == SeverityError {
			out = append(out, is)
		}
	}
	return out
}

// Has reports whether a violation with the given code was found.
func (e *Error) Has(code string) bool {
	for _, is := range e.Issues {
		if is.Code == code && is.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Violation codes (always SeverityError). They are stable: new checks get
// new codes, existing codes keep their meaning.
const (
	CodeSyntax          = "V001" // the text does not parse as PostgreSQL SQL
	CodeEmpty           = "V002" // no statement at all
	CodeMultiple        = "V003" // more than one statement
	CodeNotSelect       = "V004" // the statement is not a SELECT (DML, DDL, utility: SET, COPY, DO, CALL, ...)
	CodeDataModifying   = "V005" // INSERT/UPDATE/DELETE/MERGE nested in the query (e.g. in a WITH)
	CodeSelectInto      = "V006" // SELECT ... INTO creates a table
	CodeLocking         = "V007" // FOR UPDATE / FOR SHARE / ... takes row locks
	CodeUnsupported     = "V008" // a construct outside the allow-list of node types
	CodeParam           = "V009" // a $n parameter placeholder
	CodeFuncDenied      = "V010" // function with side effects or that runs SQL from a string (never allowed)
	CodeFuncNotAllowed  = "V011" // function not in the allow-list
	CodeTableNotAllowed = "V012" // relation (or a relation's row type) not in the allowed set
	CodeSystemCatalog   = "V013" // system catalog, its row type, statistics view, or a catalog-lookup type (reg*, aclitem)
	CodeFuncNotation    = "V014" // a field selection that names no column: PostgreSQL would call a function (functional notation)
	CodePlan            = "V015" // the server's plan (EXPLAIN VERBOSE) names a function, operator or type the policy refuses, or could not be checked
	CodeType            = "V016" // a type name the validator does not know (not built in, not a configured type, not an allowed relation's row type)
	CodeRecursion       = "V020" // recursive CTE without a proven bound (monotone counter in its direction, or a walk along a table's key)
	CodeSeries          = "V021" // generate_series with non-constant or too large bounds (rows counted without overflow)
	CodeStringBomb      = "V022" // string-building call (repeat, lpad, rpad, format widths, nested) whose result size is not bounded by constants within the limit; an aggregated value built on or aggregated again; an accumulating window aggregate without a constant ROWS frame
	CodeCrossJoin       = "V023" // cartesian product of too many relations, or an accumulating aggregate over one or over a non-equi join
	CodeTooLarge        = "V024" // text over 64 KiB or a tree nested deeper than the parser allows
	CodeLookalike       = "V025" // a name the query (or its plan) uses resolves, or may resolve, to a user's function, operator, cast or domain on the search path instead of the built-in (look-alike)
	CodeSystemColumn    = "V026" // a system column (xmin, xmax, cmin, cmax, tableoid) without WithSystemColumns(true)
	CodeBudget          = "V027" // the server's plan is estimated beyond the plan budget (rows, bytes, hash table size or cost; WithPlanBudget)
	CodeOperand         = "V028" // an operator that does not check for interrupts (array &&, @>, jsonb @>, numeric % ^ ...) on a value the query builds or collects
	CodeMutable         = "V029" // the query depends on what a role other than the database's owners can change after the check: a relation that cannot be locked, a cast from or to a type such a role owns, an untyped literal beside a column of such a type, a relation the server resolves elsewhere than the validator checked
	CodeRewrite         = "V030" // the rewritten SQL did not re-validate, or a check failed on the query (internal safety net)
)

// Lint codes. Lint findings are warnings unless noted.
const (
	CodeCartesian       = "L001" // two relations with no join condition between them
	CodeUngrouped       = "L002" // column neither aggregated nor in GROUP BY
	CodeAmbiguous       = "L003" // unqualified column present in several FROM relations
	CodeSelectStar      = "L004" // SELECT * on a wide table
	CodeNullCompare     = "L005" // = NULL / <> NULL (always NULL); SeverityError
	CodeLimitNoOrder    = "L006" // LIMIT without ORDER BY (arbitrary rows)
	CodeLikeNoWild      = "L007" // LIKE pattern without % or _ (ILIKE is a case-insensitive equality and not flagged)
	CodeHavingNoGroup   = "L008" // HAVING without GROUP BY
	CodeUnknownColumn   = "L009" // column not found in any FROM relation of known columns
	CodeFanTrap         = "L010" // SUM/AVG/COUNT over rows a one-to-many join repeats (needs Table keys)
	CodeContradiction   = "L011" // a column equated to two different constants in one AND chain (never true)
	CodeUnusedRanking   = "L012" // a ranking (row_number, rank, ...) a CTE or subquery computes and nothing reads: every ranked row is returned
	CodeGroupedKeyCount = "L013" // count(DISTINCT k) in a query that groups by k: 1 in every group
	CodeAggregateSetOp  = "L014" // a statement that is INTERSECT or EXCEPT between two single rows of count, sum or avg: compares the numbers, not the rows counted
	CodeGroupOfOneRow   = "L015" // a count in a query that groups its only table by its primary key: every group is one row (needs Table.PrimaryKey)
)

// Rewrite notes (SeverityInfo).
const (
	CodeLimitAdded  = "R001" // LIMIT added because the query had none
	CodeLimitCapped = "R002" // LIMIT lowered to the configured maximum
)

// Unsafe reports whether code refuses what a query would do (write, lock,
// run several statements, call a function with side effects or outside
// the allow-list, read the system catalogs, run without bound, ...), as
// opposed to SQL that does not parse or names a table, type or column
// outside the allowed set: a caller shows the first as a policy refusal and
// the second as a mistake to fix.
func Unsafe(code string) bool {
	switch code {
	case CodeMultiple, CodeNotSelect, CodeDataModifying, CodeSelectInto, CodeLocking, CodeUnsupported, CodeParam,
		CodeFuncDenied, CodeFuncNotAllowed, CodeSystemCatalog, CodeFuncNotation, CodePlan,
		CodeRecursion, CodeSeries, CodeStringBomb, CodeCrossJoin, CodeTooLarge, CodeLookalike, CodeSystemColumn, CodeBudget, CodeOperand, CodeMutable:
		return true
	}
	return false
}
