package cli

// The exam subcommand scores the engine on a CSV of questions with gold SQL.
//
//	nl2sql exam --exam FILE.csv [--out FILE.jsonl] [--timings FILE.jsonl]
//	            [--llm SPEC|none] [--scope-column NAME] [--limit N] [common flags]
//
// Input: an RFC 4180 CSV with a header row; columns are found by name:
// qid (or id), question and gold_sql are required; difficulty, evidence,
// scope (or the column named by --scope-column), tags and expected_tables
// are optional. expected_tables lists the tables the answer needs (qualified
// or bare names, separated by spaces, commas or semicolons); without it they
// are extracted from gold_sql. A question's scope (else --scope) pins its
// search path, for the engine and for the gold query alike. --limit N runs
// only the first N questions.
//
// Per question, in input order, one JSON object per line goes to --out
// (nowhere without it):
//
//	{"qid","difficulty","question","sql","executed":bool,
//	 "ex_match_strict":bool,"ex_match":bool,
//	 "tables":[retrieved tables],"gold_tables":[tables the gold query reads],
//	 "table_recall":float,"failure_class":"","confidence":float,
//	 "status":"answered"|"uncertain"|"abstained","reasons":[...],"signals":{...},
//	 "latency_ms":{},"error":"","tags":[...]}
//
// status, reasons and signals are the answer's verdict, why it may be
// wrong and the evidence its confidence came from (absent when no query
// was chosen); 'nl2sql calibrate --answers FILE' refits the confidence on
// them.
//
// The same database, exam and answers give the same --out file, byte for
// byte, on every run: nothing in it depends on time. Timings go to
// --timings instead (nowhere without it), one line per question in the
// same order:
//
//	{"qid","latency_ms":{"stage":ms,...,"total":ms}}
//
// latency_ms stays in the --out lines for compatibility, always empty.
//
// ex_match_strict: the same rows (a multiset, or a sequence when the gold
// query has a top-level ORDER BY) with the same columns in the same order.
// ex_match: the same row count and every gold column found, one to one,
// among the predicted columns. Values compare after normalisation: numbers
// rounded to 4 decimal places whatever their type or text form (1 = 1.00 =
// "1.0"), NULL equals NULL, timestamps in UTC and a midnight timestamp
// equals its date, JSON by value. table_recall is the share of gold tables
// among the retrieved ones (1 when the gold query reads no table).
// failure_class is the engine's failure class when it gave no answer
// (retrieval_miss, column_miss, llm_error, ...), "wrong_result" when its
// query ran but ex_match is false, "gold_error" when the gold query failed
// (the error field says why; it counts as not matched), else "". tags is
// the CSV's tags column split like expected_tables ([] without one). When
// the gold result exceeds the row cap (1000) the comparison is not made
// (gold_error: which rows a cut result holds is the server's choice); an
// answer cut at the cap has more rows than the gold and does not match.
//
// The gold query runs once per question through the execute package, as the
// engine's answers do, so both decode values alike: validated, in a READ ONLY
// transaction that is rolled back, with a statement timeout (30 s) and
// search_path set locally, row cap 1000 (like the answers' default).
//
// With --llm none (or no model configured) the exam measures retrieval only:
// no sql, executed false, only tables, gold_tables and table_recall are
// meaningful (and the timings), and the gold query is not run.
//
// At the end a summary goes to stdout:
//
//	{"mode":"full"|"retrieval","note":"retrieval only: ...","total":N,"executed":N,"ex_strict":N,"ex":N,
//	 "ex_strict_rate":f,"ex_rate":f,"mean_table_recall":f,"all_tables_rate":f,
//	 "by_difficulty":{"easy":{the same counts and rates},...},
//	 "failures":{"class":count},
//	 "calibration":{"answers":N,"right":N,"auroc":f,"ece":f,
//	   "reliability":[{"low","high","answers","right","confidence","accuracy"}...],
//	   "thresholds":[{"at","answers","accuracy","coverage"}...]}}
//
// note (retrieval mode only) says that execution was not run, and stderr
// ends with a line of the retrieval figures, so that executed 0 and ex 0
// do not read as a failure.
//
// calibration (full mode only) says how well the answers' confidence tells
// right answers (ex_match) from wrong ones, over the questions where a
// query was chosen: AUROC (the chance a right answer is more confident
// than a wrong one), ECE (the mean gap between confidence and accuracy
// over 10 bins), the reliability table of those bins (empty ones left
// out) and, at each threshold, the answers at or above it, their accuracy
// and their share of the answers.
//
// all_tables_rate is the share of questions with table_recall 1;
// by_difficulty leaves out questions without a difficulty. Questions
// run one after another. Exit status: 0 when the run completed (whatever the
// score), 1 when interrupted (the summary then covers the questions done),
// 2 for usage or connection errors.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/internal/sqlrefs"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// examQuestion is one row of the exam CSV.
type examQuestion struct {
	qid, difficulty, question, evidence, goldSQL, scope string
	tags, expected                                      []string
}

