package workload

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Statement is one SQL statement of a workload and how many times it ran.
type Statement struct {
	SQL   string `json:"sql"`
	Calls int    `json:"calls,omitempty"` // 0 means once
}

// maxLine bounds one line of input (a JSONL record with a long query).
const maxLine = 16 << 20

// Read reads statements, one per line: plain SQL, or a JSON object with a
// "query" or "sql" string and an optional "calls" number (the format is
// detected per line, so the two may be mixed). Blank lines and "--"
// comment lines are skipped; a trailing semicolon is dropped. A JSON line
// that does not parse, or has neither field, is an error naming its line.
func Read(r io.Reader) ([]Statement, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	var out []Statement
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "--") {
			continue
		}
		st := Statement{SQL: s}
		if strings.HasPrefix(s, "{") {
			var rec struct {
				Query *string  `json:"query"`
				SQL   *string  `json:"sql"`
				Calls *float64 `json:"calls"`
			}
			if err := json.Unmarshal([]byte(s), &rec); err != nil {
				return nil, fmt.Errorf("workload: line %d: %w", line, err)
			}
			switch {
			case rec.Query != nil:
				st.SQL = *rec.Query
			case rec.SQL != nil:
				st.SQL = *rec.SQL
			default:
				return nil, fmt.Errorf("workload: line %d: a JSON record needs a \"query\" or \"sql\" field", line)
			}
			if rec.Calls != nil && *rec.Calls > 0 {
				st.Calls = int(*rec.Calls)
			}
		}
		st.SQL = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(st.SQL), ";"))
		if st.SQL != "" {
			out = append(out, st)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("workload: line %d: %w", line+1, err)
	}
	return out, nil
}

// Querier is what FromStatStatements needs of a database handle;
// *pgx.Conn, *pgxpool.Pool and pgx.Tx satisfy it (as schema.Querier).
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// ErrNoStatStatements is returned (wrapped) by FromStatStatements when the
// pg_stat_statements extension is not installed in the database, or not
// loaded (shared_preload_libraries).
var ErrNoStatStatements = errors.New("workload: pg_stat_statements is not available")

// FromStatStatements reads the statements pg_stat_statements recorded for
// the current database, with their calls, most called first. Their texts
// hold parameters ($1) for constants; Learn reads them as literals.
func FromStatStatements(ctx context.Context, db Querier) ([]Statement, error) {
	rows, err := db.Query(ctx, `SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
WHERE e.extname = 'pg_stat_statements'`)
	if err != nil {
		return nil, fmt.Errorf("workload: looking for pg_stat_statements: %w", err)
	}
	nsp, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("workload: looking for pg_stat_statements: %w", err)
	}
	if len(nsp) == 0 {
		return nil, fmt.Errorf("%w: the extension is not installed in this database (CREATE EXTENSION pg_stat_statements, with it in shared_preload_libraries)", ErrNoStatStatements)
	}
	view := pgx.Identifier{nsp[0], "pg_stat_statements"}.Sanitize()
	rows, err = db.Query(ctx, `SELECT query, calls FROM `+view+`
WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query IS NOT NULL
ORDER BY calls DESC, query`)
	if err == nil {
		var out []Statement
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Statement, error) {
			var st Statement
			var calls int64
			err := r.Scan(&st.SQL, &calls)
			st.Calls = int(min(calls, 1<<31-1))
			return st, err
		})
		if err == nil {
			return out, nil
		}
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "55000" { // object_not_in_prerequisite_state: not preloaded
		return nil, fmt.Errorf("%w: %s", ErrNoStatStatements, pe.Message)
	}
	return nil, fmt.Errorf("workload: reading pg_stat_statements: %w", err)
}
