// Command erp-load loads the demo ERP database (package examples/erp).
//
//	go run ./examples/erp/cmd/erp-load --dsn DSN [--divisions N | --rls] [--row-scale F] [--no-data] [--drop]
//
// The DSN may also come from NL2SQL_DSN or DATABASE_URL. --drop removes the
// ERP objects first, so the command can reload a database.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "erp-load:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		dsn     = flag.String("dsn", "", "PostgreSQL DSN (default $NL2SQL_DSN, then $DATABASE_URL)")
		opts    erp.Options
		drop    = flag.Bool("drop", false, "drop existing ERP objects first")
		verbose = flag.Bool("v", false, "log progress per schema")
	)
	flag.IntVar(&opts.Divisions, "divisions", 0, "number of division schemas (0 = single layout in public)")
	flag.Float64Var(&opts.RowScale, "row-scale", 0, fmt.Sprintf("row count multiplier (0 = 1 in single mode, %g per division)", erp.DefaultDivisionRowScale))
	flag.BoolVar(&opts.NoData, "no-data", false, "create tables only, no rows")
	flag.BoolVar(&opts.RLS, "rls", false, "row-level tenancy layout: tenant_id and RLS policies on every table holding a tenant's rows, login role "+erp.AppRole)
	flag.Parse()
	if *dsn == "" {
		*dsn = os.Getenv("NL2SQL_DSN")
	}
	if *dsn == "" {
		*dsn = os.Getenv("DATABASE_URL")
	}
	if *dsn == "" {
		return fmt.Errorf("no database: pass --dsn or set NL2SQL_DSN or DATABASE_URL")
	}
	if *verbose {
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	conn, err := pgx.Connect(ctx, *dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if *drop {
		start := time.Now()
		if err := erp.Drop(ctx, conn); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "dropped ERP objects in %v\n", time.Since(start).Round(time.Millisecond))
	}
	start := time.Now()
	if err := erp.Load(ctx, conn, opts); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "loaded ERP (divisions=%d, rls=%v, row-scale=%g, no-data=%v, version %s) in %v\n",
		opts.Divisions, opts.RLS, opts.RowScale, opts.NoData, erp.Version(), time.Since(start).Round(time.Millisecond))
	return nil
}
