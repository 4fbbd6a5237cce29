// Package corpus reads the SQL test corpora of validate/testdata: files of
// cases, each a line "-- expect: CODE" followed by the SQL up to the next
// such line. A "-- server: ..." line inside a case says what PostgreSQL
// must make of it (see Server) and is not part of its SQL; other "--"
// lines are ordinary SQL comments.
package corpus

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Case is one SQL text of a corpus with its expected code.
type Case struct {
	File string // base name of the file
	Line int    // line of the "-- expect:" marker
	Code string // expected code ("ok" or a lint code in the legit corpus)
	SQL  string
	// Server is what PostgreSQL must say about the SQL; zero when the
	// case is never sent to a server.
	Server Server
}

// Server is a case's "-- server:" line: "plan" (EXPLAIN must succeed, so
// the spelling is real PostgreSQL), "plan N" (the same on a server of major
// version N or later), or "error SQLSTATE" (planning must fail with it).
type Server struct {
	Mode     string // "", "plan" or "error"
	MinMajor int    // plan: the oldest major version that can plan it (0: any)
	SQLState string // error: the expected SQLSTATE
}

func parseServer(s string) (Server, bool) {
	f := strings.Fields(s)
	switch {
	case len(f) == 1 && f[0] == "plan":
		return Server{Mode: "plan"}, true
	case len(f) == 2 && f[0] == "plan":
		n, err := strconv.Atoi(f[1])
		return Server{Mode: "plan", MinMajor: n}, err == nil && n > 0
	case len(f) == 2 && f[0] == "error" && len(f[1]) == 5:
		return Server{Mode: "error", SQLState: f[1]}, true
	}
	return Server{}, false
}

// Read parses every *.sql file of dir.
func Read(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("corpus: no *.sql files in %s", dir)
	}
	var out []Case
	for _, f := range files {
		cases, err := readFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, cases...)
	}
	return out, nil
}

func readFile(path string) ([]Case, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var out []Case
	var cur *Case
	var body []string
	flush := func() {
		if cur != nil {
			cur.SQL = strings.TrimSpace(strings.Join(body, "\n"))
			out = append(out, *cur)
		}
		body = nil
	}
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if code, ok := strings.CutPrefix(line, "-- expect:"); ok {
			flush()
			cur = &Case{File: filepath.Base(path), Line: n, Code: strings.TrimSpace(code)}
			continue
		}
		if spec, ok := strings.CutPrefix(line, "-- server:"); ok {
			srv, valid := parseServer(spec)
			switch {
			case cur == nil:
				return nil, fmt.Errorf("%s:%d: -- server: line before the first case", path, n)
			case !valid:
				return nil, fmt.Errorf("%s:%d: bad line %q: want \"-- server: plan\", \"-- server: plan MAJOR\" or \"-- server: error SQLSTATE\"", path, n, line)
			case cur.Server.Mode != "":
				return nil, fmt.Errorf("%s:%d: second -- server: line in the case of line %d", path, n, cur.Line)
			}
			cur.Server = srv
			continue
		}
		body = append(body, line)
	}
	flush()
	return out, sc.Err()
}

// String names the case as file:line.
func (c Case) String() string { return fmt.Sprintf("%s:%d", c.File, c.Line) }