// examLine is one line of the --out JSONL.
type examLine struct {
	QID           string   `json:"qid"`
	Difficulty    string   `json:"difficulty"`
	Question      string   `json:"question"`
	SQL           string   `json:"sql"`
	Executed      bool     `json:"executed"`
	ExMatchStrict bool     `json:"ex_match_strict"`
	ExMatch       bool     `json:"ex_match"`
	Tables        []string `json:"tables"`
	GoldTables    []string `json:"gold_tables"`
	TableRecall   float64  `json:"table_recall"`
	FailureClass  string   `json:"failure_class"`
	Confidence    float64  `json:"confidence"`
	// Status, Reasons and Signals are the answer's verdict, why it may be
	// wrong, and the evidence its confidence came from (what 'nl2sql
	// calibrate' refits on); absent when nothing was chosen.
	Status    nl2sql.Verdict      `json:"status,omitempty"`
	Reasons   []string            `json:"reasons,omitempty"`
	Signals   *confidence.Signals `json:"signals,omitempty"`
	LatencyMS map[string]float64  `json:"latency_ms"` // always empty: timings go to --timings
	Error     string              `json:"error"`
	Tags      []string            `json:"tags"`
}

// examTiming is one line of the --timings JSONL.
type examTiming struct {
	QID       string             `json:"qid"`
	LatencyMS map[string]float64 `json:"latency_ms"` // per stage and "total"
}

// examScore is the counts and rates of a set of questions.
type examScore struct {
	Total           int     `json:"total"`
	Executed        int     `json:"executed"`
	ExStrict        int     `json:"ex_strict"`
	Ex              int     `json:"ex"`
	ExStrictRate    float64 `json:"ex_strict_rate"`
	ExRate          float64 `json:"ex_rate"`
	MeanTableRecall float64 `json:"mean_table_recall"`
	AllTablesRate   float64 `json:"all_tables_rate"`

	recallSum float64
	allTables int
}

