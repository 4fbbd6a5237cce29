package workload_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/internal/sqlrefs"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/workload"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// dropForeignKeys removes every foreign key constraint of the database.
const dropForeignKeys = `DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT conrelid::regclass AS tbl, conname FROM pg_constraint WHERE contype = 'f' AND conparentid = 0 ORDER BY 1, 2 LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', r.tbl, r.conname);
  END LOOP;
END $$`

// appWorkload is the synthetic application workload of the FK-less test:
// the statements an ERP application's screens and reports send, written
// out as a log export (plain lines mixed with JSONL records with calls, and
// pg_stat_statements texts with $n parameters). It is generated from the
// ORIGINAL catalog's foreign keys, before they are dropped: an application
// joins along the relationships its data model has, so every declared
// relationship is used by some screen (a lookup of the parent, a list of
// the children, a report over a fact and two of its dimensions), with call
// counts that vary by relationship. It never looks at the exam: the gold
// SQL would make the test circular. Noise the learner must survive is
// mixed in: writes (rejected as not read-only), a table the catalog does
// not have, single-table lookups, and a one-off join of two non-key columns.
func appWorkload(cat *schema.Catalog) string {
	var b strings.Builder
	calls := func(s string) int { // 1..40, deterministic
		h := fnv.New32a()
		h.Write([]byte(s))
		return 1 + int(h.Sum32()%40)
	}
	label := func(t *schema.Table) string { // a column to show: the first text one, or the first
		for _, c := range t.Columns {
			if c.Type == "text" || strings.HasPrefix(c.Type, "character varying") {
				return c.Name
			}
		}
		return t.Columns[0].Name
	}
	on := func(fk schema.ForeignKey, child, parent string) string {
		var conds []string
		for i := range fk.Columns {
			conds = append(conds, fmt.Sprintf("%s.%s = %s.%s", child, fk.Columns[i], parent, fk.RefColumns[i]))
		}
		return strings.Join(conds, " AND ")
	}
	line := func(sql string, n int, style int) {
		switch style % 3 {
		case 0: // plain line: one call
			b.WriteString(sql + ";\n")
		case 1: // a log export record
			rec, _ := json.Marshal(map[string]any{"query": sql, "calls": n})
			b.Write(append(rec, '\n'))
		default: // pg_stat_statements export
			rec, _ := json.Marshal(map[string]any{"sql": sql, "calls": n, "dbid": 1})
			b.Write(append(rec, '\n'))
		}
	}
	k := 0
	for _, t := range cat.Tables {
		for i, fk := range t.ForeignKeys {
			p := cat.Table(fk.Ref())
			if p == nil || p == t {
				continue
			}
			k++
			n := calls(t.Name + fk.Name)
			// The parent's name on a list of children.
			line(fmt.Sprintf("SELECT c.%s, p.%s FROM %s c JOIN %s p ON %s WHERE p.%s = $1 ORDER BY 1 LIMIT 50",
				first(t.PrimaryKey, label(t)), label(p), t.Name, p.Name, on(fk, "c", "p"), fk.RefColumns[0]), n, k)
			// A count of children per parent, old-style join in WHERE.
			line(fmt.Sprintf("SELECT p.%s, count(*) FROM %s p, %s c WHERE %s GROUP BY p.%s",
				label(p), p.Name, t.Name, on(fk, "c", "p"), label(p)), calls(p.Name+fk.Name), k+1)
			// A report over the table and two of its parents.
			for _, fk2 := range t.ForeignKeys[i+1:] {
				q := cat.Table(fk2.Ref())
				if q == nil || q == t || q == p {
					continue
				}
				line(fmt.Sprintf("SELECT a.%s, b.%s, count(*) FROM %s x JOIN %s a ON %s JOIN %s b ON %s GROUP BY 1, 2",
					label(p), label(q), t.Name, p.Name, on(fk, "x", "a"), q.Name, on(fk2, "x", "b")), calls(fk.Name+fk2.Name), k+2)
				break
			}
		}
		line(fmt.Sprintf("SELECT * FROM %s WHERE %s = $1", t.Name, t.Columns[0].Name), calls(t.Name), k)
		line(fmt.Sprintf("UPDATE %s SET %s = $1 WHERE %s = $2", t.Name, label(t), t.Columns[0].Name), 5, k+1)
	}
	line("DELETE FROM sales_orders WHERE id = $1", 3, 1)
	line("INSERT INTO audit_log (msg) VALUES ($1)", 10, 1)
	line("SELECT * FROM legacy_report_cache WHERE key = $1", 7, 1)
	// A one-off equality of two non-key columns (an analyst's ad hoc query).
	var with []string
	for _, t := range cat.Tables {
		if c := t.Column("status"); c != nil && !slices.Contains(t.PrimaryKey, "status") && len(with) < 2 {
			with = append(with, t.Name)
		}
	}
	if len(with) == 2 {
		line(fmt.Sprintf("SELECT count(*) FROM %s a JOIN %s b ON a.status = b.status", with[0], with[1]), 1, 0)
	}
	return b.String()
}

