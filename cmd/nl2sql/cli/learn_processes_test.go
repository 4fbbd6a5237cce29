package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/internal/atomicfile"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
)

// examplesJSONL is n learn --jsonl lines of distinct examples (the alias
// tells them apart), named after who.
func examplesJSONL(who string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"question":"How many projects (%s %d)?","sql":"SELECT count(*) AS %s_%d FROM projects"}`+"\n", who, i, who, i)
	}
	return b.String()
}

// buildCLI builds the nl2sql binary, to run it as separate processes.
func buildCLI(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "nl2sql")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// storedIDs lists the knowledge IDs in an index file, as a new process
// reads them (knowledge list --json).
func storedIDs(t *testing.T, dsn, idx string) []string {
	t.Helper()
	code, out, errs := cli(t, "knowledge", "--dsn", dsn, "--index", idx, "list", "--json")
	if code != 0 {
		t.Fatalf("knowledge list: exit %d %s", code, errs)
	}
	var ks []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &ks); err != nil {
		t.Fatalf("knowledge list --json: %v\n%s", err, out)
	}
	ids := make([]string, len(ks))
	for i, k := range ks {
		ids[i] = k.ID
	}
	return slices.Sorted(slices.Values(ids))
}

// TestLearnProcesses runs the nl2sql binary as separate processes on one
// index file: concurrent learns store every acknowledged line, and a learn
// killed (kill -9) while it holds the file's lock leaves the file whole,
// and its temporary file is removed by the next writer.
func TestLearnProcesses(t *testing.T) {
	dsn := erptest.Single(t)
	t.Setenv("NL2SQL_STORE_DSN", "")
	bin := buildCLI(t)
	dir := t.TempDir()
	idx := filepath.Join(dir, "erp.idx")
	if code, _, errs := cli(t, "index", "--dsn", dsn, "--out", idx); code != 0 {
		t.Fatalf("index: exit %d %s", code, errs)
	}
	learn := func(env []string, args ...string) *exec.Cmd {
		cmd := exec.Command(bin, append([]string{"learn", "--dsn", dsn, "--index", idx}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		return cmd
	}

	t.Run("concurrent", func(t *testing.T) {
		var wg sync.WaitGroup
		acked := make([][]string, 2)
		for i, who := range []string{"first", "second"} {
			in := writeFile(t, who+".jsonl", examplesJSONL(who, 20))
			wg.Go(func() {
				var stdout, stderr bytes.Buffer
				cmd := learn(nil, "--jsonl", in)
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Errorf("%s: %v %s", who, err, stderr.String())
				}
				for _, line := range batchLines(t, stdout.String()) {
					if id, _ := decode(t, line)["id"].(string); strings.HasPrefix(id, "knowledge:example:") {
						acked[i] = append(acked[i], id)
					}
				}
			})
		}
		wg.Wait()
		want := slices.Concat(acked[0], acked[1])
		slices.Sort(want)
		if len(want) != 40 {
			t.Fatalf("acknowledged %d lines, want 40", len(want))
		}
		if got := storedIDs(t, dsn, idx); !slices.Equal(got, want) {
			t.Errorf("the file holds %d of the 40 acknowledged: missing %v", len(got), missing(want, got))
		}
	})

	t.Run("kill -9", func(t *testing.T) {
		before := storedIDs(t, dsn, idx)
		good, _ := os.ReadFile(idx)
		mark := filepath.Join(t.TempDir(), "paused")
		cmd := learn([]string{atomicfile.PauseEnv + "=" + mark}, "How many employees are there?", "SELECT count(*) AS killed FROM employees")
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
			if _, err := os.Stat(mark); err == nil {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("the learn never reached its write")
			}
		}
		// Paused between writing its temporary file and the rename, with
		// the lock held.
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		if stdout.Len() > 0 {
			t.Errorf("the killed learn acknowledged %q", stdout.String())
		}
		if now, _ := os.ReadFile(idx); !bytes.Equal(now, good) {
			t.Error("the index changed under a writer killed before its rename")
		}
		if leftovers(t, dir) == 0 {
			t.Error("no temporary file of the killed writer: it was not killed inside its write")
		}
		// The next writer gets the lock the killed one held, removes its
		// temporary file, and keeps every acknowledged item.
		out, err := learn(nil, "How many employees are there?", "SELECT count(*) AS survivor FROM employees").CombinedOutput()
		if err != nil {
			t.Fatalf("the next learn: %v %s", err, out)
		}
		if n := leftovers(t, dir); n != 0 {
			t.Errorf("%d temporary files left after the next write", n)
		}
		got := storedIDs(t, dsn, idx)
		if len(got) != len(before)+1 || len(missing(before, got)) > 0 {
			t.Errorf("after the kill and a learn the file holds %d items (missing %v), want %d", len(got), missing(before, got), len(before)+1)
		}
	})
}

// TestServeTeachSurvives: what the console of nl2sql serve --index
// teaches is in the file when the page says so: it survives a kill -9 of
// the server and is there after a restart, with what a CLI learn stored
// meanwhile; what it forgot stays forgotten.
func TestServeTeachSurvives(t *testing.T) {
	dsn := erptest.Single(t)
	t.Setenv("NL2SQL_STORE_DSN", "")
	bin := buildCLI(t)
	idx := filepath.Join(t.TempDir(), "erp.idx")
	if code, _, errs := cli(t, "index", "--dsn", dsn, "--out", idx); code != 0 {
		t.Fatalf("index: exit %d %s", code, errs)
	}
	c := startServe(t, bin, dsn, idx)
	tok := c.token()
	for path, form := range map[string]url.Values{
		"/teach/doc":     {"text": {"Salaries are paid monthly."}, "table": {"employees"}},
		"/teach/term":    {"term": {"crew"}, "targets": {"employees"}},
		"/teach/correct": {"question": {"How many projects are there?"}, "sql": {"SELECT count(*) FROM projects"}},
	} {
		form.Set("csrf", tok)
		if code, page := c.post(path, form); code != http.StatusOK || !strings.Contains(page, `id="learned"`) {
			t.Fatalf("POST %s: %d", path, code)
		}
	}
	taught := storedIDs(t, dsn, idx)
	if len(taught) != 3 {
		t.Fatalf("the file holds %v after three teachings", taught)
	}
	// A CLI learn while the server runs, then the console forgets its doc:
	// the console's write keeps the CLI's example.
	if code, _, errs := cli(t, "learn", "--dsn", dsn, "--index", idx, "How many employees are there?", "SELECT count(*) FROM employees"); code != 0 {
		t.Fatalf("learn: exit %d %s", code, errs)
	}
	withCLI := storedIDs(t, dsn, idx)
	var doc string
	for _, id := range withCLI {
		if strings.HasPrefix(id, "knowledge:doc:") {
			doc = id
		}
	}
	if code, _ := c.post("/teach/forget", url.Values{"csrf": {tok}, "id": {doc}}); code != http.StatusOK {
		t.Fatalf("forget: %d", code)
	}
	c.kill()
	want := slices.DeleteFunc(withCLI, func(id string) bool { return id == doc })
	if got := storedIDs(t, dsn, idx); len(withCLI) != 4 || !slices.Equal(got, want) {
		t.Errorf("after the server's kill -9 the file holds %v, want %v", got, want)
	}
	// A restarted console lists them, and not the forgotten doc.
	c = startServe(t, bin, dsn, idx)
	_, page := c.get("/knowledge")
	if !strings.Contains(page, "Knowledge (3)") || strings.Contains(page, "Salaries are paid monthly") || !strings.Contains(page, "How many employees are there?") {
		t.Errorf("the restarted console's knowledge page:\n%s", page)
	}
	c.kill()
}

// serveClient is a console server process and a browser-like client of it.
type serveClient struct {
	t    *testing.T
	cmd  *exec.Cmd
	base string
	c    *http.Client
}

// startServe runs nl2sql serve --index idx on a free loopback port.
func startServe(t *testing.T, bin, dsn, idx string) *serveClient {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--dsn", dsn, "--index", idx, "--llm", "none", "--addr", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	var base string
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "nl2sql console: "); ok {
			base = strings.TrimSuffix(u, "/")
			break
		}
	}
	go io.Copy(io.Discard, stderr)
	if base == "" {
		t.Fatal("serve printed no URL")
	}
	jar, _ := cookiejar.New(nil)
	return &serveClient{t: t, cmd: cmd, base: base, c: &http.Client{Jar: jar}}
}

func (s *serveClient) get(path string) (int, string) {
	s.t.Helper()
	resp, err := s.c.Get(s.base + path)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (s *serveClient) post(path string, form url.Values) (int, string) {
	s.t.Helper()
	resp, err := s.c.PostForm(s.base+path, form)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// token is the CSRF token of the knowledge page.
func (s *serveClient) token() string {
	s.t.Helper()
	_, page := s.get("/knowledge")
	m := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(page)
	if m == nil {
		s.t.Fatal("no CSRF field in the knowledge page")
	}
	return m[1]
}

// kill ends the server with SIGKILL: nothing it held in memory is saved.
func (s *serveClient) kill() {
	s.cmd.Process.Signal(syscall.SIGKILL)
	s.cmd.Wait()
}

// leftovers counts the files in dir that are neither the index nor its lock.
func leftovers(t *testing.T, dir string) int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.Name() != "erp.idx" && e.Name() != "erp.idx"+atomicfile.LockSuffix {
			n++
		}
	}
	return n
}

// missing is what of want got lacks.
func missing(want, got []string) []string {
	var out []string
	for _, id := range want {
		if !slices.Contains(got, id) {
			out = append(out, id)
		}
	}
	return out
}
