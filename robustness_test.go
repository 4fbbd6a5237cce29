package nl2sql_test

// Robustness: the public API used carelessly or with hostile input. Every
// failure must be an *nl2sql.Error with a class and a code, no call may
// panic or leave a goroutine behind, contexts are honoured, and one bad
// request never ends a session (the engine answers the next one).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/goleak"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
	"github.com/nl2sqlgo/nl2sql/score"
)

const (
	robQuestion = "how many employees are there?"
	robSQL      = "SELECT count(*) FROM employees"
)

// robModel answers every request with robSQL.
func robModel(int, *llmfake.Request) llmfake.Reply { return fenced(robSQL) }

// robOpenAI is a client of srv with its own HTTP client, whose idle
// keep-alive connections robLeaks closes before looking for leaks.
func robOpenAI(t *testing.T, srv *llmfake.Server, tr llm.Transport) (nl2sql.LLM, *http.Client) {
	hc := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(hc.CloseIdleConnections)
	tr.HTTPClient = hc
	if tr.MaxAttempts == 0 {
		tr.MaxAttempts = 1
	}
	return openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(tr)), hc
}

// robEngine is a prepared engine over a fresh demo ERP whose model answers
// with script through its own HTTP client.
func robEngine(t *testing.T, script llmfake.Script, opts ...nl2sql.Option) (*nl2sql.Engine, *http.Client) {
	t.Helper()
	model, hc := robOpenAI(t, llmfake.New(t, script), llm.Transport{})
	return preparedERP(t, model, opts...), hc
}

// robLeaks notes the goroutines running now and returns the check, to
// defer, that no other one is left once hc's idle connections are closed.
func robLeaks(t *testing.T, hc *http.Client) func() {
	ignore := goleak.IgnoreCurrent()
	return func() {
		hc.CloseIdleConnections()
		goleak.VerifyNone(t, ignore, goleak.IgnoreTopFunction("net/http.(*conn).serve"),
			// The fake server's side of a connection the client just closed.
			goleak.IgnoreAnyFunction("net/http.(*connReader).backgroundRead"))
	}
}

// robCall is one public method of the Engine, called with ctx.
type robCall struct {
	name string
	call func(ctx context.Context) error
	// db: the call needs the database even on a prepared engine.
	db bool
}

// robCalls lists every public method of the Engine that takes a context,
// each with ordinary arguments and the extra per-call options.
func robCalls(t *testing.T, eng *nl2sql.Engine, opts ...nl2sql.AskOption) []robCall {
	index := filepath.Join(t.TempDir(), "index")
	return []robCall{
		{"Prepare", func(ctx context.Context) error { return eng.Prepare(ctx) }, false},
		{"Refresh", func(ctx context.Context) error { return eng.Refresh(ctx) }, true},
		{"Catalog", func(ctx context.Context) error { _, err := eng.Catalog(ctx); return err }, false},
		{"Ask", func(ctx context.Context) error { _, err := eng.Ask(ctx, robQuestion, opts...); return err }, true},
		{"SchemaContext", func(ctx context.Context) error { _, err := eng.SchemaContext(ctx, robQuestion, opts...); return err }, false},
		{"Pick", func(ctx context.Context) error {
			_, err := eng.Pick(ctx, robQuestion, []string{robSQL}, opts...)
			return err
		}, true},
		{"Repair", func(ctx context.Context) error { _, err := eng.Repair(ctx, robSQL, opts...); return err }, true},
		{"Check", func(ctx context.Context) error { _, err := eng.Check(ctx, robSQL, opts...); return err }, true},
		{"Run", func(ctx context.Context) error { _, err := eng.Run(ctx, robSQL, opts...); return err }, true},
		{"Learn example", func(ctx context.Context) error {
			_, err := eng.Learn(ctx, nl2sql.Example("how many staff", robSQL), opts...)
			return err
		}, true},
		{"Learn term", func(ctx context.Context) error {
			_, err := eng.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeTerm, Term: "staff", Targets: []string{"employees"}}, opts...)
			return err
		}, false},
		{"Learn doc", func(ctx context.Context) error {
			_, err := eng.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Text: "one row per employee", Table: "employees"}, opts...)
			return err
		}, false},
		{"Forget", func(ctx context.Context) error {
			err := eng.Forget(ctx, "no-such-id")
			var ne *nl2sql.Error
			if errors.As(err, &ne) && ne.Code == "not_found" {
				return nil // the answer to an unknown ID
			}
			return err
		}, false},
		{"Knowledge", func(ctx context.Context) error { _, err := eng.Knowledge(ctx); return err }, false},
		{"SaveIndex", func(ctx context.Context) error { return eng.SaveIndex(ctx, new(bytes.Buffer)) }, false},
		{"SaveIndexFile", func(ctx context.Context) error {
			return eng.SaveIndexFile(ctx, index)
		}, false},
	}
}