func first(cols []string, or string) string {
	if len(cols) > 0 {
		return cols[0]
	}
	return or
}

type planFigures struct {
	questions, multi int // exam questions, those with 2+ gold tables
	connected        int // multi-table questions whose gold tables the graph connects
	goldJoins        int // ... whose tree holds every gold join
	sameAsFK         int // ... whose tree has the declared-FK graph's edges
}

func (f planFigures) String() string {
	return fmt.Sprintf("%d multi-table questions of %d: connected %d, tree holds the gold joins %d, same joins as with declared keys %d",
		f.multi, f.questions, f.connected, f.goldJoins, f.sameAsFK)
}

func edgeSet(es []plan.JoinEdge) []string {
	var out []string
	for _, e := range es {
		a, b := e.From, e.To
		if a > b {
			a, b = b, a
		}
		out = append(out, a+"="+b)
	}
	sort.Strings(out)
	return out
}

func measurePlans(t *testing.T, g, ref *plan.Graph, exam []erp.Question, cat *schema.Catalog) planFigures {
	var f planFigures
	for _, q := range exam {
		f.questions++
		gold, err := sqlrefs.Extract(q.GoldSQL, cat, []string{"public"})
		if err != nil {
			t.Fatalf("%s: %v", q.QID, err)
		}
		if len(gold.Tables) < 2 {
			continue
		}
		f.multi++
		tree, err := g.Connect(gold.Tables)
		if err != nil {
			continue
		}
		f.connected++
		got := edgeSet(tree.Edges())
		all := true
		for _, j := range gold.Joins {
			all = all && slices.Contains(got, j.From+"="+j.To)
		}
		if all {
			f.goldJoins++
		}
		if rt, err := ref.Connect(gold.Tables); err == nil && slices.Equal(got, edgeSet(rt.Edges())) {
			f.sameAsFK++
		}
	}
	return f
}

