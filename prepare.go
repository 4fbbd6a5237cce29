package nl2sql

import (
	"context"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// Prepare reads the catalog and builds the index (and, unless disabled, the
// value index). It runs once; later calls return at once. Call it at start-up
// to keep the first question fast, or Refresh after schema changes.
func (e *Engine) Prepare(ctx context.Context) (err error) {
	defer finish(ctx, &err)
	_, err = e.newRequest(ctx, nil, nil)
	return err
}

// Refresh re-reads the catalog and re-indexes what changed (nothing when the
// fingerprint is unchanged). Questions asked meanwhile are answered on the
// state it replaces; those asked after it returns, on the new one.
func (e *Engine) Refresh(ctx context.Context) (err error) {
	defer finish(ctx, &err)
	if err := e.usable(ctx); err != nil {
		return err
	}
	return e.rebuild(ctx, false)
}

// Catalog returns the catalog the engine works with, reading it if needed.
func (e *Engine) Catalog(ctx context.Context) (_ *schema.Catalog, err error) {
	defer finish(ctx, &err)
	rq, err := e.newRequest(ctx, nil, nil)
	if err != nil {
		return nil, err
	}
	return rq.st.cat, nil
}
