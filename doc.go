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
// The [Engine] composes the stage packages, each usable alone: schema
// (introspection, M-Schema), retrieve (table ranking), link (column and value
// links), plan (join paths), generate (prompt and candidates from an llm.Model),
// validate (parse-tree allow-list, lint, EXPLAIN), repair (deterministic fixes)
// and execute (the read-only executor). Its small interfaces are aliases of
// the stages' own: LLM (llm.Model), [Embedder] and [SchemaStore] (retrieve);
// [score.Scorer] ranks validated candidates. What is not the Engine lives in
// the packages named for it: rewrite (SQL rewrites, a refused table read as a
// misspelling), provision (the reader role), score and confidence (candidate
// scoring, the calibrated confidence), plan's PlanQuestion (a question's join
// plan), semantic's Model.Links (the semantic model's definitions a question
// names); the root names they had stay as deprecated aliases. The sections
// below are the Engine's guide; the security model, the CLI, the web console
// and the MCP server are described in the repository's docs/ folder.
//
// # Asking a question
//
// nl2sql.New(db, opts...) (db: a *pgxpool.Pool) does no I/O; Prepare
// (or the first call) introspects the catalog, builds the value index and the
// schema index; Refresh re-indexes after schema changes (only what changed)
// while questions go on being answered on the current index (they switch when
// it returns; knowledge learnt meanwhile is kept).
// (*Engine).Ask(ctx, question, askOpts...):
//
//  1. retrieve the tables (scope: the request's schema plus public; as many as
//     the question needs, see retrieve); when no word of the
//     question is the schema's (Match none, below [WithMinMatch]/[MinMatch],
//     default weak), stop with [ErrRetrievalMiss] before calling the model; link
//     phrases to columns and stored values; plan the joins of the tables the
//     question needs (those it names and those that join them, plus the tables
//     of strong column links), only through tables of the context (the skeleton
//     names nothing the prompt does not show, and no table the question does not
//     need is joined in to multiply the rows of the others); when a sum or
//     average the question asks for reads the repeated side of a one-to-many
//     join of the skeleton, the prompt says so (the fan trap);
//  2. build the prompt (M-Schema with example values, JOIN skeleton, column and
//     value hints, warnings, few-shot examples from Learn, evidence, question);
//  3. sample K candidates in parallel (K = 1/3/5 for easy/medium/hard,
//     temperatures 0-0.9), merge duplicates (votes);
//  4. normalize dialect, validate on the parse tree and EXPLAIN every candidate
//     in parallel; fix failures deterministically by SQLSTATE (up to 3 rounds);
//     backward recall: when no candidate works because the model used a
//     table of the request's scope that was not in its context (a column it had
//     to guess, SQLSTATE 42703, or the table used without a FROM item, 42P01),
//     add those tables to the context once (reason backward), rebuild the
//     prompt and sample again; only tables the request may read are added
//     (resolved along its search path and scope: a scoped tenant never gets
//     another tenant's table), and Result.Context ends with them, the new
//     candidates have Origin backward and [Timings]/[Tracer] report a backward
//     stage. Only if still none plans, send targeted repair prompts
//     ([WithRepairAttempts], default 2);
//  5. make ties deterministic: a grouped query that orders and limits its rows
//     gets its grouping keys as last sort keys (rule order.tie_break, see
//     repair), so the same tied group comes back on every run and every plan;
//     then score the survivors ([score.Scorer]): [score.Default] groups them by result
//     (cheap candidates are run with a 2,000-row cap, a lone one too, for its
//     own rows and repeats, and the chosen one's run is the answer when it
//     read every row under the answer's cap; results equal up to the order of
//     their columns count as one answer, the same column order breaking ties
//     between orders) and weighs each by the votes its result gathers, then
//     by evidence beyond the vote. Evidence that a query is wrong whatever the
//     others say costs nearly as much as the vote is worth: a compared constant
//     no row holds (= 'Jetblue Airways', or <> 'French' where the data says
//     France), rows counted twice (FanOut: SUM/AVG, or a plain list, over a
//     join with a table whose join columns repeat, known from its declared keys
//     or, for a table without keys, from its data; also lint L010), a condition
//     never true (L011), a ranking computed and never read, so every ranked
//     row comes back (L012), a count that is 1 in every group (L013, L015),
//     counts intersected instead of the rows counted (L014). Smaller signals: tables the question names left unread,
//     an empty result when the question presumes rows, repeated rows of a query
//     that does not group, strongly linked columns left unused, the question's
//     words among the names and constants a candidate uses, the expected shape
//     ("how many" / "top N" / "by X" / "different X"), named values, lint, repairs, tables
//     outside the context, join-skeleton agreement, cost; ties go to the
//     earlier candidate. Then the chosen query's confidence: see
//     Confidence. Abstain below
//     [WithMinConfidence] / [MinConfidence] (formerly [WithAbstainBelow] /
//     [AbstainBelow]);
//  6. run the best through the executor (read-only, scope-pinned search_path,
//     timeouts, row cap, optional role).
//
// # The database handle
//
// [New] takes a [DB]: a *pgxpool.Pool, or a type of your own that embeds one
// and overrides what it observes (Query, BeginTx, Acquire). DB's Acquire
// returns the concrete *pgxpool.Conn because the executor destroys a
// connection a query left in a state it cannot reset, which only a pooled
// connection allows; its documentation says why an interface result would
// break every caller. Give the Engine a role that can only read (see
// [provision.ReaderRole]); [Engine.Prepare] warns when it can do more.
//
// # Options
//
// Options: [WithLLM], [WithEmbedder], [WithStore], [WithScorer], [WithK],
// [WithRepairAttempts], [WithMaxRows], [WithMaxTables], [WithStatementTimeout],
// [WithGenerateBudget], [WithTimeout], [WithModelTimeout], [WithScope],
// [WithSharedSchemas], [WithRole], [WithGlossary], [WithModules],
// [WithValueIndex], [WithMinConfidence], [WithUncertainBelow],
// [WithCalibrator], [WithMinMatch],
// [WithIntrospectOptions], [WithCatalog] (a catalog read before, e.g. from an
// index file), [WithWorkload] (join edges and usage learnt from the workload,
// see workload), [WithInputLimits], [WithProgress], [WithTracer],
// [WithLogger] (nil: silent); per
// call [Evidence], [Scope], [AsRole], [MaxRows], [MinConfidence], [MinMatch],
// [Timeout], [OnProgress] (this request's model waits, for a server that
// routes progress to the client that asked), [History] (see below).
//
// # Knowledge
//
// Knowledge: Learn(ctx, k) teaches the engine one Knowledge: an
// example (nl2sql.Example(question, sql), optional Note; the SQL must
// validate and plan on this database, else [ErrInvalid]/[ErrUnsafe] with the
// reason), a doc (Kind: [KnowledgeDoc], Text, optionally the Table and
// Column it documents; both must exist) or a term (KindTerm, Term,
// Targets: tables or table.columns; at most [MaxTermTargets] = 64 as given,
// more is [ErrInput]/too_long; the same table or column named twice, e.g.
// orders and public.orders, is kept once). Each gets a stable ID (learning the
// same thing twice stores it once); Forget(ctx, id) removes it and
// Knowledge(ctx) lists it. Knowledge keeps the identity it was learnt
// under (AsRole, Setting, Scope) and a request is shown only what that
// identity and its role's privileges allow (docs/security.md, "Learnt
// knowledge and identity"); every prompt holds only the tables and columns
// the request's role may read, and no value of a table with row-level
// security (docs/deployment.md). It lives in the engine's schema store, beside the
// schema documents but never pruned by a re-index: the in-memory store writes
// it into the index file (SaveIndex, restored by [LoadIndex]), the pgvector
// store keeps it in its table (a data column added by the store's
// migration), so it survives restarts with either. Examples are the few-shot
// examples of similar questions; docs of the tables in a question's context
// (and free-standing docs sharing two words with it, at most 8 lines) go in a
// "Documentation" section of the prompt; terms join the glossary at once:
// Learn and Forget of a term rebuild the schema index on the current
// catalog (the value index is kept; only the documents the term changes are
// embedded again; 20 ms on the demo ERP's 91 tables), and the next question
// uses it.
//
// # Verified answers
//
// A question that fits exactly one verified question, of the semantic
// model ([WithSemantic]) or an example learnt with Parameters (a template:
// [Engine.ProposeTemplate] proposes them), is answered from its SQL
// without the model: the same words apart from the slots (compared
// lower-case without punctuation), each slot a value of its kind (a year,
// a period, an N, a stored value of its column in the request's scope, as
// the value index holds it). The SQL with the values inlined is validated
// by the request's validator; the template runs with the values as query
// parameters ([execute.Args]) under the request's scope and identity.
// [Result.Origin] is [OriginVerified], [Result.Verified] names the
// template and the bindings, Attempts is 0 and Confidence 1 (the match is
// exact: every word and slot). A question no template fits goes on as
// usual; one two templates (or two readings) fit is not guessed: it goes
// on with the model, with a note naming them. [Engine.RunVerified] runs a
// verified question with given values (the regression exam, nl2sql exam
// --verified). docs/semantic.md has the whole story.
//
// # The index file
//
// Knowledge that is never lost: an engine made with the options of
// LoadIndexFile(ctx, path) (the index file read under its lock; a symlink
// is followed) is bound to that file, and each Learn and Forget writes the
// change there before it returns, with one discipline for every writer (the
// CLI, the console, the MCP server, a library): it takes the file's lock
// (flock on path.lock, beside the file, since the file itself is replaced),
// reads what other writers stored since, replays this engine's changes on it
// in order (by ID: a forgotten item stays forgotten, what another writer
// added since is kept), takes the result on (so it also uses what the others
// taught), and replaces the file atomically: a temporary file
// .NAME.nl2sql-tmp-* beside the target, synced, renamed over it, the folder
// synced; a symlink stays a symlink and its target is replaced, and a
// temporary file a killed writer left is removed by the next writer under the
// lock. So an acknowledged example, doc or term (a Learn that returned, a
// "Learnt" page, a printed line) survives a restart, a concurrent writer and
// a kill -9 of any writer, and the file is whole at every moment. A write
// that fails is an [ErrConfig] saying so: the change holds in that engine and
// goes with its next write. Knowledge (and Forget of an ID the engine has
// not seen) read the file again when it changed. Reading takes no lock (the
// file is always whole), so an index in a read-only folder still loads. SaveIndexFile on the bound
// file does the same merge; into another index file it keeps the knowledge
// that file holds (the engine's wins for an ID both have), so re-indexing
// loses nothing taught; a file that is no index is replaced. A bound Learn
// costs one locked rewrite of the file: 4.4-5.5 ms on the demo ERP's 450 KB
// index (34-120 ms while other jobs loaded the disk: mostly the two fsyncs),
// against 4 µs in memory (go test -run XXX -bench BenchmarkLearnIndexFile
// -benchtime 100x ., a doc each). What is merged is the knowledge: the catalog and
// schema index written are the writing engine's own (re-index with nl2sql
// index while no server runs on the file). Tested with real processes: two
// concurrent nl2sql learn --jsonl of 20 lines each store all 40
// (TestLearnProcesses), a learn killed inside its write leaves the file as
// it was (TestLearnProcesses), the console's teachings survive a kill -9
// of nl2sql serve and a restart (TestServeTeachSurvives), the MCP server
// and the CLI on one file lose nothing of each other's
// (examples/mcp-server: TestLearnBesideCLI).
//
// # A schema that changes, and replicas
//
// [WithRefreshEvery] makes a long-running Engine follow migrations and its
// replicas: every interval one catalog query (a digest computed in the
// server) says whether to [Engine.Refresh], at once when the event trigger
// of [CatalogTriggerSQL] notifies [CatalogChannel]; and what other engines
// sharing its store learnt or forgot is taken on (the pgvector store's
// version is one query: [retrieve.KnowledgeVersioner]). A refresh swaps the
// new state in whole: a question asked before it is answered on the old
// catalog, one asked after on the new. [Engine.Close] stops the watch. The
// delays, the flags of the servers and the tests:
// docs/deployment.md.
//
// # Descriptions
//
// Descriptions: Result.Description says in plain English what the chosen
// SQL returns (describe.SQL, from the parse tree, never from a model), so a
// user can check the answer without reading SQL.
//
// # Follow-up questions
//
// Follow-up questions: History(turns...) gives a request the conversation
// so far (Turn{Question, SQL, Columns}, oldest first; at most
// [MaxHistoryTurns] = 20, each question and SQL within the input limits).
// The prompt shows the latest three turns in a "Conversation so far" section
// with a rule to resolve "it", "those", "and in 2023?" against them; the
// previous turn's tables join the context (only those the request's scope may
// read: a turn never brings in another tenant's table). A question that
// names nothing of the schema ("And what about 2019?") is answered as a
// follow-up: the previous tables become its subject (reason history, joined
// in the skeleton) instead of an [ErrRetrievalMiss]; a question that stands
// on its own keeps them for reference (reason previous, never joined).
//
// # Scopes and option names
//
// A scope ([WithScope], [Scope]) that names no schema holding a
// table is an [ErrConfig] naming it, on every call (and at Prepare for
// WithScope). The option vocabulary (With* when a value is made, a bare
// noun for one call, one name per concept across packages) is written down in
// CONTRIBUTING.md.
//
// # Tracing
//
// A [Tracer] ([WithTracer]) is the one way a request is observed, in the
// pgx style: it is told as each stage ends ([StageRetrieve], [StageLink],
// [StagePlan], [StagePrompt], [StageGenerate], [StageValidate],
// [StageBackward], [StageRepair], [StageScore], [StageExecute];
// [SchemaContext] runs the first four) with its wall time and its own
// error. A Tracer that also implements [StageStarter] is told as each stage
// starts and returns the stage's context, under which the stage's model
// requests and queries run and with which it ends: a span per stage. One
// that implements [ProgressTracer] hears of long work ([Progress]: Prepare's
// introspection and indexing, each wait of Ask for the model), inside the
// stage that waits. [WithProgress] and [OnProgress] are adapters of it (a
// callback as a ProgressTracer), and [Result].Timings holds what the
// tracers are told at each stage's end. A [RequestTracer] wraps each Ask
// and SchemaContext whole (a span per request, ended with Ask's Result and
// the error), and a
// [ModelTracer] hears of each model call with the model's name, its
// tokens and its wall time; the OpenTelemetry adapter (module
// github.com/nl2sqlgo/nl2sql/otel) is such a tracer. Logging ([WithLogger]) stays apart:
// it carries the stage packages' own debug lines, not stage events.
// Candidates carry typed Origin (sample, backward, repair_prompt, input)
// and Status (ok, rejected, failed).
//
// # Time budgets
//
// Time budgets: [WithTimeout] (default 60 s; per call [Timeout]) bounds a
// whole Ask after the engine is prepared, model calls and their retries
// included; [WithModelTimeout] (default 30 s) bounds each attempt at a model
// call, and an attempt that times out is retried while the budget allows (no
// retry starts whose wait would cross the deadline). A model that does not
// answer in time makes Ask return [ErrLLM] ("the model did not answer within
// 30s", "the question's 60s budget ran out while waiting for the model") with
// the partial [Result]; the samples still running are cancelled. [WithProgress]
// also reports each wait for the model (stages generate, backward,
// repair). Building a model with provider.FromSpec (what the CLI and the
// MCP server do with --llm/--llm-url) checks what it can without a call:
// a base URL that is not an absolute http(s) URL, or OpenAI's or Anthropic's
// own API without a key, is an error at start. [Engine.SchemaContext] (the CLI's retrieve and
// --dry-run) returns what the model would be shown, with Match and
// Known.
//
// # Results
//
// The [Result] holds SQL (the query as written plus its fixes, never the
// row cap), Columns, Rows, Truncated, TruncatedBy (row_cap: RowCap
// rows were read and there were more; byte_cap: the values reached the
// executor's 4 MiB byte cap first), RowCap (the cap it ran with), Notes
// (what the engine changed, in words: a [MaxRows] over the engine's cap is
// capped and says so; the cap that cut the rows), Confidence (the
// probability that the answer is right), [Verdict] (JSON status:
// answered, uncertain or abstained), Reasons, Alternatives, Clarify,
// [confidence.Signals] (see Confidence),
// Attempts (model calls), Tables (read by the SQL), Context (shown to the
// model), Candidates (each with origin, votes, status, score, failure code,
// repairs applied), per-stage [Timings], and on failure Error{code, class,
// message}.
//
// # Errors
//
// Failures are *nl2sql.Error with a class matching a sentinel:
// [ErrRetrievalMiss], [ErrColumnMiss], [ErrJoinPathMiss], [ErrExecution],
// [ErrLLM], [ErrUnsafe] (rejected_unsafe: a policy refusal, validate.Unsafe
// of its code, or a table of another scope named by its schema), [ErrInvalid]
// (invalid_sql: SQL given to Run or Learn that does not parse or names a
// table that does not exist: a slip, not an attack), [ErrNoAnswer], [ErrConfig]
// (config_error: also an Ask without a model, [WithLLM], and an unknown scope;
// the question matching no table is ErrRetrievalMiss), [ErrInput]
// (input_error: an input over its length limit, refused before any work; it
// also matches [ErrTooLong]), [ErrConnection] (connection_error: the database
// could not be reached or the connection broke: down at Prepare, while the
// candidates were checked, or under the running query; never reported as a
// model or query failure). Error.Code (and the JSON code) is always set:
// the SQLSTATE or validator code of the deciding failure, else the name of the
// cause: llm_timeout, llm_canceled, llm_unreachable (the request never
// reached the model server: llm.ErrUnreachable), llm_auth,
// llm_rate_limited, llm_server_error, llm_bad_request,
// llm_malformed_response, llm_truncated, llm_response_too_large,
// llm_refused, too_long, canceled, timeout, or the class itself.
// Messages carry one "nl2sql: " prefix.
//
// # Careless calls
//
// Careless calls fail plainly, never with a panic: a nil context, an empty
// question and Pick without candidates are [ErrInput]; an [Engine] not made
// by New (nil or the zero value), a nil or typed-nil pool, K outside 1-100
// or a table cap below 1 are [ErrConfig]; nil options and WithScorer(nil)
// change nothing, and a [score.Scorer]'s non-finite scores count as the lowest or
// highest there is. A request whose context ended (cancelled, or past its
// deadline or its [WithTimeout] budget) outside a model wait is an
// [ErrExecution] coded canceled or timeout, and errors.Is matches
// context.Canceled or context.DeadlineExceeded: it is never reported as
// the input's, the configuration's or the question's fault. A pool the caller
// closed, or a database dropped under the engine, is [ErrConnection] on every
// call that needs the database, Repair and Check included (they had
// reported it as a broken query). TestRobust* (robustness_test.go) asserts
// each.
//
// # Input limits
//
// Input limits: a question may have at most 4,000 characters and evidence
// 8,000 ([DefaultMaxQuestionChars], [DefaultMaxEvidenceChars];
// WithInputLimits(question, evidence) changes them), SQL at most 64 KiB
// ([MaxSQLBytes], the parser's limit) in Check, Repair, Pick and Run.
// Longer input fails at once with an input_error naming the size and the
// limit: a 5 MB question or a 39 MB query costs microseconds, and a question at
// the limit about 25 ms of retrieval and linking on the demo ERP
// (BenchmarkLongQuestion).
//
// # Numbers in results
//
// Numbers in results: integers (int2/int4/int8, numeric) are JSON numbers
// within ±2^53 and strings of their digits beyond ("9007199254740993"), so a
// JavaScript client gets them exactly; a numeric with a fraction is a JSON
// number when it has at most 15 significant digits (0.1, 1234.56) and a
// string of its exact digits otherwise ("3.14159265358979323846"); float4 and
// float8 are numbers; NaN and the infinities are strings. The rule is applied
// where rows are read (execute), so Result.Rows, the CLI's --json and the
// MCP server's results all follow it.
//
// # Caller SQL: Check, Run, Repair, Pick
//
// [Engine.SchemaContext] returns the context and prompt without calling a model;
// [Engine.Check] validates and plans caller SQL under the same policy as
// Run without running it ([CheckResult]{OK, SQL, Issues, SQLState, Message,
// Position, Cost, EstimatesHidden: no cost when the plan reads a table with
// row-level security}); Run executes it; Repair and Pick apply the
// deterministic repairs and the scorer to SQL written elsewhere (their SQL is
// the caller's with only the fixes applied). A qualified column the validator
// finds missing (V014) is repaired like the server's 42703, not reported as
// unsafe; a relation that names nothing (V012 for custmers) is corrected to
// the one table of the scope it misspells before the refusal is final.
//
// # Confidence: answer, caveat or refuse
//
// Result.Confidence (and PickResult.Confidence, for SQL any system
// wrote) is the probability that the answer is right, not a score. The
// engine measures [confidence.Signals] of the chosen query ([confidence.Of]),
// deterministically, from what it already has:
//
//   - agreement: the share of the candidates' votes that returned the same
//     rows (support, groups, the score margin over the best different
//     answer), the [score.Scorer]'s score;
//   - question against SQL: the share of the question's words the query uses
//     (in its names, constants and its describe description, through the
//     thesaurus), the share of what the query returns and filters on that the
//     question names, the tables the question names and the columns it links
//     to strongly that the query reads, the stored values, numbers, years and
//     quoted strings it names that the query uses, capitalised names it leaves
//     out ("Aberdeen", "APG");
//   - answer shape: what the question asks for (a count, top N, a superlative,
//     a result per group, an average, a total, distinct values) against the
//     query's description (returns a count, its LIMIT, GROUP BY, ...), and what
//     the query gives that the question does not ask for (one count, an
//     average, the top rows of a sort), output
//     columns in another order than the question names them, a top-N cut that
//     ties can decide, the other end of a sort than the one asked for, and
//     another aggregate of a column than the one the question names;
//   - retrieval: the mean rank of the tables it reads in the context, tables
//     outside it, a query that reads no table;
//   - the run and lint: no rows, a constant no row holds, repeated rows, rows
//     counted twice, warnings, repairs.
//
// A [confidence.Calibrator] turns them into the probability. The default
// ([confidence.Default], confidence/calibration.json) is P(right | about the question)
// · P(about the question), two logistic regressions with one weight per
// signal and a bias (59 parameters: the column order and the number of
// shapes asked are shown but weighed 0), fitted by go generate (it runs
// TestSpiderPools -update; the test fails when the file is not what the
// fit gives) on spider-pools, the defog and demo ERP exams, and negatives
// made from them: another question's candidates (same database: every
// system agrees, on the wrong question), SELECT 1, near misses of the pick
// (a condition dropped, a column swapped, a limited sort flipped, an
// aggregate changed, DISTINCT dropped), each pick alone (what an Ask
// with one sample sees). [WithCalibrator] sets another; nl2sql calibrate
// fits one on your own exam and --calibrator FILE (or [confidence.Load] +
// WithCalibrator) uses it.
//
// # Verdicts
//
// The [Verdict] (JSON "status"; Candidate.Status is another thing) says
// what to do with it: answered at or above [WithUncertainBelow]
// ([DefaultUncertainBelow] 0.7); uncertain below it: the rows are returned,
// to be shown as a guess with the Reasons in words ("the query reads
// employees; the question asks about customers and revenue, which it does
// not use", "the question asks for 5 rows; the query returns one count") and,
// when the candidates disagree, the Alternatives (SQL, description, first
// rows, share of the votes) and a Clarify question from their difference
// ("By order date or by requested ship date?"); abstained below
// [WithMinConfidence] (default 0: never): Ask does not run the query for
// its answer (a cheap one was run, capped, to judge it) and
// returns [ErrLowConfidence] (an [ErrNoAnswer], code low_confidence) with
// the [Result]'s SQL, reasons and alternatives.
//
// # How well it is calibrated
//
// How well it is calibrated (spider-pools, cross-validated by database:
// fitted on the other 30 of the 31 databases of spider-pools, defog and
// the demo ERP, measured on the one left out; out-of-fold figures):
//
//	| figure | measured | issue 27's bar |
//	| AUROC (right vs wrong answers) | 0.851 | 0.85 |
//	| expected calibration error | 0.027 | 0.05 |
//	| answers with confidence >= 0.9: right | 95.6% | 95% |
//	| answers with confidence >= 0.9: share of the 972 questions | 53.7% | 50% |
//	| shuffled variant: wrong answers with confidence >= 0.5 | 2.0% (19 of 958) | 5% |
//	| SELECT 1 for every question: confidence >= 0.5 | 0 of 972 | |
//	| defog / demo ERP exams (gold, another question's gold, near misses): AUROC, ECE | 0.911, 0.073 / 0.935, 0.135 | |
//
// Every bar is reached; TestSpiderPools enforces them. (23 of the wrong
// answers return the benchmark's rows with the columns in another order;
// counted right, AUROC would be 0.866.) Among the signals: the query's rows cut inside a tie (the row
// after the last one kept sorts equal to it), other candidates returning
// the same rows in another column order or counted otherwise, a "not" in
// the question the query does not honour, constants the query filters on
// and columns it returns that the question never names, columns the
// question names that it leaves unused or asks to see and the query
// does not return, an order asked for that the query does not sort in,
// the other end of a sort than the one asked for ("the most" answered
// by the fewest), and another aggregate than the one the question names
// ("the average height" answered by a sum). What an answer owes is read
// off the question; its evidence (a definition, an instruction) may name
// what the query uses, but owes nothing. The probability that
// the query is about the question at all reads only how the query meets
// the question, never how far the samples agree (agreeing samples say
// what the model meant). The reliability table, the defog and demo ERP
// exams and what was tried: docs/benchmarks.md.
//
// # Concurrency and logging
//
// The [Engine] logs through an injected *slog.Logger (silent by default) and is
// safe for concurrent use.
package nl2sql
