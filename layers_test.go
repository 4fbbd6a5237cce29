package nl2sql_test

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// rootLayers are the root package's files as layers, lowest first: a file
// may use the names (types, functions, methods, variables, constants)
// declared in the files before it. CONTRIBUTING.md, "The root package's
// layers", lists the same files in the same order; a file without
// declarations (doc.go) is no layer.
var rootLayers = [][]string{
	{"errors.go", "result.go", "trace.go"},                                   // what a caller gets back, and how a request is observed
	{"options.go", "nl2sql.go"},                                              // the options, the Engine and its state
	{"limits.go", "workload.go", "privileges.go", "question.go", "moved.go"}, // the Engine's parts that need no request
	{"scope.go", "grants.go", "estimates.go", "history.go"},                  // a request's scope and what it may read
	{"knowledge.go", "refresh.go", "build.go"},                               // the state built from a catalog and the knowledge
	{"request.go", "offer.go"},                                               // what every entry point starts from
	{"context.go", "candidates.go", "shape.go", "measureuse.go", "score.go", "assessment.go", "backward.go", "verified.go"},      // the stages
	{"index.go", "indexfile.go", "knowledgesync.go", "catalogtrigger.go"},                                                        // the index and the knowledge kept in step
	{"learn.go", "propose.go", "ask.go", "pick.go", "run.go", "check.go", "repair.go", "scopeview.go", "prepare.go", "watch.go"}, // the entry points, and the watch that calls them
}

// rootClimbs are the uses from a file to a later one that stay, with why
// (the same reasons as CONTRIBUTING.md's). Every other climb fails the
// test, and so does an entry no use needs any more.
var rootClimbs = []struct{ from, to, why string }{
	{"nl2sql.go", "knowledge.go", "the Engine struct holds its parts (knowledgeBase); the files that declare them hold the Engine's methods over them"},
	{"nl2sql.go", "indexfile.go", "the Engine struct holds its parts (indexFile)"},
	{"nl2sql.go", "refresh.go", "the Engine struct holds its parts (watcher)"},
	{"build.go", "watch.go", "the first build starts the watch, which runs in the background and calls the Engine as a caller would (Refresh)"},
}

// TestRootLayers checks the root package's layering: every use in one
// root file of a top-level name declared in another (found with go/types,
// methods included) goes from a later file of rootLayers to an earlier
// one, or is a climb rootClimbs lists with its reason. -v prints the
// counts (CONTRIBUTING.md quotes them).
func TestRootLayers(t *testing.T) {
	uses, files := rootUses(t)
	rank := map[string]int{}
	for _, layer := range rootLayers {
		for _, f := range layer {
			if _, dup := rank[f]; dup {
				t.Errorf("%s is in rootLayers twice", f)
			}
			rank[f] = len(rank)
		}
	}
	for _, f := range files {
		if _, ok := rank[f]; !ok {
			t.Errorf("%s is in no layer: add it to rootLayers (and to CONTRIBUTING.md's list) above the files it uses", f)
		}
	}
	for _, f := range slices.Concat(rootLayers...) {
		if !slices.Contains(files, f) {
			t.Errorf("rootLayers names %s, which is no file of the root package (or declares nothing)", f)
		}
	}
	allowed := map[[2]string]bool{}
	for _, c := range rootClimbs {
		allowed[[2]string{c.from, c.to}] = false
	}
	pairs, climbs, climbNames, n := 0, 0, 0, 0
	for _, u := range uses {
		pairs++
		n += len(u.names)
		rf, okf := rank[u.from]
		rt, okt := rank[u.to]
		if !okf || !okt || rf > rt {
			continue
		}
		climbs++
		climbNames += len(u.names)
		k := [2]string{u.from, u.to}
		if _, ok := allowed[k]; ok {
			allowed[k] = true
			continue
		}
		t.Errorf("%s uses %s of %s, a later layer: move the code to the file it belongs to, or list the climb in rootClimbs and CONTRIBUTING.md with its reason",
			u.from, strings.Join(u.names, ", "), u.to)
	}
	for _, c := range rootClimbs {
		if !allowed[[2]string{c.from, c.to}] {
			t.Errorf("%s no longer climbs to %s: remove the climb from rootClimbs and CONTRIBUTING.md", c.from, c.to)
		}
	}
	t.Logf("root package: %d files in %d layers; %d file pairs with a use (%d names); %d climbing (%d names), %d of them justified",
		len(files), len(rootLayers), pairs, n, climbs, climbNames, len(rootClimbs))
}

