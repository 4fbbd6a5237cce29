package validate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// DBTX begins transactions; *pgxpool.Pool satisfies it. Explain runs
// candidates concurrently, so a single *pgx.Conn (not safe for concurrent
// use) needs Concurrency(1).
type DBTX interface {
	BeginTx(ctx context.Context, opts pgx.TxOptions) (pgx.Tx, error)
}

// ExplainResult is the planner's verdict on one candidate query.
type ExplainResult struct {
	// SQL is the validated query that was explained; empty when Validate
	// rejected the candidate.
	SQL string
	// Err is nil when the plan was produced and passed CheckPlan. Otherwise
	// it is the *Error of a rejected candidate (by Validate, or by CheckPlan:
	// code CodePlan, with Plan set), a *pgconn.PgError from PostgreSQL
	// (wrapped), or a context/connection error.
	Err error
	// SQLState, Message and Location describe a PostgreSQL error: the
	// SQLSTATE code, the primary message and the byte offset in SQL the
	// server pointed at (-1 when it did not).
	SQLState string
	Message  string
	Location int
	// TotalCost and PlanRows are the planner's estimates for the whole
	// query; Plan is the full JSON plan.
	TotalCost float64
	PlanRows  float64
	Plan      json.RawMessage
	// Figures are the plan's largest estimates in a plan budget's terms
	// (PlanFigures), set with Plan.
	Figures PlanBudget
	// Relations are the relations the plan scans (a view's base tables,
	// not the view), each once, in plan order, set with Plan: empty when
	// it scans none, nil when there is no plan or it could not be read
	// (which relations it reads is then unknown).
	Relations []PlanRelation
	// Validation is the validator's result for the candidate (lint issues,
	// tables, functions); nil when it was rejected, by Validate or by the
	// check of its plan (CheckPlan). Callers need not validate again.
	Validation *Result
}

// ExplainOption configures Explain.
type ExplainOption interface{ applyExplain(*explainConfig) }

type explainOptionFunc func(*explainConfig)

func (f explainOptionFunc) applyExplain(c *explainConfig) { f(c) }

type explainConfig struct {
	concurrency int
	timeout     time.Duration
	role        string
	settings    [][2]string
}

// Explain defaults.
const (
	DefaultExplainConcurrency = 4
	DefaultExplainTimeout     = 2 * time.Second
)

// AsRole explains as role (set_config('role', role, true) in each EXPLAIN's
// transaction), the role the query will run as: privileges, row-level
// security and pinning (a relation of an untrusted owner is read only by
// that owner) are judged for it. The pool's login role must be a member of
// role. "" is the login role.
func AsRole(role string) ExplainOption {
	return explainOptionFunc(func(c *explainConfig) { c.role = role })
}

// Setting sets the custom setting name (CustomSetting) to value in each
// EXPLAIN's transaction (SET LOCAL), as the executor's Setting does for the
// query: row-level security policies that read the request's identity plan
// as they will run. Other names fail each candidate.
func Setting(name, value string) ExplainOption {
	return explainOptionFunc(func(c *explainConfig) { c.settings = append(c.settings, [2]string{name, value}) })
}

// Concurrency bounds how many candidates are explained at once
// (default DefaultExplainConcurrency).
func Concurrency(n int) ExplainOption {
	return explainOptionFunc(func(c *explainConfig) {
		if n > 0 {
			c.concurrency = n
		}
	})
}

// Timeout sets the statement_timeout of each EXPLAIN (default
// DefaultExplainTimeout).
func Timeout(d time.Duration) ExplainOption {
	return explainOptionFunc(func(c *explainConfig) {
		if d > 0 {
			c.timeout = d
		}
	})
}

// explainPrefix asks for the expressions of the plan as the server
// resolved them (VERBOSE), for CheckPlan.
const explainPrefix = "EXPLAIN (VERBOSE, FORMAT JSON) "

