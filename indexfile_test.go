package nl2sql_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// indexFileEngines saves a fresh index of the ERP database into dir/name
// and returns a function that opens an engine bound to a path
// (LoadIndexFile), as a process started on that file would.
func indexFileEngines(t testing.TB, dir, name string) (string, func(path string) *nl2sql.Engine) {
	t.Helper()
	ctx := context.Background()
	pool := pgtest.Pool(t, erptest.Single(t))
	eng, err := nl2sql.New(pool, nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := eng.SaveIndexFile(ctx, path); err != nil {
		t.Fatal(err)
	}
	return path, func(path string) *nl2sql.Engine {
		t.Helper()
		opts, err := nl2sql.LoadIndexFile(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		e, err := nl2sql.New(pool, opts...)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
}

// ids lists the IDs an engine knows, sorted.
func ids(t *testing.T, eng *nl2sql.Engine) []string {
	t.Helper()
	ks, err := eng.Knowledge(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, k := range ks {
		out = append(out, k.ID)
	}
	slices.Sort(out)
	return out
}

// TestIndexFileWritersMerge: two engines bound to one index file (two
// processes' view of it), each having read it before the other wrote,
// learn and forget in turn. Every acknowledged change is in the file and
// in a third engine loaded from it; a forgotten item stays forgotten when
// the writer that still had it writes next; each writer takes on what the
// other did.
func TestIndexFileWritersMerge(t *testing.T) {
	ctx := context.Background()
	path, open := indexFileEngines(t, t.TempDir(), "erp.idx")
	a, b := open(path), open(path)
	for _, e := range []*nl2sql.Engine{a, b} {
		if err := e.Prepare(ctx); err != nil {
			t.Fatal(err)
		}
	}
	learn := func(e *nl2sql.Engine, k nl2sql.Knowledge) string {
		t.Helper()
		got, err := e.Learn(ctx, k)
		if err != nil {
			t.Fatalf("learn %+v: %v", k, err)
		}
		return got.ID
	}
	x := learn(a, nl2sql.Example("How many projects are there?", "SELECT count(*) FROM projects"))
	y := learn(b, nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Table: "projects", Text: "A project on hold is open."})
	z := learn(a, nl2sql.Knowledge{Kind: nl2sql.KnowledgeTerm, Term: "crew", Targets: []string{"employees"}})
	all := []string{x, y, z}
	slices.Sort(all)
	if got := ids(t, open(path)); !slices.Equal(got, all) {
		t.Fatalf("the file holds %v, want %v (a writer lost the other's)", got, all)
	}
	// b has not written since a learnt z: it lists it all the same.
	if got := ids(t, b); !slices.Equal(got, all) {
		t.Errorf("b knows %v, want %v", got, all)
	}
	// a forgets x; b (which has x) learns w: x stays forgotten.
	if err := a.Forget(ctx, x); err != nil {
		t.Fatal(err)
	}
	w := learn(b, nl2sql.Example("How many employees are there?", "SELECT count(*) FROM employees"))
	want := []string{w, y, z}
	slices.Sort(want)
	for name, e := range map[string]*nl2sql.Engine{"the file": open(path), "a": a, "b": b} {
		if got := ids(t, e); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v (x=%s forgotten, w=%s learnt)", name, got, want, x, w)
		}
	}
	// b forgets the term a taught; a's next write keeps it forgotten, and
	// a no longer uses it.
	if err := b.Forget(ctx, z); err != nil {
		t.Fatal(err)
	}
	v := learn(a, nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Text: "Fiscal years start in April."})
	want = []string{v, w, y}
	slices.Sort(want)
	if got := ids(t, open(path)); !slices.Equal(got, want) {
		t.Errorf("the file holds %v, want %v", got, want)
	}
	if got := ids(t, a); !slices.Equal(got, want) {
		t.Errorf("a knows %v, want %v", got, want)
	}
	// Forgetting what only the other writer taught: a loaded engine that
	// has not seen it yet finds it in the file.
	c := open(path)
	u := learn(b, nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Text: "Salaries are monthly."})
	if err := c.Forget(ctx, u); err != nil {
		t.Errorf("forgetting what another writer taught since: %v", err)
	}
	if got := ids(t, open(path)); slices.Contains(got, u) {
		t.Errorf("the file still holds the forgotten %s: %v", u, got)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if e.Name() != "erp.idx" && e.Name() != "erp.idx.lock" {
			t.Errorf("left beside the index: %s", e.Name())
		}
	}
}

