package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/execute"
)

func runAsk(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s := newSub("ask", "usage: nl2sql ask [flags] QUESTION|-\n\nAnswers a question (- reads it from stdin): prints the SQL and the rows (or the Result as JSON with --json).", stdout, stderr)
	lf := s.modelFlags()
	s.evidenceFlag("hint text for the question (\"active means status = 'A'\")")
	maxRows := s.fs.Int("max-rows", 1000, "row cap of the result")
	dryRun := s.fs.Bool("dry-run", false, "stop before the model: print the schema context and the prompt")
	var prevQ, prevSQL stringsFlag
	s.fs.Var(&prevQ, "previous-question", "an earlier question of the conversation (with --previous-sql; repeat for more turns, oldest first)")
	s.fs.Var(&prevSQL, "previous-sql", "the SQL that answered the --previous-question of the same position")
	s.workloadFlag()
	s.identityFlags()
	s.calibratorFlag()
	verdicts := s.verdictFlags("abstain (exit 3, the query not run) when the answer's confidence is below this", "print an answer whose confidence is below this with a caveat")
	s.batchFlag(`batch mode: read {"id","question","evidence","scope","previous":[{"question","sql"}]} lines from FILE (- for stdin), write one result per line`)
	in, err := s.parseInput(args, questionInput)
	if err != nil {
		return err
	}
	if len(prevQ) != len(prevSQL) {
		return usageErr("--previous-question and --previous-sql go in pairs (%d questions, %d SQL)", len(prevQ), len(prevSQL))
	}
	for i := range prevQ {
		in.Previous = append(in.Previous, nl2sql.Turn{Question: prevQ[i], SQL: prevSQL[i]})
	}
	flagTurns := in.Previous
	model, err := resolveLLM(lf)
	if err != nil {
		return err
	}
	if model == nil && !*dryRun && lf.Spec != "none" {
		// --llm none answers only what a verified question fits.
		return usageErr("no LLM configured: pass --llm ollama:MODEL|openai:MODEL|anthropic:MODEL or set NL2SQL_LLM (--dry-run shows the context without one; --llm none answers verified questions only)")
	}
	thresholds, err := verdicts()
	if err != nil {
		return err
	}
	opts := append([]nl2sql.Option{nl2sql.WithMaxRows(max(*maxRows, 1)), nl2sql.WithTimeout(lf.Timeout)}, thresholds...)
	var spin *spinner
	if isTerminal(stderr) && s.jsonl == "" {
		// One question: show what it waits for while the model works.
		spin = newSpinner(stderr, lf.Label(), prepareBar(stderr))
		opts = append(opts, nl2sql.WithProgress(spin.progress))
		defer spin.end()
	}
	eng, err := s.open(ctx, model, opts...)
	if err != nil {
		return err
	}
	defer s.close()
	if *dryRun {
		return serve(ctx, s, in, func(ctx context.Context, in batchInput) (*contextJSON, error) {
			if in.Previous == nil {
				in.Previous = flagTurns
			}
			return schemaContext(ctx, eng, in, s)
		}, func(cx *contextJSON, err error) error {
			if err != nil {
				return failed(err)
			}
			if s.json {
				return writeJSON(stdout, cx)
			}
			fmt.Fprintf(stdout, "-- tables: %s\n", strings.Join(tableNames(cx.cx), ", "))
			fmt.Fprintf(stdout, "-- system prompt\n%s\n\n-- user prompt\n%s", cx.cx.Prompt.System, cx.cx.Prompt.User)
			return nil
		})
	}
	return serve(ctx, s, in, func(ctx context.Context, in batchInput) (*nl2sql.Result, error) {
		if in.Previous == nil {
			in.Previous = flagTurns // a batch line without "previous" has the command line's
		}
		res, err := eng.Ask(ctx, in.Question, append(s.askOpts(in.Evidence, in.Scope), history(in.Previous)...)...)
		if s.jsonl != "" && res != nil {
			res.Error = nil // the batch line's error says it
		}
		return res, err
	}, func(res *nl2sql.Result, err error) error {
		if spin != nil {
			spin.end()
		}
		if s.json {
			if werr := writeJSON(stdout, res); werr != nil {
				return werr
			}
			return abstained(err)
		}
		if err != nil {
			if res != nil && res.SQL != "" {
				if res.Verdict == nl2sql.VerdictAbstained {
					printVerdict(stdout, res)
					fmt.Fprintln(stdout, "-- not run:")
				}
				fmt.Fprintln(stdout, res.SQL)
				printAlternatives(stdout, res)
			}
			return abstained(err)
		}
		printVerdict(stdout, res)
		if v := res.Verified; v != nil {
			fmt.Fprintf(stdout, "-- verified (%s): %s%s\n", v.Source, oneLine(v.Question), bindings(v.Bindings))
		}
		if res.Description != "" {
			fmt.Fprintln(stdout, "-- "+oneLine(res.Description))
		}
		fmt.Fprintln(stdout, res.SQL)
		fmt.Fprintln(stdout)
		printTable(stdout, res)
		fmt.Fprintf(stdout, "(%s%s, confidence %.2f%s)\n", rowCount(len(res.Rows)), truncation(res), res.Confidence, verdictNote(res))
		printAlternatives(stdout, res)
		return nil
	})
}

// rowCount is "1 row" or "N rows".
func rowCount(n int) string {
	if n == 1 {
		return "1 row"
	}
	return strconv.Itoa(n) + " rows"
}