// TestRootLayersDocumented: CONTRIBUTING.md's section lists the root's
// files in the order of rootLayers, and each justified climb.
func TestRootLayersDocumented(t *testing.T) {
	b, err := os.ReadFile("CONTRIBUTING.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "## The root package's layers")
	if !ok {
		t.Fatal(`CONTRIBUTING.md has no section "The root package's layers"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	listed, climbs, _ := strings.Cut(section, "References that still climb")
	var got []string
	for _, m := range regexp.MustCompile("`([a-z0-9_]+\\.go)`").FindAllStringSubmatch(listed, -1) {
		if !slices.Contains(got, m[1]) {
			got = append(got, m[1])
		}
	}
	if want := slices.Concat(rootLayers...); !slices.Equal(got, want) {
		t.Errorf("CONTRIBUTING.md lists the root's files as\n%v\nrootLayers has\n%v", got, want)
	}
	for _, c := range rootClimbs {
		if !strings.Contains(climbs, "`"+c.from+"` → `"+c.to+"`") {
			t.Errorf("CONTRIBUTING.md does not give the climb `%s` → `%s`", c.from, c.to)
		}
	}
}

// rootUse is the names a file (from) uses that another (to) declares.
type rootUse struct {
	from, to string
	names    []string
}

// rootUses type-checks the root package's non-test files (its imports
// from their export data, which go list has built) and returns every use
// of a top-level name across two of its files, by file pair and name in
// order, and the files that declare something.
func rootUses(t *testing.T) ([]rootUse, []string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	exports := map[string]string{}
	for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
		if path, file, ok := strings.Cut(sc.Text(), "="); ok {
			exports[path] = file
		}
	}
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	var declaring []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		if slices.ContainsFunc(f.Decls, func(d ast.Decl) bool { g, ok := d.(*ast.GenDecl); return !ok || g.Tok != token.IMPORT }) {
			declaring = append(declaring, name)
		}
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		if exports[path] == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(exports[path])
	})
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{Importer: imp}).Check("github.com/nl2sqlgo/nl2sql", fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	byPair := map[[2]string]map[string]bool{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg {
			continue
		}
		name := obj.Name()
		if f, ok := obj.(*types.Func); ok && f.Signature().Recv() != nil {
			rt := f.Signature().Recv().Type()
			if p, ok := rt.(*types.Pointer); ok {
				rt = p.Elem()
			}
			if n, ok := rt.(*types.Named); ok {
				name = n.Obj().Name() + "." + name
			}
		} else if obj.Parent() != pkg.Scope() {
			continue // a local name, a field, a parameter
		}
		from, to := fset.Position(id.Pos()).Filename, fset.Position(obj.Pos()).Filename
		if from == to {
			continue
		}
		k := [2]string{from, to}
		if byPair[k] == nil {
			byPair[k] = map[string]bool{}
		}
		byPair[k][name] = true
	}
	var uses []rootUse
	for k, ns := range byPair {
		u := rootUse{from: k[0], to: k[1]}
		for n := range ns {
			u.names = append(u.names, n)
		}
		slices.Sort(u.names)
		uses = append(uses, u)
	}
	slices.SortFunc(uses, func(a, b rootUse) int { return strings.Compare(a.from+"\x00"+a.to, b.from+"\x00"+b.to) })
	return uses, declaring
}
