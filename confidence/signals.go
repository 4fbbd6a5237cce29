package confidence

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/describe"
	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/cues"
	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
	"github.com/nl2sqlgo/nl2sql/score"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// Signals are the evidence that the chosen query answers the question,
// measured deterministically from what the engine already has: how far
// the candidates agree, whether the query uses what the question names
// (tables, columns, stored values, numbers, quoted strings), whether its
// shape is the one the question asks for (a count, top N, one row per
// group...), whether its plain-English description reads back as the
// question, and what its run returned. A Calibrator turns them into the
// probability that the answer is right; Reasons says the weak ones in
// words. They marshal to JSON so that an exam can record them and
// `nl2sql calibrate` refit a calibrator on a user's own questions.
type Signals struct {
	// Candidates is the number of candidates that validated and planned.
	Candidates int `json:"candidates"`
	// Support is the share of the candidates' votes whose query returned
	// the same rows as the chosen one (itself included); without a result
	// comparison, the share that wrote the same SQL.
	Support float64 `json:"support"`
	// Compared is true when results were compared (Support counts rows).
	Compared bool `json:"compared"`
	// Groups is the number of distinct results (or distinct queries when
	// results were not compared) among the candidates.
	Groups int `json:"groups"`
	// Margin is the chosen candidate's score minus the best score of a
	// candidate answering differently (0 when none does).
	Margin float64 `json:"margin"`
	// Score is the Scorer's score of the chosen candidate.
	Score float64 `json:"score"`
	// QuestionCovered is the share of the question's words (not its
	// evidence's) the query uses: in the names it reads, its constants or
	// its description, directly or through the thesaurus.
	QuestionCovered float64 `json:"question_covered"`
	// QueryNamed is the share of the words of what the query reads and
	// returns (tables and columns, keys aside) that the question or its
	// evidence names, directly or through the thesaurus: a query about
	// something else reads words the question never says.
	QueryNamed float64 `json:"query_named"`
	// TablesNamed is the share of the tables the question names (every
	// word of the table's name) that the query reads; 1 when it names none.
	TablesNamed float64 `json:"tables_named"`
	// ColumnsLinked is the share of the columns the question links to
	// strongly that the query uses; 1 when it links to none.
	ColumnsLinked float64 `json:"columns_linked"`
	// ValuesUsed is the share of the stored values, numbers, years and
	// quoted strings the question names that the query uses; 1 when it
	// names none. A stored value is named when the question writes it
	// out, if need be but for its words' endings ('Disputed' for "in
	// dispute"). A number is read as written ("30,000", "2 million"; a
	// percentage also as its share: "70%" is 0.7), a name also by its
	// code ('CA' for "California").
	ValuesUsed float64 `json:"values_used"`
	// NamesMissed is the number of names the question writes with a
	// capital (past its first word: "Aberdeen", "APG") that the query
	// neither uses as a constant nor reads as a table or column.
	NamesMissed int `json:"names_missed"`
	// ShapeAsked is the number of answer shapes the question asks for (a
	// count, top N, a superlative, one row per group, an average, a total,
	// distinct values, an order, a ratio); ShapeMissed how many of them
	// the query lacks.
	ShapeAsked  int `json:"shape_asked"`
	ShapeMissed int `json:"shape_missed"`
	// ShapeExtra is the number of shapes the query gives that the
	// question does not ask for: one count, an average, the top rows of a
	// sort ("the query returns one count; the question does not ask how
	// many"); a shape the evidence names is asked.
	ShapeExtra int `json:"shape_extra"`
	// ReadsNoTable is true when the query reads no table (SELECT 1).
	ReadsNoTable bool `json:"reads_no_table"`
	// OutsideContext is the number of tables the query reads that
	// retrieval did not put in the context.
	OutsideContext int `json:"outside_context"`
	// ContextRank is the mean retrieval rank of the tables the query
	// reads, as a share of the context (0: the first table; a table
	// outside the context counts 1).
	ContextRank float64 `json:"context_rank"`
	// Empty is true when the query returned no rows and the question
	// presumes some.
	Empty bool `json:"empty"`
	// UnknownValue is true when the query compares a column with a
	// constant no row holds.
	UnknownValue bool `json:"unknown_value"`
	// Duplicates is true when the run returned a row twice and the query
	// does not group.
	Duplicates bool `json:"duplicates"`
	// Defect is true for a lint warning that says the query answers
	// something else than it seems (rows counted twice by a join, a
	// condition never true).
	Defect bool `json:"defect"`
	// Warnings is the number of lint warnings (at most 3 counted).
	Warnings int `json:"warnings"`
	// Repaired is true when the query needed a repair of what it names to
	// plan: a column or table that does not exist, an ambiguous column
	// (score.Candidate.RepairedNames). A repair of spelling (another
	// dialect's backticks or IFNULL, a GROUP BY completed, a cast) says
	// the model wrote another SQL, not that it misread the question.
	Repaired bool `json:"repaired"`
	// ColumnsOutOfOrder is true when the query returns what the question
	// names in another order than the question names it ("the number of
	// channels and the language" for "for each language, the number of
	// channels").
	ColumnsOutOfOrder bool `json:"columns_out_of_order"`
	// TopRows is true when the query keeps the first rows of a sort
	// (ORDER BY ... LIMIT): rows tied at the cut make the answer depend on
	// how ties are broken; TopGroups when what it sorts are groups.
	TopRows   bool `json:"top_rows"`
	TopGroups bool `json:"top_groups"`
	// Tied is true when the rows the query keeps are cut inside a tie:
	// the first row left out sorts equal to the last one kept
	// (score.Candidate.TiedAtCut), so another answer is as right.
	Tied bool `json:"tied"`
	// ColumnsDisputed is true when other candidates return the same rows
	// with the columns in another order ("count, grade" against "grade,
	// count"): what the rows hold is agreed, how the answer lays it out is
	// not.
	ColumnsDisputed bool `json:"columns_disputed"`
	// CountsDisputed is true when other candidates return the same
	// distinct rows, some a different number of times
	// (score.Candidate.CountsDisputed).
	CountsDisputed bool `json:"counts_disputed"`
	// NegationMissed is true when the question excludes something ("not",
	// "without", "except", "don't") and the query excludes nothing (no
	// NOT, <>, EXCEPT, IS NULL...), read on the parse tree whatever the
	// spelling. The converse is no signal: a query that leaves out
	// cancelled orders or NULLs for a question that never says so is
	// routine.
	NegationMissed bool `json:"negation_missed"`
	// ConstantsUnasked is the number of constants the query compares with
	// (in WHERE, HAVING and JOIN conditions, at any depth) that neither
	// the question nor its evidence names, nor a stored value it links to:
	// 'Asia' in a query for a question about every country. An answer
	// written for another question brings its constants with it.
	ConstantsUnasked int `json:"constants_unasked"`
	// ColumnsUnasked is the number of columns the query returns that the
	// question (or its evidence) does not ask for: no word of what the
	// column holds is one the question says, directly, through the
	// thesaurus or but for its ending ("the concert name and theme" for
	// "how many singers are from each country?"); a measure its adjective
	// asks for is one it says ("the longest rivers": length). Counts,
	// names and keys are judged by the shape checks instead.
	ColumnsUnasked int `json:"columns_unasked"`
	// ColumnsMissed is the number of columns the question links to
	// strongly, of tables the query reads, that the query does not use:
	// countrylanguage.isofficial for "countries where English is an
	// official language" answered without it. A linked column of a table
	// the query does not read counts in ColumnsLinked only: linking also
	// finds columns of tables the answer has no need of; nor does a key
	// (a name ending in "id"). Nor is a column owed whose phrase
	// (score.Input.ColumnPhrases) the evidence alone writes, or that the
	// query spends on a value the question names, compared with a column
	// that stores it or used through the evidence's definition ("JetBlue"
	// links to airlines.abbreviation, and the query compares airline with
	// 'JetBlue Airways'). Logistic weighs whether there is one.
	ColumnsMissed int `json:"columns_missed"`
	// ColumnsUnreturned is the number of columns the question asks to
	// show by their own name, in a sentence that says what to show
	// ("Return the make, model and total revenue", "What are the id and
	// names of ...") or as the group it asks for ("for each semester
	// id"), that the query uses but shows in no select list: cars.make
	// for a query that groups by make and returns model twice. A column
	// asked and not used at all counts in ColumnsMissed instead.
	// Logistic weighs whether there is one.
	ColumnsUnreturned int `json:"columns_unreturned"`
	// ValuesMissed is the number of stored values, numbers and quoted
	// strings the question names that the query does not use (what
	// ValuesUsed is the share of). Logistic weighs whether there is one.
	ValuesMissed int `json:"values_missed"`
	// ExtremeReversed is true when the question asks for one end of a
	// sort ("the most", "the 3 lowest", "the top 5", "the oldest") and
	// every end the query keeps is the other: a limited sort the other
	// way, a minimum for "the highest". "The oldest" is a high age but
	// an early date; a question asking for both ends or for an order
	// ("from highest to lowest"), and a key whose low values are its
	// best (a rank), say nothing.
	ExtremeReversed bool `json:"extreme_reversed"`
	// AggregateMismatched is true when the question names an average,
	// a total, a maximum or a minimum of something ("the average patient
	// height", "the total revenue", "the maximum itch score") and the
	// query aggregates that column only the other way: sums the heights,
	// averages the revenue, takes the minimum score. A sum divided by
	// something is an average; a count gives a total ("the total number
	// of students").
	AggregateMismatched bool `json:"aggregate_mismatched"`
	// PeriodOpen is true when the question names a year as a whole
	// period ("in 2024", "the 2024 budget") and the query bounds a date
	// or year it compares with that year from one side only
	// ("shipped_on >= '2024-01-01'" answers "since 2024"). A year after
	// "since", "before", "between"... or before "or after" asks for one
	// side, and a query that writes no such comparison is judged by
	// ValuesUsed. It is a reason, no input of Logistic: the only
	// examples (the demo ERP exam's gold with a bound dropped) are right
	// 7 times of 19, when the data ends inside the year, so no fit can
	// weigh it.
	PeriodOpen bool `json:"period_open,omitempty"`
	// Deviations is the number of measures the question names that the
	// query computes otherwise than the semantic model defines them (see
	// score.Candidate.Deviations). It is no input of Logistic (no
	// benchmark has a semantic model to fit it on): the Engine caps the
	// confidence of such an answer instead (see nl2sql.Assessment).
	Deviations int `json:"deviations,omitempty"`

	// What the reasons name, not part of the evidence itself.
	missingWords  []string        // question words the query does not use
	queryWords    []string        // what the query reads, in words
	shapeProblems []string        // "the question asks for 5 rows, the query returns one count"
	missingValues []string        // numbers and strings of the question the query lacks
	unasked       []string        // constants of the query the question does not name
	unaskedCols   []string        // columns the query returns that the question does not ask for
	missedCols    []string        // "countrylanguage.isofficial": linked, of a table read, unused
	unreturned    []string        // "cars.make": asked to be shown, used, not shown
	openColumn    string          // the column PeriodOpen bounds from one side
	endAsked      string          // "highest": the end the question asks for, when the query keeps only ...
	endKept       string          // ... "lowest"
	aggAsked      string          // "average patient height": the aggregate asked, when the query computes only ...
	aggComputed   string          // ... "sum(height_cm)"
	deviations    []string        // "the query computes revenue without its filter ..."
	countries     map[string]bool // the codes the query compares with a country column (countryCompared)
}

