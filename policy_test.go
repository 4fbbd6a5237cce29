package nl2sql_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/internal/corpus"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// shopSchema is the database the validator's attack corpus is written
// against (validate/corpus_test.go: users, orders, products), plus a
// second tenant's schema that no request here may read.
const shopSchema = `
CREATE TABLE users (id serial PRIMARY KEY, name text NOT NULL, email text, created_at timestamptz DEFAULT now());
CREATE TABLE orders (id serial PRIMARY KEY, user_id int REFERENCES users(id), amount numeric(10,2), status text,
	created_at timestamptz DEFAULT now());
CREATE TABLE products (id serial PRIMARY KEY, name text, price numeric(10,2));
INSERT INTO users (name, email) SELECT 'user' || i, 'u' || i || '@example.com' FROM generate_series(1, 20) i;
INSERT INTO orders (user_id, amount, status) SELECT 1 + i % 20, i * 1.5, CASE WHEN i % 3 = 0 THEN 'open' ELSE 'closed' END
	FROM generate_series(1, 60) i;
INSERT INTO products (name, price) SELECT 'product' || i, i FROM generate_series(1, 10) i;
CREATE SCHEMA other_schema;
CREATE TABLE other_schema.t (id int, secret text);
INSERT INTO other_schema.t VALUES (1, 'tenant secret');
`

// shopEngine returns an Engine on the shop database, scoped to public
// (other_schema is another tenant), and the pool. Its model answers every
// question with the SQL in *answer.
func shopEngine(t *testing.T, answer *string) (*nl2sql.Engine, *pgxpool.Pool) {
	t.Helper()
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, shopSchema)
	pool := pgtest.Pool(t, dsn)
	return answerEngine(t, pool, answer), pool
}