// robNoPanic runs f and fails the test when it panics.
func robNoPanic(t *testing.T, what string, f func() error) (err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s panicked: %v", what, r)
			err = nil
		}
	}()
	return f()
}

// robWant checks that err is an *nl2sql.Error of class want (matching its
// sentinel), with a code and one "nl2sql: " prefix; it returns it.
func robWant(t *testing.T, what string, err error, want nl2sql.Class) *nl2sql.Error {
	t.Helper()
	var ne *nl2sql.Error
	if !errors.As(err, &ne) {
		t.Errorf("%s: %T %v, want an *nl2sql.Error of class %s", what, err, err, want)
		return nil
	}
	sentinels := map[nl2sql.Class]error{nl2sql.ClassConfig: nl2sql.ErrConfig, nl2sql.ClassInput: nl2sql.ErrInput,
		nl2sql.ClassConnection: nl2sql.ErrConnection, nl2sql.ClassExecution: nl2sql.ErrExecution, nl2sql.ClassLLM: nl2sql.ErrLLM,
		nl2sql.ClassInvalid: nl2sql.ErrInvalid, nl2sql.ClassNoAnswer: nl2sql.ErrNoAnswer}
	if ne.Class != want || !errors.Is(err, sentinels[want]) {
		t.Errorf("%s: class %s (%v), want %s", what, ne.Class, err, want)
	}
	if ne.Code == "" || ne.Message == "" || !strings.HasPrefix(err.Error(), "nl2sql: ") || strings.Contains(err.Error(), "nl2sql: nl2sql:") {
		t.Errorf("%s: code %q message %q error %q", what, ne.Code, ne.Message, err)
	}
	return ne
}

// robAnswers checks that the engine still answers a question and runs SQL.
func robAnswers(t *testing.T, what string, eng *nl2sql.Engine) {
	t.Helper()
	ctx := context.Background()
	if res, err := eng.Ask(ctx, robQuestion); err != nil || len(res.Rows) != 1 {
		t.Errorf("%s: Ask afterwards: %v", what, err)
	}
	if res, err := eng.Run(ctx, robSQL); err != nil || len(res.Rows) != 1 {
		t.Errorf("%s: Run afterwards: %v", what, err)
	}
}

// TestRobustNewRefusesBadConfig: New refuses a nil database (also a typed
// nil pool, which used to panic at the first call) and absurd option values
// (a table cap below 1 used to panic in retrieval, a K of MaxInt32 to crash
// the process out of memory) with an *Error of class config_error; a nil
// Option or Scorer changes nothing.
func TestRobustNewRefusesBadConfig(t *testing.T) {
	var nilPool *pgxpool.Pool
	for _, c := range []struct {
		name string
		db   nl2sql.DB
		opts []nl2sql.Option
	}{
		{"nil database", nil, nil},
		{"nil *pgxpool.Pool", nilPool, nil},
		{"K 0", &pgxpool.Pool{}, []nl2sql.Option{nl2sql.WithK(0, 1, 1)}},
		{"K -1", &pgxpool.Pool{}, []nl2sql.Option{nl2sql.WithK(1, -1, 1)}},
		{"K MaxInt32", &pgxpool.Pool{}, []nl2sql.Option{nl2sql.WithK(math.MaxInt32, 1, 1)}},
		{"K 101", &pgxpool.Pool{}, []nl2sql.Option{nl2sql.WithK(1, 1, 101)}},
		{"row cap -1", &pgxpool.Pool{}, []nl2sql.Option{nl2sql.WithMaxRows(-1)}},
		{"row cap 0", &pgxpool.Pool{}, []nl2sql.Option{nl2sql.WithMaxRows(0)}},
		{"table cap 0", &pgxpool.Pool{}, []nl2sql.Option{nl2sql.WithMaxTables(0)}},
		{"table cap -1", &pgxpool.Pool{}, []nl2sql.Option{nl2sql.WithMaxTables(-1)}},
		{"repair attempts -1", &pgxpool.Pool{}, []nl2sql.Option{nl2sql.WithRepairAttempts(-1)}},
	} {
		eng, err := nl2sql.New(c.db, c.opts...)
		if eng != nil {
			t.Errorf("%s: got an engine", c.name)
		}
		robWant(t, "New with "+c.name, err, nl2sql.ClassConfig)
	}

	// A nil Option, nil Scorer, nil logger: the defaults.
	srv := llmfake.New(t, robModel)
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	pool := pgtest.Pool(t, erptest.Single(t))
	eng, err := nl2sql.New(pool, nil, nl2sql.WithLLM(model), nl2sql.WithScorer(nil), nl2sql.WithLogger(nil), nl2sql.WithK(100, 100, 100), nil)
	if err != nil {
		t.Fatal(err)
	}
	robAnswers(t, "nil options", eng)
}

