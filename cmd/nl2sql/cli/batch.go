package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// batchInput is one line of a --jsonl input file; commands read the fields
// they need.
type batchInput struct {
	ID         json.RawMessage `json:"id"`
	Question   string          `json:"question"`
	Evidence   string          `json:"evidence"`
	Scope      string          `json:"scope"`
	SQL        string          `json:"sql"`
	Candidates []string        `json:"candidates"`
	// learn --jsonl: a note, and a doc's or a term's fields.
	Kind    string   `json:"kind"`
	Note    string   `json:"note"`
	Text    string   `json:"text"`
	Table   string   `json:"table"`
	Column  string   `json:"column"`
	Term    string   `json:"term"`
	Targets []string `json:"targets"`
	// A template's parameters (what knowledge export writes).
	Parameters []semantic.Parameter `json:"parameters"`
	// ask --jsonl: the conversation so far, oldest first.
	Previous []nl2sql.Turn `json:"previous"`
}

// batch reads one JSON object per line of --jsonl ("-" is stdin) and
// writes one object per line to stdout, in order: one's output for the
// line with the input's "id" added (null without one). A line that fails
// gets an "error" ({"code","class","message"}) and the batch goes on; the
// returned error says how many lines failed (exit 1). A line fails when one
// returns an error, or an output whose failed method says so (repair's
// query that does not execute). An output with a batchID method gives the
// line's "id" instead of the input.
func (s *sub) batch(ctx context.Context, one func(ctx context.Context, in batchInput) (any, error)) error {
	r := io.Reader(os.Stdin)
	if s.batchIn != nil {
		r = s.batchIn
	} else if s.jsonl != "-" {
		f, err := os.Open(s.jsonl)
		if err != nil {
			return usageErr("%v", err)
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReaderSize(r, 64<<10)
	enc := json.NewEncoder(s.stdout)
	failed, n := 0, 0
	for {
		raw, size, rerr := readLine(br, maxBatchLine)
		if rerr != nil && rerr != io.EOF {
			return usageErr("reading %s: %v", s.jsonl, rerr)
		}
		line := bytes.TrimSpace(raw)
		if len(line) == 0 && size <= maxBatchLine {
			if rerr == io.EOF {
				break
			}
			continue
		}
		n++
		if err := ctx.Err(); err != nil {
			return err
		}
		var in batchInput
		var l batchLine
		if size > maxBatchLine {
			l.Error = &errorJSON{Class: nl2sql.ClassInput, Code: "too_long",
				Message: fmt.Sprintf("line %d: %d bytes, over the %d-byte line limit; the line was skipped", n, size, maxBatchLine)}
		} else if err := json.Unmarshal(line, &in); err != nil {
			l.Error = &errorJSON{Class: classUsage, Message: fmt.Sprintf("line %d: %v", n, err)}
		} else {
			var err error
			if l.Out, err = one(ctx, in); err != nil {
				l.Error = newErrorJSON(err)
			}
		}
		if f, ok := l.Out.(interface{ failed() bool }); l.Error != nil || ok && f.failed() {
			failed++
		}
		l.ID = in.ID
		if o, ok := l.Out.(interface{ batchID() json.RawMessage }); ok {
			l.ID = o.batchID() // the output names itself (learn: the knowledge's ID)
		}
		if err := enc.Encode(l); err != nil {
			return err
		}
		if rerr == io.EOF {
			break
		}
	}
	if failed > 0 {
		return &exitError{code: 1, err: fmt.Errorf("%d of %d lines failed", failed, n)}
	}
	return nil
}

// batchLine is one output line of a batch: the command's output object Out
// (nil for none) with the input's "id" and, when the line failed, an
// "error" added.
type batchLine struct {
	ID    json.RawMessage
	Out   any
	Error *errorJSON
}

// MarshalJSON writes {"id":...,"error":{...}} joined with Out's members
// (Out has no "id", nor an "error" when the line has one).
func (l batchLine) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(struct {
		ID    json.RawMessage `json:"id"`
		Error *errorJSON      `json:"error,omitempty"`
	}{l.ID, l.Error})
	if err != nil || l.Out == nil {
		return head, err
	}
	body, err := json.Marshal(l.Out)
	if err != nil || len(body) < 3 || body[0] != '{' { // null, {}
		return head, err
	}
	return append(append(head[:len(head)-1], ','), body[1:]...), nil
}

// maxBatchLine is the longest --jsonl input line, in bytes (1 MiB). A longer
// line is skipped without being buffered whole: its output line carries an
// "error" (class input_error, id null) and the batch goes on.
const maxBatchLine = 1 << 20

// readLine reads one line of br (without its newline) of at most max bytes.
// A longer line is read through to its end but not kept: line is nil and
// size is its full length. err is io.EOF at the end of the input (line may
// still hold a last line without a newline).
func readLine(br *bufio.Reader, max int) (line []byte, size int, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		if size <= max+1 { // +1: the newline
			line = append(line, chunk...)
		} else {
			line = nil
		}
		switch err {
		case bufio.ErrBufferFull:
			continue
		case nil:
			size-- // the newline
			if line != nil {
				line = line[:len(line)-1]
			}
			return line, size, nil
		default:
			if size == 0 && err == io.EOF {
				return nil, 0, io.EOF
			}
			return line, size, err
		}
	}
}

