package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/atomicfile"
)

const learnUsage = `usage: nl2sql learn [flags] QUESTION SQL
       nl2sql learn [flags] --jsonl FILE|-
       nl2sql learn [flags] --csv FILE|-
       nl2sql learn --workload [FILE|-] [--out FILE] [flags]

Teaches the engine: a verified question and its SQL (checked on the database
first), docs and terms (--jsonl). Knowledge lives in an index file (--index
FILE, saved by 'nl2sql index' and rewritten here) or in a pgvector store
(--store DSN or $NL2SQL_STORE_DSN); ask, retrieve and exam given the same
--index or --store use it.

With --workload it learns from the queries the database already serves
instead (a file of statements, one per line or JSONL with "query"/"sql" and
"calls"; without FILE, the database's pg_stat_statements): join edges, table
usage. --out FILE saves it for the --workload FILE of ask, retrieve and exam.`

func runLearn(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s := newSub("learn", learnUsage, stdout, stderr)
	note := s.fs.String("note", "", "why the SQL is right (kept with the example)")
	csvFile := s.fs.String("csv", "", "batch mode: a CSV with header question,sql[,note] (- for stdin), one result line per row")
	fromWorkload := s.fs.Bool("workload", false, "learn from a workload: FILE of statements, - for stdin, none for pg_stat_statements")
	out := s.fs.String("out", "", "with --workload: save what it taught to FILE (JSON) for --workload FILE")
	params := s.fs.String("parameters", "", "auto: make the example a template, with the parameters the engine proposes (printed), answered without the model")
	s.batchFlag(`batch mode: read {"question","sql","note"}, {"kind":"doc","table","column","text"} or {"kind":"term","term","targets":[...]} lines from FILE (- for stdin)`)
	pos, err := s.parse(args)
	if err != nil {
		return err
	}
	if *fromWorkload {
		if len(pos) > 1 || s.jsonl != "" || *csvFile != "" {
			return usageErr("learn --workload takes at most one FILE (or -), and no --jsonl or --csv")
		}
		return learnWorkload(ctx, s, pos, *out)
	}
	if *out != "" {
		return usageErr("--out goes with --workload (an example is saved into --index or --store)")
	}
	if *params != "" && (*params != "auto" || batch0(s.jsonl, *csvFile)) {
		return usageErr("--parameters takes auto, for one QUESTION and SQL")
	}
	if s.jsonl != "" && *csvFile != "" {
		return usageErr("pass --jsonl or --csv, not both")
	}
	batch := s.jsonl != "" || *csvFile != ""
	if batch && len(pos) > 0 || !batch && len(pos) != 2 {
		return usageErr("learn needs QUESTION and SQL (two arguments; quote each), or --jsonl FILE, or --csv FILE")
	}
	if err := s.knowledgeHome("learn"); err != nil {
		return err
	}
	if *csvFile != "" {
		lines, err := csvLines(*csvFile)
		if err != nil {
			return err
		}
		s.jsonl, s.batchIn = *csvFile, bytes.NewReader(lines)
	}
	eng, err := s.open(ctx, nil)
	if err != nil {
		return err
	}
	defer s.close()
	if batch {
		berr := s.batch(ctx, func(ctx context.Context, in batchInput) (any, error) {
			k, err := eng.Learn(ctx, in.knowledge())
			if err != nil {
				return nil, err
			}
			return learnedLine{k}, nil
		})
		// Each line is in --index before its result line is printed
		// (nl2sql.LoadIndexFile), failed lines or not.
		return berr
	}
	k := nl2sql.Knowledge{Kind: nl2sql.KnowledgeExample, Question: pos[0], SQL: pos[1], Note: *note}
	if *params == "auto" {
		if k, err = eng.ProposeTemplate(ctx, pos[0], pos[1]); err != nil {
			return failed(err)
		}
		k.Note = *note
		if !s.json {
			printTemplate(stdout, k)
		}
	}
	k, err = eng.Learn(ctx, k)
	if err != nil {
		return failed(err)
	}
	if s.json {
		return writeJSON(stdout, k)
	}
	fmt.Fprintf(stdout, "learned %s %s\n", k.Kind, k.ID)
	return nil
}