// TestRobustUnusableEngine: an Engine New did not make (the zero value, or
// a nil pointer) fails every call with ErrConfig instead of panicking.
func TestRobustUnusableEngine(t *testing.T) {
	var nilEngine *nl2sql.Engine
	for name, eng := range map[string]*nl2sql.Engine{"zero Engine": new(nl2sql.Engine), "nil *Engine": nilEngine} {
		for _, c := range robCalls(t, eng) {
			err := robNoPanic(t, name+"."+c.name, func() error { return c.call(context.Background()) })
			robWant(t, name+"."+c.name, err, nl2sql.ClassConfig)
		}
	}
}

// TestRobustNilContext: a nil context is an input error at once, from every
// method, before it reaches pgx or context.WithTimeout (which panic); the
// engine goes on answering.
func TestRobustNilContext(t *testing.T) {
	eng, _ := engine(t, robModel)
	for _, c := range robCalls(t, eng) {
		//lint:ignore SA1012 a nil context is what is tested
		err := robNoPanic(t, c.name, func() error { return c.call(nil) }) //nolint:staticcheck
		if ne := robWant(t, c.name+"(nil context)", err, nl2sql.ClassInput); ne != nil && !strings.Contains(ne.Message, "nil context") {
			t.Errorf("%s: message %q should name the nil context", c.name, ne.Message)
		}
	}
	//nolint:staticcheck
	if res, err := eng.Ask(nil, robQuestion); res == nil || res.Error == nil || res.Error.Class != nl2sql.ClassInput || err == nil { //lint:ignore SA1012 tested
		t.Errorf("Ask(nil): result %+v, want the input error in it too", res)
	}
	robAnswers(t, "after nil contexts", eng)
}

// TestRobustNilAskOption: a nil AskOption changes nothing (it used to panic
// in every method that takes options).
func TestRobustNilAskOption(t *testing.T) {
	eng, _ := engine(t, robModel)
	for _, c := range robCalls(t, eng, nil, nl2sql.MaxRows(5), nil) {
		if err := robNoPanic(t, c.name, func() error { return c.call(context.Background()) }); err != nil {
			t.Errorf("%s with a nil option: %v", c.name, err)
		}
	}
}

// robWantEnded checks the error of a call whose context ended before or
// while it worked: never blamed on the input, the configuration or the
// question, the context's error in the chain, coded canceled or timeout
// (llm_canceled, llm_timeout for a model wait).
func robWantEnded(t *testing.T, what string, err error, cause error) {
	t.Helper()
	var ne *nl2sql.Error
	if !errors.As(err, &ne) {
		t.Errorf("%s: %T %v, want an *nl2sql.Error", what, err, err)
		return
	}
	if !errors.Is(err, cause) {
		t.Errorf("%s: %v does not match %v", what, err, cause)
	}
	code := map[error]string{context.Canceled: "canceled", context.DeadlineExceeded: "timeout"}[cause]
	switch {
	case ne.Class == nl2sql.ClassExecution && ne.Code == code:
	case ne.Class == nl2sql.ClassLLM && ne.Code == "llm_"+code:
	default:
		t.Errorf("%s: class %s code %s (%v), want execution_error %s", what, ne.Class, ne.Code, err, code)
	}
	for _, blame := range []error{nl2sql.ErrInvalid, nl2sql.ErrConfig, nl2sql.ErrRetrievalMiss, nl2sql.ErrNoAnswer, nl2sql.ErrUnsafe} {
		if errors.Is(err, blame) {
			t.Errorf("%s: %v matches %v", what, err, blame)
		}
	}
}

