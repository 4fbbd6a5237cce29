// Package workload learns from the queries a database already serves: the
// joins they make where no foreign key is declared, the columns and tables
// they use most, and their frequent shapes.
//
//	stmts, err := workload.Read(file)              // one SQL per line, or JSONL log records
//	stmts, err := workload.FromStatStatements(ctx, pool) // or pg_stat_statements
//	k := workload.Learn(cat, stmts)
//	g := plan.NewGraph(cat, plan.WithInferredEdges(true), plan.WithLearnedEdges(k.Edges...))
//	r, err := retrieve.New(ctx, cat, retrieve.WithGraph(g), retrieve.WithUsage(k.TableUsage()))
//	eng, err := nl2sql.New(pool, nl2sql.WithWorkload(k)) // both at once
//
// # Input
//
// Read takes one statement per line; a line starting with "{" is a JSON
// object (a log export) whose "query" or "sql" field is the statement and
// whose optional "calls" field counts its executions. The two may be mixed.
// Blank lines and lines starting with "--" are skipped. FromStatStatements
// reads the current database's entries of pg_stat_statements, and returns
// ErrNoStatStatements when the extension is not installed or not loaded.
//
// # What is kept
//
// Only statements the validator accepts as read-only queries over the
// catalog's tables are learned from (validate.New with the catalog's tables
// and the search path, or WithValidator). The parameters of
// pg_stat_statements texts ($1, $2, ...) are read as the untyped literal
// '0' for the analysis only (see Unparameterize); shapes keep the text as
// read.
//
// # What is learned
//
// Every count is weighted by the statement's calls (1 when unknown).
//
//   - Edges: column equalities between two different tables, in JOIN ... ON,
//     USING and WHERE, resolved through aliases to catalog columns, with
//     From < To ("schema.table.column"). plan.WithLearnedEdges uses them
//     where no foreign key is declared.
//   - Columns and Tables: how often each qualified column and table is read.
//     retrieve.WithUsage uses the table counts as a tie-break prior.
//   - Shapes: statements grouped by their libpg_query fingerprint (the same
//     query up to constants), the most frequent first, each with a
//     representative text. They are candidate examples only: nothing here
//     has a question, and none is verified; confirm one by pairing it with a
//     question and calling Engine.Learn, which checks it on the database.
//
// Results are sorted: counts descending, then names, so the same input
// always gives the same Knowledge. Knowledge is plain data with JSON tags,
// to be saved and loaded by a command line.
package workload
