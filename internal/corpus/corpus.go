// Package corpus reads the SQL test corpora of validate/testdata: files of
// cases, each a line "-- expect: CODE" followed by the SQL up to the next
// such line. Other "--" lines are ordinary SQL comments.
package corpus

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Case is one SQL text of a corpus with its expected code.
type Case struct {
	File string // base name of the file
	Line int    // line of the "-- expect:" marker
	Code string // expected code ("ok" or a lint code in the legit corpus)
	SQL  string
	// Tags are the words of "-- tag: ..." lines inside the case.
	Tags []string
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
		if tags, ok := strings.CutPrefix(line, "-- tag:"); ok && cur != nil {
			cur.Tags = append(cur.Tags, strings.Fields(tags)...)
			continue
		}
		body = append(body, line)
	}
	flush()
	return out, sc.Err()
}

// Has reports whether the case carries tag.
func (c Case) Has(tag string) bool {
	for _, t := range c.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

// String names the case as file:line.
func (c Case) String() string { return fmt.Sprintf("%s:%d", c.File, c.Line) }