// TestIndexFileSymlink: an index named through a symlink is written
// through it: the link stays a link, its target holds what was learnt.
func TestIndexFileSymlink(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	real, open := indexFileEngines(t, dir, "real.idx")
	link := filepath.Join(dir, "link.idx")
	if err := os.Symlink("real.idx", link); err != nil {
		t.Fatal(err)
	}
	k, err := open(link).Learn(ctx, nl2sql.Example("How many projects are there?", "SELECT count(*) FROM projects"))
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is no longer a symlink: %v %v", fi.Mode(), err)
	}
	if got := ids(t, open(real)); !slices.Equal(got, []string{k.ID}) {
		t.Errorf("the link's target holds %v, want %s", got, k.ID)
	}
	// SaveIndexFile through the link is the same file: merged, kept a link.
	if err := open(real).SaveIndexFile(ctx, link); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("SaveIndexFile replaced the link")
	}
	if _, err := os.Stat(real + ".lock"); err != nil {
		t.Errorf("the lock is not the target's: %v", err)
	}
	dangling := filepath.Join(dir, "dangling.idx")
	if err := os.Symlink("nowhere.idx", dangling); err != nil {
		t.Fatal(err)
	}
	if _, err := nl2sql.LoadIndexFile(ctx, dangling); !errors.Is(err, nl2sql.ErrConfig) {
		t.Errorf("a dangling link: %v, want ErrConfig", err)
	}
	if _, err := nl2sql.LoadIndexFile(ctx, filepath.Join(dir, "missing.idx")); !errors.Is(err, nl2sql.ErrConfig) || !strings.Contains(err.Error(), "missing.idx") {
		t.Errorf("a missing file: %v, want ErrConfig naming it", err)
	}
}

// TestTermTargetsLimit: a term's targets are deduplicated (as resolved:
// "employees" and "public.employees" are one) and limited to
// MaxTermTargets as given; past it, an input error (ErrTooLong) before
// any lookup.
func TestTermTargetsLimit(t *testing.T) {
	ctx := context.Background()
	eng, err := nl2sql.New(pgtest.Pool(t, erptest.Single(t)), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	k, err := eng.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeTerm, Term: "crew",
		Targets: []string{"employees", "public.employees", "employees", "projects"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(k.Targets, []string{"public.employees", "public.projects"}) {
		t.Errorf("targets %v, want each once", k.Targets)
	}
	many := slices.Repeat([]string{"employees"}, nl2sql.MaxTermTargets+1)
	_, err = eng.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeTerm, Term: "staff", Targets: many})
	var ne *nl2sql.Error
	if !errors.Is(err, nl2sql.ErrTooLong) || !errors.Is(err, nl2sql.ErrInput) || !errors.As(err, &ne) || ne.Code != "too_long" ||
		!strings.Contains(err.Error(), "65") {
		t.Errorf("%d targets: %v, want an input error too_long", len(many), err)
	}
	if _, err := eng.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeTerm, Term: "staff", Targets: many[:nl2sql.MaxTermTargets]}); err != nil {
		t.Errorf("%d targets (the limit): %v", nl2sql.MaxTermTargets, err)
	}
}

