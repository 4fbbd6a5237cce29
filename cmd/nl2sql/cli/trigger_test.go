package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestTrigger: trigger prints the event trigger's SQL; --apply installs
// it, and DDL on the database then notifies the channel servers listen on.
func TestTrigger(t *testing.T) {
	code, out, errs := cli(t, "trigger")
	if code != 0 || out != nl2sql.CatalogTriggerSQL || !strings.Contains(out, "CREATE EVENT TRIGGER nl2sql_catalog_changed ON ddl_command_end") {
		t.Fatalf("trigger: exit %d\n%s%s", code, out, errs)
	}
	dsn := erptest.Single(t)
	if code, out, errs := cli(t, "trigger", "--apply", "--dsn", dsn); code != 0 || !strings.Contains(out, "Installed") {
		t.Fatalf("trigger --apply: exit %d\n%s%s", code, out, errs)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	conn, err := pgtest.Pool(t, dsn).Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "LISTEN "+nl2sql.CatalogChannel); err != nil {
		t.Fatal(err)
	}
	pgtest.Exec(t, dsn, "CREATE TABLE trigger_probe (id int)")
	n, err := conn.Conn().WaitForNotification(ctx)
	if err != nil || n.Payload != "CREATE TABLE" {
		t.Fatalf("after CREATE TABLE: %+v, %v", n, err)
	}
	if _, err := conn.Exec(ctx, "UNLISTEN *"); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := cli(t, "trigger", "extra"); code != 2 || !strings.Contains(errs, "no arguments") {
		t.Errorf("trigger extra: exit %d %s", code, errs)
	}
}

// TestServeRefresh: the console started with --refresh-every shows a
// column a migration adds while it runs, without a restart.
func TestServeRefresh(t *testing.T) {
	dsn := erptest.Single(t)
	base, stop := serveInProcess(t, "--dsn", dsn, "--llm", "none", "--refresh-every", "200ms")
	if _, body := getPage(t, base+"/schema/public.projects"); !strings.Contains(body, "budget_amt") || strings.Contains(body, "risk_rating") {
		t.Fatalf("before the migration: %s", body)
	}
	pgtest.Exec(t, dsn, "ALTER TABLE projects ADD COLUMN risk_rating int")
	deadline := time.Now().Add(time.Minute)
	for {
		_, body := getPage(t, base+"/schema/public.projects")
		if strings.Contains(body, "risk_rating") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the console does not show the new column after a minute:\n%s", body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code := stop(); code != 0 {
		t.Errorf("exit %d after shutdown", code)
	}
	if code, _, errs := cli(t, "serve", "--dsn", dsn, "--refresh-every", "-1s"); code != 2 || !strings.Contains(errs, "--refresh-every must not be negative") {
		t.Errorf("serve --refresh-every -1s: exit %d %s", code, errs)
	}
}