// signalNames name the entries of Signals.Vector, in order: the inputs of
// the default calibrator's logistic regression.
var signalNames = []string{
	"support", "compared", "support_compared", "groups", "margin", "score",
	"question_covered", "query_named", "tables_named", "columns_linked", "values_used",
	"shape_asked", "shape_missed", "reads_no_table", "outside_context", "context_rank",
	"empty", "unknown_value", "duplicates", "defect", "warnings", "repaired", "single",
	"unanimous", "columns_out_of_order", "top_rows", "top_groups", "names_missed", "shape_extra",
	"tied", "columns_disputed", "counts_disputed", "negation_missed", "constants_unasked", "columns_unasked",
	"columns_missed", "columns_unreturned", "values_missed", "extreme_reversed", "aggregate_mismatched",
}

// Vector is the signals as numbers, in the order of Names: what a
// Logistic weighs, for a program that fits or measures a model of its own
// on the same inputs (one fit per fold of a cross-validation).
func (s *Signals) Vector() []float64 {
	groups := 0.0
	if s.Candidates > 1 {
		groups = float64(s.Groups-1) / float64(s.Candidates-1)
	}
	support := s.Support
	return []float64{
		support, f01(s.Compared), support * f01(s.Compared), groups, max(-2, min(2, s.Margin)), max(-2, min(4, s.Score)),
		s.QuestionCovered, s.QueryNamed, s.TablesNamed, s.ColumnsLinked, s.ValuesUsed,
		float64(min(s.ShapeAsked, 3)), float64(min(s.ShapeMissed, 3)), f01(s.ReadsNoTable), float64(min(s.OutsideContext, 2)), s.ContextRank,
		f01(s.Empty), f01(s.UnknownValue), f01(s.Duplicates), f01(s.Defect), float64(min(s.Warnings, 3)), f01(s.Repaired), f01(s.Candidates <= 1),
		f01(s.Candidates > 1 && s.Groups == 1), f01(s.ColumnsOutOfOrder), f01(s.TopRows), f01(s.TopGroups), float64(min(s.NamesMissed, 2)), float64(min(s.ShapeExtra, 2)),
		f01(s.Tied), f01(s.ColumnsDisputed), f01(s.CountsDisputed), f01(s.NegationMissed), float64(min(s.ConstantsUnasked, 2)),
		float64(min(s.ColumnsUnasked, 2)), f01(s.ColumnsMissed > 0), f01(s.ColumnsUnreturned > 0), f01(s.ValuesMissed > 0),
		f01(s.ExtremeReversed), f01(s.AggregateMismatched),
	}
}

func f01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Shapes a question asks for, each with what in a query gives it.
var (
	cueAverage  = cues.NewCue("average", "mean")
	cueTotal    = cues.NewCue("total", "sum")
	cuePerGroup = cues.NewCue("each", "per", "for every", "every")
	cueSuperl   = cues.NewCue(superlatives...)
	// cueBound is "at least 3", "at most 2": a bound, not a superlative.
	cueBound = cues.NewCue("at least", "at most")
	// cueSorted is a question asking for an order ("in ascending order of").
	cueSorted = cues.NewCue("order", "ordered", "sorted", "ascending", "descending")
	// cueOrderAsked asks for the rows in an order ("ordered by age",
	// "in descending order", "alphabetically"); "ordered" alone is also
	// a purchase ("customers who ordered in 2023").
	cueOrderAsked = cues.NewCue("ascending", "descending", "alphabetical", "alphabetically", "sorted", "sort by",
		"ordered by", "ordered from", "order by", "in order of", "from highest to lowest", "from lowest to highest",
		"from largest to smallest", "from smallest to largest", "from most to least", "from least to most")
	// cueOrderStart says where a sorted list begins ("starting from the
	// earliest date") when the answer is a list; of one value it starts a
	// range ("how many tickets were opened starting from the latest
	// release"). "Starting with the letter A" is neither.
	cueOrderStart = cues.NewCue("starting from the earliest", "starting with the earliest", "starting from the latest", "starting with the latest",
		"starting from the oldest", "starting with the oldest", "starting from the newest", "starting with the newest",
		"starting from the most recent", "starting with the most recent", "starting from the highest", "starting with the highest",
		"starting from the lowest", "starting with the lowest")
	// cueRatio asks for one quantity divided by another.
	cueRatio = cues.NewCue("ratio", "proportion", "fraction")
	// reRanking is a ranking window or DISTINCT ON in the SQL.
	reRanking = regexp.MustCompile(`(?i)\b(row_number|rank|dense_rank)\s*\(\s*\)\s*over\b|\bdistinct\s+on\s*\(`)
	// reNumber is a number in the SQL.
	reNumber = regexp.MustCompile(`\b\d+(?:\.\d+)?\b`)
)

// superlatives are the words that ask for an extreme.
var superlatives = []string{"most", "least", "fewest", "greatest", "highest", "lowest", "largest", "smallest", "best", "worst", "biggest",
	"maximum", "minimum", "oldest", "youngest", "newest", "latest", "earliest", "cheapest", "longest", "shortest"}

// topFirst and topCount ("top 5", "first three") and countTop and
// topWords ("3 oldest") ask for that many rows.
var (
	topFirst = map[string]bool{"top": true, "first": true, "last": true}
	topWords = map[string]bool{"most": true, "least": true, "highest": true, "lowest": true, "largest": true, "smallest": true,
		"best": true, "worst": true, "biggest": true, "oldest": true, "youngest": true}
)

// topCount reports whether a word counts the rows after "top": digits or
// a number word; countTop before "oldest": digits or a number word from
// three.
func topCount(w string) bool { n, _ := cues.NumberWord(w); return cues.Digits(w) || n > 0 }
func countTop(w string) bool { n, _ := cues.NumberWord(w); return cues.Digits(w) || n > 2 }

