// Package servetest runs the command line's serve in the test's process,
// for the tests of cmd/nl2sql and of otel/cmd/nl2sql-otel.
package servetest

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
)

// Run is a command line's entry: args without the program's name, the
// exit status back.
type Run func(ctx context.Context, args []string, stdout, stderr io.Writer) int

// Console runs serve with args on a free loopback port and returns its URL
// (no trailing slash), and stop, which ends it as SIGINT would and returns
// its exit status.
func Console(t *testing.T, run Run, args ...string) (string, func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append(append([]string{"serve"}, args...), "--addr", "127.0.0.1:0"), io.Discard, pw)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var base string
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "nl2sql console: "); ok {
			base = strings.TrimSuffix(u, "/")
			break
		}
		t.Log(sc.Text())
	}
	go io.Copy(io.Discard, pr)
	if base == "" || !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("no URL printed (exit %v)", <-done)
	}
	return base, func() int {
		cancel()
		return <-done
	}
}
