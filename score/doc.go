// Package score ranks the candidate queries that validated and planned:
// of the SQL several samples of a model wrote for one question, which one
// the Engine runs. The Engine composes it (nl2sql.WithScorer); a program
// that has candidates from elsewhere can rank them the same way.
//
// # What a Scorer sees
//
// A [Scorer] gets an [Input]: the question and its evidence, the tables
// retrieval put in the context, the stored values the question names, the
// columns it links to strongly, the join edges the planner proposed, the
// semantic model's measures it names, and one [Candidate] per distinct
// query. A Candidate carries what the Engine learnt about the query
// before choosing: how many samples wrote it, its lint warnings, the
// tables and columns it reads, its joins, the planner's cost and row
// estimate, whether it needed a repair; and, when the candidates were
// cheap enough to run, how far their results agree (Agreement,
// OrderedAgreement, ResultGroup; -1 for a lone candidate, which is run
// but compared with nothing), how many rows it returned, whether a row
// repeats, constants no row holds, a join that counts rows twice
// (FanOut), a measure computed otherwise than the semantic model defines
// it (Deviations). A field the Engine did not measure is -1 (Agreement,
// OrderedAgreement, ResultRows, ResultGroup) or empty. Description is
// what the query returns in words (describe.SQL), made once by the
// Engine and read by Default and package confidence; nil is described
// when needed ([Candidate.Describe]).
//
// The Scorer returns one score per candidate, higher is better; the Engine
// runs the best, ties going to the earlier candidate, and counts a score
// that is no finite number as the lowest (NaN, -Inf) or the highest (+Inf).
//
// # The question, read once
//
// The Engine analyses the question and its evidence once (gloss.Analyze)
// and hands the analyses on in Input.QuestionAnalysis and
// EvidenceAnalysis; [Input.Words] and [Input.Terms] read them from there.
// An Input a program builds without them, or whose Question a Scorer
// changed, is analysed anew from its text ([Input.Analyses]), so a stale
// analysis is never used. Neither this package nor package confidence
// splits, stems or matches a pattern over the question itself: Default
// finds the shapes it asks for ("how many", "top", "each", "different")
// in the analyses' tokens.
//
// # The default
//
// [Default] adds small, bounded parts so that no single signal overrides
// agreement between samples: the share of the votes, agreement between
// results (in any column order; the same order counts a little more),
// lint warnings and repairs, tables outside the context, the planned join
// edges, the shape the question asks for ("how many" wants a COUNT, "top"
// an ORDER BY with a LIMIT, "per" a GROUP BY, "different" a DISTINCT),
// stored values the question names written in the SQL and compared with
// a column that holds them, the question's words among the names and
// constants the query uses, the tables and linked columns it reads, and,
// between candidates otherwise alike, the columns returned in the order
// the question names them. Evidence that a query is wrong whatever the
// others say (a constant no row holds, rows counted twice, a condition
// never true, a measure computed otherwise than defined) outweighs most of
// the agreement: several models make the same slip. The weights and what
// each signal is worth on spider-pools are in docs/benchmarks.md.
//
// A value counts where it is stored. Input.ValueColumns says which column
// holds each of Values; a candidate that writes 'American Motor Company'
// but reads no column holding it (car_names.make = 'American Motor
// Company', where the value is a maker's full name) compares it with
// something else, and gets no credit for writing it. The constant's
// spelling is no evidence that the query filters on what the question
// names; the column it meets is. The linked columns, by contrast, are
// counted one by one, not per phrase: when a phrase links to several
// columns ("airlines": airlines.airline and the key flights.airline), a
// query reading them all usually follows the key to the name the question
// asks for (measured: counting phrases instead loses 4 picks on
// spider-pools).
//
// # Writing a Scorer
//
// A Scorer must be safe for concurrent use and deterministic. The usual
// one keeps Default's judgement and adds the application's own, as the
// Engine's example does (nl2sql's example_scorer_test.go):
//
//	type avoidTables struct{ avoid []string }
//
//	func (s avoidTables) Score(ctx context.Context, in *score.Input) []float64 {
//		scores := score.Default{}.Score(ctx, in)
//		for i, c := range in.Candidates {
//			if slices.ContainsFunc(c.Tables, func(t string) bool { return slices.Contains(s.avoid, t) }) {
//				scores[i]--
//			}
//		}
//		return scores
//	}
//
//	eng, err := nl2sql.New(pool, nl2sql.WithScorer(avoidTables{avoid: []string{"archive.orders"}}))
//
// What the scores become, the probability that the chosen query answers
// the question, is package confidence's: confidence.Of measures the
// chosen candidate's signals from the same Input and scores.
package score
