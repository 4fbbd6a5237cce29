package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// RoleName returns prefix and a random suffix as a role name, dropped (if
// it exists) when the test ends: ask for it before the test's databases,
// whose cleanups then run first.
func RoleName(t testing.TB, prefix string) string {
	t.Helper()
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := prefix + hex.EncodeToString(b[:])
	admin := AdminDSN(t)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		conn, err := pgx.Connect(ctx, admin)
		if err != nil {
			t.Logf("drop role: %v", err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP ROLE IF EXISTS "+pgx.Identifier{name}.Sanitize()); err != nil {
			t.Logf("drop role %q: %v", name, err)
		}
	})
	return name
}

// Role creates a role with a unique name (quotes and all) and the given
// extra options, dropped when the test ends (see RoleName).
func Role(t testing.TB, options string) string {
	t.Helper()
	name := RoleName(t, `priv "té'st `)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, AdminDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE ROLE "+pgx.Identifier{name}.Sanitize()+" "+options); err != nil {
		t.Fatal(err)
	}
	return name
}
