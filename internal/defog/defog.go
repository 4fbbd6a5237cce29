// Package defog reads the defog PostgreSQL text-to-SQL evaluation data
// (defog-ai/defog-data databases and defog-ai/sql-eval questions) from the
// shared dataset directory, never from the repository: the data is not
// committed. Tests that use it skip when Dir reports it absent.
//
//	dir, ok := defog.Dir()
//	if !ok { t.Skip("defog dataset not available") }
//	qs, err := defog.Questions()
//	for _, q := range qs { for _, sql := range defog.Expand(q.Query) { ... } }
package defog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql/internal/datasets"
)

// EnvDir names the environment variable that overrides the dataset location.
const EnvDir = "NL2SQL_DEFOG_DIR"

// ErrNotFound is returned when the dataset directory cannot be located.
var ErrNotFound = errors.New("defog: dataset directory not found")

// Dir locates the dataset: $NL2SQL_DEFOG_DIR, else ../shared/datasets/defog
// relative to the repository root found by walking up from the working
// directory (the directory holding go.mod).
func Dir() (string, bool) { return datasets.Locate(EnvDir, "defog", isDataset) }

func isDataset(d string) bool {
	st, err := os.Stat(filepath.Join(d, "questions"))
	if err != nil || !st.IsDir() {
		return false
	}
	st, err = os.Stat(filepath.Join(d, "databases"))
	return err == nil && st.IsDir()
}

// Question is one row of a questions CSV file.
type Question struct {
	Question     string
	Query        string // gold SQL in sql-eval notation: see Expand
	DBName       string
	Category     string // query_category
	Instructions string // empty when the file has no instructions column
	File         string // base name of the CSV file
	Line         int    // 1-based record number in the file (header excluded)
}

// Questions reads every questions/*.csv file, in file name order.
func Questions() ([]Question, error) {
	dir, ok := Dir()
	if !ok {
		return nil, ErrNotFound
	}
	files, err := filepath.Glob(filepath.Join(dir, "questions", "*.csv"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Question
	for _, f := range files {
		qs, err := readQuestions(f)
		if err != nil {
			return nil, err
		}
		out = append(out, qs...)
	}
	return out, nil
}

func readQuestions(path string) ([]Question, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	recs := parseCSV(strings.ReplaceAll(string(b), "\r\n", "\n"))
	if len(recs) == 0 {
		return nil, fmt.Errorf("defog: %s: no header", path)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[strings.TrimSpace(h)] = i
	}
	for _, need := range []string{"question", "query", "db_name"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("defog: %s: no %q column", path, need)
		}
	}
	get := func(rec []string, name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return rec[i]
		}
		return ""
	}
	var out []Question
	for i, rec := range recs[1:] {
		if len(rec) != len(recs[0]) {
			return nil, fmt.Errorf("defog: %s: record %d has %d fields, the header %d", path, i+1, len(rec), len(recs[0]))
		}
		out = append(out, Question{
			Question: get(rec, "question"), Query: get(rec, "query"), DBName: get(rec, "db_name"),
			Category: get(rec, "query_category"), Instructions: get(rec, "instructions"),
			File: filepath.Base(path), Line: i + 1,
		})
	}
	return out, nil
}

// parseCSV reads CSV the way the dataset was written (Python's csv module):
// a quote closing a quoted field may be followed by more unquoted text,
// which encoding/csv rejects even with LazyQuotes. Line ends must be \n.
func parseCSV(s string) [][]string {
	var recs [][]string
	var rec []string
	var field strings.Builder
	quoted, started := false, false
	endField := func() {
		rec = append(rec, field.String())
		field.Reset()
		started = false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '"' && i+1 < len(s) && s[i+1] == '"':
			field.WriteByte('"')
			i++
		case quoted && c == '"':
			quoted = false
		case quoted:
			field.WriteByte(c)
		case c == '"' && field.Len() == 0 && !started:
			quoted, started = true, true
		case c == ',':
			endField()
		case c == '\n':
			endField()
			recs = append(recs, rec)
			rec = nil
		default:
			field.WriteByte(c)
			started = true
		}
	}
	if field.Len() > 0 || len(rec) > 0 {
		endField()
		recs = append(recs, rec)
	}
	return recs
}

// Databases lists the database names with a dump in databases/.
func Databases() ([]string, error) {
	dir, ok := Dir()
	if !ok {
		return nil, ErrNotFound
	}
	files, err := filepath.Glob(filepath.Join(dir, "databases", "*.sql"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		out = append(out, strings.TrimSuffix(filepath.Base(f), ".sql"))
	}
	sort.Strings(out)
	return out, nil
}

// Script returns the SQL dump of a database (schema and rows).
func Script(dbName string) (string, error) {
	dir, ok := Dir()
	if !ok {
		return "", ErrNotFound
	}
	if dbName == "" || strings.ContainsAny(dbName, `/\.`) {
		return "", fmt.Errorf("defog: invalid database name %q", dbName)
	}
	b, err := os.ReadFile(filepath.Join(dir, "databases", dbName+".sql"))
	if err != nil {
		return "", fmt.Errorf("defog: database %s: %w", dbName, err)
	}
	return string(b), nil
}

// Schema returns the schema a database's tables live in: consumer_div for
// ewallet, public for the others.
func Schema(dbName string) string {
	if dbName == "ewallet" {
		return "consumer_div"
	}
	return "public"
}

// LoadDatabase runs databases/<dbName>.sql on conn, which should be
// connected to a fresh, empty database.
func LoadDatabase(ctx context.Context, conn *pgx.Conn, dbName string) error {
	script, err := Script(dbName)
	if err != nil {
		return err
	}
	// The simple protocol runs the whole multi-statement dump in one call.
	if _, err := conn.PgConn().Exec(ctx, script).ReadAll(); err != nil {
		return fmt.Errorf("defog: load %s: %w", dbName, err)
	}
	return nil
}