// TestRobustEndedContext: a context cancelled, or past its deadline, before
// the call: on a cold engine every call fails with it (the engine is not
// left half-built: it prepares afterwards); on a prepared one every call
// that has work to do fails with it, and none is reported as the input's or
// the configuration's fault (a cancelled Learn used to say the example
// does not plan, a cancelled Ask that the question missed the schema, a
// cancelled Repair returned no error at all).
func TestRobustEndedContext(t *testing.T) {
	model, hc := robOpenAI(t, llmfake.New(t, robModel), llm.Transport{})
	pool := pgtest.Pool(t, erptest.Single(t))
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithModules(erp.Modules()))
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	defer robLeaks(t, hc)()

	for _, c := range robCalls(t, eng) {
		robWantEnded(t, "cold "+c.name, robNoPanic(t, c.name, func() error { return c.call(cancelled) }), context.Canceled)
		robWantEnded(t, "cold "+c.name, robNoPanic(t, c.name, func() error { return c.call(expired) }), context.DeadlineExceeded)
	}
	if err := eng.Prepare(context.Background()); err != nil {
		t.Fatalf("Prepare after cancelled calls: %v", err)
	}
	for _, c := range robCalls(t, eng) {
		for ctx, cause := range map[context.Context]error{cancelled: context.Canceled, expired: context.DeadlineExceeded} {
			err := robNoPanic(t, c.name, func() error { return c.call(ctx) })
			if err == nil && !c.db {
				continue // nothing to wait for: the prepared state answers
			}
			robWantEnded(t, "prepared "+c.name, err, cause)
		}
	}
	robAnswers(t, "after ended contexts", eng)
}

// TestRobustDeadlineMidCall: a deadline that passes while a query runs or
// while the catalog is read ends the call with a timeout, and the session
// goes on.
func TestRobustDeadlineMidCall(t *testing.T) {
	eng, hc := robEngine(t, robModel)
	cold, err := nl2sql.New(pgtest.Pool(t, erptest.Single(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer robLeaks(t, hc)()
	// A hundred million rows: it cannot end before the deadline (and is
	// within the plan budget, which refuses the billions of a fourth join).
	const slow = "SELECT count(*) FROM employees a JOIN employees b ON a.emp_id < b.emp_id JOIN employees c ON b.emp_id < c.emp_id"
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	res, err := eng.Run(ctx, slow)
	cancel()
	robWantEnded(t, "Run past its deadline", err, context.DeadlineExceeded)
	if res == nil || res.Error == nil || res.Error.Code != "timeout" {
		t.Errorf("Run result %+v, want the timeout in it", res)
	}
	// A cancel mid-query.
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	_, err = eng.Run(ctx, slow)
	robWantEnded(t, "Run cancelled", err, context.Canceled)
	robAnswers(t, "after a deadline", eng)

	// Prepare cut short at whatever stage, then done with time.
	for _, d := range []time.Duration{time.Microsecond, 5 * time.Millisecond, 30 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		if err := cold.Prepare(ctx); err != nil {
			robWantEnded(t, fmt.Sprintf("Prepare within %v", d), err, context.DeadlineExceeded)
		}
		cancel()
	}
	if err := cold.Prepare(context.Background()); err != nil {
		t.Fatalf("Prepare after cut-short ones: %v", err)
	}
}

// TestRobustOddText: NUL bytes, invalid UTF-8, empty and blank text. SQL
// that holds them is refused as invalid (V001) before it reaches the
// server; a question that holds them is answered; an empty question is an
// input error before any work (it was ErrNoAnswer, after preparing); Pick
// with no candidates is an input error (it used to panic).
func TestRobustOddText(t *testing.T) {
	eng, _ := engine(t, robModel)
	ctx := context.Background()
	for _, sql := range []string{"SELECT count(*) FROM employees WHERE first_name = 'a\x00b'", "SELECT count(*) FROM employees WHERE first_name = '\xff\xfe'"} {
		_, err := eng.Run(ctx, sql)
		if ne := robWant(t, fmt.Sprintf("Run(%q)", sql), err, nl2sql.ClassInvalid); ne != nil && ne.Code != "V001" {
			t.Errorf("Run(%q): code %s, want V001", sql, ne.Code)
		}
		if cr, err := eng.Check(ctx, sql); err != nil || cr.OK || len(cr.Issues) == 0 || cr.Issues[0].Code != "V001" {
			t.Errorf("Check(%q): %+v %v", sql, cr, err)
		}
		if rr, err := eng.Repair(ctx, sql); err != nil || rr.Executes || rr.SQLState != "V001" {
			t.Errorf("Repair(%q): %+v %v", sql, rr, err)
		}
		_, err = eng.Learn(ctx, nl2sql.Example("odd", sql))
		robWant(t, "Learn an odd example", err, nl2sql.ClassInvalid)
		_, err = eng.Pick(ctx, robQuestion, []string{sql})
		robWant(t, "Pick an odd candidate", err, nl2sql.ClassNoAnswer)
	}
	for _, q := range []string{"how many\x00 employees are there?", "how many \xff\xfe employees are there?"} {
		res, err := eng.Ask(ctx, q, nl2sql.Evidence("\x00\xff"), nl2sql.History(nl2sql.Turn{}, nl2sql.Turn{Question: "\x00", SQL: "\xff"}))
		if err != nil || len(res.Rows) != 1 {
			t.Errorf("Ask(%q): %v", q, err)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Errorf("Ask(%q): result does not marshal: %v", q, err)
		}
		if _, err := eng.Learn(ctx, nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Text: q}); err != nil {
			t.Errorf("Learn a doc %q: %v", q, err)
		}
	}
	for _, q := range []string{"", "  \n\t "} {
		res, err := eng.Ask(ctx, q)
		robWant(t, fmt.Sprintf("Ask(%q)", q), err, nl2sql.ClassInput)
		if res == nil || res.Error == nil || res.Error.Class != nl2sql.ClassInput {
			t.Errorf("Ask(%q): result %+v", q, res)
		}
		_, err = eng.SchemaContext(ctx, q)
		robWant(t, fmt.Sprintf("SchemaContext(%q)", q), err, nl2sql.ClassInput)
		_, err = eng.Pick(ctx, q, []string{robSQL})
		robWant(t, fmt.Sprintf("Pick(%q)", q), err, nl2sql.ClassInput)
	}
	for _, sqls := range [][]string{nil, {}} {
		pr, err := robNoPanic2(t, func() (*nl2sql.PickResult, error) { return eng.Pick(ctx, robQuestion, sqls) })
		robWant(t, fmt.Sprintf("Pick(%#v)", sqls), err, nl2sql.ClassInput)
		_ = pr
	}
	pr, err := eng.Pick(ctx, robQuestion, []string{"", " "})
	robWant(t, "Pick of empty candidates", err, nl2sql.ClassNoAnswer)
	if pr == nil || pr.Chosen != -1 || len(pr.Scores) != 2 {
		t.Errorf("Pick of empty candidates: %+v", pr)
	}
	for _, k := range []nl2sql.Knowledge{{}, {Kind: "bogus"}, {Kind: nl2sql.KnowledgeTerm, Term: "x"}, {Kind: nl2sql.KnowledgeTerm, Term: "x", Targets: []string{}}} {
		_, err := eng.Learn(ctx, k)
		robWant(t, fmt.Sprintf("Learn(%+v)", k), err, nl2sql.ClassInvalid)
	}
	for _, id := range []string{"", "\x00", "\xff"} {
		err := eng.Forget(ctx, id)
		if ne := robWant(t, fmt.Sprintf("Forget(%q)", id), err, nl2sql.ClassInput); ne != nil && ne.Code != "not_found" {
			t.Errorf("Forget(%q): code %s", id, ne.Code)
		}
	}
	_, err = eng.Run(ctx, robSQL, nl2sql.AsRole("x\x00\"; DROP TABLE employees; --"))
	robWant(t, "Run as a NUL role", err, nl2sql.ClassExecution)
	_, err = eng.Run(ctx, robSQL, nl2sql.Scope("pub\x00lic"))
	robWant(t, "Run in a NUL scope", err, nl2sql.ClassConfig)
	robAnswers(t, "after odd text", eng)
}

func robNoPanic2[T any](t *testing.T, f func() (T, error)) (v T, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("panicked: %v", r)
		}
	}()
	return f()
}