// firstWord is a word that asks for the first rows: "first", "last",
// "top" or a superlative ("-est").
func firstWord(w string) bool {
	return w == "first" || w == "last" || w == "top" || len(w) > 3 && strings.HasSuffix(w, "est")
}

// shapeWords are question words that ask for a shape, not for data: they
// are judged by the shape checks, not looked for among the query's names.
var shapeWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`many number count total sum average mean maximum minimum max min highest lowest
		top most least largest smallest biggest best worst list show find give return display tell different distinct
		unique order sort sorted ordered descending ascending alphabetical alphabetically also record records ratio proportion fraction
		information info detail details respectively corresponding along both either whose name names title titles
		one two three four five six seven eight nine ten when first last id ids his her their its but about ever
		across through younger older old common`) {
		m[gloss.Stem(w)] = true
	}
	for _, w := range superlatives { // the shape check judges them all
		m[gloss.Stem(w)] = true
	}
	// Words that instruct how to write or give the answer ("by joining
	// the customers and sales tables", "calculate", "give the answer as
	// an integer rounded to 2 decimal places") ask for no data either.
	for _, w := range strings.Fields(`database table tables join joining joined based calculate compute computed
		answer answers result results integer decimal decimals place places rounded round convert converted query`) {
		m[gloss.Stem(w)] = true
	}
	return m
}()

// measure computes the signals of candidate i of in, whose scores are
// scores (one per candidate).
func measure(in *score.Input, scores []float64, i int) Signals {
	c := in.Candidates[i]
	s := Signals{Candidates: len(in.Candidates), Score: scores[i], Compared: c.ResultGroup >= 0}
	s.Support, s.Groups, s.Margin = support(in, scores, i)
	// What the answer owes is read off the question alone; what it may
	// use, off the question and its evidence. Evidence is help (a
	// definition, an instruction, and in defog's files the definitions of
	// every other question too): a query need not use its every word,
	// return its shapes or compare with its numbers, but a constant or a
	// column the evidence names is no stranger.
	qa, ea := in.Analyses()
	allowed := cues.Read(qa, ea)
	owed := cues.Read(qa)
	d := c.Describe()
	if d == nil {
		d = &describe.Description{}
	}
	tree := parseTree(c.SQL)
	if mayNameCountry(c.SQL) {
		s.countries = countryCompared(tree)
	}
	s.questionWords(qa, owed, in.Words(), identifiers(qa, ea), c, d, tree)
	s.shape(owed, allowed, c, d, tree)
	s.ColumnsOutOfOrder = cues.OutOfOrder(qa.Words, d.Columns)
	s.TopRows = d.Limit != nil && len(d.Order) > 0
	s.TopGroups = s.TopRows && len(d.GroupBy) > 0
	s.Tied = c.TiedAtCut
	s.CountsDisputed = c.CountsDisputed
	s.NegationMissed = questionNegates(qa) && !sqlNegates(tree)
	s.openColumn = openPeriod(tree, periodYears(qa))
	s.PeriodOpen = s.openColumn != ""
	s.unasked = unaskedConstants(tree, allowed, qa, ea, in.Values, s.countries)
	s.ConstantsUnasked = len(s.unasked)
	s.ColumnsDisputed = c.Agreement >= 0 && c.OrderedAgreement >= 0 && c.OrderedAgreement < c.Agreement
	s.values(owed, in.Values, c.SQL, in.Evidence, qa.Words, tree)
	s.properNouns(owed, cues.Read(ea), c)
	s.TablesNamed = 1
	if named := cues.NamedTables(in.Terms(), in.ContextTables); len(named) > 0 {
		s.TablesNamed = cues.Coverage(c.Tables, named)
	}
	s.ColumnsLinked = 1
	if len(in.Columns) > 0 {
		used := usedColumns(c, in.Columns, qa.Words)
		s.ColumnsLinked = cues.Coverage(used, in.Columns)
		s.missedCols = missedColumns(in, c, used, owed, qa, ea, tree)
		s.ColumnsMissed = len(s.missedCols)
	}
	// What the question asks to show, of the columns linked or used; one
	// not used at all is missed instead.
	for _, col := range unreturnedColumns(owed, c.Tables, in.Columns, c.Columns, tree) {
		if !slices.Contains(s.missedCols, col) {
			s.unreturned = append(s.unreturned, col)
		}
	}
	s.ColumnsUnreturned = len(s.unreturned)
	unquoted := owed.Unquoted() // 'Most Wanted' names a value, asks for no end
	s.endAsked, s.endKept = reversedEnd(unquoted, tree)
	s.ExtremeReversed = s.endAsked != ""
	s.aggAsked, s.aggComputed = mismatchedAggregate(unquoted, tree)
	s.AggregateMismatched = s.aggAsked != ""
	s.ReadsNoTable = len(c.Tables) == 0
	rank := 0.0
	for _, t := range c.Tables {
		if k := slices.Index(in.ContextTables, t); k >= 0 && len(in.ContextTables) > 0 {
			rank += float64(k) / float64(len(in.ContextTables))
		} else {
			rank++
			if len(in.ContextTables) > 0 {
				s.OutsideContext++
			}
		}
	}
	if len(c.Tables) > 0 {
		s.ContextRank = rank / float64(len(c.Tables))
	}
	s.Empty = c.ResultRows == 0 && !owed.Has(cues.Existence)
	s.UnknownValue = c.UnknownValues > 0
	s.Duplicates = c.DuplicateRows && !c.Grouped
	s.Defect = c.FanOut
	for _, is := range c.Issues {
		if is.Severity == validate.SeverityWarning {
			s.Warnings++
			s.Defect = s.Defect || cues.Defect(is.Code)
		}
	}
	s.Repaired = c.RepairedNames
	s.definitions(c)
	return s
}

// support returns the share of votes answering as candidate i does, the
// number of distinct answers and i's score margin over the best candidate
// answering differently.
func support(in *score.Input, scores []float64, i int) (share float64, groups int, margin float64) {
	c := in.Candidates[i]
	same := func(o score.Candidate) bool {
		if c.ResultGroup >= 0 && o.ResultGroup >= 0 {
			return o.ResultGroup == c.ResultGroup
		}
		return o.SQL == c.SQL
	}
	total, agree := 0, 0
	seen := map[string]bool{}
	other := false
	best := 0.0
	for j, o := range in.Candidates {
		total += o.Votes
		key := o.SQL
		if o.ResultGroup >= 0 {
			key = "\x00" + strconv.Itoa(o.ResultGroup)
		}
		seen[key] = true
		if same(o) {
			agree += o.Votes
		} else if !other || scores[j] > best {
			other, best = true, scores[j]
		}
	}
	if total > 0 {
		share = float64(agree) / float64(total)
	}
	if other {
		margin = scores[i] - best
	}
	return share, len(seen), margin
}

