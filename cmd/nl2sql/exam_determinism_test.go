package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

const demoExam = "../../examples/erp/exam.csv"

// examRun runs the exam and returns its --out file and its stdout.
func examRun(t *testing.T, args ...string) (out []byte, stdout string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out.jsonl")
	code, stdout, errs := cli(t, append(append([]string{"exam"}, args...), "--out", path)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b, stdout
}

// sameRuns fails when a run's --out file or summary differs from the first's.
func sameRuns(t *testing.T, outs [][]byte, stdouts []string, names []string) {
	t.Helper()
	for i := 1; i < len(outs); i++ {
		if !bytes.Equal(outs[i], outs[0]) {
			a, b := strings.Split(string(outs[0]), "\n"), strings.Split(string(outs[i]), "\n")
			for j := range min(len(a), len(b)) {
				if a[j] != b[j] {
					t.Errorf("%s: --out differs from %s's, first at line %d:\n%s\n%s", names[i], names[0], j+1, a[j], b[j])
					break
				}
			}
			if len(a) != len(b) {
				t.Errorf("%s: %d lines, %s: %d", names[i], len(b), names[0], len(a))
			}
		}
		if stdouts[i] != stdouts[0] {
			t.Errorf("%s: summary differs from %s's:\n%s\n%s", names[i], names[0], stdouts[i], stdouts[0])
		}
	}
}

// TestExamDeterministic: the retrieval-only exam of the demo ERP writes the
// same --out file, byte for byte, on every run: before ANALYZE (as right
// after a load) and after it, and with one or several threads. Before,
// latency_ms put timings in every line, and the value index read pg_stats
// once autovacuum had run, with other values (and other tables retrieved)
// than its own queries had found.
func TestExamDeterministic(t *testing.T) {
	dsn := erptest.Single(t)
	// The template may have been analyzed by autovacuum: start without statistics.
	pgtest.Exec(t, dsn, "DELETE FROM pg_catalog.pg_statistic")
	args := []string{"--dsn", dsn, "--llm", "none", "--exam", demoExam}
	var outs [][]byte
	var stdouts []string
	run := func() {
		o, s := examRun(t, args...)
		outs, stdouts = append(outs, o), append(stdouts, s)
	}
	run()
	pgtest.Exec(t, dsn, "ANALYZE")
	run()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	run()
	sameRuns(t, outs, stdouts, []string{"before ANALYZE", "after ANALYZE", "GOMAXPROCS=1"})
	if n := bytes.Count(outs[0], []byte("\n")); n != 82 {
		t.Errorf("%d lines", n)
	}
}
