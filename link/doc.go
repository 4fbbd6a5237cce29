// Package link is schema linking: it reads a question the way the schema is
// named and says which tables, columns and stored values the question means,
// before any SQL is generated.
//
// Three parts work together.
//
// Glosses turn identifiers into English. Package gloss splits snake_case,
// camelCase and digits and expands about 200 ERP abbreviations (qty, amt,
// nbr, cust, dept, po, ytd, uom, whse, ...): gloss.Text("tot_amt") is
// "total amount"; WithGlosser replaces it, e.g. with gloss.Abbreviations for
// a database's own. On top of it InferSemantic and ColumnSemantic guess what
// a column holds (money, quantity, date, status code, foreign key, ...);
// ColumnGloss and TableGloss give the short text used in retrieval documents
// and prompts:
//
//	link.ColumnGloss(invoices, &col)     // "total amount (money)"
//
// The Linker matches a question against a catalog. New precomputes glosses
// and word indexes once per catalog; Link is then cheap enough to run per
// question, on the candidate tables a retriever found or on the whole catalog:
//
//	l := link.New(cat,
//		link.WithGlossary(glossary),          // {"headcount": ["hr.employees"]}
//		link.WithValueIndex(values),
//		link.WithConfusable("sales.invoices", "ap.supplier_invoices", "sales invoices are ours, supplier invoices theirs"))
//	res := l.Link(ctx, "How many deals are in Negotiation?", "", candidates)
//	res.Tables    // crm.deals (exact)
//	res.Values    // crm.deals.stage = 'Negotiation'
//	res.Warnings  // column redirects, confusable tables
//
// Keyphrases (quoted strings, numbers, dates, capitalised phrases, word
// n-grams) are scored against names, glosses and comments: exact name 1,
// expanded name 0.95, partial and misspelt (edit distance) matches less,
// comments 0.6-0.8, glossary terms 1. Words the schema's names do not use
// ("staff", "tenure", "clients") are matched through the business
// thesaurus (gloss.Thesaurus; WithThesaurus) at 0.9 of the same match of
// the related word (employee, hire date, customer), 0.7 for a WordNet
// synonym; such links have Reason "thesaurus" and say which word led where
// in Via ("thesaurus: tenure -> hire date"). A word the schema uses is
// never looked up, so a direct match is never replaced. A column redirect warning says a
// named table lacks a column that a table it references has ("orders by
// region" when region is in customers); a confusable-tables warning says two
// linked tables are easily mistaken for each other.
//
// A ValueIndex holds the distinct values of low-cardinality text columns so
// that "in Negotiation" becomes WHERE stage = 'Negotiation' rather than a
// guess. BuildValueIndex takes them from enum labels and exact pg_stats
// where it can and otherwise runs one bounded SELECT DISTINCT per column
// (value cap, repeatable block sample of large tables, per-query timeout,
// overall budget, limited concurrency); it stores short distinct values
// only, never rows, and serialises with encoding/json. Examples feeds
// schema.WithExamples for M-Schema rendering. An index shared between
// readers (a server's) holds no value of a table with row-level security,
// whose rows depend on the reader: build it over SharedTables, and keep
// ValueIndex.Shared of one built before the policies or loaded from a
// file (enum labels stay).
//
// Everything here is deterministic: equal inputs give equal results. For
// BuildValueIndex the inputs are the data and pg_stats: not the moment
// ANALYZE ran for tables it reads whole, nor the server's speed (its
// timeouts are failure guards, reported in BuildStats).
package link