// questionWords measures how far the question's words (owed) and the
// query's words meet, both ways, through the thesaurus: the query should
// use every word of the question, and what it reads should be named by
// the question or its evidence (words).
func (s *Signals) questionWords(qa *gloss.Analysis, q *cues.Reading, words []gloss.Word, idents []string, c score.Candidate, d *describe.Description, tree *pg_query.ParseResult) {
	owed := qa.Words
	th := gloss.DefaultThesaurus()
	have := map[string]bool{}
	add := func(text string) {
		for _, t := range gloss.Terms(text) {
			have[t] = true
		}
	}
	addRelated := func(words string) {
		add(words)
		for _, r := range th.Related(words) {
			add(r.Text)
		}
	}
	var read []string // what the query returns and filters on, in terms
	for _, t := range describedTerms(d) {
		if t != "id" && !shapeWords[t] {
			read = append(read, t)
		}
	}
	for _, col := range c.Columns {
		addRelated(gloss.Text(col[strings.LastIndexByte(col, '.')+1:]))
	}
	for _, t := range c.Tables {
		name := gloss.Text(t[strings.LastIndexByte(t, '.')+1:])
		addRelated(name)
		s.queryWords = append(s.queryWords, name)
	}
	names := q.Names()
	for _, lit := range cues.StringLiteral.FindAllString(c.SQL, -1) {
		add(lit)
		// A code stands for the name it abbreviates: 'CA' for
		// "California", 'NY' for "New York".
		code := strings.Trim(lit, "'%_ ")
		for _, n := range names {
			if abbreviates(code, n) {
				add(n)
			}
		}
	}
	// 'DE' compared with a country column for "Germany".
	for _, n := range names {
		if countryNamed(s.countries, n) {
			add(n)
		}
	}
	add(d.Text)
	add(strings.Join(c.Computes, " "))
	for _, n := range reNumber.FindAllString(c.SQL, -1) {
		have[n] = true
	}
	if readsClock(tree) {
		for w := range relativeWords {
			have[w] = true
		}
	}
	if subtractsTimes(tree) {
		for w := range unitWords {
			have[w] = true
		}
	}
	// Names written run together (lifeexpectancy, highschooler) hold the
	// question's words without a separator to split them on.
	var joined []string
	for _, n := range append(slices.Clone(c.Tables), c.Columns...) {
		n = n[strings.LastIndexByte(n, '.')+1:]
		if !strings.ContainsAny(n, "_ ") {
			joined = append(joined, strings.ToLower(n))
		}
	}
	inJoined := func(t string) bool {
		return slices.ContainsFunc(joined, func(n string) bool { return runTogether(t, n) })
	}
	// A word written with a hyphen ("check-ins", "e-mail") is the name
	// written without it (checkin, email).
	for i := 1; i < len(owed); i++ {
		a, b := owed[i-1], owed[i]
		if b.Token != a.Token+1 || qa.Text[qa.Tokens[a.Token].End:qa.Tokens[b.Token].Start] != "-" {
			continue
		}
		if g := gloss.Stem(a.Text + b.Text); have[g] || inJoined(g) || variantIn(g, have) {
			have[a.Stem], have[b.Stem] = true, true
		}
	}
	var qterms []string
	seen := map[string]bool{}
	for _, w := range owed {
		t := w.Stem
		if w.Stop || shapeWords[t] || seen[t] || len(t) < 2 {
			continue
		}
		seen[t] = true
		qterms = append(qterms, t)
		if !have[t] && (inJoined(t) || variantIn(t, have)) {
			have[t] = true
		}
		if !have[t] && !strings.ContainsAny(t, "0123456789") {
			s.missingWords = append(s.missingWords, w.Text)
		}
	}
	s.QuestionCovered = shareIn(qterms, have)
	// The question's words and their relatives, to read the query back;
	// a superlative asks for what it is the most of ("the highest price":
	// high, "the earliest date": early).
	asked := map[string]bool{}
	for _, w := range words {
		if !w.Stop {
			asked[w.Stem] = true
			if b := superlativeBase(w.Text); b != "" {
				asked[gloss.Stem(b)] = true
			}
		}
		for _, r := range th.Related(w.Text) {
			for _, t := range gloss.Terms(r.Text) {
				asked[t] = true
			}
		}
	}
	for _, m := range measuresAsked(qa, c.Tables) {
		asked[m] = true
	}
	// A name the question writes as the schema does (doc_id) asks for
	// what the schema's name reads as ("document id").
	for _, id := range idents {
		for _, t := range gloss.Terms(gloss.Text(id)) {
			asked[t] = true
		}
	}
	slices.Sort(read)
	read = slices.Compact(read)
	for _, t := range read {
		if !asked[t] && variantIn(t, asked) {
			asked[t] = true
		}
	}
	s.QueryNamed = shareIn(read, asked)
	s.unaskedCols = unaskedColumns(d.Columns, asked)
	s.ColumnsUnasked = len(s.unaskedCols)
	slices.Sort(s.queryWords)
	s.queryWords = slices.Compact(s.queryWords)
}

// superlativeBase is the adjective of a superlative the shape checks
// know ("highest": high, "earliest": early, "largest": larg, which meets
// "large" but for its ending), "" for other words.
func superlativeBase(w string) string {
	switch {
	case !slices.Contains(superlatives, w):
		return ""
	case strings.HasSuffix(w, "iest"):
		return w[:len(w)-4] + "y"
	case strings.HasSuffix(w, "est"):
		return w[:len(w)-3]
	}
	return ""
}

// identifiers are the tokens of the analyses written as a schema writes
// names (doc_id, sales.orders).
func identifiers(analyses ...*gloss.Analysis) []string {
	var out []string
	for _, a := range analyses {
		if a == nil {
			continue
		}
		for _, t := range a.Tokens {
			if t.Identifier && !t.Quoted {
				out = append(out, t.Text)
			}
		}
	}
	return out
}

// shape compares the answer shapes the question asks for with the query's.
//
// q is what the question asks (its shapes are owed); allowed is the
// question and its evidence: a shape either names is no extra ("ASP" for
// a question whose evidence defines it as an average sale price).
func (s *Signals) shape(q, allowed *cues.Reading, c score.Candidate, d *describe.Description, tree *pg_query.ParseResult) {
	upper := strings.ToUpper(c.SQL)
	sq := q.Without(cueBound) // "at least 3" asks for no extreme
	check := func(asked, has bool, problem string) {
		if !asked {
			return
		}
		s.ShapeAsked++
		if !has {
			s.ShapeMissed++
			s.shapeProblems = append(s.shapeProblems, problem)
		}
	}
	counts := returnsCount(d) || returnsStepCount(tree)
	returns := "the query returns " + returnsWhat(c, d, counts)
	// "The ratio of the number of students who ... to ...": a ratio of
	// counts answers the count inside it.
	ratio := returnsRatio(d)
	check(q.Has(cueRatio), ratio || storesShape(c, "ratio", "proportion", "fraction"), "the question asks for a ratio; the query divides nothing")
	// A count sorted or filtered on answers "the most number of" and "at
	// least 3 of" too.
	ranked := q.Has(cueSuperl) || q.Has(cueSorted) // "the most number of", "at least 3", "in order of count"
	orderAsked := q.Has(cueOrderAsked) || q.Has(cueOrderStart) && (len(d.GroupBy) > 0 || len(d.Measures) == 0)
	// "How many people" is also the total of a column (sum(population)).
	check(countAsked(q, c.Columns), counts || ranked && strings.Contains(upper, "COUNT(") || strings.Contains(upper, "SUM(") || ratio && q.Has(cueRatio),
		"the question asks how many; "+returns)
	superl, superlAsked := sq.Find(cueSuperl)
	// A ranking window (rank() OVER (PARTITION BY ...)) or DISTINCT ON
	// keeps the first rows of each group: "the top 3 employees in each
	// department", "the latest report of each project".
	windowed := reRanking.MatchString(c.SQL)
	if n, ok := topN(q); ok {
		check(true, d.Limit != nil && *d.Limit == n || windowed, "the question asks for "+strconv.FormatInt(n, 10)+" rows; "+returns)
	} else {
		limited := strings.Contains(upper, "ORDER BY") && strings.Contains(upper, "LIMIT") ||
			strings.Contains(upper, "MAX(") || strings.Contains(upper, "MIN(") || windowed ||
			// "ordered from highest to lowest", "best first": the
			// superlative says the order, which a sort gives; so does
			// a question asking for several rows ("What are the most
			// common reasons", "Which warehouses had the largest").
			len(d.Order) > 0 && (orderAsked || q.Any(func(w string) bool { return w == "first" }) || manyRows(q)) ||
			// The extreme is stored: "the highest point" is
			// highlow.highest_point.
			superlAsked && slices.ContainsFunc(c.Columns, func(col string) bool {
				return strings.Contains(strings.ToLower(col[strings.LastIndexByte(col, '.')+1:]), strings.ToLower(superl.Text))
			})
		check(superlAsked, limited, "the question asks for the "+superl.Text+"; the query neither sorts and limits nor takes a maximum or minimum")
	}
	// "each" asks for groups when something is counted or aggregated for
	// each; "the name of each teacher" is a list.
	per, perAsked := perGroupCue(q)
	perGroup := perAsked && (countAsked(q, c.Columns) || q.Has(cueAverage) || q.Has(cueTotal) || superlAsked)
	check(perGroup, c.Grouped || strings.Contains(upper, "OVER (") || strings.Contains(upper, "GROUP BY") || windowed || perGroup && rowPerGroup(q, per, c, d),
		"the question asks for a result per group (\""+per.Text+"\"); the query does not group")
	check(q.Has(cueAverage), strings.Contains(upper, "AVG(") || storesShape(c, "average", "avg", "mean"), "the question asks for an average; the query computes none")
	check(q.Has(cueTotal) && (!q.Has(cues.Count) || countsNameColumns(q, c.Columns)), strings.Contains(upper, "SUM(") || counts || storesShape(c, "total", "sum"), "the question asks for a total; the query adds nothing up")
	check(q.Has(cues.Distinct), strings.Contains(upper, "DISTINCT") || c.Grouped, "the question asks for different values; the query may repeat them")
	check(orderAsked, len(d.Order) > 0 || strings.Contains(upper, "OVER ("), "the question asks for the rows in an order; the query does not sort them")
	extra := func(gives, asked bool, problem string) {
		if gives && !asked {
			s.ShapeExtra++
			s.shapeProblems = append(s.shapeProblems, problem)
		}
	}
	extra(counts && len(d.Columns) == 1 && len(d.GroupBy) == 0, allowed.Has(cues.Count) || allowed.Has(cueTotal),
		"the query returns one count; the question does not ask how many")
	extra(strings.Contains(upper, "AVG("), allowed.Has(cueAverage), "the query computes an average; the question does not ask for one")
	_, top := topN(allowed) // "the last 10 days" is a period, no top N
	asq := allowed.Without(cueBound)
	extra(d.Limit != nil && len(d.Order) > 0, asq.Has(cueSuperl) || top || asq.Any(firstWord),
		"the query keeps only the first rows of a sort; the question asks for no top or extreme")
}