// robNaNScorer scores every candidate NaN.
type robNaNScorer struct{}

func (robNaNScorer) Score(_ context.Context, in *score.Input) []float64 {
	out := make([]float64, len(in.Candidates))
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}

// TestRobustAbsurdOptions: extreme but accepted option values still give
// answers: row caps of MaxInt (engine and request) and -1 (the engine's),
// zero and negative timeouts and budgets (no bound), negative input limits
// (the defaults), and a Scorer answering NaN (its results still marshal to
// JSON: a NaN confidence used to make them unencodable).
func TestRobustAbsurdOptions(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []nl2sql.Option
		ask  []nl2sql.AskOption
	}{
		{"row cap MaxInt", []nl2sql.Option{nl2sql.WithMaxRows(math.MaxInt)}, []nl2sql.AskOption{nl2sql.MaxRows(math.MaxInt)}},
		{"request row cap -1", nil, []nl2sql.AskOption{nl2sql.MaxRows(-1)}},
		{"request row cap MaxInt", nil, []nl2sql.AskOption{nl2sql.MaxRows(math.MaxInt)}},
		{"no time bounds", []nl2sql.Option{nl2sql.WithStatementTimeout(-1), nl2sql.WithTimeout(-1), nl2sql.WithModelTimeout(-1), nl2sql.WithGenerateBudget(-1)},
			[]nl2sql.AskOption{nl2sql.Timeout(-time.Hour)}},
		{"zero time bounds", []nl2sql.Option{nl2sql.WithStatementTimeout(0), nl2sql.WithTimeout(0), nl2sql.WithModelTimeout(0), nl2sql.WithGenerateBudget(0)},
			[]nl2sql.AskOption{nl2sql.Timeout(0)}},
		{"negative limits", []nl2sql.Option{nl2sql.WithInputLimits(-1, -1), nl2sql.WithAbstainBelow(-1)}, []nl2sql.AskOption{nl2sql.AbstainBelow(math.Inf(-1))}},
		{"NaN scorer", []nl2sql.Option{nl2sql.WithScorer(robNaNScorer{})}, nil},
	} {
		eng, _ := engine(t, robModel, c.opts...)
		ctx := context.Background()
		res, err := eng.Ask(ctx, robQuestion, c.ask...)
		if err != nil || len(res.Rows) != 1 {
			t.Errorf("%s: Ask: %v", c.name, err)
			continue
		}
		if b, err := json.Marshal(res); err != nil || math.IsNaN(res.Confidence) {
			t.Errorf("%s: result does not marshal (%v): confidence %v", c.name, err, res.Confidence)
		} else if !bytes.Contains(b, []byte(`"rows"`)) {
			t.Errorf("%s: JSON %s", c.name, b)
		}
		if res, err := eng.Run(ctx, robSQL, c.ask...); err != nil || len(res.Rows) != 1 || res.RowCap < 1 {
			t.Errorf("%s: Run: %v %+v", c.name, err, res)
		}
		pr, err := eng.Pick(ctx, robQuestion, []string{robSQL, "SELECT count(emp_id) FROM employees"}, c.ask...)
		if err != nil || pr.Chosen < 0 {
			t.Errorf("%s: Pick: %v", c.name, err)
		} else if _, err := json.Marshal(pr); err != nil {
			t.Errorf("%s: Pick result does not marshal: %v", c.name, err)
		}
	}
}

