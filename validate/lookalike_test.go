package validate_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/internal/lookalikes"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestLookalikesExplain: a tenant's look-alikes in div_01 (and public) never
// run during Explain: every attack is refused with V025 before the server
// plans it, and no result or error holds the marker or the secret. Each
// attack is first shown to leak the secret when run as the engine under
// the tenant's search path, and to pass the validator's static policy.
func TestLookalikesExplain(t *testing.T) {
	f := lookalikes.New(t)
	pool := pgtest.Pool(t, f.DSN)
	v := validate.New(validate.WithSearchPath("div_01", "public"))
	for _, a := range lookalikes.Attacks {
		if leaked := runRaw(pool, a.SQL); !strings.Contains(leaked, lookalikes.Secret) {
			t.Errorf("%s: run as is, it does not reach the secret (%s): the case tests nothing", a.Name, leaked)
		}
		if _, err := v.Validate(a.SQL); err != nil {
			t.Errorf("%s: the validator refuses it on its own (%v): the case tests nothing", a.Name, err)
			continue
		}
		r := v.Explain(context.Background(), pool, []string{a.SQL})[0]
		var ve *validate.Error
		if !errors.As(r.Err, &ve) || !ve.Has(validate.CodeLookalike) || r.Validation != nil ||
			!strings.Contains(r.Message, a.Object) {
			t.Errorf("%s: got %v, want a V025 refusal naming %s", a.Name, r.Err, a.Object)
		}
		for _, s := range []string{r.Message, string(r.Plan)} {
			if strings.Contains(s, lookalikes.Secret) || strings.Contains(s, lookalikes.Marker) {
				t.Errorf("%s: the look-alike ran: %s", a.Name, s)
			}
		}
	}
}

// runRaw runs sql as is under the tenant's search path, read-only, and
// returns its rows and error as text.
func runRaw(pool *pgxpool.Pool, sql string) string {
	ctx := context.Background()
	tx, err := pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return err.Error()
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, "SET LOCAL search_path = div_01, public"); err != nil {
		return err.Error()
	}
	rows, err := tx.Query(ctx, sql)
	if err != nil {
		return err.Error()
	}
	vals, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([]any, error) { return r.Values() })
	return fmt.Sprint(vals, err)
}