// unaskedColumns returns the output columns (as describe gives them) no
// term of which asked holds, even but for its ending or run together
// with others (sbcustname holds "name"). Counts, the words of the
// answer's shape ("name", "total", "average") and keys (aid, doc_id)
// are judged by the shape checks, not here: people.name is judged on
// "people" alone, a column of a key or a name only on nothing; a full or
// last name is a name.
func unaskedColumns(columns []string, asked map[string]bool) []string {
	glued := func(t string) bool {
		for k := range asked {
			if runTogether(k, t) {
				return true
			}
		}
		return false
	}
	var out []string
	for _, col := range columns {
		if strings.HasPrefix(col, "the number of") {
			continue
		}
		judged, named := false, false
		terms := gloss.Terms(cues.StringLiteral.ReplaceAllString(col, ""))
		if personName(terms) || personName(joinedName(terms)) {
			continue // "full name", "first name": a name, which the shape checks judge
		}
		for _, t := range terms {
			if shapeWords[t] || strings.HasSuffix(t, "id") || strings.ContainsAny(t, "0123456789") {
				continue
			}
			judged = true
			named = named || asked[t] || variantIn(t, asked) || glued(t)
		}
		if judged && !named {
			out = append(out, col)
		}
	}
	return out
}

// nameParts are the words of a name's part: "full name", "last name".
var nameParts = map[string]bool{"full": true, "first": true, "last": true, "middle": true, "given": true, "family": true, "nick": true, "sur": true}

// personName reports whether terms are a name's part and "name".
func personName(terms []string) bool {
	if len(terms) < 2 || terms[len(terms)-1] != "name" {
		return false
	}
	for _, t := range terms[:len(terms)-1] {
		if !nameParts[t] {
			return false
		}
	}
	return true
}

// joinedName is the terms of "first name and last name put together"
// (a concatenation, as describe reads it) as those of one name, "first
// last name"; other terms are returned as they are.
func joinedName(terms []string) []string {
	n := len(terms)
	if n < 4 || terms[n-2] != "put" || terms[n-1] != "together" {
		return terms
	}
	var out []string
	for _, t := range terms[:n-2] {
		if t != "name" && t != "and" {
			out = append(out, t)
		}
	}
	return append(out, "name")
}

// runTogether reports whether the word w (4 letters at least) stands
// inside the longer name n written without separators: "expectancy" in
// lifeexpectancy, "name" in sbcustname.
func runTogether(w, n string) bool {
	return len(w) >= 4 && len(n) > len(w) && strings.Contains(n, w)
}

// rateUnits follow "per" in a rate, not in a grouping: "miles per
// gallon", "people per square kilometer", "per capita".
var rateUnits = map[string]bool{"square": true, "cubic": true, "capita": true, "cent": true, "gallon": true, "litre": true,
	"liter": true, "kilometer": true, "kilometre": true, "km": true, "mile": true, "unit": true, "person": true, "head": true}

// storesShape reports whether the query reads a column whose name says
// it holds the shape asked (one of words: "the highest average
// attendance" in stadium.average, "the pixel aspect ratio" in
// pixel_aspect_ratio_par): the measure is stored, not computed.
func storesShape(c score.Candidate, words ...string) bool {
	for _, col := range c.Columns {
		for _, w := range strings.FieldsFunc(strings.ToLower(col[strings.LastIndexByte(col, '.')+1:]), func(r rune) bool { return r == '_' }) {
			if slices.Contains(words, w) {
				return true
			}
		}
	}
	return false
}

// rowPerGroup reports whether the query answers "each" with the rows of
// the table the word after it names, aggregating nothing: "the highest
// point in each state" from a table of states, "the ratio ... for each
// aircraft" from aircraft.
func rowPerGroup(q *cues.Reading, per cues.Match, c score.Candidate, d *describe.Description) bool {
	_, after, _, hasAfter := q.WordAround(per)
	if !hasAfter || len(d.Measures) > 0 || d.Limit != nil || len(d.GroupBy) > 0 {
		return false
	}
	for _, t := range c.Tables {
		name := t[strings.LastIndexByte(t, '.')+1:]
		if slices.Contains(gloss.Terms(gloss.Text(name)), after.Stem) || runTogether(after.Stem, strings.ToLower(name)) {
			return true
		}
	}
	return false
}

// perGroupCue finds the first word asking for one result per group
// ("each", "per", "for every"), "per" in a rate aside.
func perGroupCue(q *cues.Reading) (cues.Match, bool) {
	for _, m := range q.FindAll(cuePerGroup) {
		_, after, _, hasAfter := q.WordAround(m)
		if hasAfter && (m.Text == "per" && rateUnits[after.Text] || after.Text == "time") {
			continue // "miles per gallon"; "each time" is whenever, no group
		}
		return m, true
	}
	return cues.Match{}, false
}

// manyRows reports whether the question asks for several rows: "Which"
// and a plural ("Which warehouses ..."), "What are", "List", "Show".
func manyRows(q *cues.Reading) bool {
	lead := append(q.Lead(2), "", "")
	first, second := lead[0], lead[1]
	plural := len(second) > 3 && strings.HasSuffix(second, "s") && !strings.HasSuffix(second, "ss") && !strings.HasSuffix(second, "us")
	return first == "which" && plural || first == "what" && second == "are" || first == "list" || first == "show"
}

// returnsWhat says in words what the query returns ("one count", "3 rows").
func returnsWhat(c score.Candidate, d *describe.Description, counts bool) string {
	switch {
	case counts && len(d.GroupBy) == 0 && len(d.Columns) == 1:
		return "one count"
	case c.ResultRows == 1:
		return "one row"
	case c.ResultRows > 1 && c.ResultRows <= cues.CompareRows:
		return strconv.Itoa(c.ResultRows) + " rows"
	case d.Limit != nil:
		return "at most " + strconv.FormatInt(*d.Limit, 10) + " rows"
	}
	return "all matching rows"
}

// topPair reports whether two words ask for a number of rows: "top 5",
// "first three", "3 oldest".
func topPair(a, b string) bool { return topFirst[a] && topCount(b) || countTop(a) && topWords[b] }

// topN returns the number of rows the question asks for ("top 5", "3
// oldest"); ok false when it asks for none. "The last 10 years" and "the
// last 10 calendar months" are periods, not 10 rows.
func topN(q *cues.Reading) (n int64, ok bool) {
	a, b, ok := q.PairBefore(func(a, b, next string) bool {
		// "The top 5 days by sales" are rows; "the last 24 hours" a
		// period.
		period := topFirst[a] && a != "top" && (durationUnit(next) || periodKind[next] && periodAfter(q, a, b, next))
		return topPair(a, b) && !period
	})
	if !ok {
		return 0, false
	}
	g := a
	if topFirst[a] {
		g = b
	}
	if n, ok := cues.NumberWord(g); ok {
		return n, true
	}
	n, _ = strconv.ParseInt(g, 10, 64)
	return n, true
}

// periodAfter reports whether the question writes a period's unit right
// after "a b kind" ("last 10 calendar months"): "the last three complete
// orders" are rows.
func periodAfter(q *cues.Reading, a, b, kind string) bool {
	for u := range periodUnit {
		if q.Contains(a + " " + b + " " + kind + " " + u) {
			return true
		}
	}
	return false
}

