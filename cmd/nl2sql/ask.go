package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/execute"
)

func runAsk(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ask", stderr)
	var c commonFlags
	var lf llmFlags
	c.register(fs)
	lf.register(fs)
	evidence := fs.String("evidence", "", "hint text for the question (\"active means status = 'A'\")")
	maxRows := fs.Int("max-rows", 1000, "row cap of the result")
	dryRun := fs.Bool("dry-run", false, "stop before the model: print the schema context and the prompt")
	jsonl := fs.String("jsonl", "", "batch mode: read {\"id\",\"question\",\"evidence\",\"scope\"} lines from FILE (- for stdin), write one result per line")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: nl2sql ask [flags] QUESTION\n\nAnswers a question: prints the SQL and the rows (or the Result as JSON with --json).")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	question, err := questionArg(pos, *jsonl, "ask")
	if err != nil {
		return err
	}
	model, err := lf.resolveLLM()
	if err != nil {
		return err
	}
	if model == nil && !*dryRun {
		return usageErr("no LLM configured: pass --llm ollama:MODEL|openai:MODEL|anthropic:MODEL or set NL2SQL_LLM (--dry-run shows the context without one)")
	}
	opts := []nl2sql.Option{nl2sql.WithMaxRows(max(*maxRows, 1)), nl2sql.WithTimeout(lf.timeout)}
	var spin *spinner
	if isTerminal(stderr) && *jsonl == "" {
		// One question: show what it waits for while the model works.
		spin = newSpinner(stderr, lf.label(), prepareBar(stderr))
		opts = append(opts, nl2sql.WithProgress(spin.progress))
		defer spin.end()
	}
	eng, pool, err := openEngine(ctx, &c, model, stderr, opts...)
	if err != nil {
		return err
	}
	defer pool.Close()
	if *jsonl != "" {
		return runBatch(ctx, *jsonl, os.Stdin, stdout, func(ctx context.Context, in batchInput) (map[string]any, error) {
			if *dryRun {
				cx, err := eng.SchemaContext(ctx, in.Question, askOpts(in.Evidence, in.Scope)...)
				if err != nil {
					return nil, err
				}
				return contextJSON(cx), nil
			}
			res, err := eng.Ask(ctx, in.Question, askOpts(in.Evidence, in.Scope)...)
			return toMap(res), err
		})
	}
	if *dryRun {
		cx, err := eng.SchemaContext(ctx, question, askOpts(*evidence, c.scope)...)
		if err != nil {
			return failed(err)
		}
		if c.json {
			return writeJSON(stdout, contextJSON(cx))
		}
		fmt.Fprintf(stdout, "-- tables: %s\n", strings.Join(tableNames(cx), ", "))
		fmt.Fprintf(stdout, "-- system prompt\n%s\n\n-- user prompt\n%s", cx.Prompt.System, cx.Prompt.User)
		return nil
	}
	res, err := eng.Ask(ctx, question, askOpts(*evidence, c.scope)...)
	if spin != nil {
		spin.end()
	}
	if c.json {
		if werr := writeJSON(stdout, res); werr != nil {
			return werr
		}
		if err != nil {
			return failed(err)
		}
		return nil
	}
	if err != nil {
		if res != nil && res.SQL != "" {
			fmt.Fprintln(stdout, res.SQL)
		}
		return failed(err)
	}
	fmt.Fprintln(stdout, res.SQL)
	fmt.Fprintln(stdout)
	printTable(stdout, res)
	fmt.Fprintf(stdout, "(%d rows%s, confidence %.2f)\n", len(res.Rows), truncation(res), res.Confidence)
	return nil
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

func tableNames(cx *nl2sql.SchemaContext) []string {
	out := make([]string, len(cx.Tables))
	for i, t := range cx.Tables {
		out[i] = t.Name
	}
	return out
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

// toMap turns a value into its JSON object form (for batch lines).
func toMap(v any) map[string]any {
	b, _ := json.Marshal(v)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

// errorJSON is the {"code","class","message"} shape of an error.
func errorJSON(err error) map[string]any {
	var ne *nl2sql.Error
	if errors.As(err, &ne) {
		return map[string]any{"code": ne.Code, "class": string(ne.Class), "message": ne.Error()}
	}
	var ee *exitError
	if errors.As(err, &ee) && ee.code == 2 {
		return map[string]any{"code": "", "class": "usage", "message": err.Error()}
	}
	return map[string]any{"code": "", "class": "error", "message": err.Error()}
}

// askOpts turns a question's evidence and scope into Ask options.
func askOpts(evidence, scope string) []nl2sql.AskOption {
	o := []nl2sql.AskOption{nl2sql.Evidence(evidence)}
	if scope != "" {
		o = append(o, nl2sql.Scope(scope))
	}
	return o
}
