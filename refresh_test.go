package nl2sql_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// gatedStore is a memory store whose first Documents call after arm waits
// for release: a Refresh stopped in the middle of its build.
type gatedStore struct {
	retrieve.SchemaStore
	mu      sync.Mutex
	armed   bool
	entered chan struct{}
	release chan struct{}
}

func (g *gatedStore) arm() {
	g.mu.Lock()
	g.armed, g.entered, g.release = true, make(chan struct{}), make(chan struct{})
	g.mu.Unlock()
}

func (g *gatedStore) Documents(ctx context.Context, f retrieve.Filter) ([]retrieve.Document, error) {
	g.mu.Lock()
	wait := g.armed
	g.armed = false
	g.mu.Unlock()
	if wait {
		close(g.entered)
		<-g.release
	}
	return g.SchemaStore.Documents(ctx, f)
}

// TestRefreshKeepsAnswering: while Refresh builds the next state, questions
// are answered on the current one (before, every call waited for the whole
// rebuild), and knowledge learnt meanwhile is kept by the new state (before,
// the build kept only what it read at its start, until the next build).
func TestRefreshKeepsAnswering(t *testing.T) {
	store := &gatedStore{SchemaStore: retrieve.NewMemoryStore()}
	dsn := erptest.Single(t)
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithStore(store), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := eng.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	pgtest.Exec(t, dsn, "CREATE TABLE refresh_probe (id int)") // a new catalog to build
	store.arm()
	refreshed := make(chan error, 1)
	go func() { refreshed <- eng.Refresh(ctx) }()
	<-store.entered // the build is under way, and waits

	// A deadlock guard, not a speed check: before, these calls waited for
	// the release below, which comes only after them.
	answered := make(chan error, 1)
	var learnt nl2sql.Knowledge
	go func() {
		if _, err := eng.Check(ctx, "SELECT count(*) FROM projects"); err != nil {
			answered <- err
			return
		}
		var err error
		learnt, err = eng.Learn(ctx, nl2sql.Example("How many projects are there?", "SELECT count(*) FROM projects"))
		answered <- err
	}()
	select {
	case err := <-answered:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		close(store.release)
		t.Fatal("Check and Learn waited for Refresh")
	}
	close(store.release)
	if err := <-refreshed; err != nil {
		t.Fatal(err)
	}
	known, err := eng.Knowledge(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(known) != 1 || known[0].ID != learnt.ID {
		t.Errorf("after Refresh the engine knows %+v, want the example learnt during it (%s)", known, learnt.ID)
	}
}