// values measures the share of the stored values, numbers and quoted
// strings the question names that the query uses.
func (s *Signals) values(q *cues.Reading, stored []string, sql, evidence string, qwords []gloss.Word, tree *pg_query.ParseResult) {
	stems := map[string]bool{}
	for _, w := range qwords {
		stems[w.Stem] = true
	}
	named, used := 0, 0
	look := func(v string, inSQL bool) {
		named++
		if inSQL {
			used++
		} else {
			s.missingValues = append(s.missingValues, v)
		}
	}
	// The value index also returns values sharing a word with the
	// question ("Eastern Asia" for "Asia"): only a value the question
	// writes out is named, if need be but for its words' endings
	// ('Disputed' for "in dispute", 'Monday' for "on Mondays"). Values
	// that differ only so ('Republic', 'Republics') are one value named,
	// used when the query uses either.
	var keys []string
	first, usedAny := map[string]string{}, map[string]bool{}
	for _, v := range stored {
		if !q.Contains(v) && !stemsIn(v, stems) {
			continue
		}
		k := valueKey(v)
		if _, ok := first[k]; !ok {
			first[k] = v
			keys = append(keys, k)
		}
		usedAny[k] = usedAny[k] || usesValue(sql, v) || usesCode(q, sql, v) || countryNamed(s.countries, v) || datesMonth(sql, v) || usesDefinition(evidence, sql, v, tree)
	}
	seen := map[string]bool{}
	for _, k := range keys {
		seen[strings.ToLower(first[k])] = true
		look(first[k], usedAny[k])
	}
	for _, v := range q.Quoted() {
		if !seen[strings.ToLower(v)] && first[valueKey(v)] == "" {
			seen[strings.ToLower(v)] = true
			look(v, usesValue(sql, v) || countryNamed(s.countries, v))
		}
	}
	// The columns the query reads, for a number not written as a value
	// (day100_pasi_score): read off the tree only then.
	var columns []string
	read := false
	inName := func(n cues.Number) bool {
		if !read && tree != nil {
			columns, read = columnRefNames(tree), true
		}
		return numberInName(columns, wordBefore(qwords, n.Text), n.Text)
	}
	sqlNumbers := map[string]bool{}
	for _, n := range reNumber.FindAllString(sql, -1) {
		sqlNumbers[normalNumber(n)] = true
	}
	for _, n := range q.Numbers() {
		if !n.Digits || seen[n.Text] {
			continue // "at least two" is often "> 1"
		}
		seen[n.Text] = true
		look(n.Text, slices.ContainsFunc(numberForms(n), func(f string) bool { return sqlNumbers[f] }) || inName(n) ||
			periodsBack(sql, periodBack(qwords, n.Text), int(n.Value)-1))
	}
	s.ValuesUsed = 1
	s.ValuesMissed = named - used
	if named > 0 {
		s.ValuesUsed = float64(used) / float64(named)
	}
}

// periodBack returns the unit ("day", "month") of the period that the
// number n counts back from today ("the past 7 days", "the last 12
// calendar months"), "" when n counts none: a query may bound it from
// the current period included, one less back (periodsBack).
func periodBack(words []gloss.Word, n string) string {
	for k := 1; k+1 < len(words); k++ {
		if words[k].Text != n || !periodFrom[words[k-1].Text] {
			continue
		}
		unit := words[k+1].Text
		if periodKind[unit] && k+2 < len(words) {
			unit = words[k+2].Text
		}
		if periodUnit[unit] {
			return strings.TrimSuffix(unit, "s")
		}
	}
	return ""
}

// periodsBack reports whether sql bounds a period n units back from the
// current one: n days from the current date (CURRENT_DATE - INTERVAL
// 'n days', CURRENT_DATE - INTERVAL 'n' DAY, CURRENT_DATE - n), n months
// (weeks, quarters, years) from the start of the current one
// (date_trunc('month', CURRENT_DATE) - INTERVAL 'n months'). Two months
// back from today is no "last 3 months".
func periodsBack(sql, unit string, n int) bool {
	if n < 1 || unit == "" {
		return false
	}
	k := strconv.Itoa(n)
	if unit == "day" {
		for _, m := range reDaysBack.FindAllStringSubmatch(sql, -1) {
			if m[1] == k || m[2] == k || m[3] == k {
				return true
			}
		}
		return false
	}
	for _, m := range rePeriodsBack.FindAllStringSubmatch(sql, -1) {
		if strings.EqualFold(m[1], unit) && m[2] == k && strings.EqualFold(strings.TrimSuffix(strings.ToLower(m[3]), "s"), unit) {
			return true
		}
	}
	return false
}

// reDaysBack and rePeriodsBack are periodsBack's bounds, the number
// (and the unit) captured: CURRENT_DATE - INTERVAL '7 days', - INTERVAL
// '7' DAY, - 7; date_trunc('month', CURRENT_DATE) - INTERVAL '3 months'.
var (
	reDaysBack    = regexp.MustCompile(`(?i)\bcurrent_date\s*-\s*(?:interval\s*'\s*(\d+)\s*days?\s*'|interval\s*'\s*(\d+)\s*'\s*days?\b|(\d+)\b)`)
	rePeriodsBack = regexp.MustCompile(`(?i)\bdate_trunc\s*\(\s*'(\w+)'\s*,\s*(?:current_date|now\s*\(\s*\)|current_timestamp)\s*\)\s*-\s*interval\s*'\s*(\d+)\s*([a-z]+)\s*'`)
)

// numberInName reports whether a column the query reads is named with
// the number after the word the question writes before it: "the PASI
// score at day 100" is day100_pasi_score, "line 1 and line 2" are line_1
// and line_2. The number is then a name's part, not a value to compare
// with. Only columns count: an output's name (sum(amount) AS
// store_12_sales) or a WITH query's says what the query means, not what
// it reads.
func numberInName(columns []string, before, number string) bool {
	if before == "" || !cues.Digits(number) {
		return false
	}
	// "days 30" names day_30_rate as "day 30" does.
	words := regexp.QuoteMeta(before)
	if stem := gloss.Stem(before); stem != before && strings.HasPrefix(before, stem) {
		words = "(?:" + words + "|" + regexp.QuoteMeta(stem) + ")"
	}
	re, err := regexp.Compile(`(?i)^(?:[a-z0-9_]*_)?` + words + `_?` + number + `(?:[^0-9]|$)`)
	return err == nil && slices.ContainsFunc(columns, re.MatchString)
}

// wordBefore is the word (a letter word, no stopword) the question writes
// before its first word w, past the other numbers of a list ("at days 30
// and 60": days for 60 too), or "".
func wordBefore(words []gloss.Word, w string) string {
	for k := 1; k < len(words); k++ {
		if words[k].Text != w {
			continue
		}
		j := k - 1
		for j > 0 && (cues.Digits(words[j].Text) || words[j].Text == "and" || words[j].Text == "or") {
			j--
		}
		if b := words[j]; !b.Stop && b.Text != "" && b.Text[0] >= 'a' && b.Text[0] <= 'z' {
			return b.Text
		}
		return ""
	}
	return ""
}

// numberForms are the ways a query writes the number n: its value
// (normalNumber), and for a percentage its share too ("70%": 70, 0.7).
func numberForms(n cues.Number) []string {
	forms := []string{normalNumber(strconv.FormatFloat(n.Value, 'f', -1, 64))}
	if n.Percent {
		forms = append(forms, normalNumber(strconv.FormatFloat(n.Value/100, 'f', -1, 64)))
	}
	return forms
}

// normalNumber writes a number without trailing zeros ("2.50" -> "2.5")
// and without leading ones ("01" -> "1": the day of '2023-04-01' is the
// question's "April 1").
func normalNumber(n string) string {
	if strings.Contains(n, ".") {
		n = strings.TrimRight(strings.TrimRight(n, "0"), ".")
	}
	for len(n) > 1 && n[0] == '0' && n[1] != '.' {
		n = n[1:]
	}
	return n
}

// Of measures the signals of candidate i of in, whose Scorer gave scores
// (one per candidate): what the Engine hands its Calibrator for the
// candidate it chose. A program scoring candidates its own way can
// calibrate them alike. Out-of-range input gives zero Signals.
func Of(in *score.Input, scores []float64, i int) Signals {
	if in == nil || i < 0 || i >= len(in.Candidates) || len(scores) != len(in.Candidates) {
		return Signals{}
	}
	return measure(in, scores, i)
}

