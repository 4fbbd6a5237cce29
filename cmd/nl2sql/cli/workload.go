package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/nl2sqlgo/nl2sql/workload"
)

// workloadTop is how many join edges and tables learn --workload prints.
const workloadTop = 10

// learnWorkload is learn --workload: it reads the statements (pos[0], "-"
// for stdin, none for pg_stat_statements), learns from them over the
// catalog, prints what was learnt and saves it to out.
func learnWorkload(ctx context.Context, s *sub, pos []string, out string) error {
	eng, err := s.open(ctx, nil)
	if err != nil {
		return err
	}
	defer s.close()
	var stmts []workload.Statement
	switch {
	case len(pos) == 0:
		stmts, err = workload.FromStatStatements(ctx, s.pool)
		if errors.Is(err, workload.ErrNoStatStatements) {
			return usageErr("%v; or give the statements in a FILE (one per line, or JSONL with \"query\" and \"calls\"), - for stdin", err)
		}
	case pos[0] == "-":
		stmts, err = workload.Read(os.Stdin)
	default:
		f, ferr := os.Open(pos[0])
		if ferr != nil {
			return usageErr("%v", ferr)
		}
		stmts, err = workload.Read(f)
		f.Close()
	}
	if err != nil {
		return usageErr("%v", err)
	}
	cat, err := eng.Catalog(ctx)
	if err != nil {
		return failed(err)
	}
	k := workload.Learn(cat, stmts, workload.WithSearchPath(searchPath(s.scope)...))
	if out != "" {
		if err := writeAtomic(out, func(w io.Writer) error { return writeJSON(w, k) }); err != nil {
			return err
		}
	}
	var none error
	if k.Kept == 0 {
		none = &exitError{code: 1, err: fmt.Errorf("no statement of the %d read was kept (only read-only queries over this database's tables teach anything)", k.Statements)}
	}
	if s.json {
		if err := writeJSON(s.stdout, k); err != nil {
			return err
		}
		return none
	}
	w := s.stdout
	fmt.Fprintf(w, "statements: %d read, %d kept, %d rejected (%d calls kept)\n", k.Statements, k.Kept, k.Rejected, k.Calls)
	fmt.Fprintf(w, "join edges: %d\n", len(k.Edges))
	for _, e := range k.Edges[:min(len(k.Edges), workloadTop)] {
		fmt.Fprintf(w, "  %s = %s  (%d)\n", e.From, e.To, e.Count)
	}
	fmt.Fprintf(w, "tables: %d\n", len(k.Tables))
	for _, t := range k.Tables[:min(len(k.Tables), workloadTop)] {
		fmt.Fprintf(w, "  %s  (%d)\n", t.Name, t.Count)
	}
	if out != "" {
		fmt.Fprintf(w, "saved to %s (use it with --workload %s)\n", out, out)
	}
	return none
}

// readWorkload reads what learn --workload --out saved.
func readWorkload(name string) (*workload.Knowledge, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, usageErr("--workload: %v", err)
	}
	var k workload.Knowledge
	if err := json.Unmarshal(b, &k); err != nil {
		return nil, usageErr("--workload %s: not a workload saved by 'nl2sql learn --workload --out': %v", name, err)
	}
	return &k, nil
}