// Explain validates every candidate with v and asks PostgreSQL to plan the
// ones that pass, concurrently. Each EXPLAIN runs in its own READ ONLY
// transaction with SET LOCAL statement_timeout, rolled back afterwards.
// Only validated SQL (Result.SQL) ever reaches the server. The verbose plan
// is then checked with CheckPlan: a plan it refuses fails the candidate
// with that *Error (SQLState empty, Validation nil). The results are in
// the order of sqls.
func (v *Validator) Explain(ctx context.Context, db DBTX, sqls []string, opts ...ExplainOption) []ExplainResult {
	cfg := explainConfig{concurrency: DefaultExplainConcurrency, timeout: DefaultExplainTimeout}
	for _, o := range opts {
		if o != nil {
			o.applyExplain(&cfg)
		}
	}
	out := make([]ExplainResult, len(sqls))
	sem := make(chan struct{}, cfg.concurrency)
	var wg sync.WaitGroup
	for i, sql := range sqls {
		out[i].Location = -1
		res, err := v.Validate(sql)
		if err != nil {
			out[i].Err = err
			out[i].Message = err.Error()
			continue
		}
		out[i].SQL, out[i].Validation = res.SQL, res
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			out[i].Err = ctx.Err()
			out[i].Message = ctx.Err().Error()
			continue
		}
		wg.Add(1)
		go func(r *ExplainResult) {
			defer func() { <-sem; wg.Done() }()
			v.explainOne(ctx, db, r, cfg.timeout, searchPathSetting(v.cfg.searchPath), cfg.role, cfg.settings)
		}(&out[i])
	}
	wg.Wait()
	return out
}

// searchPathSetting renders a search path as a search_path value: quoted
// identifiers, pg_temp last so a temporary table cannot shadow a validated
// name. The planner must resolve names exactly as the validator did.
func searchPathSetting(path []string) string {
	parts := make([]string, 0, len(path)+1)
	for _, s := range path {
		parts = append(parts, pgx.Identifier{s}.Sanitize())
	}
	return strings.Join(append(parts, "pg_temp"), ", ")
}

func (v *Validator) explainOne(ctx context.Context, db DBTX, r *ExplainResult, timeout time.Duration, searchPath, role string,
	settings [][2]string) {
	fail := func(err error) {
		r.Err = err
		r.Message = err.Error()
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			r.SQLState, r.Message = pe.Code, pe.Message
			if p := int(pe.Position) - 1 - len(explainPrefix); pe.Position > 0 && p >= 0 {
				r.Location = byteOffset(r.SQL, p)
			}
		}
	}
	// BeginTx waits for a pooled connection as long as the caller lets it:
	// under load requests queue there, and the queue is not the plan's
	// fault. From then on a client-side deadline backs up the server-side
	// statement timeout.
	tx, err := db.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		fail(fmt.Errorf("validate: explain: begin: %w", err))
		return
	}
	cctx, cancel := context.WithTimeout(ctx, timeout+time.Second)
	defer cancel()
	var ended sync.Once
	end := func() {
		ended.Do(func() {
			rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer rcancel()
			_ = tx.Rollback(rctx)
		})
	}
	defer end()
	// The validator lexes string literals the standard way; so must the
	// server, whatever the session says, or 'a\' would end elsewhere.
	// jit off: the catalog checks' plans would be compiled (hundreds of
	// milliseconds each), and an EXPLAIN compiles nothing. Their statements
	// are prepared once per connection (pgx's statement cache), with
	// generic plans: planning them costs more than running them.
	if _, err := tx.Exec(cctx, "SELECT set_config('statement_timeout', $1, true), set_config('search_path', $2, true), "+
		"set_config('standard_conforming_strings', 'on', true), set_config('jit', 'off', true), "+
		"set_config('plan_cache_mode', 'force_generic_plan', true)",
		fmt.Sprint(timeout.Milliseconds()), searchPath); err != nil {
		fail(fmt.Errorf("validate: explain: set timeout and search path: %w", err))
		return
	}
	for _, kv := range settings {
		if !CustomSetting(kv[0]) {
			fail(fmt.Errorf("validate: explain: setting %q: only custom dotted names may be set", kv[0]))
			return
		}
		if _, err := tx.Exec(cctx, "SELECT pg_catalog.set_config($1, $2, true)", pgx.QueryExecModeExec, kv[0], kv[1]); err != nil {
			fail(fmt.Errorf("validate: explain: setting %s: %w", kv[0], err))
			return
		}
	}
	if role != "" {
		// The role is set last: set_config takes the name itself.
		if _, err := tx.Exec(cctx, "SELECT pg_catalog.set_config('role', $1, true)", pgx.QueryExecModeExec, role); err != nil {
			fail(fmt.Errorf("validate: explain: set role: %w", err))
			return
		}
	}
	refused := func(err error) bool {
		var ve *Error
		if errors.As(err, &ve) {
			ve.SQL = r.SQL
			r.Err, r.Message, r.Validation = err, err.Error(), nil
			return true
		}
		return false
	}
	// Pin the query's name resolution (pin.go), then, before the planner
	// folds a look-alike on constants, the catalog check under the pinned
	// path and the same role.
	pin, err := v.pin(cctx, tx, r.Validation)
	if err != nil {
		if !refused(err) {
			fail(fmt.Errorf("validate: explain: pin: %w", err))
		}
		return
	}
	look, err := v.lookalikes(cctx, tx, fmt.Sprintf("%p", db), r.Validation, pin)
	if err != nil {
		if !refused(err) {
			fail(fmt.Errorf("validate: explain: look-alike check: %w", err))
		}
		return
	}
	// QueryExecModeExec uses the extended protocol, which refuses more than
	// one statement, without filling the prepared statement cache.
	var plan []byte
	if err := tx.QueryRow(cctx, explainPrefix+pin.SQL, pgx.QueryExecModeExec).Scan(&plan); err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Position > int32(len(explainPrefix)) {
			pe.Position = int32(pin.Position(int(pe.Position)-len(explainPrefix)) + len(explainPrefix))
		}
		fail(fmt.Errorf("validate: explain: %w", err))
		return
	}
	// The plan is read: give the connection back before checking it, so
	// that requests queued for the pool do not wait on the parse.
	end()
	var parsed []struct {
		Plan struct {
			TotalCost float64 `json:"Total Cost"`
			PlanRows  float64 `json:"Plan Rows"`
		} `json:"Plan"`
	}
	if err := json.Unmarshal(plan, &parsed); err != nil || len(parsed) != 1 {
		fail(fmt.Errorf("validate: explain: unexpected plan format: %v", err))
		return
	}
	r.Plan = plan
	figures, relations, err := v.checkPlan(plan, []PlanOption{Against(look)})
	r.Figures, r.Relations = figures, relations
	if err != nil {
		var ve *Error
		if errors.As(err, &ve) {
			ve.SQL = r.SQL
		}
		r.Err, r.Message, r.Validation = err, err.Error(), nil
		return
	}
	r.TotalCost = parsed[0].Plan.TotalCost
	r.PlanRows = parsed[0].Plan.PlanRows
}