// sqlArg is the SQL of a command's positional arguments ("-" reads stdin);
// it is required unless a --jsonl batch file is given.
func sqlArg(pos []string, jsonl, cmd string) (string, error) {
	sql := strings.Join(pos, " ")
	if sql == "-" {
		// Read at most one byte over the limit; count the rest without
		// keeping it, for the error.
		b, err := io.ReadAll(io.LimitReader(os.Stdin, nl2sql.MaxSQLBytes+1))
		if err != nil {
			return "", usageErr("reading stdin: %v", err)
		}
		if len(b) > nl2sql.MaxSQLBytes {
			rest, _ := io.Copy(io.Discard, os.Stdin)
			return "", sqlTooLong(int64(len(b)) + rest)
		}
		sql = string(b)
	}
	if len(sql) > nl2sql.MaxSQLBytes {
		return "", sqlTooLong(int64(len(sql)))
	}
	if strings.TrimSpace(sql) == "" && jsonl == "" {
		return "", usageErr("%s needs SQL (or - for stdin, or --jsonl FILE)", cmd)
	}
	return sql, nil
}

// questionStdin reads the question "-" stands for from stdin, its
// surrounding white space (echo's newline) trimmed. It reads at most one
// byte more than a question of the engine's default length can have
// (utf8.UTFMax bytes a character); a longer one is refused here, in
// characters as the engine would, the rest of it counted, not kept.
func questionStdin() (string, error) {
	const max = utf8.UTFMax * nl2sql.DefaultMaxQuestionChars
	b, err := io.ReadAll(io.LimitReader(os.Stdin, max+1))
	if err != nil {
		return "", usageErr("reading stdin: %v", err)
	}
	if len(b) > max {
		rest, _ := io.Copy(io.Discard, os.Stdin)
		size := (int64(len(b)) + rest + utf8.UTFMax - 1) / utf8.UTFMax
		return "", &exitError{code: 1, err: tooLongError(fmt.Sprintf("the question is too long (at least %d characters; the limit is %d characters)",
			size, nl2sql.DefaultMaxQuestionChars))}
	}
	return strings.TrimSpace(string(b)), nil
}

// sqlTooLong is the error (exit 1) of SQL over nl2sql.MaxSQLBytes, refused
// before the engine is opened.
func sqlTooLong(size int64) error {
	return &exitError{code: 1, err: tooLongError(fmt.Sprintf("the SQL is too long (%d bytes; the limit is %d bytes)", size, nl2sql.MaxSQLBytes))}
}

// tooLongError is an input refused for its length; it wraps
// nl2sql.ErrTooLong.
type tooLongError string

func (e tooLongError) Error() string { return string(e) }
func (e tooLongError) Unwrap() error { return nl2sql.ErrTooLong }

// questionArg is the question of a command's positional arguments; it is
// required unless a --jsonl batch file is given.
func questionArg(pos []string, jsonl, cmd string) (string, error) {
	q := strings.Join(pos, " ")
	if q == "-" {
		var err error
		if q, err = questionStdin(); err != nil {
			return "", err
		}
	}
	if strings.TrimSpace(q) == "" && jsonl == "" {
		return "", usageErr("%s needs a QUESTION (or - for stdin, or --jsonl FILE)", cmd)
	}
	return q, nil
}
