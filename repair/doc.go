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
//		var amb *repair.AmbiguousError
//		switch {
//		case errors.As(err, &amb):
//			// Several targets, or only loose ones: amb.Alternatives
//			// ("p.name", "c.name") for the user or the repair prompt.
//		case errors.Is(err, repair.ErrNoFix):
//			prompt := r.Prompt(sql, f) // ask the LLM with the exact columns and JOINs
//		case err == nil:
//			sql = fixes[0].SQL // run it; on a new error, call Fix again
//		}
//	}
//
// Fix answers these SQLSTATEs: 42703 undefined column, 42P01 undefined
// table or missing FROM entry, 42702 ambiguous column (each with the
// precision rules below; 42703 also drops a filter whose value names the
// scope schema of a scoped Repairer), 42803 grouping (columns functionally
// dependent on the grouped ones through keys and join equalities; other
// columns of the top-level SELECT with a Verify query that checks the data
// holds one value per group; SQLite's bare columns beside one MIN or MAX
// become the row holding the extreme), 42883 undefined function or
// operator and 42804 datatype mismatch (casts where the message says the
// types failed; a difference of dates is already days; text compared in
// order, <, >, <= or >=, with a number or a date is read as a number
// (numeric) or that date type, horsepower::numeric > 150, never the number
// as text, which would put '98' above '150'; the cast goes where the
// values are compared: inside min, max, greatest and least, inside a
// scalar subquery's output, on an array's elements for ANY and ALL; a row
// compared in order is left alone; equality keeps the text reading first), 22P02 for a text
// constant among numeric COALESCE/CASE branches.
// Any failure also gets the Normalize result as first candidate when a
// dialect rule applies. Each Fix carries a stable Rule code (the Rule...
// constants) so callers can count or filter repairs.
//
// # Precision first
//
// A wrong name that runs is worse than an error: nothing downstream can
// tell it from a right one. So a name is replaced only when the repair
// keeps the query's meaning and exactly one target is plausible; when
// several are (or only loosely similar ones), Fix proposes nothing for that
// failure and returns an *AmbiguousError listing them.
//
//   - Plausible means, strongest first: the same name but for case; the
//     same words up to abbreviations (nm, qty, cust), glosses, plurals and
//     an is_ prefix; one edit, a swap of two letters counting as one
//     (nmae, emial); a word abbreviated or two edits in a long name; the
//     table's own name added or dropped (customer_id for customers.id,
//     name for customers.customer_name). Only a strictly strongest target
//     is applied; a tie is reported. The last, weakest, also ties with any
//     other column of that table holding the name's words that is no
//     foreign key (date: invoices.invoice_date or invoices.due_date).
//   - 42703 looks first at the relations the name can refer to, then, for
//     a qualified name, at the other relations in the query (a wrong
//     qualifier), and only when nothing there even loosely resembles the
//     name, at the tables one declared foreign key away: the JOIN is added
//     on that key, only to a referenced table (no row is repeated; a LEFT
//     JOIN on a nullable key drops none), never for a generic name (name,
//     status, code: every neighbour has its own), and bare columns the
//     JOIN would make ambiguous are qualified. Columns of unrelated tables
//     are never used, nor is a referencing table joined (it repeats rows).
//     A bare word compared with a text column (status = shipped) may be a
//     value and is left alone. A phantom ORDER BY or output column is
//     dropped only when no table has it and nothing resembles it.
//   - 42P01: the one table the name is closest to, in its schema or on the
//     search path first, another schema only when those have nothing
//     similar (Repairer.Table answers the same question for any set of
//     allowed tables). A missing FROM entry (c.name) becomes the alias of
//     the one relation in the query it names, or a JOIN to the one table a
//     foreign key away it names that has the column.
//   - 42702: a column several relations have is qualified only when the
//     query makes them equal (ON a.x = b.x, USING, a WHERE equality), with
//     a relation no outer join NULL-extends.
//
// WithTables limits what a fix may bring into a query to a request's
// tables; Repairer.With derives such a Repairer cheaply.
//
// Every decision is made on the libpg_query parse tree and the output is
// deparsed by libpg_query. Only text that does not parse gets token-level
// rewrites first, from a tokenizer that leaves string literals, quoted
// identifiers and comments alone. A Repairer is immutable and safe for
// concurrent use; it does no I/O.
package repair
