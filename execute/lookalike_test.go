package execute

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/lookalikes"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestLookalikes: a tenant's look-alikes (functions, aggregates, operators,
// casts, a domain, views, a policy, an index) never run through the
// executor. Bypassing the validator, each query returns div_02's secret or
// the error of a look-alike; validated, the names found on the path are
// pinned out of it (validate.Pin: the built-in answers) and the rest is
// refused with V025 or V029 before the server plans it (immutable
// look-alikes run while planning); when only the plan is checked (no
// pinning without the query's parse), everything is refused with V025; neither the error nor the debug log holds
// the secret or the marker, and the connection stays usable.
func TestLookalikes(t *testing.T) {
	f := lookalikes.New(t)
	pool := f.Pool(t)
	var log bytes.Buffer
	ex := New(pool, WithLogger(slog.New(slog.NewTextHandler(&syncWriter{w: &log}, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	scope := Scope("div_01", "public")
	for _, a := range lookalikes.Attacks {
		res, err := ex.Query(ctxT(t), a.SQL, scope, unvalidated())
		if got := fmt.Sprint(res, err); !strings.Contains(got, lookalikes.Secret) && (res == nil || !strings.Contains(fmt.Sprint(res.Rows), lookalikes.Secret)) {
			t.Errorf("%s: unvalidated, it does not reach the secret (%s): the case tests nothing", a.Name, got)
		}
		for i, opts := range [][]QueryOption{{scope}, {scope, planCheckOnly()}} {
			// Not validated, every name counts as used: the refusal lists
			// the first look-alikes of all.
			if i == 0 && a.OnPath() {
				// Pinned off the path: the built-in answers, or another
				// object of the relation read refuses the query.
				res, err := ex.Query(ctxT(t), a.SQL, opts...)
				var ve *validate.Error
				if got := fmt.Sprint(res, err); lookalikes.Leaked(got) || (res != nil && lookalikes.Leaked(fmt.Sprint(res.Rows))) {
					t.Errorf("%s: the look-alike ran: %s", a.Name, got)
				}
				if err != nil && (!errors.As(err, &ve) || !(ve.Has(validate.CodeLookalike) || ve.Has(validate.CodeMutable))) {
					t.Errorf("%s: got %v, want the built-in's answer or a V025/V029 refusal", a.Name, err)
				}
				continue
			}
			e := queryErr(t, ex, a.SQL, opts...)
			var ve *validate.Error
			refused := errors.Is(e, ErrRejected) && errors.As(e, &ve) && e.Op == "plan"
			if i == 0 {
				if !refused || !(ve.Has(validate.CodeMutable) || (ve.Has(validate.CodeLookalike) && strings.Contains(strings.ReplaceAll(e.Error(), "div_01.", ""), strings.ReplaceAll(a.Object, "div_01.", "")))) {
					t.Errorf("%s: got %v (op %s), want a V029 refusal or a V025 naming %s", a.Name, e, e.Op, a.Object)
				}
			} else if !refused || !ve.Has(validate.CodeLookalike) {
				t.Errorf("%s: got %v (op %s), want a V025 refusal", a.Name, e, e.Op)
			}
			if lookalikes.Leaked(e.Error()) {
				t.Errorf("%s: the look-alike ran: %v", a.Name, e)
			}
		}
	}
	if s := log.String(); lookalikes.Leaked(s) {
		t.Errorf("the log holds the secret or the marker:\n%s", s)
	}
	if !strings.Contains(log.String(), "look-alike refused") {
		t.Errorf("no refusal logged:\n%s", log.String())
	}
	// The connections were kept and are clean: the tenant's own table,
	// read as its owner, answers with the built-ins its look-alikes shadow
	// (pinned out of the path).
	pgtest.Exec(t, f.AdminDSN, "GRANT "+f.Tenant+" TO "+f.Engine)
	res := mustQuery(t, ex, "SELECT lower(name) AS x FROM plain WHERE id = ANY ('{1,2}') ORDER BY 1", scope, AsRole(f.Tenant))
	if res.RowCount != 2 || res.Rows[0][0] != "ann" {
		t.Errorf("qualified built-in: %v", res.Rows)
	}
}
