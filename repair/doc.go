// Package repair turns SQL that failed on PostgreSQL into SQL that runs,
// deterministically where it can, and writes a targeted prompt for an LLM
// where it cannot.
//
// Two entry points share one Repairer built on the schema catalog:
//
//	r := repair.New(cat, repair.WithSearchPath("public"))
//
//	// Before running: MySQL, SQLite and T-SQL idioms to PostgreSQL
//	// (backticks, LIMIT a,b, TOP n, IFNULL, YEAR(x), DATE_ADD, DATEDIFF,
//	// TIMESTAMPDIFF, strftime, julianday, date(x, '-30 days'), "string"
//	// values, SUM(boolean), ...).
//	sql, changes, err := r.Normalize(sql)
//
//	// After a failure: candidate fixes for the server's error, best first.
//	var pgErr *pgconn.PgError
//	if errors.As(err, &pgErr) {
//		f := repair.Failure{SQLState: pgErr.Code, Message: pgErr.Message,
//			Detail: pgErr.Detail, Hint: pgErr.Hint, Position: int(pgErr.Position)}
//		fixes, err := r.Fix(sql, f)
//		switch {
//		case errors.Is(err, repair.ErrNoFix):
//			prompt := r.Prompt(sql, f) // ask the LLM with the exact columns and JOINs
//		case err == nil:
//			sql = fixes[0].SQL // run it; on a new error, call Fix again
//		}
//	}
//
// Fix answers these SQLSTATEs: 42703 undefined column (name matching with
// abbreviations, a column of a table one foreign key away — the JOIN is
// added —, a double-quoted value, a phantom ORDER BY or output column
// dropped; never a filter, except one whose value names the scope schema
// of a scoped Repairer), 42P01 undefined table or missing FROM entry
// (misspelt names, other schemas, a JOIN to the table an alias meant),
// 42702 ambiguous column, 42803 grouping (only columns functionally
// dependent on the grouped ones, through keys and join equalities, are
// added; SQLite's bare columns beside one MIN or MAX become the row holding
// the extreme), 42883 undefined function or operator and 42804 datatype
// mismatch (casts where the message says the types failed; a difference of
// dates is already days), 22P02 for a text constant among numeric
// COALESCE/CASE branches. A fix is proposed only where it keeps the
// query's meaning. Any failure also gets the Normalize result as first candidate
// when a dialect rule applies. Each Fix carries a stable Rule code (the
// Rule... constants) so callers can count or filter repairs.
//
// Every decision is made on the libpg_query parse tree and the output is
// deparsed by libpg_query. Only text that does not parse gets token-level
// rewrites first, from a tokenizer that leaves string literals, quoted
// identifiers and comments alone. A Repairer is immutable and safe for
// concurrent use; it does no I/O.
package repair
