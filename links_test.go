package nl2sql_test

import (
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestDocLinks checks every relative link and anchor of the Markdown
// documentation: the file exists, and an #anchor is the GitHub slug of one
// of its headings. A link to a section of the root package's guide
// (pkg.go.dev/github.com/nl2sqlgo/nl2sql#hdr-...) must name a heading of
// doc.go; other absolute URLs are left to the reader.
func TestDocLinks(t *testing.T) {
	files := []string{"README.md", "CONTRIBUTING.md", "CHANGELOG.md", "examples/mcp-server/README.md", "examples/erp/README.md"}
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, docs...)
	checked := 0
	for _, f := range files {
		problems, n, err := checkLinks(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		checked += n
		for _, p := range problems {
			t.Errorf("%s: %s", f, p)
		}
	}
	if checked < 20 {
		t.Errorf("only %d relative links checked: the parser is missing links", checked)
	}
}

// TestDocLinksFindsBroken: the checker reports a missing file, a missing
// anchor in another file and in the same one, and ignores links in code.
func TestDocLinksFindsBroken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b.md", "# B\n\n## Set-up on a fresh machine\n\n```\n## Not a heading\n```\n")
	write("a.md", "# A: `x`, y\n\n"+
		"[ok](b.md#set-up-on-a-fresh-machine) [ok](#a-x-y) ![img](b.md) [web](https://example.com/x.md)\n"+
		"[gone](c.md) [no anchor](b.md#nope) [code heading](b.md#not-a-heading) [self](#nope)\n"+
		"[guide](https://pkg.go.dev/github.com/nl2sqlgo/nl2sql#hdr-Options) [guide](https://pkg.go.dev/github.com/nl2sqlgo/nl2sql#hdr-Nope)\n"+
		"`[in code](c.md)`\n\n```\n[in a block](c.md)\n```\n")
	problems, n, err := checkLinks(filepath.Join(dir, "a.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"c.md: no such file",
		"b.md#nope: no heading has the anchor nope",
		"b.md#not-a-heading: no heading has the anchor not-a-heading",
		"#nope: no heading has the anchor nope",
		"https://pkg.go.dev/github.com/nl2sqlgo/nl2sql#hdr-Nope: doc.go has no heading hdr-Nope",
	}
	if !slices.Equal(problems, want) || n != 9 {
		t.Errorf("problems %q (%d links), want %q (9)", problems, n, want)
	}
}

func TestGitHubSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Confidence: answer, caveat or refuse":                            "confidence-answer-caveat-or-refuse",
		"Load (`TestLoad`, `TestLoadWithFaults`)":                         "load-testload-testloadwithfaults",
		"Answer quality: repair and selection on spider-pools (issue 13)": "answer-quality-repair-and-selection-on-spider-pools-issue-13",
		"Boundaries, vocabulary, learning (issues 15-17)":                 "boundaries-vocabulary-learning-issues-15-17",
		"generate and llm":                                  "generate-and-llm",
		"Targets of issue 7 and where we stand":             "targets-of-issue-7-and-where-we-stand",
		"See [the engine](#the-engine) **now**":             "see-the-engine-now",
		"Renamed: `WithAbstainBelow` → `WithMinConfidence`": "renamed-withabstainbelow--withminconfidence",
		"cliflags_and_throttle":                             "cliflags_and_throttle",
	} {
		if got := githubSlug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

var (
	fenceRe      = regexp.MustCompile("^\\s*(```|~~~)")
	headingRe    = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	codeSpanRe   = regexp.MustCompile("`[^`]*`")
	linkRe       = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	schemeRe     = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
	inlineLinkRe = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// checkLinks returns the broken relative links of the Markdown file f and
// how many relative links it has.
func checkLinks(f string) (problems []string, n int, err error) {
	text, err := os.ReadFile(f)
	if err != nil {
		return nil, 0, err
	}
	anchors := map[string][]string{}
	for _, line := range proseLines(string(text)) {
		for _, m := range linkRe.FindAllStringSubmatch(codeSpanRe.ReplaceAllString(line, ""), -1) {
			target := m[1]
			if anchor, ok := strings.CutPrefix(target, rootDocURL+"#"); ok {
				n++
				if ids, err := rootDocHeadings(); err != nil {
					return nil, n, err
				} else if !slices.Contains(ids, anchor) {
					problems = append(problems, fmt.Sprintf("%s: doc.go has no heading %s", target, anchor))
				}
				continue
			}
			if schemeRe.MatchString(target) {
				continue
			}
			n++
			path, anchor, _ := strings.Cut(target, "#")
			file := f
			if path != "" {
				file = filepath.Join(filepath.Dir(f), filepath.FromSlash(path))
				if _, err := os.Stat(file); err != nil {
					problems = append(problems, path+": no such file")
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(file, ".md") {
				problems = append(problems, fmt.Sprintf("%s: an anchor into a file that is not Markdown", target))
				continue
			}
			if _, ok := anchors[file]; !ok {
				anchors[file], err = headingAnchors(file)
				if err != nil {
					return nil, n, err
				}
			}
			if !slices.Contains(anchors[file], anchor) {
				problems = append(problems, fmt.Sprintf("%s: no heading has the anchor %s", target, anchor))
			}
		}
	}
	return problems, n, nil
}

// proseLines are the lines of a Markdown text outside fenced code blocks.
func proseLines(text string) []string {
	var out []string
	inFence := false
	for line := range strings.SplitSeq(text, "\n") {
		if fenceRe.MatchString(line) {
			inFence = !inFence
			continue
		}
		if !inFence {
			out = append(out, line)
		}
	}
	return out
}

// headingAnchors lists the anchors GitHub gives the headings of the
// Markdown file f: the slug, then slug-1, slug-2, ... for repeats.
func headingAnchors(f string) ([]string, error) {
	text, err := os.ReadFile(f)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]int{}
	for _, line := range proseLines(string(text)) {
		m := headingRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := githubSlug(m[2])
		if k := seen[slug]; k > 0 {
			out = append(out, fmt.Sprintf("%s-%d", slug, k))
		} else {
			out = append(out, slug)
		}
		seen[slug]++
	}
	return out, nil
}

// githubSlug is the anchor GitHub derives from a heading's text: links
// reduced to their text, lower case, every character but letters, digits,
// spaces, hyphens and underscores dropped, spaces turned into hyphens.
func githubSlug(heading string) string {
	heading = inlineLinkRe.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// rootDocURL is where the root package's documentation is published.
const rootDocURL = "https://pkg.go.dev/github.com/nl2sqlgo/nl2sql"

// rootDocHeadings are the anchors pkg.go.dev gives the headings of the root
// package's doc comment (doc.go), as go/doc/comment prints them.
func rootDocHeadings() ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return nil, err
	}
	var p comment.Parser
	d := p.Parse((&ast.CommentGroup{List: f.Doc.List}).Text())
	var out []string
	for _, m := range headingIDRe.FindAllStringSubmatch(string(new(comment.Printer).HTML(d)), -1) {
		out = append(out, m[1])
	}
	return out, nil
}

var headingIDRe = regexp.MustCompile(`<h[1-6] id="([^"]+)"`)