// TestSaveIndexFileKeepsKnowledge: re-indexing into an index file (an
// engine not loaded from it, as nl2sql index --out FILE) keeps what the
// file was taught; a file that is no index is replaced.
func TestSaveIndexFileKeepsKnowledge(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, open := indexFileEngines(t, dir, "erp.idx")
	k, err := open(path).Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Text: "Fiscal years start in April."})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := nl2sql.New(pgtest.Pool(t, erptest.Single(t)), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	own, err := fresh.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeTerm, Term: "crew", Targets: []string{"employees"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := fresh.SaveIndexFile(ctx, path); err != nil {
		t.Fatal(err)
	}
	want := []string{k.ID, own.ID}
	slices.Sort(want)
	if got := ids(t, open(path)); !slices.Equal(got, want) {
		t.Errorf("after re-indexing the file holds %v, want %v", got, want)
	}
	other := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(other, []byte("not an index"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := fresh.SaveIndexFile(ctx, other); err != nil {
		t.Errorf("replacing a file that is no index: %v", err)
	}
	if got := ids(t, open(other)); !slices.Equal(got, want) {
		t.Errorf("the replaced file holds %v, want %v", got, want)
	}
}

// TestIndexFileConcurrentLearns: goroutines of two engines bound to one
// file learn side by side (as a console's requests do): every learn that
// returned is in the file. Run with -race too.
func TestIndexFileConcurrentLearns(t *testing.T) {
	ctx := context.Background()
	path, open := indexFileEngines(t, t.TempDir(), "erp.idx")
	engines := []*nl2sql.Engine{open(path), open(path)}
	var mu sync.Mutex
	var learnt []string
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Go(func() {
			for i := range 3 {
				k, err := engines[g%2].Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Text: fmt.Sprintf("Note %d of writer %d.", i, g)})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				learnt = append(learnt, k.ID)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(learnt)
	if got := ids(t, open(path)); len(learnt) != 18 || !slices.Equal(got, learnt) {
		t.Errorf("the file holds %d of the %d learnt", len(got), len(learnt))
	}
}

// TestIndexFileUnwritable: a Learn whose change cannot be written (the
// file replaced by one that is no index: not overwritten) is an ErrConfig
// saying so; the change holds in the engine and is written with the next
// one once the file is back.
func TestIndexFileUnwritable(t *testing.T) {
	ctx := context.Background()
	path, open := indexFileEngines(t, t.TempDir(), "erp.idx")
	eng := open(path)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("someone else's file"), 0o600); err != nil {
		t.Fatal(err)
	}
	first := nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Text: "Fiscal years start in April."}
	if _, err := eng.Learn(ctx, first); !errors.Is(err, nl2sql.ErrConfig) || !errors.Is(err, nl2sql.ErrBadIndex) ||
		!strings.Contains(err.Error(), "writing it into the index file failed") {
		t.Errorf("learning into a file that is no index: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "someone else's file" {
		t.Error("a file that is no index was overwritten")
	}
	if got := ids(t, eng); len(got) != 1 {
		t.Errorf("the engine knows %v, want the unwritten doc", got)
	}
	//lint:ignore SA1012 a nil context is what is tested
	if _, err := nl2sql.LoadIndexFile(nil, path); !errors.Is(err, nl2sql.ErrInput) { //nolint:staticcheck
		t.Errorf("nil context: %v", err)
	}
	if err := os.WriteFile(path, good, 0o600); err != nil {
		t.Fatal(err)
	}
	second, err := eng.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Text: "Salaries are monthly."})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(t, open(path)); len(got) != 2 || !slices.Contains(got, second.ID) {
		t.Errorf("once the file is back it holds %v, want both docs", got)
	}
	// No lock can be taken (its name is a folder): the index still reads,
	// as from a read-only folder; a write is refused.
	if err := os.Remove(path + ".lock"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path+".lock", 0o755); err != nil {
		t.Fatal(err)
	}
	unlocked := open(path)
	if got := ids(t, unlocked); len(got) != 2 {
		t.Errorf("read without a lock: %v", got)
	}
	if _, err := unlocked.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Text: "Bonuses are yearly."}); !errors.Is(err, nl2sql.ErrConfig) {
		t.Errorf("a write without its lock: %v, want ErrConfig", err)
	}
	if got := ids(t, open(path)); len(got) != 2 {
		t.Errorf("a write without its lock changed the file: %v", got)
	}
}
