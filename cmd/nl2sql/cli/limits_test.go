package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
)

func TestReadLine(t *testing.T) {
	in := "short\n" + strings.Repeat("x", 100) + "\n\nlast"
	br := bufio.NewReaderSize(strings.NewReader(in), 16)
	type got struct {
		line string
		size int
		err  error
	}
	want := []got{{"short", 5, nil}, {"", 100, nil}, {"", 0, nil}, {"last", 4, io.EOF}, {"", 0, io.EOF}}
	for i, w := range want {
		line, size, err := readLine(br, 10)
		if string(line) != w.line || size != w.size || err != w.err {
			t.Errorf("line %d: %q %d %v, want %q %d %v", i, line, size, err, w.line, w.size, w.err)
		}
	}
}

// TestBatchLongLine: a 20 MB line fails alone (its output line carries an
// error, id null); the lines around it still run; the batch exits 1.
func TestBatchLongLine(t *testing.T) {
	dsn := erptest.Single(t)
	in := filepath.Join(t.TempDir(), "in.jsonl")
	big := `{"id":"big","sql":"SELECT 1 -- ` + strings.Repeat("y", 20<<20) + `"}`
	os.WriteFile(in, []byte(`{"id":"a","sql":"SELECT count(*) FROM employees"}`+"\n"+big+"\n"+`{"id":"c","sql":"SELECT 1"}`+"\n"), 0o644)
	for _, cmd := range []string{"check", "repair"} {
		code, out, errs := cli(t, cmd, "--dsn", dsn, "--jsonl", in)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 1 || len(lines) != 3 {
			t.Fatalf("%s: exit %d, %d lines, want 1 and 3\n%s\n%s", cmd, code, len(lines), errs, out)
		}
		first, mid, last := decode(t, lines[0]), decode(t, lines[1]), decode(t, lines[2])
		if first["id"] != "a" || first["error"] != nil || last["id"] != "c" || last["error"] != nil {
			t.Errorf("%s: good lines %s / %s", cmd, lines[0], lines[2])
		}
		e, _ := mid["error"].(map[string]any)
		if mid["id"] != nil || e == nil || e["class"] != "input_error" || !strings.Contains(e["message"].(string), "line limit") {
			t.Errorf("%s: long line %s", cmd, lines[1])
		}
	}
}

// TestLongSQLRefused: a 39 MB SQL (argument or stdin) is refused before the
// engine opens (its DSN names no server), naming the limit.
func TestLongSQLRefused(t *testing.T) {
	huge := "SELECT 1 -- " + strings.Repeat("y", 39<<20)
	f := filepath.Join(t.TempDir(), "huge.sql")
	os.WriteFile(f, []byte(huge), 0o644)
	for _, cmd := range []string{"check", "repair"} {
		code, _, errs := cli(t, cmd, "--dsn", "postgres://nowhere.invalid/x", huge)
		if code != 1 || !strings.Contains(errs, "the limit is 65536 bytes") {
			t.Errorf("%s argument: exit %d: %s", cmd, code, errs)
		}
		stdin, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		old := os.Stdin
		os.Stdin = stdin
		code, _, errs = cli(t, cmd, "--dsn", "postgres://nowhere.invalid/x", "-")
		os.Stdin = old
		stdin.Close()
		if code != 1 || !strings.Contains(errs, "40894476 bytes; the limit is 65536 bytes") {
			t.Errorf("%s stdin: exit %d: %s", cmd, code, errs)
		}
	}
}

// TestAskJSONBigNumbers: integers beyond ±2^53 and long numerics are
// strings in ask --json; small integers and floats stay numbers.
func TestAskJSONBigNumbers(t *testing.T) {
	dsn := erptest.Single(t)
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT count(*) + 9007199254740992 AS big, -9007199254740993::bigint AS neg, 9223372036854775807::bigint AS max, " +
			"12345678901234567890::numeric AS num, 0.1::numeric AS tenth, 1.5::float8 AS f, count(*) AS n FROM employees WHERE status = 'Active'\n```"}
	})
	t.Setenv("OPENAI_API_KEY", "test")
	code, out, errs := cli(t, "ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "--json", "How many active employees are there?")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	var m struct{ Rows [][]json.RawMessage }
	if err := json.Unmarshal([]byte(out), &m); err != nil || len(m.Rows) != 1 {
		t.Fatalf("rows: %v\n%s", err, out)
	}
	row := m.Rows[0]
	var n int64
	json.Unmarshal(row[6], &n)
	want := []string{`"` + strconv.FormatInt(9007199254740992+n, 10) + `"`,
		`"-9007199254740993"`, `"9223372036854775807"`, `"12345678901234567890"`, `0.1`, `1.5`}
	for i, w := range want {
		if string(row[i]) != w {
			t.Errorf("column %d: %s, want %s", i, row[i], w)
		}
	}
}
