// Package rewrite holds the SQL rewrites the Engine applies to a candidate
// query that keep its meaning or only correct a slip the data proves:
// ties under ORDER BY ... LIMIT broken by the grouping keys (BreakTies,
// RuleTieOrder), and a compared string constant written as the value the
// column stores (ValueSets.StoredValues, RuleStoredValue). A rewrite edits
// the caller's text in place and leaves the rest as written; it returns
// the text unchanged when anything is unclear. The Engine validates and
// plans every rewritten query again before it is used.
//
// A table the validator refused (V012) is read here too: UnknownRelation
// tells a name that exists nowhere (a misspelt "custmers", unqualified or
// in a schema of the request) from another tenant's table, and gives the
// failure the server would have reported, so that package repair's 42P01
// correction rewrites it to a table of the scope; OtherScope tells that a
// refusal names a table of another schema, a policy refusal rather than a
// mistake.
package rewrite
