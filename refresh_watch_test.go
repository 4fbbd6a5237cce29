package nl2sql_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// settleWithin bounds how long a test waits for a watch to act: the
// documented delay is one WithRefreshEvery interval plus a Refresh; this is
// a deadlock guard far above both, not a speed check.
const settleWithin = 60 * time.Second

// eventually polls cond until it holds, failing with what it last said
// after settleWithin.
func eventually(t *testing.T, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(settleWithin)
	for {
		ok, said := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s; last: %s", what, settleWithin, said)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// promptOf asks q and returns the prompt the fake model was sent (the
// answer itself does not matter here).
func promptOf(t *testing.T, eng *nl2sql.Engine, rec *recorder, q string) string {
	t.Helper()
	_, _ = eng.Ask(context.Background(), q)
	return rec.last()
}

// migrate is a migration run against a live engine: a column added, a
// table created, one dropped.
const migrate = `
ALTER TABLE projects ADD COLUMN risk_rating int;
CREATE TABLE project_audits (id int PRIMARY KEY, project_id int REFERENCES projects, auditor_name text);
DROP TABLE project_milestones CASCADE;`

// followsMigration asserts that eng, answering before the migration, uses
// the new schema after it without being told: the new column and table
// reach the model's prompt, the dropped table leaves it.
func followsMigration(t *testing.T, dsn string, eng *nl2sql.Engine, rec *recorder) {
	t.Helper()
	if p := promptOf(t, eng, rec, "How many project milestones are there?"); !strings.Contains(p, "# Table: project_milestones") {
		t.Fatalf("before the migration the prompt lacks project_milestones:\n%s", p)
	}
	if p := promptOf(t, eng, rec, "What is the average risk rating of projects?"); strings.Contains(p, "risk_rating") {
		t.Fatalf("before the migration the prompt shows risk_rating:\n%s", p)
	}
	pgtest.Exec(t, dsn, migrate)
	eventually(t, "the added column in the prompt", func() (bool, string) {
		p := promptOf(t, eng, rec, "What is the average risk rating of projects?")
		return strings.Contains(p, "risk_rating"), p
	})
	if p := promptOf(t, eng, rec, "How many project audits are there?"); !strings.Contains(p, "# Table: project_audits") || !strings.Contains(p, "auditor_name") {
		t.Errorf("after the migration the prompt lacks the new table:\n%s", p)
	}
	if p := promptOf(t, eng, rec, "How many project milestones are there?"); strings.Contains(p, "# Table: project_milestones") {
		t.Errorf("after the migration the prompt still shows the dropped table:\n%s", p)
	}
}

// watching reports whether a goroutine of the engine's watch is running.
func watching() bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	return strings.Contains(string(buf), "nl2sql.(*Engine).watch") || strings.Contains(string(buf), "nl2sql.(*Engine).listenCatalog")
}

// TestRefreshEveryFollowsMigration: an engine with WithRefreshEvery
// notices a migration by polling the catalog digest (no trigger
// installed) and answers the next questions on the new schema; Close
// stops the watch.
func TestRefreshEveryFollowsMigration(t *testing.T) {
	dsn := erptest.Single(t)
	rec := &recorder{}
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithLLM(rec.model(t)), nl2sql.WithK(1, 1, 1), nl2sql.WithRepairAttempts(0),
		nl2sql.WithModules(erp.Modules()), nl2sql.WithRefreshEvery(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if watching() {
		t.Fatal("the watch runs before the first build")
	}
	followsMigration(t, dsn, eng, rec)
	if !watching() {
		t.Fatal("no watch goroutine while the engine watches")
	}
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	if watching() {
		t.Error("the watch still runs after Close")
	}
	if err := eng.Close(); err != nil { // idempotent
		t.Fatal(err)
	}
}

// TestRefreshOnCatalogTrigger: with the event trigger of
// CatalogTriggerSQL installed, the engine LISTENs and refreshes when a
// migration commits, though its polling interval (an hour) never comes;
// Close ends the listening backend.
func TestRefreshOnCatalogTrigger(t *testing.T) {
	dsn := erptest.Single(t)
	pgtest.Exec(t, dsn, nl2sql.CatalogTriggerSQL)
	rec := &recorder{}
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithLLM(rec.model(t)), nl2sql.WithK(1, 1, 1), nl2sql.WithRepairAttempts(0),
		nl2sql.WithModules(erp.Modules()), nl2sql.WithRefreshEvery(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if err := eng.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	admin := pgtest.Pool(t, dsn)
	listeners := func() int {
		var n int
		if err := admin.QueryRow(context.Background(),
			`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN `+nl2sql.CatalogChannel+`'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	eventually(t, "a backend listening", func() (bool, string) { n := listeners(); return n == 1, fmt.Sprint("listeners: ", n) })
	followsMigration(t, dsn, eng, rec)
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the listening backend gone after Close", func() (bool, string) { return listeners() == 0, "still listening" })
}

// TestReplicasShareKnowledge: two engines on one pgvector store (two
// replicas): what one learns is used in the other's next prompts, what it
// forgets leaves them, and a term one teaches reaches the other's
// retrieval, without a restart or a Prepare.
func TestReplicasShareKnowledge(t *testing.T) {
	storeDSN, ok := pgtest.ClusterPGVector(t)
	if !ok {
		t.Skip("pgvector is not installed on the test cluster (scripts/pg install-pgvector)")
	}
	erpDSN := erptest.Single(t)
	ctx := context.Background()
	vpool := pgtest.Pool(t, storeDSN)
	open := func() (*nl2sql.Engine, *recorder) {
		store, err := retrieve.NewPGVectorStore(ctx, vpool, 64)
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorder{}
		eng, err := nl2sql.New(pgtest.Pool(t, erpDSN), nl2sql.WithLLM(rec.model(t)), nl2sql.WithStore(store),
			nl2sql.WithEmbedder(retrieve.NewHashEmbedder(64)), nl2sql.WithModules(erp.Modules()), nl2sql.WithK(1, 1, 1),
			nl2sql.WithRepairAttempts(0), nl2sql.WithRefreshEvery(100*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { eng.Close() })
		if err := eng.Prepare(ctx); err != nil {
			t.Fatal(err)
		}
		return eng, rec
	}
	a, _ := open()
	b, recB := open()
	const q = "Which projects are on hold?"
	example := nl2sql.Example("Which projects are paused?", "SELECT project_id FROM projects WHERE status = 'On Hold' ORDER BY project_id")
	doc := nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Table: "projects", Text: "A project paused by the client is On Hold, never Cancelled."}
	if p := promptOf(t, b, recB, q); strings.Contains(p, "paused by the client") || strings.Contains(p, "'On Hold' ORDER BY project_id") {
		t.Fatalf("b's prompt holds the knowledge before a learnt it:\n%s", p)
	}
	learnt, err := a.Learn(ctx, example)
	if err != nil {
		t.Fatal(err)
	}
	taughtDoc, err := a.Learn(ctx, doc)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "a's example and doc in b's prompt", func() (bool, string) {
		p := promptOf(t, b, recB, q)
		return strings.Contains(p, "paused by the client") && strings.Contains(p, "'On Hold' ORDER BY project_id"), p
	})
	known, err := b.Knowledge(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(known) != 2 || !slices.ContainsFunc(known, func(k nl2sql.Knowledge) bool { return k.ID == learnt.ID }) {
		t.Errorf("b knows %+v, want a's example and doc", known)
	}
	// A term feeds b's schema index: "wombats" means employees only once
	// taught.
	bringsEmployees := func() (bool, string) {
		c, err := b.SchemaContext(ctx, "How many wombats do we have?")
		if err != nil {
			return false, err.Error()
		}
		var names []string
		for _, h := range c.Tables {
			names = append(names, h.Name)
		}
		return slices.Contains(names, "public.employees"), strings.Join(names, ", ")
	}
	if ok, _ := bringsEmployees(); ok {
		t.Fatal("test data: the question brings employees without the term")
	}
	if _, err := a.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeTerm, Term: "wombats", Targets: []string{"employees"}}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "a's term in b's retrieval", bringsEmployees)
	for _, id := range []string{learnt.ID, taughtDoc.ID} {
		if err := a.Forget(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "what a forgot gone from b's prompt", func() (bool, string) {
		p := promptOf(t, b, recB, q)
		return !strings.Contains(p, "paused by the client") && !strings.Contains(p, "'On Hold' ORDER BY project_id"), p
	})
}

// TestCloseBeforeFirstBuild: an engine closed before its first build never
// starts a watch (a Prepare after Close answers, and leaks nothing); a
// negative interval is no watch.
func TestCloseBeforeFirstBuild(t *testing.T) {
	pool := pgtest.Pool(t, erptest.Single(t))
	for _, d := range []time.Duration{time.Second, -time.Second} {
		eng, err := nl2sql.New(pool, nl2sql.WithValueIndex(false), nl2sql.WithRefreshEvery(d))
		if err != nil {
			t.Fatal(err)
		}
		if d > 0 {
			if err := eng.Close(); err != nil {
				t.Fatal(err)
			}
		}
		if err := eng.Prepare(context.Background()); err != nil {
			t.Fatal(err)
		}
		if watching() {
			t.Errorf("WithRefreshEvery(%v): a watch runs (closed before the first build, or a negative interval)", d)
		}
		eng.Close()
	}
	var nilEngine *nl2sql.Engine
	if err := nilEngine.Close(); err != nil {
		t.Errorf("Close of a nil Engine: %v", err)
	}
}
