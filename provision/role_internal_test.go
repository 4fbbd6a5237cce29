package provision

import (
	"context"
	"encoding/base64"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestSCRAMVerifierMatchesServer: for the server's own salt and iteration
// count, scramVerifier computes exactly the verifier the server stored for
// the same password, and a verifier passed as the password is stored as is.
func TestSCRAMVerifierMatchesServer(t *testing.T) {
	ctx := context.Background()
	name := pgtest.Role(t, "LOGIN")
	conn, err := pgx.Connect(ctx, pgtest.AdminDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "SET password_encryption = 'scram-sha-256'"); err != nil {
		t.Fatal(err)
	}
	stored := func() string {
		var s string
		if err := conn.QueryRow(ctx, "SELECT rolpassword FROM pg_authid WHERE rolname = $1", name).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, pw := range []string{"secret", `it's a "pass" word\ with $dollars$ and spaces`, "~!@#%^&*()_+`-={}|[]:;<>?,./", "x"} {
		if _, err := conn.Exec(ctx, "ALTER ROLE "+ident(name)+" PASSWORD "+quoteLiteral(pw)); err != nil {
			t.Fatal(err)
		}
		server := stored()
		// SCRAM-SHA-256$<iter>:<salt>$<StoredKey>:<ServerKey>
		head, _, ok := strings.Cut(strings.TrimPrefix(server, "SCRAM-SHA-256$"), "$")
		iterText, saltText, ok2 := strings.Cut(head, ":")
		iter, err := strconv.Atoi(iterText)
		salt, err2 := base64.StdEncoding.DecodeString(saltText)
		if !ok || !ok2 || err != nil || err2 != nil {
			t.Fatalf("server verifier %q", server)
		}
		mine, err := scramVerifier(pw, salt, iter)
		if err != nil || mine != server {
			t.Errorf("password %q:\nserver %s\nours   %s (%v)", pw, server, mine, err)
		}

		lit, err := passwordLiteral(pw)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, "ALTER ROLE "+ident(name)+" PASSWORD "+lit); err != nil {
			t.Fatal(err)
		}
		if got := stored(); "'"+got+"'" != lit || got == server {
			t.Errorf("password %q: stored %s, sent %s", pw, got, lit)
		}
	}
}
