package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A go test -json stream: a package with a passing test, a failing
// subtest, a skip and a benchmark (which gets no pass event); a package
// that failed to build; a package without test files; a package killed
// mid-test (no end event).
const sample = `{"Action":"start","Package":"a"}
{"Action":"run","Package":"a","Test":"TestOK"}
{"Action":"output","Package":"a","Test":"TestOK","Output":"quiet when passing\n"}
{"Action":"pass","Package":"a","Test":"TestOK"}
{"Action":"run","Package":"a","Test":"TestBad"}
{"Action":"run","Package":"a","Test":"TestBad/sub"}
{"Action":"output","Package":"a","Test":"TestBad/sub","Output":"    a_test.go:9: boom\n"}
{"Action":"fail","Package":"a","Test":"TestBad/sub"}
{"Action":"fail","Package":"a","Test":"TestBad"}
{"Action":"run","Package":"a","Test":"TestSkip"}
{"Action":"skip","Package":"a","Test":"TestSkip"}
{"Action":"run","Package":"a","Test":"BenchmarkX"}
{"Action":"output","Package":"a","Test":"BenchmarkX","Output":"BenchmarkX-2  \t"}
{"Action":"output","Package":"a","Test":"BenchmarkX","Output":" 1\t 300 ns/op\n"}
{"Action":"fail","Package":"a","Elapsed":1.5}
{"ImportPath":"b [b.test]","Action":"build-output","Output":"./b.go:2:9: syntax error\n"}
{"ImportPath":"b [b.test]","Action":"build-fail"}
{"Action":"start","Package":"b"}
{"Action":"fail","Package":"b","FailedBuild":"b [b.test]"}
{"Action":"skip","Package":"c"}
go: a message of go itself
{"Action":"run","Package":"d","Test":"TestHangs"}
{"Action":"output","Package":"d","Test":"TestHangs","Output":"waiting\n"}
`

func TestStream(t *testing.T) {
	var out strings.Builder
	c, err := stream(strings.NewReader(sample), &out)
	if err != nil {
		t.Fatal(err)
	}
	// TestOK; TestBad, TestBad/sub, BenchmarkX (its package failed), b's
	// build, TestHangs.
	if want := (counts{Passed: 1, Failed: 5, Skipped: 1}); c != want {
		t.Errorf("counts %+v, want %+v\n%s", c, want, out.String())
	}
	for _, want := range []string{"=== a TestBad/sub\n    a_test.go:9: boom", "syntax error", "FAIL  a\t1.5s", "FAIL  b", "go: a message of go itself",
		"=== d TestHangs (no result: stopped)\nwaiting", "    BenchmarkX-2  \t 1\t 300 ns/op\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "quiet when passing") || strings.Contains(out.String(), "\tc\t") {
		t.Errorf("a passing test's output or a package without tests shown:\n%s", out.String())
	}

	pass := `{"Action":"run","Package":"e","Test":"BenchmarkY"}
{"Action":"pass","Package":"e","Elapsed":0.2}
`
	out.Reset()
	c, err = stream(strings.NewReader(pass), &out)
	if err != nil || c != (counts{Passed: 1}) || !strings.Contains(out.String(), "ok    e\t0.2s\t(1 passed, 0 skipped)") {
		t.Errorf("a benchmark of a passing package: %+v %v\n%s", c, err, out.String())
	}
}

func TestTally(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tally")
	for _, c := range []counts{{3, 0, 1}, {2, 1, 0}} {
		if err := appendTally(path, c); err != nil {
			t.Fatal(err)
		}
	}
	c, err := readTally(path)
	if err != nil || c.line() != "5 passed, 1 failed" {
		t.Errorf("tally %q, %v", c.line(), err)
	}
	os.WriteFile(path, []byte("3 x\n"), 0o644)
	if _, err := readTally(path); err == nil {
		t.Error("a damaged tally was read")
	}
}
