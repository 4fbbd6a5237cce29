// Package generate writes the prompt for a question and asks a model for
// candidate queries: the one stage of the pipeline that calls the LLM. It
// does not decide which candidate is right (the root package validates,
// repairs, scores and runs them); it renders the context the earlier stages
// found, samples the model, and turns replies into distinct SQL texts.
//
// # The prompt
//
// PromptData holds what the model may be shown: the question (verbatim),
// the user's Evidence, the M-Schema text of the retrieved tables (see
// schema.MSchema), join paths from plan, column and value hints from link,
// warnings, few-shot Examples, the search_path of a scoped request,
// dialect Notes and the Definitions of a semantic model's measures, filters,
// dimensions and metrics the question names (SQL to reuse; with any, a rule
// asks the model to compute them as defined). Only Question and Schema are required; empty sections are
// left out. Build renders it into a Prompt, a system message with the rules
// and a user message with the context sections and the question last:
//
//	p := generate.Build(generate.PromptData{
//		Question: "Top 3 customers by revenue in 2024",
//		Evidence: "revenue is the sum of orders.total",
//		Schema:   cat.Subset(tables).MSchema(),
//		Joins:    []string{tree.Skeleton()},
//	})
//
// Build is a pure function: the same data always gives the same text,
// byte for byte, so providers can cache the prompt prefix and a repair turn
// can extend the same base.
//
// # Sampling candidates
//
// New wraps an llm.Model (llm/openai, llm/anthropic, llm/ollama, or any
// implementation of the interface). Classify estimates a question's
// Difficulty from its wording and the number of context tables, and K says
// how many samples that difficulty gets (WithK, default 1, 3, 5). Generate
// sends the prompt k times in parallel at spread temperatures
// (WithTemperatures, default 0, 0.3, 0.5, 0.7, 0.9), extracts a query from
// each reply with ExtractSQL and merges replies that are the same query
// written differently (same Canonical text):
//
//	g := generate.New(model)
//	k := g.K(generate.Classify(question, len(tables)))
//	out, err := g.Generate(ctx, p, k)
//	if err != nil { ... } // errors.Is(err, generate.ErrNoCandidates): no reply held a query
//	for _, c := range out.Candidates {
//		fmt.Println(c.Votes, c.SQL) // most votes first
//	}
//
// Output.Samples keeps every call, with its reply, latency and error (a
// model error, or ErrNoSQL for a reply without a query). One failed sample
// does not fail the call; Generate fails only when no sample produced a
// query. When a query fails to run, Repair asks the model again at
// temperature 0 with the base prompt, the failed query as the model's own
// answer and a RepairDelta describing the error (SQLSTATE, message, hints).
//
// Extracted SQL is not validated: ExtractSQL only finds it (a JSON "sql"
// field, a fenced block, or the first SELECT in prose) and a query in
// another dialect is returned as written, for the repair package to
// normalize. Canonical gives the deparsed text that candidates are merged
// on; Fingerprint gives pg_query's fingerprint, equal for queries that
// differ only in constants.
//
// # Few-shot examples
//
// ExampleStore holds verified question -> SQL pairs (Add rejects anything
// but one SELECT) and returns the ones most like a new question with
// Similar: cosine of question embeddings (the retrieve.HashEmbedder when
// none is given) and, with a draft query, overlap of the query skeletons.
// Save and Load keep them as JSON. The Engine fills it through Learn.
//
// # Options
//
// WithK and WithTemperatures shape sampling; WithMaxTokens caps each reply
// (default 1024); WithConcurrency bounds parallel calls (default 8);
// WithBudget bounds the wall time of one Generate, abandoning late samples;
// WithLogger logs failed samples at debug level.
//
// # Determinism
//
// Build, Classify, ExtractSQL, Canonical, Fingerprint and RepairDelta.Text
// depend only on their input. Generate is as deterministic as the model:
// given the same replies per sample, it returns the same Output, candidates
// ordered by votes and then by sample order, whatever order the parallel
// calls finish in. WithBudget gives that up, since which samples arrive in
// time depends on the model's speed.
package generate