// returnsStepCount reports whether the query returns, as it is, a count
// that one of its steps computes (a WITH query or a subquery in FROM):
// "Return the year, number of new patients and NPI" answered by WITH
// per_year AS (SELECT ..., count(*) AS new_patients ...) SELECT year,
// new_patients, ... FROM per_year.
func returnsStepCount(tree *pg_query.ParseResult) bool {
	if tree == nil || len(tree.Stmts) != 1 {
		return false
	}
	top := tree.Stmts[0].Stmt.GetSelectStmt()
	if top == nil {
		return false
	}
	counted := map[string]bool{}
	steps := func(sel *pg_query.SelectStmt) {
		for _, t := range sel.GetTargetList() {
			rt := t.GetResTarget()
			if f := rt.GetVal().GetFuncCall(); rt != nil && rt.Name != "" && f != nil && strings.EqualFold(pgparse.BuiltinName(f), "count") {
				counted[strings.ToLower(rt.Name)] = true
			}
		}
	}
	for _, cte := range top.GetWithClause().GetCtes() {
		steps(cte.GetCommonTableExpr().GetCtequery().GetSelectStmt())
	}
	for _, from := range top.FromClause {
		steps(from.GetRangeSubselect().GetSubquery().GetSelectStmt())
	}
	for _, t := range top.TargetList {
		if ref := t.GetResTarget().GetVal().GetColumnRef(); ref != nil && len(ref.Fields) > 0 &&
			counted[strings.ToLower(columnName(ref))] {
			return true
		}
	}
	return false
}

// returnsCount reports whether the query (any branch of a set operation)
// returns a count; a count divided by another is a ratio.
func returnsCount(d *describe.Description) bool {
	for _, m := range d.Measures {
		if strings.HasPrefix(m, "the number of") && !ratioOf(m) {
			return true
		}
	}
	if d.SetOp != "" {
		for _, p := range d.Parts {
			if p.Description != nil && returnsCount(p.Description) {
				return true
			}
		}
	}
	return false
}

// returnsRatio reports whether the query returns one quantity divided by
// another (any branch of a set operation).
func returnsRatio(d *describe.Description) bool {
	for _, c := range d.Columns {
		if ratioOf(c) {
			return true
		}
	}
	for _, p := range d.Parts {
		if p.Description != nil && returnsRatio(p.Description) {
			return true
		}
	}
	return false
}

// ratioOf reports whether a described column divides ("a divided by b",
// "a as a percentage of b").
func ratioOf(col string) bool {
	return strings.Contains(col, " divided by ") || strings.Contains(col, " as a percentage of ")
}

// describedTerms are the retrieval terms of what a query returns, filters
// on, groups and sorts by, in words (quoted constants aside): what the
// question should name.
func describedTerms(d *describe.Description) []string {
	var out []string
	add := func(items []string) {
		for _, it := range items {
			out = append(out, gloss.Terms(cues.StringLiteral.ReplaceAllString(it, ""))...)
		}
	}
	add(d.Columns)
	add(d.Filters)
	add(d.GroupBy)
	add(d.Having)
	add(d.Order)
	for _, p := range d.Parts {
		if p.Description != nil {
			out = append(out, describedTerms(p.Description)...)
		}
	}
	return out
}

// properNouns counts the capitalised names of the question (past its first
// word) the query does not use: not in its text, and no term of theirs
// among the names it reads.
func (s *Signals) properNouns(q, evidence *cues.Reading, c score.Candidate) {
	names := map[string]bool{}
	for _, t := range c.Tables {
		for _, w := range gloss.Terms(gloss.Text(t[strings.LastIndexByte(t, '.')+1:])) {
			names[w] = true
		}
	}
	for _, col := range c.Columns {
		for _, w := range gloss.Terms(gloss.Text(col[strings.LastIndexByte(col, '.')+1:])) {
			names[w] = true
		}
	}
	for _, m := range q.Names() {
		// A name the evidence defines ("PMCS = per month customer
		// signups") is a measure the query computes, not a value it
		// writes.
		if usesValue(c.SQL, m) || usesCode(q, c.SQL, m) || countryNamed(s.countries, m) || !nameLike(m) || evidence.Contains(m) {
			continue
		}
		known := false
		for _, t := range gloss.Terms(m) {
			known = known || names[t]
		}
		if !known && len(gloss.Terms(m)) > 0 {
			s.NamesMissed++
			s.missingValues = append(s.missingValues, m)
		}
	}
}

// nameLike reports whether a capitalised run names a thing the query
// should use: not "IDs" (a word of the answer's shape) and not a month or
// a weekday (a date, which the query compares as one: "April 1 2023" is
// '2023-04-01').
func nameLike(m string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(m), func(r rune) bool { return r == ' ' || r == '-' }) {
		if !shapeWords[gloss.Stem(w)] && !calendarWords[w] && !gloss.Stopword(w) {
			return true
		}
	}
	return false
}

// calendarWords are the months and weekdays (months, weekdays), written
// out, in the plural (days) or shortened.
var calendarWords = func() map[string]bool {
	m := map[string]bool{"sept": true, "tues": true, "thur": true, "thurs": true}
	for _, w := range months {
		m[w], m[w[:3]] = true, true
	}
	for _, w := range weekdays {
		m[w], m[w+"s"], m[w[:3]] = true, true, true
	}
	return m
}()

// shareIn is the share of terms found in set; 1 when there are none (no
// evidence against).
func shareIn(terms []string, set map[string]bool) float64 {
	if len(terms) == 0 {
		return 1
	}
	n := 0
	for _, t := range terms {
		if set[t] {
			n++
		}
	}
	return float64(n) / float64(len(terms))
}

// countColumns are the names (lower case) of columns but identifiers.
func countColumns(columns []string) []string {
	var names []string
	for _, c := range columns {
		n := strings.ToLower(c[strings.LastIndexByte(c, '.')+1:])
		if identifierColumn(n) {
			continue // conductor_id names conductors, it holds no count of them
		}
		names = append(names, n)
	}
	return names
}

// countColumn reports whether the word "count" (m) names a column of
// names with the word before it: "in terms of review count" is
// business.review_count, and asks for no count.
func countColumn(q *cues.Reading, m cues.Match, names []string) bool {
	before, _, hasBefore, _ := q.WordAround(m)
	return m.Text == "count" && hasBefore && slices.ContainsFunc(names, func(n string) bool {
		// review_count, reviewcount, reviews_count, orders_count
		head, ok := strings.CutSuffix(n, "count")
		head = strings.TrimSuffix(head, "_")
		return ok && head != "" && (head == before.Text || gloss.Stem(head) == before.Stem)
	})
}

// countsNameColumns reports whether every count word of the question
// names a column (countColumn): "the total review count" then asks for
// a total of review_count.
func countsNameColumns(q *cues.Reading, columns []string) bool {
	names := countColumns(columns)
	ms := q.FindAll(cues.Count)
	return len(ms) > 0 && !slices.ContainsFunc(ms, func(m cues.Match) bool { return !countColumn(q, m, names) })
}

// numberHolders are words before "number of" that make it a stored
// number, not a count: "the phone number of the student".
var numberHolders = map[string]bool{"phone": true, "mobile": true, "telephone": true, "cell": true, "fax": true, "id": true,
	"serial": true, "account": true, "contact": true, "registration": true, "reference": true, "house": true, "street": true}

// averageWords before "number of" ask for an average of numbers, which
// the average shape judges: "the average number of injuries".
var averageWords = map[string]bool{"average": true, "mean": true, "median": true}

// countAsked reports whether the question asks for a count: "count", or
// "how many" and "number of" that are no stored number (a column that
// holds it: "how many cylinders" for cylinders, "number of products" for
// number_products; "the phone number of").
func countAsked(q *cues.Reading, columns []string) bool {
	names := countColumns(columns)
	stored := slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, "num") || strings.Contains(n, "count") })
	for _, m := range q.FindAll(cues.Count) {
		before, after, hasBefore, hasAfter := q.WordAround(m)
		if m.Text == "count" {
			if countColumn(q, m, names) {
				continue
			}
			return true
		}
		if m.Text == "number of" && (hasBefore && (numberHolders[before.Text] || averageWords[before.Text]) || stored) {
			continue
		}
		// "how many days after the invoice", "the number of days
		// employed": a duration, not a count of rows.
		if hasAfter && durationUnit(after.Text) {
			continue
		}
		if hasAfter {
			noun := after.Stem
			if len(noun) >= 4 && slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, noun) }) {
				continue
			}
		}
		return true
	}
	return false
}

// usedColumns are the columns the query uses, and those of linked that
// are named after a table it reads, whichever table holds them
// (singer_in_concert.singer_id, car_makers.country): "How many singers
// do we have?" links to singer_in_concert.singer_id through "singers",
// and count(*) FROM singer answers it without naming a column. A
// question that writes the column's own name ("city names", "semester
// id") asks for the column, not the table: it counts only when the query
// uses it, or a column of that name in another table (a key the tables
// share).
func usedColumns(c score.Candidate, linked []string, question []gloss.Word) []string {
	out := slices.Clone(c.Columns)
	var said []string
	for _, w := range question {
		if !w.Stop {
			said = append(said, w.Stem)
		}
	}
	read := tableWords(c.Tables)
	bare := map[string]bool{}
	for _, col := range c.Columns {
		bare[strings.ToLower(col[strings.LastIndexByte(col, '.')+1:])] = true
	}
	for _, l := range linked {
		if slices.Contains(out, l) {
			continue
		}
		// Every word of the column's name, identifiers aside, names a
		// table the query reads, and one at least does ("name" alone
		// names none).
		col := l[strings.LastIndexByte(l, '.')+1:]
		words := entityWords(col)
		named, all, ident := false, true, false
		for _, w := range words {
			if !identifierWords[w] {
				named, all = true, all && read[w]
			} else {
				ident = true
			}
		}
		if named && all && (!ident || bare[strings.ToLower(col)] || !phraseIn(said, words)) {
			out = append(out, l)
		}
	}
	return out
}