func measureRecall(t *testing.T, r *retrieve.Retriever, exam []erp.Question, cat *schema.Catalog) (full int, misses []string) {
	for _, q := range exam {
		gold, err := sqlrefs.Extract(q.GoldSQL, cat, []string{"public"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.Tables(context.Background(), q.Question, retrieve.Evidence(q.Evidence))
		if err != nil {
			t.Fatal(err)
		}
		names := res.Names()
		ok := true
		for _, g := range gold.Tables {
			ok = ok && slices.Contains(names, g)
		}
		if ok {
			full++
		} else {
			misses = append(misses, q.QID)
		}
	}
	return full, misses
}

// TestLearnedEdgesMatchDeclaredKeys is issue 17's FK-less test: on a copy of
// the demo ERP with every foreign key dropped, the join edges learned from
// an application workload must give the join planning and retrieval recall
// figures of the declared keys.
//
//	go test ./workload -run LearnedEdges -v
func TestLearnedEdgesMatchDeclaredKeys(t *testing.T) {
	ctx := context.Background()
	exam, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	dsn := erptest.Single(t)
	pool := pgtest.Pool(t, dsn)
	declared, err := schema.Introspect(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	log := appWorkload(declared) // before the keys go
	pgtest.Exec(t, dsn, dropForeignKeys)
	bare, err := schema.Introspect(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	nfk := 0
	for _, tb := range bare.Tables {
		nfk += len(tb.ForeignKeys)
	}
	if nfk != 0 {
		t.Fatalf("%d foreign keys left after dropping them", nfk)
	}

	// pg_stat_statements is not installed in the copy: a clear error.
	if _, err := workload.FromStatStatements(ctx, pool); !errors.Is(err, workload.ErrNoStatStatements) {
		t.Errorf("FromStatStatements without the extension: %v, want ErrNoStatStatements", err)
	}

	stmts, err := workload.Read(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	k := workload.Learn(bare, stmts)
	t.Logf("workload: %d statements, %d kept, %d rejected, %d calls; %d edges, %d columns, %d tables, %d shapes",
		k.Statements, k.Kept, k.Rejected, k.Calls, len(k.Edges), len(k.Columns), len(k.Tables), len(k.Shapes))
	if k.Rejected == 0 || k.Kept == 0 {
		t.Errorf("want both kept and rejected statements")
	}
	// How many learned edges are declared keys (either direction).
	keys := map[string]bool{}
	for _, tb := range declared.Tables {
		for _, fk := range tb.ForeignKeys {
			for i := range fk.Columns {
				a, b := tb.QualifiedName()+"."+fk.Columns[i], fk.Ref()+"."+fk.RefColumns[i]
				keys[a+"="+b], keys[b+"="+a] = true, true
			}
		}
	}
	var notKeys []string
	for _, e := range k.Edges {
		if !keys[e.From+"="+e.To] {
			notKeys = append(notKeys, fmt.Sprintf("%s = %s (%d)", e.From, e.To, e.Count))
		}
	}
	t.Logf("learned edges that are no declared key: %v", notKeys)

	// (a) Join planning over the exam's gold table sets.
	gDeclared := plan.NewGraph(declared, plan.WithInferredEdges(true))
	gBare := plan.NewGraph(bare, plan.WithInferredEdges(true))
	gLearned := plan.NewGraph(bare, plan.WithInferredEdges(true), plan.WithLearnedEdges(k.Edges...))
	pDeclared := measurePlans(t, gDeclared, gDeclared, exam, declared)
	pBare := measurePlans(t, gBare, gDeclared, exam, declared)
	pLearned := measurePlans(t, gLearned, gDeclared, exam, declared)
	t.Logf("join planning, declared keys:          %v", pDeclared)
	t.Logf("join planning, no keys (names only):   %v", pBare)
	t.Logf("join planning, no keys, learned edges: %v", pLearned)
	if pLearned.connected != pDeclared.connected || pLearned.goldJoins != pDeclared.goldJoins || pLearned.sameAsFK != pDeclared.sameAsFK {
		t.Errorf("learned edges plan %v, declared keys %v", pLearned, pDeclared)
	}

	// (b) Retrieval recall: all gold tables in the context.
	rDeclared, err := retrieve.New(ctx, declared)
	if err != nil {
		t.Fatal(err)
	}
	rBare, err := retrieve.New(ctx, bare)
	if err != nil {
		t.Fatal(err)
	}
	rLearned, err := retrieve.New(ctx, bare, retrieve.WithGraph(gLearned), retrieve.WithUsage(k.TableUsage()))
	if err != nil {
		t.Fatal(err)
	}
	fDeclared, mDeclared := measureRecall(t, rDeclared, exam, declared)
	fBare, mBare := measureRecall(t, rBare, exam, declared)
	fLearned, mLearned := measureRecall(t, rLearned, exam, declared)
	t.Logf("retrieval, all gold tables: declared keys %d/%d (missed %v); no keys %d/%d (missed %v); no keys, learned %d/%d (missed %v)",
		fDeclared, len(exam), mDeclared, fBare, len(exam), mBare, fLearned, len(exam), mLearned)
	if fLearned < fDeclared {
		t.Errorf("retrieval with learned edges %d/%d, declared keys %d/%d", fLearned, len(exam), fDeclared, len(exam))
	}
}