// TestRobustClosedPool: once the caller closes the pool, every call that
// needs the database is a connection error (a closed pool used to be an
// execution error, an invalid example for Learn, and no error at all for
// Repair); what needs no database goes on working.
func TestRobustClosedPool(t *testing.T) {
	model, hc := robOpenAI(t, llmfake.New(t, robModel), llm.Transport{})
	pool, err := pgxpool.New(context.Background(), erptest.Single(t))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model))
	if err != nil {
		t.Fatal(err)
	}
	cold, err := nl2sql.New(pool, nl2sql.WithLLM(model))
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	pool.Close()
	defer robLeaks(t, hc)()
	ctx := context.Background()
	robLostDatabase(t, eng, "closed pool", nil)
	for _, c := range robCalls(t, cold) {
		err := robNoPanic(t, c.name, func() error { return c.call(ctx) })
		robWant(t, "closed pool, cold engine: "+c.name, err, nl2sql.ClassConnection)
	}
}

// robLostDatabase calls every Engine method on eng, whose database is
// gone: the ones that need it must fail with a connection error (then
// check, when not nil, looks at it), the others must still work.
func robLostDatabase(t *testing.T, eng *nl2sql.Engine, what string, check func(name string, ne *nl2sql.Error)) {
	t.Helper()
	ctx := context.Background()
	for _, c := range robCalls(t, eng) {
		err := robNoPanic(t, c.name, func() error { return c.call(ctx) })
		if !c.db {
			if err != nil {
				t.Errorf("%s on a prepared engine needs no database: %v", c.name, err)
			}
			continue
		}
		if ne := robWant(t, what+": "+c.name, err, nl2sql.ClassConnection); ne != nil && check != nil {
			check(c.name, ne)
		}
	}
}

// TestRobustDroppedDatabase: the database dropped under a prepared engine
// (its connections terminated, new ones refused with 3D000) is a connection
// error for every call that needs it: it used to be an execution error, an
// invalid example, a Check verdict on the query and a Repair without error.
func TestRobustDroppedDatabase(t *testing.T) {
	srv := llmfake.New(t, robModel)
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	dsn := erptest.Single(t)
	pool := pgtest.Pool(t, dsn)
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model))
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	pgtest.Exec(t, pgtest.AdminDSN(t), `DROP DATABASE "`+cfg.ConnConfig.Database+`" WITH (FORCE)`)
	robLostDatabase(t, eng, "dropped database", func(name string, ne *nl2sql.Error) {
		if !strings.Contains(ne.Message, "could not be reached") {
			t.Errorf("%s: message %q", name, ne.Message)
		}
	})

}

