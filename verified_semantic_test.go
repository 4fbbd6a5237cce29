package nl2sql_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// TestVerifiedSemanticModel: the verified questions of a WithSemantic
// model answer without a model, under the request's identity (a
// row-level security policy reads its tenant); an N over the row cap is
// cut by the cap and reported; a value the index does not hold (however
// it is spelt to look like SQL) fits nothing; two templates that fit are
// not guessed between; the Result's SQL is the validated text.
func TestVerifiedSemanticModel(t *testing.T) {
	pgtest.SkipShort(t)
	dsn := pgtest.NewDatabase(t)
	reader := fmt.Sprintf("verified_reader_%d", time.Now().UnixNano())
	pgtest.Exec(t, dsn, `CREATE TABLE notes (id int PRIMARY KEY, tenant_id int, kind text, written date);
INSERT INTO notes SELECT g, 1 + g % 2, (ARRAY['memo', 'call', 'visit'])[1 + g % 3], DATE '2023-01-01' + g * 7 FROM generate_series(1, 120) g;
ALTER TABLE notes ENABLE ROW LEVEL SECURITY;
CREATE POLICY by_tenant ON notes USING (tenant_id = current_setting('app.tenant_id', true)::int);
CREATE ROLE `+reader+`; GRANT SELECT ON notes TO `+reader)
	t.Cleanup(func() {
		pgtest.Exec(t, dsn, "DROP OWNED BY "+reader)
		pgtest.Exec(t, pgtest.AdminDSN(t), "DROP ROLE IF EXISTS "+reader)
	})
	m, err := semantic.Read(strings.NewReader(`version: 1
verified_questions:
  - question: How many {kind} notes were written in {year}?
    sql: SELECT count(*) AS n FROM notes WHERE kind = {kind} AND extract(year FROM written) = {year}
    parameters:
      - {name: kind, kind: value, column: notes.kind, examples: [memo]}
      - {name: year, kind: year, examples: ["2023"]}
  - question: The first {n} notes
    sql: SELECT id FROM notes ORDER BY id LIMIT {n}
    parameters:
      - {name: n, kind: top_n, examples: ["3"]}
  - question: How many notes between {period}?
    sql: SELECT count(*) AS n FROM notes WHERE written >= {period.from} AND written < {period.to}
    parameters:
      - {name: period, kind: date_range, examples: ["2023-01-01/2023-02-01"]}
  - question: How many notes in {year}?
    sql: SELECT count(*) AS n FROM notes WHERE extract(year FROM written) = {year}
    parameters:
      - {name: year, kind: year, examples: ["2023"]}
  - question: How many notes in {period}?
    sql: SELECT count(*) AS n FROM notes WHERE written >= {period.from} AND written < {period.to}
    parameters:
      - {name: period, kind: date_range, examples: ["2023-01-01/2024-01-01"]}
`), "notes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithSemantic(m), nl2sql.WithSettings("app.tenant_id"), nl2sql.WithMaxRows(10))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	count := func(tenant int, kind string, from, to string) string {
		var n int64
		q := `SELECT count(*) FROM notes WHERE tenant_id = $1 AND ($2 = '' OR kind = $2) AND written >= $3::date AND written < $4::date`
		if err := pgtest.Pool(t, dsn).QueryRow(ctx, q, tenant, kind, from, to).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("[[%d]]", n)
	}
	for tenant := 1; tenant <= 2; tenant++ {
		as := []nl2sql.AskOption{nl2sql.AsRole(reader), nl2sql.Setting("app.tenant_id", fmt.Sprint(tenant))}
		for q, want := range map[string]string{
			"How many call notes were written in 2024?":         count(tenant, "call", "2024-01-01", "2025-01-01"),
			"how many VISIT notes were written in 2023":         count(tenant, "visit", "2023-01-01", "2024-01-01"),
			"How many notes between 2023-03-01 and 2023-05-31?": count(tenant, "", "2023-03-01", "2023-06-01"),
			"How many notes between q2 2024?":                   count(tenant, "", "2024-04-01", "2024-07-01"),
			"The first 4 notes":                                 map[int]string{1: "[[2] [4] [6] [8]]", 2: "[[1] [3] [5] [7]]"}[tenant],
		} {
			res, err := eng.Ask(ctx, q, as...)
			if err != nil || res.Origin != nl2sql.OriginVerified || fmt.Sprint(res.Rows) != want {
				t.Errorf("tenant %d, %s: %v origin %q rows %v, want %s", tenant, q, err, res.Origin, res.Rows, want)
			}
		}
	}
	// The table is under row-level security, so the value index leaves it
	// out and a value slot asks the database as the request's identity: a
	// kind only tenant 2's rows hold fits tenant 2's question, never tenant
	// 1's (which goes on to the model: here none).
	pgtest.Exec(t, dsn, "INSERT INTO notes VALUES (1000, 2, 'escalation', DATE '2023-06-01')")
	tenant2 := []nl2sql.AskOption{nl2sql.AsRole(reader), nl2sql.Setting("app.tenant_id", "2")}
	if res, err := eng.Ask(ctx, "How many escalation notes were written in 2023?", tenant2...); err != nil || res.Origin != nl2sql.OriginVerified || fmt.Sprint(res.Rows) != "[[1]]" {
		t.Errorf("tenant 2's own value: %v origin %q rows %v", err, res.Origin, res.Rows)
	}
	if res, err := eng.Ask(ctx, "How many escalation notes were written in 2023?", nl2sql.AsRole(reader), nl2sql.Setting("app.tenant_id", "1")); err == nil || (res != nil && res.Origin == nl2sql.OriginVerified) {
		t.Errorf("tenant 1 matched a value only tenant 2 holds: %+v, %v", res, err)
	}
	res, err := eng.Ask(ctx, "The first 500 notes", nl2sql.Setting("app.tenant_id", "1"))
	if err != nil || len(res.Rows) != 10 || !res.Truncated || !strings.Contains(res.SQL, "LIMIT 500") {
		t.Errorf("N over the row cap: %v, %d rows truncated %v, SQL %s", err, len(res.Rows), res.Truncated, res.SQL)
	}
	for _, q := range []string{
		"How many memo' OR '1'='1 notes were written in 2023?", // not a stored value
		"How many memo notes were written in 2023; DROP TABLE notes?",
		"How many $1 notes were written in 2023?",
		"How many notes in 2023?", // a year and a period: two templates fit, not guessed
	} {
		res, err := eng.Ask(ctx, q)
		if res.Origin == nl2sql.OriginVerified || !errors.Is(err, nl2sql.ErrConfig) {
			t.Errorf("%s: origin %q, %v; want the pipeline (no model)", q, res.Origin, err)
		}
	}
	if res, _ := eng.Ask(ctx, "How many notes in 2023?"); len(res.Notes) == 0 || !strings.Contains(res.Notes[0], "2 verified readings") {
		t.Errorf("two templates: notes %v", res.Notes)
	}
}

// BenchmarkVerifiedAsk measures an Ask a verified question of the demo
// ERP's model answers (matching every template, validating the inlined
// SQL, the executor's checks and the bound run), beside Run of the same
// SQL as literals: what the verified path adds to running the query.
func BenchmarkVerifiedAsk(b *testing.B) {
	m, err := semantic.Load("examples/erp/semantic.yaml")
	if err != nil {
		b.Fatal(err)
	}
	eng, err := nl2sql.New(pgtest.Pool(b, erptest.Single(b)), nl2sql.WithSemantic(m))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	const q = "What is the total cash collected by Wire in 2024?"
	res, err := eng.Ask(ctx, q)
	if err != nil || res.Origin != nl2sql.OriginVerified {
		b.Fatalf("%v %v", res, err)
	}
	b.Run("ask", func(b *testing.B) {
		for b.Loop() {
			if _, err := eng.Ask(ctx, q); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("run", func(b *testing.B) {
		for b.Loop() {
			if _, err := eng.Run(ctx, res.SQL); err != nil {
				b.Fatal(err)
			}
		}
	})
}
