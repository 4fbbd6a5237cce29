package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action      string
	Package     string
	ImportPath  string // build-output and build-fail
	Test        string
	Output      string
	Elapsed     float64
	FailedBuild string
}

// pkg is a package whose tests are running.
type pkg struct {
	counts
	output  []string            // lines outside any test
	tests   map[string][]string // output of each test without a result yet
	failing []string            // tests that failed, in order
	partial map[string]string   // a benchmark's line so far: go test prints its name, then its figures
}

// benchLine prints a benchmark's result line (its figures, "ns/op") once
// the line is whole.
func (p *pkg) benchLine(w io.Writer, test, out string) {
	line := p.partial[test] + out
	if !strings.HasSuffix(line, "\n") {
		p.partial[test] = line
		return
	}
	delete(p.partial, test)
	if strings.Contains(line, "/op") {
		fmt.Fprint(w, "    "+line)
	}
}

// stream reads go test's events from r, writes a line per package, every
// failing test's output and every benchmark's figures to w, and returns
// the counts. A line that is not an event (a message of go itself) is
// copied as it is.
func stream(r io.Reader, w io.Writer) (counts, error) {
	var total counts
	pkgs := map[string]*pkg{}
	builds := map[string][]string{}
	get := func(name string) *pkg {
		p := pkgs[name]
		if p == nil {
			p = &pkg{tests: map[string][]string{}, partial: map[string]string{}}
			pkgs[name] = p
		}
		return p
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil || e.Action == "" {
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		switch {
		case e.Action == "build-output":
			builds[e.ImportPath] = append(builds[e.ImportPath], e.Output)
		case e.Action == "build-fail":
			// Reported with the package that failed to build.
		case e.Test == "":
			p := get(e.Package)
			switch e.Action {
			case "output":
				p.output = append(p.output, e.Output)
			case "pass", "fail", "skip":
				delete(pkgs, e.Package)
				total.add(p.finish(w, e, builds[e.FailedBuild]))
			}
		default:
			p := get(e.Package)
			switch e.Action {
			case "run":
				p.tests[e.Test] = nil
			case "output":
				p.tests[e.Test] = append(p.tests[e.Test], e.Output)
				if strings.HasPrefix(e.Test, "Benchmark") {
					p.benchLine(w, e.Test, e.Output)
				}
			case "pass":
				p.Passed++
				delete(p.tests, e.Test)
			case "skip":
				p.Skipped++
				delete(p.tests, e.Test)
			case "fail":
				p.Failed++
				p.failing = append(p.failing, e.Test)
				fmt.Fprintf(w, "=== %s %s\n%s", e.Package, e.Test, strings.Join(p.tests[e.Test], ""))
				delete(p.tests, e.Test)
			}
		}
	}
	// Packages without an end (go test was killed) failed.
	names := make([]string, 0, len(pkgs))
	for name := range pkgs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		total.add(pkgs[name].finish(w, event{Action: "fail", Package: name}, nil))
	}
	return total, sc.Err()
}

// finish ends a package: a test still without a result is a benchmark
// (go test reports no pass for one) when the package passed, and failed
// otherwise (a panic or the timeout stopped it).
func (p *pkg) finish(w io.Writer, e event, build []string) counts {
	left := make([]string, 0, len(p.tests))
	for name := range p.tests {
		left = append(left, name)
	}
	sort.Strings(left)
	for _, name := range left {
		if e.Action == "pass" && strings.HasPrefix(name, "Benchmark") {
			p.Passed++
			continue
		}
		if e.Action != "pass" {
			p.Failed++
			fmt.Fprintf(w, "=== %s %s (no result: stopped)\n%s", e.Package, name, strings.Join(p.tests[name], ""))
		}
	}
	switch e.Action {
	case "skip":
		return p.counts // no test files
	case "pass":
		fmt.Fprintf(w, "ok    %s\t%.1fs\t(%d passed, %d skipped)\n", e.Package, e.Elapsed, p.Passed, p.Skipped)
	default:
		if p.Failed == 0 {
			// No test failed: the build, TestMain or the binary did.
			p.Failed++
			fmt.Fprintf(w, "%s%s", strings.Join(build, ""), strings.Join(p.output, ""))
		}
		fmt.Fprintf(w, "FAIL  %s\t%.1fs\t(%d passed, %d failed, %d skipped)\n", e.Package, e.Elapsed, p.Passed, p.Failed, p.Skipped)
	}
	return p.counts
}