// TestRobustConcurrentSession: Ask, Refresh, Learn, Forget, Knowledge,
// SaveIndex, Run, Check, Repair, Pick and SchemaContext at once on one
// engine (run it with -race): every call succeeds (a Forget may find the
// knowledge already forgotten), no goroutine is left, and the engine ends
// consistent.
func TestRobustConcurrentSession(t *testing.T) {
	eng, hc := robEngine(t, robModel)
	defer robLeaks(t, hc)()
	ctx := context.Background()
	term := nl2sql.Knowledge{Kind: nl2sql.KnowledgeTerm, Term: "staff", Targets: []string{"employees"}}
	example := nl2sql.Example("how many staff", robSQL)
	ops := map[string]func() error{
		"Ask":     func() error { _, err := eng.Ask(ctx, robQuestion); return err },
		"Refresh": func() error { return eng.Refresh(ctx) },
		"Learn/Forget term": func() error {
			k, err := eng.Learn(ctx, term)
			if err != nil {
				return err
			}
			return eng.Forget(ctx, k.ID)
		},
		"Learn/Forget example": func() error {
			k, err := eng.Learn(ctx, example)
			if err != nil {
				return err
			}
			return eng.Forget(ctx, k.ID)
		},
		"Knowledge":     func() error { _, err := eng.Knowledge(ctx); return err },
		"SaveIndex":     func() error { return eng.SaveIndex(ctx, new(bytes.Buffer)) },
		"Run":           func() error { _, err := eng.Run(ctx, robSQL); return err },
		"Check":         func() error { _, err := eng.Check(ctx, robSQL); return err },
		"Repair":        func() error { _, err := eng.Repair(ctx, "SELECT count(*) FROM employes"); return err },
		"Pick":          func() error { _, err := eng.Pick(ctx, robQuestion, []string{robSQL}); return err },
		"SchemaContext": func() error { _, err := eng.SchemaContext(ctx, robQuestion); return err },
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	for name, op := range ops {
		for g := 0; g < 2; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 5; i++ {
					err := op()
					var ne *nl2sql.Error
					if err == nil || (errors.As(err, &ne) && ne.Code == "not_found") {
						continue // the other goroutine forgot it first
					}
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%s: %v", name, err))
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}
	// Learnt, forgotten: nothing is left, and the engine answers.
	if ks, err := eng.Knowledge(ctx); err != nil || len(ks) != 0 {
		t.Errorf("knowledge after learning and forgetting: %+v %v", ks, err)
	}
	robAnswers(t, "after concurrent calls", eng)
}

// TestRobustModelGarbage: a model endpoint answering garbage, an empty or
// huge body, no choice, or an error page is an llm_error with a named code
// and the partial Result; the next question, answered properly, succeeds.
func TestRobustModelGarbage(t *testing.T) {
	huge := `{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"` + strings.Repeat("x", 1<<20) + `"}}]}`
	var bad sync.Map // the reply to give while a case runs
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		if r, ok := bad.Load("reply"); ok {
			return r.(llmfake.Reply)
		}
		return fenced(robSQL)
	})
	model, hc := robOpenAI(t, srv, llm.Transport{MaxResponseBytes: 64 << 10})
	pool := pgtest.Pool(t, erptest.Single(t))
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithK(2, 2, 2), nl2sql.WithModules(erp.Modules()))
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer robLeaks(t, hc)()
	for _, c := range []struct {
		name  string
		reply llmfake.Reply
		class nl2sql.Class
		code  string
	}{
		{"not JSON", llmfake.Reply{Body: "<html>hello</html>"}, nl2sql.ClassLLM, "llm_malformed_response"},
		{"JSON null", llmfake.Reply{Body: "null"}, nl2sql.ClassLLM, "llm_malformed_response"},
		{"no choices", llmfake.Reply{Body: `{"choices":[]}`}, nl2sql.ClassLLM, "llm_malformed_response"},
		{"empty object", llmfake.Reply{Body: `{}`}, nl2sql.ClassLLM, "llm_malformed_response"},
		{"truncated JSON", llmfake.Reply{Body: `{"choices":[{"message":{"content":"SEL`}, nl2sql.ClassLLM, "llm_truncated"},
		{"huge body", llmfake.Reply{Body: huge}, nl2sql.ClassLLM, "llm_response_too_large"},
		{"error page", llmfake.Reply{Status: 500, Body: "<html>oops</html>"}, nl2sql.ClassLLM, "llm_server_error"},
		{"bad request", llmfake.Reply{Status: 400, Body: "\x00\xff"}, nl2sql.ClassLLM, "llm_bad_request"},
		{"prose", llmfake.Reply{Content: "I cannot help with that \x00\xff"}, nl2sql.ClassNoAnswer, "no_answer"},
		{"not a query", llmfake.Reply{Content: "```sql\nDROP TABLE employees\n```"}, nl2sql.ClassNoAnswer, "no_answer"},
		{"unsafe query", llmfake.Reply{Content: "```sql\nSELECT pg_terminate_backend(1)\n```"}, nl2sql.ClassUnsafe, ""},
	} {
		bad.Store("reply", c.reply)
		res, err := eng.Ask(context.Background(), robQuestion)
		bad.Delete("reply")
		var ne *nl2sql.Error
		if !errors.As(err, &ne) || ne.Class != c.class || (c.code != "" && ne.Code != c.code) {
			t.Errorf("%s: %v (%+v), want %s %s", c.name, err, ne, c.class, c.code)
		}
		if res == nil || res.Error == nil || res.Error.Class != c.class || res.Attempts < 1 {
			t.Errorf("%s: partial result %+v", c.name, res)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Errorf("%s: result does not marshal: %v", c.name, err)
		}
		if res, err := eng.Ask(context.Background(), robQuestion); err != nil || len(res.Rows) != 1 {
			t.Errorf("after %s: %v", c.name, err)
		}
	}
}

