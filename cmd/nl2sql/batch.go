package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
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
}

// runBatch reads one JSON object per line of path ("-" is stdin) and writes
// one object per line to out, in order, each carrying the input's id. A line
// that fails gets {"id":..., "error":{...}} and the batch goes on; the
// returned error says how many lines failed (exit 1).
func runBatch(ctx context.Context, path string, stdin io.Reader, out io.Writer, fn func(ctx context.Context, in batchInput) (map[string]any, error)) error {
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return usageErr("%v", err)
		}
		defer f.Close()
		r = f
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	enc := json.NewEncoder(out)
	failed, n := 0, 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		n++
		if err := ctx.Err(); err != nil {
			return err
		}
		var in batchInput
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			obj = map[string]any{"error": map[string]any{"class": "usage", "message": "line " + fmt.Sprint(n) + ": " + err.Error()}}
		} else if obj, err = fn(ctx, in); err != nil {
			if obj == nil {
				obj = map[string]any{}
			}
			obj["error"] = errorJSON(err)
		}
		if _, isErr := obj["error"]; isErr {
			failed++
		}
		if in.ID != nil {
			obj["id"] = in.ID
		} else {
			obj["id"] = nil
		}
		if err := enc.Encode(obj); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return usageErr("reading %s: %v", path, err)
	}
	if failed > 0 {
		return &exitError{code: 1, err: fmt.Errorf("%d of %d lines failed", failed, n)}
	}
	return nil
}

// sqlArg is the SQL of a command's positional arguments ("-" reads stdin);
// it is required unless a --jsonl batch file is given.
func sqlArg(pos []string, jsonl, cmd string) (string, error) {
	sql := strings.Join(pos, " ")
	if sql == "-" {
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			return "", usageErr("reading stdin: %v", err)
		}
		sql = string(b)
	}
	if strings.TrimSpace(sql) == "" && jsonl == "" {
		return "", usageErr("%s needs SQL (or - for stdin, or --jsonl FILE)", cmd)
	}
	return sql, nil
}

// questionArg is the question of a command's positional arguments; it is
// required unless a --jsonl batch file is given.
func questionArg(pos []string, jsonl, cmd string) (string, error) {
	q := strings.Join(pos, " ")
	if q == "" && jsonl == "" {
		return "", usageErr("%s needs a QUESTION (or --jsonl FILE)", cmd)
	}
	return q, nil
}