// knowledge is the Knowledge of a learn --jsonl line (an example when it
// names no kind).
func (in batchInput) knowledge() nl2sql.Knowledge {
	k := nl2sql.Knowledge{Kind: nl2sql.KnowledgeKind(in.Kind), Question: in.Question, SQL: in.SQL, Note: in.Note,
		Text: in.Text, Table: in.Table, Column: in.Column, Term: in.Term, Targets: in.Targets, Parameters: in.Parameters}
	if k.Kind == "" {
		k.Kind = nl2sql.KnowledgeExample
	}
	return k
}

// learnedLine is a batch line of learn: the knowledge learnt, its ID as
// the line's "id".
type learnedLine struct{ k nl2sql.Knowledge }

func (l learnedLine) batchID() json.RawMessage {
	b, _ := json.Marshal(l.k.ID)
	return b
}

func (l learnedLine) MarshalJSON() ([]byte, error) {
	k := l.k
	k.ID = "" // the line's "id"
	return json.Marshal(k)
}

// csvLines reads a CSV of examples (header question,sql[,note], in any
// order) into learn --jsonl lines, one per row.
func csvLines(name string) ([]byte, error) {
	r := io.Reader(os.Stdin)
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, usageErr("%v", err)
		}
		defer f.Close()
		r = f
	}
	cr, _, col, err := readCSVHeader(r, "--csv "+name)
	if err != nil {
		return nil, err
	}
	if _, ok := col["question"]; !ok {
		return nil, usageErr("--csv %s: the header needs question and sql columns", name)
	}
	if _, ok := col["sql"]; !ok {
		return nil, usageErr("--csv %s: the header needs question and sql columns", name)
	}
	field := func(rec []string, name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return rec[i]
		}
		return ""
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return buf.Bytes(), nil
		}
		if err != nil {
			return nil, usageErr("--csv %s: %v", name, err)
		}
		enc.Encode(map[string]string{"question": field(rec, "question"), "sql": field(rec, "sql"), "note": field(rec, "note")})
	}
}

// readCSVHeader starts reading a CSV (quotes read leniently, rows of any
// length) and returns its header and the header's columns: lower-cased
// name -> index, the first of a repeated name.
func readCSVHeader(r io.Reader, what string) (*csv.Reader, []string, map[string]int, error) {
	cr := csv.NewReader(r)
	cr.LazyQuotes = true
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return nil, nil, nil, usageErr("%s: reading the header: %v", what, err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if _, dup := col[h]; !dup {
			col[h] = i
		}
	}
	return cr, header, col, nil
}

// knowledgeHome is the usage error of a command that keeps knowledge when
// neither --index nor --store says where it lives.
func (s *sub) knowledgeHome(cmd string) error {
	if s.index == "" && s.store.Resolve() == "" {
		return usageErr("%s needs where knowledge lives: --index FILE (an index saved by 'nl2sql index --out FILE', rewritten in place) or --store DSN (a pgvector database, or $NL2SQL_STORE_DSN)", cmd)
	}
	return nil
}

// writeAtomic writes a file atomically (atomicfile.Write); a folder it
// cannot write in is a usage error.
func writeAtomic(name string, write func(io.Writer) error) error {
	if err := atomicfile.Write(name, write); err != nil {
		if errors.Is(err, atomicfile.ErrCreate) {
			return usageErr("%v", err)
		}
		return err
	}
	return nil
}

// saveIndex writes the engine's index to name (Engine.SaveIndexFile:
// atomically, under the file's lock); a folder it cannot write in is a
// usage error.
func saveIndex(ctx context.Context, eng *nl2sql.Engine, name string) error {
	if err := eng.SaveIndexFile(ctx, name); err != nil {
		if errors.Is(err, atomicfile.ErrCreate) {
			return usageErr("%v", err)
		}
		return err
	}
	return nil
}

func batch0(jsonl, csv string) bool { return jsonl != "" || csv != "" }

// printTemplate shows the template learn --parameters auto proposed.
func printTemplate(w io.Writer, k nl2sql.Knowledge) {
	if len(k.Parameters) == 0 {
		fmt.Fprintln(w, "-- no parameters found: learnt as a plain example")
		return
	}
	fmt.Fprintf(w, "-- template: %s\n%s\n", k.Question, k.SQL)
	for _, p := range k.Parameters {
		col := ""
		if p.Column != "" {
			col = " " + p.Column
		}
		fmt.Fprintf(w, "--   {%s} %s%s, e.g. %s\n", p.Name, p.Kind, col, strings.Join(p.Examples, ", "))
	}
}
