// Package nl2sql turns a natural-language question into one safe, correct
// PostgreSQL query and runs it read-only.
//
//	eng, err := nl2sql.New(pool, nl2sql.WithLLM(openai.New(openai.WithModel("gpt-4.1"))))
//	if err != nil { ... }
//	res, err := eng.Ask(ctx, "Top 5 customers by revenue in 2024")
//	if err != nil {
//		var e *nl2sql.Error
//		errors.As(err, &e) // e.Class: retrieval_miss, column_miss, rejected_unsafe, ...
//	}
//	fmt.Println(res.SQL, res.Columns, res.Rows, res.Confidence)
//
// The Engine composes the stage packages, each usable alone: schema
// (introspection, M-Schema), retrieve (table ranking), link (column and value
// links), plan (join paths), generate (prompt and candidates from an llm.Model),
// validate (parse-tree allow-list, lint, EXPLAIN), repair (deterministic fixes)
// and execute (the read-only executor). Its small interfaces are aliases of
// the stages' own: LLM (llm.Model), Embedder and SchemaStore (retrieve), and
// Scorer, which ranks validated candidates.
//
// An Ask call retrieves the tables the question needs (as many as it needs:
// the tables it names, those that join them, and a margin; none, and no
// model call but ErrRetrievalMiss, when no word of it is the schema's),
// links its phrases to columns and values, plans the joins of the tables it
// needs through the context's tables only, asks the model for K candidates (K by
// difficulty), normalizes dialect, validates and EXPLAINs every candidate in
// parallel, repairs failures (deterministic fixes keyed on SQLSTATE first;
// once, when every candidate failed on a table of the scope the context
// lacked, backward recall: the context gains those tables and the model
// samples again; then a targeted repair prompt, bounded), scores what
// survives, and runs the best in a read-only transaction with timeouts and
// row caps. The Result
// carries the rows and the whole trace: candidates with scores, attempts,
// tables, per-stage timings, and on failure a class saying which stage lost.
//
// Knowledge taught with Learn lives in the engine's store. An engine made
// with the options of LoadIndexFile is bound to that index file: each Learn
// and Forget writes the change there before it returns, under the file's
// lock, merged with what other writers (processes, engines) stored since,
// and replaces the file atomically, so an acknowledged change survives a
// restart, a concurrent writer and a kill -9.
//
// Result.Confidence is the probability that the answer is right: a
// Calibrator (default: a logistic regression fitted on spider-pools,
// calibration.json) over Signals measured from what the engine already has
// (agreement among candidates, the question's words, values and answer
// shape against the query's, retrieval rank, the run). Its Verdict says
// answered, uncertain (WithUncertainBelow: show it as a guess, with Reasons
// and Alternatives) or abstained (WithMinConfidence: ErrLowConfidence, the
// query not run).
//
// The Engine logs through an injected *slog.Logger (silent by default) and is
// safe for concurrent use.
package nl2sql
