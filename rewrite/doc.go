// Package rewrite holds the SQL rewrites the Engine applies to a candidate
// query that keep its meaning or only correct a slip the data proves:
// ties under ORDER BY ... LIMIT broken by the grouping keys (BreakTies,
// RuleTieOrder), and a compared string constant written as the value the
// column stores (ValueSets.StoredValues, RuleStoredValue). A rewrite edits
// the caller's text in place and leaves the rest as written; it returns
// the text unchanged when anything is unclear. The Engine validates and
// plans every rewritten query again before it is used.
package rewrite
