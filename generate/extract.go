package generate

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// ErrNoSQL is returned when a reply holds no SELECT statement.
var ErrNoSQL = errors.New("generate: no SQL query in the reply")

// fence matches Markdown code fences; the language tag is optional.
var fence = regexp.MustCompile("(?s)```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n(.*?)```")

// ExtractSQL finds the query in an LLM reply: a JSON object with a "sql"
// field, fenced code blocks (sql-tagged ones first), or the reply text
// itself, in that order. A block holding several statements yields its first
// SELECT (or WITH ... SELECT); prose before or after the query is dropped.
// When nothing parses as PostgreSQL, a block that starts with SELECT or WITH
// is returned as written (another dialect, for repair to normalize). The
// result has no trailing semicolon; it is not validated.
func ExtractSQL(reply string) (string, error) {
	reply = strings.TrimSpace(reply)
	if reply == "" {
		return "", ErrNoSQL
	}
	var sources []string
	if strings.HasPrefix(reply, "{") {
		var obj struct {
			SQL   string `json:"sql"`
			Query string `json:"query"`
		}
		if json.Unmarshal([]byte(reply), &obj) == nil {
			sources = append(sources, obj.SQL, obj.Query)
		}
	}
	var tagged, untagged []string
	for _, m := range fence.FindAllStringSubmatch(reply, -1) {
		lang := strings.ToLower(m[1])
		switch lang {
		case "sql", "postgresql", "postgres", "pgsql", "psql":
			tagged = append(tagged, m[2])
		case "", "text":
			untagged = append(untagged, m[2])
		}
	}
	sources = append(sources, tagged...)
	sources = append(sources, untagged...)
	sources = append(sources, reply)
	for _, src := range sources {
		if sql, ok := firstSelect(src); ok {
			return sql, nil
		}
	}
	// Nothing parses as PostgreSQL: the model may have written another
	// dialect (backticks, TOP n, LIMIT a,b) that repair can normalize. Hand
	// over a block that reads like a query; validation decides later.
	for _, src := range sources {
		if sql, ok := dialectQuery(src); ok {
			return sql, nil
		}
	}
	return "", ErrNoSQL
}

// dialectQuery accepts text that starts with SELECT or WITH (any case) and
// holds no statement separator outside a trailing one.
func dialectQuery(text string) (string, bool) {
	text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), ";"))
	fields := strings.Fields(text)
	if len(fields) < 2 || strings.Contains(text, ";") {
		return "", false
	}
	switch strings.ToUpper(fields[0]) {
	case "SELECT", "WITH":
		return text, true
	}
	return "", false
}

// firstSelect returns the first statement of text that parses as a query.
// Prose before the query is skipped by starting at each SELECT/WITH keyword
// in turn (on the scanner's tokens, so keywords in strings don't count).
func firstSelect(text string) (string, bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "", false
	}
	if sql, ok := parseQuery(text); ok {
		return sql, true
	}
	scan, err := pg_query.Scan(text)
	if err != nil {
		return "", false
	}
	for _, tok := range scan.Tokens {
		if tok.Token != pg_query.Token_SELECT && tok.Token != pg_query.Token_WITH {
			continue
		}
		rest := text[tok.Start:]
		if sql, ok := parseQuery(rest); ok {
			return sql, true
		}
		// Prose after the query: cut at the first statement end or blank line.
		for _, cut := range []string{";", "\n\n"} {
			if i := strings.Index(rest, cut); i > 0 {
				if sql, ok := parseQuery(rest[:i]); ok {
					return sql, true
				}
			}
		}
	}
	return "", false
}

// parseQuery accepts text when it parses and its first statement is a
// SELECT; it returns that statement's text.
func parseQuery(text string) (string, bool) {
	stmts, err := pg_query.SplitWithParser(text, true)
	if err != nil || len(stmts) == 0 {
		return "", false
	}
	for _, s := range stmts {
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ";"))
		if s == "" {
			continue
		}
		tree, err := pgparse.Parse(s)
		if err != nil || len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetSelectStmt() == nil {
			return "", false
		}
		return s, true
	}
	return "", false
}

// Canonical returns the deparsed form of sql: the same query always gets the
// same text whatever its spacing, case or redundant parentheses. Unlike
// pg_query's fingerprint it keeps literal values, so `status = 'Open'` and
// `status = 'Closed'` stay different candidates.
func Canonical(sql string) (string, error) {
	tree, err := pgparse.Parse(sql)
	if err != nil {
		return "", err
	}
	return pg_query.Deparse(tree)
}

// Fingerprint returns pg_query's fingerprint of sql: equal for queries that
// differ only in constants. Candidates sharing it agree on structure.
func Fingerprint(sql string) (string, error) { return pg_query.Fingerprint(sql) }