// tableWords are the words of the tables' names (qualified names):
// what a question names when it names one of them.
func tableWords(tables []string) map[string]bool {
	read := map[string]bool{}
	for _, t := range tables {
		for _, w := range entityWords(t[strings.LastIndexByte(t, '.')+1:]) {
			read[w] = true
		}
	}
	return read
}

// phraseIn reports whether words stand in text one after the other.
func phraseIn(text, words []string) bool {
	for i := 0; i+len(words) <= len(text); i++ {
		if slices.Equal(text[i:i+len(words)], words) {
			return true
		}
	}
	return false
}

// entityWords are the stemmed words of a name, glued ones split
// (countrycode: country, code), stopwords aside.
func entityWords(name string) []string {
	var out []string
	for _, w := range gloss.Split(name) {
		if !gloss.Stopword(w) {
			out = append(out, gloss.Stem(w))
		}
	}
	return out
}

// identifierWords end a column named after its table (singer_id).
var identifierWords = map[string]bool{"id": true, "name": true, "code": true, "key": true, "no": true, "number": true}

// identifierColumn reports whether a column's name says it identifies or
// names a row (conductor_id, country_code, stadium_name): such a column
// holds no number of the thing it is named after.
func identifierColumn(name string) bool {
	for _, suffix := range []string{"id", "_key", "code", "name"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// usesValue reports whether sql uses the value v the question names: in
// its text, or as a constant that is the same word but for its ending
// ("Asia" for "Asian", "Master" for "Masters"; a value is a phrase, so
// this is a start shared but for a letter, not endingVariant's rule for
// words).
func usesValue(sql, v string) bool {
	lower := strings.ToLower(sql)
	lv := strings.ToLower(v)
	if strings.Contains(lower, strings.ReplaceAll(lv, "'", "''")) {
		return true
	}
	for _, lit := range cues.StringLiteral.FindAllString(lower, -1) {
		lit = strings.TrimSpace(strings.Trim(lit, "'"))
		core := strings.Trim(lit, "%_ ")
		if n := commonPrefix(lit, lv); n >= 4 && n >= min(len(lit), len(lv))-1 || abbreviates(core, lv) {
			return true
		}
		// A pattern searching for the value's distinctive words: '%Ontario%'
		// for 'Lake Ontario'.
		if strings.ContainsAny(lit, "%_") && len(core) >= 4 && phraseIn(strings.Fields(lv), strings.Fields(core)) {
			return true
		}
	}
	// A pattern with wildcards between the value's words:
	// '%computer%science%' for 'Computer Science', when it matches the
	// value's case (ILIKE, lower(...), or the value's own letters).
	wild := func(r rune) bool { return r == ' ' || r == '%' || r == '_' }
	// The value's words, punctuation and stopwords aside: "Health &
	// Beauty", "Sci-Fi", "Computer and Information Science".
	words := func(t string) []string {
		var out []string
		for _, w := range strings.FieldsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if !gloss.Stopword(strings.ToLower(w)) {
				out = append(out, w)
			}
		}
		return out
	}
	anyCase := strings.Contains(lower, "ilike") || strings.Contains(lower, "lower(") || strings.Contains(lower, "upper(")
	for _, lit := range cues.StringLiteral.FindAllString(sql, -1) {
		lit = strings.Trim(lit, "'")
		pieces := strings.FieldsFunc(lit, wild)
		if !strings.ContainsAny(lit, "%_") || len(pieces) < 2 || strings.Contains(lit, `\`) {
			continue
		}
		pieces = words(strings.Join(pieces, " "))
		if len(pieces) == 0 {
			continue
		}
		if anyCase {
			for k := range pieces {
				pieces[k] = strings.ToLower(pieces[k])
			}
			if phraseIn(words(lv), pieces) {
				return true
			}
		} else if phraseIn(words(v), pieces) {
			return true
		}
	}
	return false
}

// abbreviates reports whether code (two or three letters) is a short form
// of name: the initials of its words ('US' for "United States", 'NY' for
// "New York"), or, for one word, its first letter and others in order
// ('CA' for "California", 'mon' for "Mondays"). A query compares with a
// code where the question writes the name out; a country's code whose
// letters do not follow its name ('DE' for "Germany") is countryNamed's.
func abbreviates(code, name string) bool {
	code = strings.ToLower(code)
	if len(code) < 2 || len(code) > 3 || strings.ContainsFunc(code, func(r rune) bool { return r < 'a' || r > 'z' }) {
		return false
	}
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == ' ' || r == '-' })
	switch {
	case len(words) > 1:
		initials := ""
		for _, w := range words {
			initials += w[:1]
		}
		return initials == code
	case len(words) == 1 && len(words[0]) > len(code) && words[0][0] == code[0]:
		rest := words[0][1:]
		for _, r := range code[1:] {
			k := strings.IndexRune(rest, r)
			if k < 0 {
				return false
			}
			rest = rest[k+1:]
		}
		return true
	}
	return false
}

// endingVariant reports whether a and b (lower case) are one word but for
// their endings: after a common start of at least 4 letters, neither goes
// on for more than 4 ("injury", "injured"; "enrolled", "enrolment"), or
// more than 2 after a start of 4 ("asia", "asian"; but "cart",
// "cartoon"). Stem only meets plurals with singulars; a question and a
// schema name one thing in different parts of speech.
func endingVariant(a, b string) bool {
	n := commonPrefix(a, b)
	rest := max(len(a), len(b)) - n
	return n >= 5 && rest <= 4 || n == 4 && rest <= 2
}

// commonPrefix is the number of leading bytes a and b share.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// variantIn reports whether set holds a word that is t but for its
// ending (endingVariant); digits are never variants.
func variantIn(t string, set map[string]bool) bool {
	if strings.ContainsAny(t, "0123456789") {
		return false
	}
	for h := range set {
		if endingVariant(t, h) {
			return true
		}
	}
	return false
}

// definitions records the measures the candidate computes otherwise than
// defined, and says each in words.
func (s *Signals) definitions(c score.Candidate) {
	s.Deviations = len(c.Deviations)
	for _, d := range c.Deviations {
		s.deviations = append(s.deviations, d.String())
	}
}

// datesMonth reports whether v is a month's name and the query writes a
// date in that month: 'March' for DATE '2024-03-01'.
func datesMonth(sql, v string) bool {
	month, err := time.Parse("January", strings.TrimSpace(v)) // any case
	if err != nil {
		return false
	}
	mm := month.Format("01")
	for _, lit := range cues.StringLiteral.FindAllString(sql, -1) {
		if d := strings.Trim(lit, "'"); reDate.MatchString(d) && d[5:7] == mm {
			return true
		}
	}
	return false
}

// usesCode reports whether the query compares with the code the question
// writes in parentheses after the name v: 'ORD' for "Chicago (ORD)".
func usesCode(q *cues.Reading, sql, v string) bool {
	code := q.Parenthesised(v)
	if code == "" {
		return false
	}
	for _, lit := range cues.StringLiteral.FindAllString(sql, -1) {
		if strings.EqualFold(strings.Trim(lit, "'% "), code) {
			return true
		}
	}
	return false
}

// valueWords are the words of a stored value, lower case.
func valueWords(v string) []string {
	return strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// stemsIn reports whether every word of the value v is a word of the
// question (stems) but for its ending (endingVariant): 'Disputed' for
// "in dispute"; not 'US Airways' for "Jetblue Airways".
func stemsIn(v string, stems map[string]bool) bool {
	ws := valueWords(v)
	for _, w := range ws {
		if t := gloss.Stem(w); !stems[t] && !variantIn(t, stems) {
			return false
		}
	}
	return len(ws) > 0
}

// valueKey is a value's words stemmed: 'Republic' and 'Republics' are
// one value.
func valueKey(v string) string {
	ws := valueWords(v)
	for i, w := range ws {
		ws[i] = gloss.Stem(w)
	}
	return strings.Join(ws, " ")
}
