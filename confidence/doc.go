// Package confidence measures the evidence that an answer answers its
// question, and turns it into the probability that it is right: the
// Engine's Result.Confidence, its verdict (answered, uncertain, abstained)
// and the reasons it gives in words.
//
// # Signals
//
// [Of] measures the [Signals] of one candidate of a score.Input, from what
// the Engine already has and deterministically: how far the candidates
// agree (the share of the votes that returned the same rows, the number
// of distinct answers, the score margin over the best different one),
// whether the query uses what the question names (its words, through the
// thesaurus; the tables it names, the columns it links to strongly, the
// stored values, numbers, years, quoted strings and capitalised names it
// writes), whether its shape is the one the question asks for (a count,
// top N, a superlative, one row per group, an average, a total, distinct
// values, a ratio; and what it gives unasked, columns included), which
// columns the question names the query leaves unused, whether
// its plain-English description (package describe) reads back as the
// question, where retrieval ranked the tables it reads, and what its run
// and lint found. What the query owes is read off the question alone;
// what it may use, off the question and its evidence (score.Input's
// Evidence: a definition or an instruction names what a query may use,
// but its words, numbers and shapes are no demands).
// The question is read once, by gloss.Analyze: its words come from the
// Input's analyses (score.Input.Words), and every cue (a count, top N, a
// superlative, a bound, the numbers, names and quoted values it writes, a
// period) is found in them through the shared reading of package
// internal/cues, whose functions take the analyses, never a string; this
// package does not split, stem or match a pattern over the question again.
// The quoted values and the stored values a question writes out are the
// two cues still matched in the analysed text as written (its quotes and
// punctuation are no tokens); the Input's Analyses makes that text the
// question's.
//
// A question's word is used by more than a name or a constant that holds
// it: a query that reads the clock (CURRENT_DATE, now()) uses the words of
// a period counted from today ("the past 30 days, inclusive of today"), a
// difference of two times uses the units of time ("how many days late"),
// a code uses the name it abbreviates ('NY' for "New York"; a country's
// ISO code compared with a country column, 'DE' for "Germany"), a code the
// evidence defines uses the value it defines ("the Rotterdam hub is
// warehouse WH-RTM"), a month or a weekday compared with its field is
// used as its number (extract(month ...) BETWEEN 6 AND 12 for "between
// June and December"), a type's modifiers (numeric(10, 2)) are no
// constants, and the words
// that say how to give the answer ("calculate", "as an integer") or that
// the shape checks judge ("longest") ask for no data. A column the
// question asks for by its own name ("city names") must be used itself;
// one it links to through a table's name ("singers") is used by reading
// the table. A column the question asks to show by its own name, in a
// sentence that says what to show ("Return the make, model and total
// revenue", "What are the id and names of ...") or as the group it asks
// for ("for each semester id"), must be among what the query returns:
// grouping by make and returning model twice answers another question
// (Signals.ColumnsUnreturned). A query that keeps the other end of a sort
// than the one asked for ("the most orders" answered by the fewest, "the
// oldest singer" by the largest birth date; Signals.ExtremeReversed), or
// aggregates a column the question names another way ("the average
// patient height" answered by sum(height_cm); Signals.AggregateMismatched)
// answers another question while reading and returning what this one
// names.
//
// [Signals.Reasons] says the weak ones in words, strongest doubt first
// ("the question asks for 5 rows; the query returns one count"), and a
// few doubts no benchmark can weigh ("the question names a year; the
// query bounds order_date from one side only": Signals.PeriodOpen). Signals
// marshal to JSON by stable names, so that an exam can record them and
// `nl2sql calibrate` refit a calibrator on a user's own questions.
//
// # Calibrators
//
// A [Calibrator] turns Signals into the probability. The default,
// [Default], is a [Logistic]: P(right | about the question) · P(about the
// question), two logistic regressions with one weight per signal ([Names],
// in the order of [Signals.Vector]) and a bias. Its file form is JSON:
// [Load] reads one (unknown signal names are refused, [ErrCalibration]),
// [Fit] fits one on [Example]s, answers whose rightness is known, made-up
// answers to other questions marked MadeUp. The same examples give the
// same calibrator, bit for bit. Fit weighs only the signals [Inputs]
// marks: two (the order the question names its columns in, the number of
// shapes it asks for) are measured and shown but weighed 0, since the
// exams are predicted better without them; a calibrator fitted before
// still reads them.
//
//	c, err := confidence.Fit(examples, "our exam, 2026-11")
//	if err != nil { ... } // errors.Is(err, confidence.ErrCalibration): no right or no wrong answer
//	eng, err := nl2sql.New(pool, nl2sql.WithCalibrator(c))
//
// # The embedded fit
//
// Default is read from calibration.json, which the root package's
// TestSpiderPools writes with -update (go generate in this folder runs
// it; it needs the spider-pools and defog datasets and a PostgreSQL):
// the signals are measured on the Engine's own picks of spider-pools, the
// defog and demo ERP exams, and negatives made from them (another
// question's candidates, SELECT 1, and near misses of the pick: a
// condition dropped, a column swapped, a limited sort flipped, an
// aggregate changed, DISTINCT dropped). Without -update the test fails
// when the file is not the fit it computes. How well it is calibrated,
// cross-validated by database, is in docs/benchmarks.md.
//
// # In the Engine
//
// The Engine measures the chosen candidate's Signals with Of, asks its
// Calibrator (nl2sql.WithCalibrator) for the probability, caps it when
// the query computes a measure the question names otherwise than the
// semantic model defines it (Signals.Deviations: no benchmark the
// calibrator is fitted on has a semantic model), and grades it against
// nl2sql.WithUncertainBelow and WithMinConfidence. The verdict, the
// alternatives and the clarifying question are the Engine's
// (nl2sql.Assessment).
package confidence
