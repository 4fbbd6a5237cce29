package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
)

// TestServe starts the console without a model on a free loopback port,
// reads a page, and stops it as SIGINT would (its context ends).
func TestServe(t *testing.T) {
	dsn := erptest.Single(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--dsn", dsn, "--llm", "none", "--addr", "127.0.0.1:0"}, io.Discard, pw)
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
	for path, want := range map[string]string{"/schema": "public.employees", "/": `id="need-model"`} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("GET %s: %d, no %q", path, resp.StatusCode, want)
		}
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d after shutdown", code)
	}
}

func TestServeUsage(t *testing.T) {
	if code := run(context.Background(), []string{"serve", "extra"}, io.Discard, io.Discard); code != 2 {
		t.Errorf("serve with an argument: exit %d", code)
	}
}
