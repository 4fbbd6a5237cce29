// Command testsum reads `go test -json` on stdin, streams a line per
// package (and the output of every failing test) to stdout, and adds the
// counts to a tally file; with -summary it prints the tally's one line,
// "N passed, N failed", and exits 1 when anything failed. make test runs
// each phase through it (scripts/test), and CI reads the last line.
//
//	go test -json ./... | testsum -tally FILE
//	testsum -tally FILE -fail "go vet ./..."   (a step that is not a test failed)
//	testsum -tally FILE -summary
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	tally := flag.String("tally", "", "file the counts are added to (one line per phase)")
	summary := flag.Bool("summary", false, "print the tally's total and exit 1 when anything failed")
	failed := flag.String("fail", "", "count one failure, of the step this names, instead of reading stdin")
	flag.Parse()
	if *tally == "" {
		fmt.Fprintln(os.Stderr, "testsum: -tally is required")
		os.Exit(2)
	}
	if *summary {
		c, err := readTally(*tally)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testsum:", err)
			os.Exit(2)
		}
		fmt.Println(c.line())
		if c.Failed > 0 || c.Passed == 0 {
			os.Exit(1)
		}
		return
	}
	if *failed != "" {
		fmt.Printf("FAIL  %s\n", *failed)
		if err := appendTally(*tally, counts{Failed: 1}); err != nil {
			fmt.Fprintln(os.Stderr, "testsum:", err)
			os.Exit(2)
		}
		return
	}
	c, err := stream(os.Stdin, os.Stdout)
	if err != nil {
		// A stream that is not go test's: the phase counts as failed.
		fmt.Fprintln(os.Stdout, "testsum:", err)
		c.Failed++
	}
	if err := appendTally(*tally, c); err != nil {
		fmt.Fprintln(os.Stderr, "testsum:", err)
		os.Exit(2)
	}
	fmt.Printf("phase: %d passed, %d failed, %d skipped\n", c.Passed, c.Failed, c.Skipped)
	if c.Failed > 0 {
		os.Exit(1)
	}
}

// counts are the results of tests (subtests and benchmarks included).
type counts struct{ Passed, Failed, Skipped int }

func (c counts) line() string { return fmt.Sprintf("%d passed, %d failed", c.Passed, c.Failed) }

func (c *counts) add(o counts) {
	c.Passed += o.Passed
	c.Failed += o.Failed
	c.Skipped += o.Skipped
}

func appendTally(path string, c counts) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(f, "%d %d %d\n", c.Passed, c.Failed, c.Skipped); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func readTally(path string) (counts, error) {
	var total counts
	f, err := os.Open(path)
	if err != nil {
		return total, err
	}
	defer f.Close()
	for {
		var c counts
		_, err := fmt.Fscanf(f, "%d %d %d\n", &c.Passed, &c.Failed, &c.Skipped)
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, fmt.Errorf("%s: %w", path, err)
		}
		total.add(c)
	}
}