// pin runs PinQuery in tx, locks what Pin says and sets the pinned
// search path.
func (v *Validator) pin(ctx context.Context, tx pgx.Tx, res *Result) (*Pin, error) {
	sql, params := v.PinQuery(res)
	found, err := catalogRows(ctx, tx, sql, params)
	if err != nil {
		return nil, err
	}
	p, err := v.Pin(res, found)
	if err != nil {
		return nil, err
	}
	if p.Lock != "" {
		if _, err := tx.Exec(ctx, p.Lock, pgx.QueryExecModeExec); err != nil {
			return nil, err
		}
	}
	if _, err := tx.Exec(ctx, "SELECT pg_catalog.set_config('search_path', $1, true)", pgx.QueryExecModeExec, p.SearchPath); err != nil {
		return nil, err
	}
	return p, nil
}

// lookalikes runs the look-alike check of res in tx: LookalikeQuery (its
// rows kept per database handle dbKey and pinned path for LookalikeTTL),
// then the objects query of the pinned relations where the database holds
// user functions, views, policies or domain constraints.
func (v *Validator) lookalikes(ctx context.Context, tx pgx.Tx, dbKey string, res *Result, pin *Pin) (*Lookalikes, error) {
	key := dbKey + "\x00" + pin.SearchPath
	found, ok := v.looks.Get(key)
	if !ok {
		sql, params := v.LookalikeQuery(res)
		var err error
		if found, err = catalogRows(ctx, tx, sql, params); err != nil {
			return nil, err
		}
		v.looks.Put(key, found)
	}
	l, err := v.CheckLookalikes(res, found)
	if err != nil || !pin.NeedsObjects() {
		return l, err
	}
	sql, params := v.PinnedObjectsQuery(pin)
	okey := key + "\x00" + strings.Join(params, "\x00")
	found, ok = v.objects.Get(okey)
	if !ok {
		if found, err = catalogRows(ctx, tx, sql, params); err != nil {
			return nil, err
		}
	}
	ol, err := v.CheckLookalikes(res, found)
	if !ok && ol.Reusable() {
		v.objects.Put(okey, found) // only trusted owners can change it
	}
	if err != nil {
		return nil, err
	}
	return l, nil
}

// catalogRows runs one of the catalog checks' queries (pin, look-alike,
// objects), whose columns are all text.
func catalogRows(ctx context.Context, tx pgx.Tx, sql string, params []string) ([][]string, error) {
	args := []any{pgx.QueryExecModeCacheStatement}
	for _, p := range params {
		args = append(args, p)
	}
	rows, err := tx.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) ([]string, error) {
		out := make([]string, len(row.FieldDescriptions()))
		dst := make([]any, len(out))
		for i := range out {
			dst[i] = &out[i]
		}
		return out, row.Scan(dst...)
	})
}
