// Command nl2sql is the command-line door to the nl2sql library.
//
//	nl2sql ask [--llm SPEC] [--dry-run] [--json] [--jsonl FILE] QUESTION
//	nl2sql retrieve [--json] [--jsonl FILE] QUESTION
//	nl2sql check [--json] [--jsonl FILE] SQL|-
//	nl2sql exam --exam FILE.csv [--out FILE.jsonl] [--llm SPEC|none]
//	nl2sql repair [--jsonl FILE] SQL|-
//	nl2sql pick --jsonl FILE
//	nl2sql calibrate --answers FILE.jsonl --out FILE.json
//	nl2sql index --out FILE
//	nl2sql schema [--include PAT]... [--exclude PAT]... [--json] [TABLE...]
//	nl2sql role [--name NAME] [--schema S]... [--apply --dsn ADMIN_DSN]
//	nl2sql learn [--index FILE|--store DSN] [--note TEXT] QUESTION SQL
//	nl2sql learn [--index FILE|--store DSN] --jsonl FILE | --csv FILE
//	nl2sql learn --workload [FILE|-] [--out FILE]
//	nl2sql knowledge [--index FILE|--store DSN] list|export|forget ID...
//
// Common flags: --dsn (or $NL2SQL_DSN / $DATABASE_URL), --scope SCHEMA,
// --index FILE, --store DSN (or $NL2SQL_STORE_DSN), --json. See docs/cli.md for
// the JSON shapes.
//
// Exit status: 0 success (an uncertain answer too: ask prints it with a
// caveat), 1 a negative answer, 2 usage or connection error (with a
// one-line reason on stderr), 3 ask abstained: the answer's confidence is
// below --min-confidence (the query did not run; the reasons and the
// alternatives are printed).
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/nl2sqlgo/nl2sql/cmd/nl2sql/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr, cli.Hooks{})
	stop()
	os.Exit(code)
}