// verdictFlags adds --min-confidence and --uncertain-below (with their
// help texts) and returns the engine options they set, once parsed; a
// minimum outside 0..1 or a negative threshold is a usage error.
func (s *sub) verdictFlags(minHelp, uncertainHelp string) func() ([]nl2sql.Option, error) {
	minConf := s.fs.Float64("min-confidence", 0, minHelp)
	uncertain := s.fs.Float64("uncertain-below", nl2sql.DefaultUncertainBelow, uncertainHelp)
	return func() ([]nl2sql.Option, error) {
		if *minConf < 0 || *minConf > 1 || *uncertain < 0 {
			return nil, usageErr("--min-confidence must be within 0..1 (got %g), --uncertain-below not negative (got %g)", *minConf, *uncertain)
		}
		return []nl2sql.Option{nl2sql.WithMinConfidence(*minConf), nl2sql.WithUncertainBelow(*uncertain)}, nil
	}
}

// exitAbstained is the exit status of an abstention (ErrLowConfidence).
const exitAbstained = 3

// abstained is failed, with exit status 3 for an abstention.
func abstained(err error) error {
	if errors.Is(err, nl2sql.ErrLowConfidence) {
		return &exitError{code: exitAbstained, err: err}
	}
	return failed(err)
}

// printVerdict prints the caveat of an uncertain or abstained answer and
// its reasons, above the answer, where they are seen first.
func printVerdict(w io.Writer, res *nl2sql.Result) {
	switch res.Verdict {
	case nl2sql.VerdictUncertain:
		fmt.Fprintf(w, "-- UNCERTAIN (confidence %.2f): this answer may not answer the question.\n", res.Confidence)
	case nl2sql.VerdictAbstained:
		fmt.Fprintf(w, "-- ABSTAINED (confidence %.2f): no answer is likely enough to be right.\n", res.Confidence)
	default:
		return
	}
	for _, r := range res.Reasons {
		fmt.Fprintln(w, "--   "+oneLine(r))
	}
}

// verdictNote is the verdict beside the confidence, when it is not a
// plain answer.
func verdictNote(res *nl2sql.Result) string {
	if res.Verdict == nl2sql.VerdictUncertain {
		return ", UNCERTAIN"
	}
	return ""
}

// printAlternatives prints the other answers and the clarifying question.
func printAlternatives(w io.Writer, res *nl2sql.Result) {
	if res.Clarify != "" {
		fmt.Fprintln(w, "-- "+oneLine(res.Clarify))
	}
	for i, a := range res.Alternatives {
		fmt.Fprintf(w, "-- alternative %d (%.0f%% of the candidates): %s\n", i+1, 100*a.Support, oneLine(a.Description))
		fmt.Fprintln(w, a.SQL)
	}
}

// truncation says which cap cut the rows, "" when none did.
func truncation(res *nl2sql.Result) string {
	switch {
	case !res.Truncated:
		return ""
	case res.TruncatedBy == execute.CapBytes:
		return fmt.Sprintf(", truncated at the byte cap: only these fit, under the row cap of %d", res.RowCap)
	}
	return fmt.Sprintf(", truncated at the row cap of %d", res.RowCap)
}

// printTable renders rows as aligned text columns.
func printTable(w io.Writer, res *nl2sql.Result) {
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	var head []string
	for _, c := range res.Columns {
		head = append(head, c.Name)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, row := range res.Rows {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = cell(v)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
}

func cell(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return strings.ReplaceAll(x, "\n", " ")
	case []byte:
		return fmt.Sprintf("\\x%x", x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return strings.Trim(string(b), `"`)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// classUsage is the class of a usage error (bad flags or input) in JSON.
const classUsage nl2sql.Class = "usage"

// errorJSON is the JSON of an error: {"code","class","message"}, code
// always present ("" when the error has none). nl2sql.ErrorInfo omits an
// empty code; the CLI's shape has it always, hence this type.
type errorJSON struct {
	Code    string       `json:"code"`
	Class   nl2sql.Class `json:"class"`
	Message string       `json:"message"`
}

func newErrorJSON(err error) *errorJSON {
	var ne *nl2sql.Error
	if errors.As(err, &ne) {
		return &errorJSON{Code: ne.Code, Class: ne.Class, Message: ne.Error()}
	}
	var ee *exitError
	if errors.As(err, &ee) && ee.code == 2 {
		return &errorJSON{Class: classUsage, Message: err.Error()}
	}
	return &errorJSON{Class: "error", Message: err.Error()}
}

// askOpts turns a question's evidence and scope into Ask options.
func askOpts(evidence, scope string) []nl2sql.AskOption {
	o := []nl2sql.AskOption{nl2sql.Evidence(evidence)}
	if scope != "" {
		o = append(o, nl2sql.Scope(scope))
	}
	return o
}

// history is the History option of a conversation, none when it is empty.
func history(turns []nl2sql.Turn) []nl2sql.AskOption {
	if len(turns) == 0 {
		return nil
	}
	return []nl2sql.AskOption{nl2sql.History(turns...)}
}

// bindings renders a verified answer's values: " [year=2024 segment=SMB]".
func bindings(bs []nl2sql.Binding) string {
	if len(bs) == 0 {
		return ""
	}
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = b.Name + "=" + b.Value
	}
	return " [" + strings.Join(parts, " ") + "]"
}