// TestRobustIndexFiles: saving and loading an index with careless
// arguments gives *Error values (they were bare errors, and a nil writer
// panicked); a failed save leaves the file as it was.
func TestRobustIndexFiles(t *testing.T) {
	eng, _ := engine(t, robModel)
	ctx := context.Background()
	robWant(t, "SaveIndex(nil)", robNoPanic(t, "SaveIndex(nil)", func() error { return eng.SaveIndex(ctx, nil) }), nl2sql.ClassInput)
	robWant(t, "SaveIndex to a failing writer", eng.SaveIndex(ctx, robFailWriter{}), nl2sql.ClassConfig)
	robWant(t, `SaveIndexFile("")`, eng.SaveIndexFile(ctx, ""), nl2sql.ClassInput)
	dir := t.TempDir()
	robWant(t, "SaveIndexFile onto a directory", eng.SaveIndexFile(ctx, dir), nl2sql.ClassConfig)
	robWant(t, "SaveIndexFile into a missing folder", eng.SaveIndexFile(ctx, filepath.Join(dir, "no", "such", "idx")), nl2sql.ClassConfig)
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed saves left %v", entries)
	}
	for name, r := range map[string]*bytes.Reader{"garbage": bytes.NewReader([]byte("\x00\xffgarbage")), "empty": bytes.NewReader(nil)} {
		_, err := nl2sql.LoadIndex(r)
		robWant(t, "LoadIndex of "+name, err, nl2sql.ClassConfig)
		if !errors.Is(err, nl2sql.ErrBadIndex) {
			t.Errorf("LoadIndex of %s: %v, want ErrBadIndex", name, err)
		}
	}
	_, err := robNoPanic2(t, func() ([]nl2sql.Option, error) { return nl2sql.LoadIndex(nil) })
	if !errors.Is(err, nl2sql.ErrBadIndex) {
		t.Errorf("LoadIndex(nil): %v", err)
	}
	// A good one still round-trips.
	path := filepath.Join(dir, "idx")
	if err := eng.SaveIndexFile(ctx, path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := nl2sql.LoadIndex(f); err != nil {
		t.Errorf("LoadIndex of a saved index: %v", err)
	}
}

type robFailWriter struct{}

func (robFailWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// cancelAt is a Tracer that cancels the request when stage starts.
type cancelAt struct {
	stage  nl2sql.Stage
	cancel context.CancelFunc
}

func (c *cancelAt) Stage(context.Context, nl2sql.Stage, time.Duration, error) {}

func (c *cancelAt) StageStart(ctx context.Context, s nl2sql.Stage) context.Context {
	if s == c.stage {
		c.cancel()
	}
	return ctx
}

// TestRobustEndedWhileChecking: a request cancelled while its candidates
// are checked, after the model answered, is reported as cancelled
// (execution_error, canceled), not as a model wait cut short: it said
// "the request ended while waiting for the model" (llm_canceled).
func TestRobustEndedWhileChecking(t *testing.T) {
	tr := &cancelAt{stage: nl2sql.StageValidate}
	eng, hc := robEngine(t, robModel, nl2sql.WithTracer(tr))
	defer robLeaks(t, hc)()
	ctx, cancel := context.WithCancel(context.Background())
	tr.cancel = cancel
	res, err := eng.Ask(ctx, robQuestion)
	robWantEnded(t, "Ask cancelled while checking", err, context.Canceled)
	var ne *nl2sql.Error
	if errors.As(err, &ne) && (ne.Class != nl2sql.ClassExecution || strings.Contains(ne.Message, "model")) {
		t.Errorf("class %s, message %q: want an execution error that does not blame the model", ne.Class, ne.Message)
	}
	if res == nil || res.Attempts == 0 {
		t.Errorf("result %+v: want the model's answer counted", res)
	}
	tr.cancel = func() {}
	robAnswers(t, "after a cancelled check", eng)
}
