package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/cliflags"
)

const triggerUsage = `usage: nl2sql trigger [--apply --dsn DSN]

Prints the SQL of the event trigger that tells long-running servers (serve,
the MCP server, an Engine with WithRefreshEvery) at once that the catalog
changed: at the end of every DDL command it notifies the channel
` + nl2sql.CatalogChannel + `, and a server that finds the trigger LISTENs there
instead of waiting for its next --refresh-every check. With --apply runs it
on --dsn, as a superuser (event triggers need one). Remove it with
DROP EVENT TRIGGER nl2sql_catalog_changed.`

// runTrigger is the trigger command: print CatalogTriggerSQL, or run it.
func runTrigger(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("trigger", stderr)
	var db cliflags.Database
	db.Register(fs, "PostgreSQL connection string, a superuser's (default $NL2SQL_DSN, then $DATABASE_URL); needed by --apply")
	apply := fs.Bool("apply", false, "run the SQL on --dsn instead of printing it")
	fs.Usage = func() {
		fmt.Fprintln(stderr, triggerUsage)
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("trigger takes no arguments, got %q", pos)
	}
	if !*apply {
		_, err := io.WriteString(stdout, nl2sql.CatalogTriggerSQL)
		return err
	}
	pool, err := connect(ctx, &db)
	if err != nil {
		return err
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, nl2sql.CatalogTriggerSQL); err != nil {
		return &exitError{code: 1, err: fmt.Errorf("installing the catalog trigger: %w", err)}
	}
	fmt.Fprintf(stdout, "-- Installed: DDL on this database notifies %s.\n", nl2sql.CatalogChannel)
	return nil
}
