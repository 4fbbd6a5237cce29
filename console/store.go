package console

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"github.com/nl2sqlgo/nl2sql"
)

// DefaultResultBudget is the bytes of results the console keeps unless
// WithResultBudget says otherwise.
const DefaultResultBudget = 64 << 20

// largeShare: a result over budget/largeShare is kept as its first page.
const largeShare = 8

// store keeps the latest results by ID, at most max of them and budget
// bytes (resultBytes) in all. One user asking for byte-capped results
// again and again once filled the memory with them (200 of 4 MiB each,
// several times that in Go values); now a large one keeps only its first
// page, and the oldest go when the budget is spent.
type store struct {
	mu     sync.Mutex
	max    int
	budget int64
	used   int64
	byID   map[string]*entry
	order  []string
}

// entry is one answer (Ask) or run (Run) the console showed.
type entry struct {
	ID       string
	Kind     string // "ask" or "run"
	Question string
	Evidence string
	Res      *nl2sql.Result
	Err      string
	At       time.Time
	// Chosen: the user chose this answer among the alternatives of
	// another ("Use this one"); Taught is the example it was kept as.
	Chosen bool
	Taught string
	// paged: Res holds the first page of the rows only (the result was
	// large); the pages are read from the database again.
	paged bool
	size  int64
	// caller is whose answer it is (WithIdentities): only its caller sees
	// it again.
	caller string

	chartOnce sync.Once
	chart     *chart
	cxMu      sync.Mutex
	cx        *nl2sql.SchemaContext
	cxErr     error
}

// context is the answer's schema context, built by build once and kept;
// a build cut short by its request's end (a reload, a closed tab) is not
// kept, so the next request builds it again instead of showing "context
// canceled" for good.
func (e *entry) context(ctx context.Context, build func(context.Context) (*nl2sql.SchemaContext, error)) (*nl2sql.SchemaContext, error) {
	e.cxMu.Lock()
	defer e.cxMu.Unlock()
	if e.cx != nil || e.cxErr != nil {
		return e.cx, e.cxErr
	}
	cx, err := build(ctx)
	if err != nil && ctx.Err() != nil {
		return cx, err
	}
	e.cx, e.cxErr = cx, err
	return cx, err
}

func newStore(max int, budget int64) *store {
	return &store{max: max, budget: budget, byID: map[string]*entry{}}
}

// put keeps e under a new ID. A large result is cut to its first page
// (after its chart is drawn from all of it); e.Res then points to a new
// Result, the caller's stays whole for the page it is rendering.
func (s *store) put(e *entry) {
	b := make([]byte, 9)
	rand.Read(b)
	e.ID = hex.EncodeToString(b)
	e.At = time.Now()
	e.size = resultBytes(e.Res) + int64(len(e.Question)+len(e.Evidence)+len(e.Err))
	if e.Res != nil && e.size > s.budget/largeShare {
		e.chartOf()
		cut := *e.Res
		cut.Rows = append([][]any(nil), e.Res.Rows[:min(PageSize, len(e.Res.Rows))]...)
		e.Res, e.paged = &cut, true
		e.size = resultBytes(e.Res) + int64(len(e.Question)+len(e.Evidence)+len(e.Err))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byID[e.ID] = e
	s.order = append(s.order, e.ID)
	s.used += e.size
	for len(s.order) > s.max || (s.used > s.budget && len(s.order) > 1) {
		s.used -= s.byID[s.order[0]].size
		delete(s.byID, s.order[0])
		s.order = s.order[1:]
	}
}

func (s *store) get(id string) *entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byID[id]
}

// resultBytes estimates the memory res holds: its values (strings and
// byte slices by length, the rest by their size) with the slice and
// interface headers around them, and its SQL texts.
func resultBytes(res *nl2sql.Result) int64 {
	if res == nil {
		return 0
	}
	n := int64(len(res.SQL) + len(res.Description))
	for _, c := range res.Candidates {
		n += int64(len(c.SQL)) + 64
	}
	for _, row := range res.Rows {
		n += 24 + 16*int64(len(row))
		for _, v := range row {
			n += valueBytes(v)
		}
	}
	return n
}

// valueBytes estimates one value: a json column's maps and slices by
// what they hold.
func valueBytes(v any) int64 {
	switch x := v.(type) {
	case string:
		return 16 + int64(len(x))
	case []byte:
		return 24 + int64(len(x))
	case []any:
		n := int64(24)
		for _, e := range x {
			n += 16 + valueBytes(e)
		}
		return n
	case map[string]any:
		n := int64(48)
		for k, e := range x {
			n += 32 + int64(len(k)) + valueBytes(e)
		}
		return n
	}
	return 24
}