func (s *examScore) add(l *examLine) {
	s.Total++
	s.Executed += b2i(l.Executed)
	s.ExStrict += b2i(l.ExMatchStrict)
	s.Ex += b2i(l.ExMatch)
	s.recallSum += l.TableRecall
	s.allTables += b2i(l.TableRecall == 1)
	n := float64(s.Total)
	s.ExStrictRate, s.ExRate = float64(s.ExStrict)/n, float64(s.Ex)/n
	s.MeanTableRecall, s.AllTablesRate = s.recallSum/n, float64(s.allTables)/n
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// retrievalNote is the summary's note in retrieval mode.
const retrievalNote = "retrieval only (no model): no query was generated or run, so executed and ex are 0 without measuring anything; mean_table_recall and all_tables_rate measure the retrieval"

// examSummary is the stdout JSON.
type examSummary struct {
	Mode string `json:"mode"`
	// Note says, in retrieval mode, that no query was generated or run:
	// executed and ex are 0 because execution was not measured, not
	// because it failed.
	Note string `json:"note,omitempty"`
	examScore
	ByDifficulty map[string]*examScore `json:"by_difficulty"`
	Failures     map[string]int        `json:"failures"`
	// Calibration says how well the answers' confidence tells the right
	// ones (ex_match) from the wrong: over the questions with a chosen
	// query (run or abstained); absent in retrieval mode.
	Calibration *calibrationJSON `json:"calibration,omitempty"`

	confidence []float64
	right      []bool
}

func runExam(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s := newSub("exam", "usage: nl2sql exam --exam FILE.csv [flags]\n       nl2sql exam --verified --semantic FILE [--baseline FILE] [--write-baseline FILE]\n\nRuns every question of the exam, compares the answers with the gold SQL's and prints a JSON summary.\nWith --llm none it measures table retrieval only. With --verified it runs the semantic model's verified\nquestions as a regression suite: exit 1 when one no longer validates, runs or matches the baseline.", stdout, stderr)
	fs := s.fs
	lf := s.modelFlags()
	examFile := fs.String("exam", "", "exam CSV: qid,question,gold_sql[,difficulty,evidence,scope,tags,expected_tables]")
	outFile := fs.String("out", "", "write one JSON result per question to FILE (the same on every run)")
	timingsFile := fs.String("timings", "", "write each question's latency per stage to FILE")
	scopeCol := fs.String("scope-column", "scope", "CSV column holding a question's scope (schema)")
	limit := fs.Int("limit", 0, "run only the first N questions (0: all)")
	verified := fs.Bool("verified", false, "the regression exam of --semantic FILE: run every verified question with each declared example, no model (docs/semantic.md)")
	baseline := fs.String("baseline", "", "with --verified: compare each result with FILE (written by --write-baseline)")
	writeBaseline := fs.String("write-baseline", "", "with --verified: write each result's columns, row count and digest to FILE")
	s.workloadFlag()
	s.identityFlags()
	s.calibratorFlag()
	pos, err := s.parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("exam takes no arguments (got %q); pass the CSV with --exam", pos[0])
	}
	if *verified {
		if s.semantic == "" || *examFile != "" {
			return usageErr("exam --verified needs --semantic FILE (or $NL2SQL_SEMANTIC) and no --exam")
		}
		return examVerified(ctx, s, s.semantic, *baseline, *writeBaseline)
	}
	if *baseline != "" || *writeBaseline != "" {
		return usageErr("--baseline and --write-baseline go with --verified")
	}
	if *examFile == "" {
		return usageErr("exam needs --exam FILE.csv")
	}
	qs, err := readExam(*examFile, *scopeCol)
	if err != nil {
		return err
	}
	if *limit > 0 && *limit < len(qs) {
		qs = qs[:*limit]
	}
	model, err := resolveLLM(lf)
	if err != nil {
		return err
	}
	var files []*os.File
	create := func(name string) (io.Writer, error) {
		if name == "" {
			return io.Discard, nil
		}
		f, err := os.Create(name)
		if err != nil {
			return nil, usageErr("%v", err)
		}
		files = append(files, f)
		return f, nil
	}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	out, err := create(*outFile)
	if err != nil {
		return err
	}
	timingsOut, err := create(*timingsFile)
	if err != nil {
		return err
	}
	eng, err := s.open(ctx, model, nl2sql.WithTimeout(lf.Timeout))
	if err != nil {
		return err
	}
	defer s.close()
	cat, err := eng.Catalog(ctx)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	x := &examiner{eng: eng, cat: cat, full: model != nil, defScope: s.scope, s: s,
		gold: execute.New(s.pool, execute.MaxRows(1000), execute.WithValidateOptions(validate.WithSettings(s.who.Names()...)))}
	sum := examSummary{Mode: "retrieval", ByDifficulty: map[string]*examScore{}, Failures: map[string]int{}}
	if x.full {
		sum.Mode = "full"
	} else {
		sum.Note = retrievalNote
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	timingsEnc := json.NewEncoder(timingsOut)
	progress := isTerminal(stderr)
	var stopped error
	for i, q := range qs {
		if progress {
			// Retrieval mode runs no query: it counts the questions whose
			// every gold table was retrieved, not execution matches.
			if x.full {
				fmt.Fprintf(stderr, "\r\x1b[K[%d/%d] %s  ex %d/%d", i+1, len(qs), q.qid, sum.Ex, sum.Total)
			} else {
				fmt.Fprintf(stderr, "\r\x1b[K[%d/%d] %s  all tables %d/%d", i+1, len(qs), q.qid, sum.allTables, sum.Total)
			}
		}
		l, lat := x.one(ctx, q)
		if ctx.Err() != nil { // an interrupted question is not scored
			stopped = ctx.Err()
			break
		}
		if err := enc.Encode(l); err != nil {
			return &exitError{code: 2, err: fmt.Errorf("--out: %w", err)}
		}
		if err := timingsEnc.Encode(examTiming{QID: q.qid, LatencyMS: lat}); err != nil {
			return &exitError{code: 2, err: fmt.Errorf("--timings: %w", err)}
		}
		sum.add(l)
		if q.difficulty != "" {
			d := sum.ByDifficulty[q.difficulty]
			if d == nil {
				d = &examScore{}
				sum.ByDifficulty[q.difficulty] = d
			}
			d.add(l)
		}
		if l.FailureClass != "" {
			sum.Failures[l.FailureClass]++
		}
		if l.Signals != nil {
			sum.confidence, sum.right = append(sum.confidence, l.Confidence), append(sum.right, l.ExMatch)
		}
	}
	if x.full {
		sum.Calibration = calibrationOf(sum.confidence, sum.right)
	}
	if progress {
		fmt.Fprintln(stderr)
	}
	if !x.full {
		fmt.Fprintf(stderr, "retrieval only (no model): every gold table retrieved for %d of %d questions, mean table recall %.2f; execution not run\n",
			sum.allTables, sum.Total, sum.MeanTableRecall)
	}
	if err := writeJSON(stdout, sum); err != nil {
		return err
	}
	if stopped != nil {
		return &exitError{code: 1, err: fmt.Errorf("exam interrupted after %d of %d questions: %w", sum.Total, len(qs), stopped)}
	}
	return nil
}

// examiner runs and scores questions.
type examiner struct {
	eng      *nl2sql.Engine
	cat      *schema.Catalog
	gold     *execute.Executor
	full     bool
	defScope string
	s        *sub // its identity (--role, --set): the answers' and the gold's
}

// one runs and scores a question; the latencies (ms per stage and
// "total") come apart, so that the line is the same on every run.
func (x *examiner) one(ctx context.Context, q examQuestion) (*examLine, map[string]float64) {
	l := &examLine{QID: q.qid, Difficulty: q.difficulty, Question: q.question, Tables: []string{},
		GoldTables: []string{}, LatencyMS: map[string]float64{}, Tags: append([]string{}, q.tags...)}
	scope := q.scope
	if scope == "" {
		scope = x.defScope
	}
	path := searchPath(scope)
	var errs []string
	if len(q.expected) > 0 {
		l.GoldTables = x.qualify(q.expected, path)
	} else if refs, err := sqlrefs.Extract(q.goldSQL, x.cat, path); err != nil {
		errs = append(errs, "gold_sql: "+oneLine(err.Error()))
	} else {
		l.GoldTables = append(l.GoldTables, refs.Tables...)
	}

	start := time.Now()
	var timings nl2sql.Timings
	var took time.Duration
	if !x.full {
		cx, err := x.eng.SchemaContext(ctx, q.question, x.s.askOpts(q.evidence, scope)...)
		if err != nil {
			errs = append(errs, oneLine(err.Error()))
		} else {
			l.Tables = append(l.Tables, tableNames(cx)...)
			timings = cx.Timings
		}
		took = time.Since(start)
	} else {
		res, err := x.eng.Ask(ctx, q.question, x.s.askOpts(q.evidence, scope)...)
		if res != nil {
			l.SQL, l.Confidence, timings = res.SQL, res.Confidence, res.Timings
			l.Status, l.Reasons, l.Signals = res.Verdict, res.Reasons, res.Signals
			l.Tables = append(l.Tables, res.Context...)
		}
		if err != nil {
			var ne *nl2sql.Error
			if errors.As(err, &ne) {
				l.FailureClass = string(ne.Class)
			} else {
				l.FailureClass = "error"
			}
			errs = append(errs, oneLine(err.Error()))
		} else {
			l.Executed = true
		}
		took = time.Since(start)
		gold, gerr := x.runGold(ctx, q.goldSQL, path)
		switch {
		case gerr != nil:
			errs = append(errs, "gold_sql: "+oneLine(gerr.Error()))
			if l.FailureClass == "" {
				l.FailureClass = "gold_error"
			}
		case gold.Truncated:
			// The rows of a cut result are whichever the server sent first:
			// comparing them would give another verdict on another run.
			errs = append(errs, fmt.Sprintf("gold_sql: more than %d rows, the row cap: not compared", len(gold.Rows)))
			if l.FailureClass == "" {
				l.FailureClass = "gold_error"
			}
		case l.Executed && res.Truncated:
			// More rows than the gold query's: no match, whichever came first.
			l.FailureClass = "wrong_result"
		case l.Executed:
			ordered, _ := ordersRows(q.goldSQL) // it ran, so it parses
			l.ExMatchStrict, l.ExMatch = compareResults(gold.Rows, res.Rows, len(gold.Columns), len(res.Columns), ordered)
			if !l.ExMatch {
				l.FailureClass = "wrong_result"
			}
		}
	}
	lat := map[string]float64{}
	for k, d := range timings {
		lat[k] = millis(d)
	}
	lat["total"] = millis(took)
	l.TableRecall = recall(l.GoldTables, l.Tables)
	l.Error = strings.Join(errs, "; ")
	return l, lat
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// runGold runs a gold query read-only under the question's search path,
// as the answers run: with --role and --set, their row-level security
// decides the gold rows too.
func (x *examiner) runGold(ctx context.Context, sql string, path []string) (*execute.Result, error) {
	opts := []execute.QueryOption{execute.Scope(path...)}
	if x.s.who.Role != "" {
		opts = append(opts, execute.AsRole(x.s.who.Role))
	}
	for _, kv := range x.s.who.Settings {
		opts = append(opts, execute.Setting(kv.Name, kv.Value))
	}
	return x.gold.Query(ctx, sql, opts...)
}

// qualify resolves bare table names along path (the first schema holding the
// table, else the first schema of path).
func (x *examiner) qualify(names, path []string) []string {
	out := []string{}
	for _, n := range names {
		if !strings.Contains(n, ".") {
			if t := x.cat.Resolve(n, path); t != nil {
				n = t.Schema + "." + t.Name
			} else {
				n = path[0] + "." + n
			}
		}
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// recall is the share of gold tables found among got (1 for no gold tables).
func recall(gold, got []string) float64 {
	if len(gold) == 0 {
		return 1
	}
	have := map[string]bool{}
	for _, t := range got {
		have[t] = true
	}
	n := 0
	for _, t := range gold {
		n += b2i(have[t])
	}
	return float64(n) / float64(len(gold))
}

// readExam reads and checks the exam CSV.
func readExam(path, scopeCol string) ([]examQuestion, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	defer f.Close()
	r, header, col, err := readCSVHeader(f, path)
	if err != nil {
		return nil, err
	}
	if _, ok := col["qid"]; !ok {
		if i, ok := col["id"]; ok {
			col["qid"] = i
		}
	}
	for _, need := range []string{"qid", "question", "gold_sql"} {
		if _, ok := col[need]; !ok {
			return nil, usageErr("%s: missing column %q (header: %s)", path, need, strings.Join(header, ","))
		}
	}
	scopeCol = strings.ToLower(scopeCol)
	if _, ok := col[scopeCol]; !ok && scopeCol != "scope" {
		return nil, usageErr("%s: missing column %q (--scope-column)", path, scopeCol)
	}
	var qs []examQuestion
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, usageErr("%s: %v", path, err)
		}
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		q := examQuestion{qid: get("qid"), difficulty: get("difficulty"), question: get("question"),
			evidence: get("evidence"), goldSQL: get("gold_sql"), scope: get(scopeCol),
			tags: splitList(get("tags")), expected: splitList(get("expected_tables"))}
		if q.question == "" && q.goldSQL == "" {
			continue // blank line
		}
		line, _ := r.FieldPos(0)
		if q.question == "" || q.goldSQL == "" {
			return nil, usageErr("%s:%d: question %q has no question or no gold_sql", path, line, q.qid)
		}
		qs = append(qs, q)
	}
	if len(qs) == 0 {
		return nil, usageErr("%s: no questions", path)
	}
	return qs, nil
}

// splitList splits a list separated by spaces, commas or semicolons.
func splitList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' })
}