// answerEngine returns a prepared Engine on pool whose model answers
// *answer to every question.
func answerEngine(t *testing.T, pool *pgxpool.Pool, answer *string, opts ...nl2sql.Option) *nl2sql.Engine {
	t.Helper()
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply { return fenced(*answer) })
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	eng, err := nl2sql.New(pool, append([]nl2sql.Option{nl2sql.WithLLM(model), nl2sql.WithScope("public"), nl2sql.WithValueIndex(false),
		nl2sql.WithK(1, 1, 1), nl2sql.WithRepairAttempts(0)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	return eng
}

// TestEntryPointsAgreeOnAttacks runs the whole attack corpus through every
// entry point of the Engine (Check, Run, Repair, Pick, Ask) and the
// executor: each refuses every case, Check and Run with the case's code,
// and nothing an attack asked for happens (no advisory lock, no sequence
// step, no large object, no other tenant's row).
func TestEntryPointsAgreeOnAttacks(t *testing.T) {
	cases, err := corpus.Read("validate/testdata/attacks")
	if err != nil {
		t.Fatal(err)
	}
	var answer string
	eng, pool := shopEngine(t, &answer)
	ctx := context.Background()
	seqBefore := sequenceState(t, pool)
	ex := execute.New(pool, execute.WithScope("public"))
	for _, c := range cases {
		name := c.String()
		chk, err := eng.Check(ctx, c.SQL)
		if err != nil || chk.OK || !hasViolation(chk.Issues, c.Code) {
			t.Errorf("%s Check: ok=%v err=%v issues=%v, want %s\nSQL: %s", name, chk != nil && chk.OK, err, issuesOf(chk), c.Code, c.SQL)
		}
		res, err := eng.Run(ctx, c.SQL)
		var ve *validate.Error
		if !errors.Is(err, nl2sql.ErrUnsafe) && !errors.As(err, &ve) {
			t.Errorf("%s Run: err = %v, want a rejection\nSQL: %s", name, err, c.SQL)
		} else if !errors.As(err, &ve) || !ve.Has(c.Code) {
			t.Errorf("%s Run: err = %v, want code %s", name, err, c.Code)
		}
		if res != nil && len(res.Rows) > 0 {
			t.Errorf("%s Run returned rows", name)
		}
		// A misspelt-looking field (V014) may be repaired into a real
		// column, as the server's 42703 would be, and a relation that names
		// nothing (V012: "Users") into the allowed table it misspells (what
		// runs is then validated again); anything else stays refused.
		repaired := func(out string, rules []string) bool {
			fixed := c.Code == validate.CodeFuncNotation ||
				(c.Code == validate.CodeTableNotAllowed && slices.Contains(rules, repair.RuleFuzzyTable))
			return fixed && len(rules) > 0 && out != c.SQL
		}
		rr, err := eng.Repair(ctx, c.SQL)
		if err != nil || (rr.Executes && !repaired(rr.SQLOut, rr.Rules)) {
			t.Errorf("%s Repair: err=%v result=%+v", name, err, rr)
		}
		pr, _ := eng.Pick(ctx, "attack", []string{c.SQL})
		if pr == nil || (pr.Chosen >= 0 && !repaired(pr.SQL, pr.Candidates[0].Repairs)) {
			t.Errorf("%s Pick chose it: %+v", name, pr)
		}
		// Ask sees the attack as a model's reply: the generator keeps one
		// statement of it (SELECT 1; COMMIT; ... becomes SELECT 1), so an
		// answer is acceptable only when what ran is not the attack text.
		answer = c.SQL
		ar, err := eng.Ask(ctx, "attack")
		if err == nil && (ar == nil || len(ar.Candidates) == 0 ||
			(ar.Candidates[0].SQL == c.SQL && !repaired(ar.SQL, ar.Candidates[0].Repairs))) {
			t.Errorf("%s Ask answered: %+v", name, ar)
		}
		if _, err := ex.Query(ctx, c.SQL); !errors.Is(err, execute.ErrRejected) && c.Code != validate.CodeTableNotAllowed &&
			c.Code != validate.CodeFuncNotation && c.Code != validate.CodeType {
			// The executor alone (no table list) must refuse everything
			// but what needs the allowed set or the columns to decide.
			t.Errorf("%s executor: err = %v, want a rejection", name, err)
		}
	}
	assertNothingHappened(t, pool, seqBefore)
	t.Logf("%d attack cases through Check, Run, Repair, Pick, Ask and the executor", len(cases))
}

func hasViolation(issues []validate.Issue, code string) bool {
	for _, is := range issues {
		if is.Code == code && is.Severity == validate.SeverityError {
			return true
		}
	}
	return false
}

func issuesOf(r *nl2sql.CheckResult) []validate.Issue {
	if r == nil {
		return nil
	}
	return r.Issues
}

// sequenceState reads every sequence's last value.
func sequenceState(t *testing.T, pool *pgxpool.Pool) map[string]int64 {
	t.Helper()
	rows, err := pool.Query(context.Background(), "SELECT sequencename, coalesce(last_value, 0) FROM pg_sequences")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for rows.Next() {
		var n string
		var v int64
		if err := rows.Scan(&n, &v); err != nil {
			t.Fatal(err)
		}
		out[n] = v
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// assertNothingHappened checks, from a fresh connection, what an attack
// that ran would have left: sequences moved, advisory locks held, large
// objects created, other tenants' rows changed.
func assertNothingHappened(t *testing.T, pool *pgxpool.Pool, seqBefore map[string]int64) {
	t.Helper()
	ctx := context.Background()
	after := sequenceState(t, pool)
	for n, v := range seqBefore {
		if after[n] != v {
			t.Errorf("sequence %s moved from %d to %d", n, v, after[n])
		}
	}
	var locks, objects int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())").Scan(&locks); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM pg_largeobject_metadata").Scan(&objects); err != nil {
		t.Fatal(err)
	}
	if locks != 0 || objects != 0 {
		t.Errorf("%d advisory locks and %d large objects left", locks, objects)
	}
}

// TestScopeHoldsAtEveryEntryPoint: a scoped request cannot read another
// tenant's schema by qualifying names or naming its row type, whichever
// entry point it comes through.
func TestScopeHoldsAtEveryEntryPoint(t *testing.T) {
	var answer string
	eng, _ := shopEngine(t, &answer)
	ctx := context.Background()
	for _, sql := range []string{
		"SELECT * FROM other_schema.t",
		"SELECT secret FROM other_schema.t",
		`SELECT * FROM "other_schema"."t"`,
		"SELECT * FROM OTHER_SCHEMA.T",
		"SELECT * FROM users WHERE id IN (SELECT id FROM other_schema.t)",
		"WITH x AS (SELECT * FROM other_schema.t) SELECT * FROM x",
		"SELECT NULL::other_schema.t",
		"SELECT json_populate_record(NULL::other_schema.t, '{}')",
		"SELECT (NULL::other_schema.t).*",
	} {
		chk, err := eng.Check(ctx, sql)
		if err != nil || chk.OK || !hasViolation(chk.Issues, validate.CodeTableNotAllowed) {
			t.Errorf("Check(%s): %+v %v", sql, chk, err)
		}
		if _, err := eng.Run(ctx, sql); !errors.Is(err, nl2sql.ErrUnsafe) && !strings.Contains(fmtErr(err), "V012") {
			t.Errorf("Run(%s): %v", sql, err)
		}
	}
	if chk, err := eng.Check(ctx, "SELECT u.name, count(o.id) FROM users u JOIN orders o ON o.user_id = u.id GROUP BY u.name"); err != nil || !chk.OK {
		t.Errorf("legit query: %+v %v", chk, err)
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestMisspeltQualifiedColumnIsRepaired: a qualified column that does not
// exist is refused by the validator (it could be functional notation) and
// repaired like the server's 42703, not reported as unsafe.
func TestMisspeltQualifiedColumnIsRepaired(t *testing.T) {
	var answer string
	eng, _ := shopEngine(t, &answer)
	r, err := eng.Repair(context.Background(), "SELECT u.namee FROM users u ORDER BY 1")
	if err != nil || !r.Executes || !strings.Contains(r.SQLOut, "u.name") || len(r.Rules) == 0 {
		t.Fatalf("repair: %+v %v", r, err)
	}
	answer = "SELECT u.emaill FROM users u WHERE u.id = 1"
	res, err := eng.Ask(context.Background(), "the email of user 1")
	if err != nil || len(res.Rows) != 1 || !strings.Contains(res.SQL, "u.email") {
		t.Fatalf("ask: %+v %v", res, err)
	}
}
