// Package spider reads the spider-pools benchmark (../shared/datasets/
// spider-pools): 972 Spider questions on 19 PostgreSQL databases, each with
// the SQL of eight published text-to-SQL systems. It never reads from the
// repository: the data is not committed, and tests that use it skip when Dir
// reports it absent.
//
//	pools, err := spider.Pools()
//	err = spider.LoadDatabase(ctx, conn, "concert_singer")
//	ok := spider.Equal(spider.Normalize(rows), pool.GoldResult)
package spider

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql/internal/datasets"
)

// EnvDir names the environment variable that overrides the dataset location.
const EnvDir = "NL2SQL_SPIDER_DIR"

// ErrNotFound is returned when the dataset directory cannot be located.
var ErrNotFound = errors.New("spider: dataset directory not found")

// Dir locates the dataset: $NL2SQL_SPIDER_DIR, else
// ../shared/datasets/spider-pools relative to the repository root found by
// walking up from the working directory (the directory holding go.mod).
func Dir() (string, bool) { return datasets.Locate(EnvDir, "spider-pools", isDataset) }

func isDataset(d string) bool {
	for _, f := range []string{"pools.jsonl.gz", "databases.sql.gz"} {
		if st, err := os.Stat(filepath.Join(d, f)); err != nil || st.IsDir() {
			return false
		}
	}
	return true
}

// Pool is one question with its candidates.
type Pool struct {
	ID       string `json:"id"`
	DB       string `json:"db"` // Spider's name; the PostgreSQL database is "sp_" + lower(DB)
	Question string `json:"question"`
	GoldSQL  string `json:"gold_sql"` // SQLite dialect
	// GoldResult is the gold query's result on SQLite, normalised as
	// Normalize does.
	GoldResult [][]string `json:"gold_result"`
	Systems    []string   `json:"systems"`
	Candidates []string   `json:"candidates"` // one per system
}

// Database is the PostgreSQL database name of the pool's Spider database.
func (p *Pool) Database() string { return "sp_" + strings.ToLower(p.DB) }

// openGzip opens the gzip file name of the dataset directory dir.
func openGzip(dir, name string) (io.Reader, func(), error) {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return nil, nil, err
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("spider: %s: %w", name, err)
	}
	return zr, func() { f.Close() }, nil
}

// Pools reads every question, in file order.
func Pools() ([]Pool, error) {
	dir, ok := Dir()
	if !ok {
		return nil, ErrNotFound
	}
	zr, closeFile, err := openGzip(dir, "pools.jsonl.gz")
	if err != nil {
		return nil, err
	}
	defer closeFile()
	var out []Pool
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var p Pool
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, fmt.Errorf("spider: pools line %d: %w", len(out)+1, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("spider: pools: %w", err)
	}
	return out, nil
}

var (
	scriptsOnce sync.Once
	scripts     map[string]string
	scriptsErr  error
)

// Script returns the pg_dump script of one database (by its PostgreSQL
// name, "sp_..."), without the psql meta-commands.
func Script(database string) (string, error) {
	scriptsOnce.Do(func() { scripts, scriptsErr = readScripts() })
	if scriptsErr != nil {
		return "", scriptsErr
	}
	s, ok := scripts[database]
	if !ok {
		return "", fmt.Errorf("spider: no database %q in databases.sql.gz", database)
	}
	return s, nil
}

// Databases lists the PostgreSQL names of the dataset's databases, sorted.
func Databases() ([]string, error) {
	scriptsOnce.Do(func() { scripts, scriptsErr = readScripts() })
	if scriptsErr != nil {
		return nil, scriptsErr
	}
	out := make([]string, 0, len(scripts))
	for db := range scripts {
		out = append(out, db)
	}
	sort.Strings(out)
	return out, nil
}

// readScripts splits databases.sql.gz at its "\connect" lines.
func readScripts() (map[string]string, error) {
	dir, ok := Dir()
	if !ok {
		return nil, ErrNotFound
	}
	zr, closeFile, err := openGzip(dir, "databases.sql.gz")
	if err != nil {
		return nil, err
	}
	defer closeFile()
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("spider: databases: %w", err)
	}
	out := map[string]string{}
	var cur string
	var sb strings.Builder
	flush := func() {
		if cur != "" {
			out[cur] = sb.String()
		}
		sb.Reset()
	}
	for _, line := range strings.SplitAfter(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, `\connect `):
			flush()
			cur = strings.TrimSpace(strings.TrimPrefix(line, `\connect `))
		case strings.HasPrefix(line, "CREATE DATABASE "),
			strings.HasPrefix(line, `\restrict `), strings.HasPrefix(line, `\unrestrict `):
		default:
			sb.WriteString(line)
		}
	}
	flush()
	if len(out) == 0 {
		return nil, errors.New("spider: databases.sql.gz holds no database")
	}
	return out, nil
}

// LoadDatabase runs the dump of database ("sp_...") on conn, which should be
// connected to a fresh, empty database. COPY ... FROM stdin blocks are sent
// through the copy protocol; everything else runs as simple queries. It
// ends with ANALYZE.
func LoadDatabase(ctx context.Context, conn *pgx.Conn, database string) error {
	script, err := Script(database)
	if err != nil {
		return err
	}
	lines := strings.SplitAfter(script, "\n")
	var stmt strings.Builder
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.HasPrefix(line, "COPY ") && strings.HasSuffix(strings.TrimSpace(line), "FROM stdin;") {
			if err := run(ctx, conn, stmt.String()); err != nil {
				return err
			}
			stmt.Reset()
			var data strings.Builder
			for i++; i < len(lines) && strings.TrimRight(lines[i], "\n") != `\.`; i++ {
				data.WriteString(lines[i])
			}
			copySQL := strings.TrimSuffix(strings.TrimSpace(line), ";")
			if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(data.String()), copySQL); err != nil {
				return fmt.Errorf("spider: load %s: %s: %w", database, copySQL, err)
			}
			continue
		}
		stmt.WriteString(line)
	}
	if err := run(ctx, conn, stmt.String()); err != nil {
		return err
	}
	// Statistics now, not whenever autovacuum gets to it: the planner's
	// choice decides which tied rows an ORDER BY ... LIMIT returns, and a
	// copy of the database taken before and one taken after an automatic
	// ANALYZE would answer such questions differently.
	return run(ctx, conn, "ANALYZE")
}

func run(ctx context.Context, conn *pgx.Conn, sql string) error {
	if strings.TrimSpace(sql) == "" {
		return nil
	}
	if _, err := conn.PgConn().Exec(ctx, sql).ReadAll(); err != nil {
		return fmt.Errorf("spider: load: %w", err)
	}
	return nil
}
