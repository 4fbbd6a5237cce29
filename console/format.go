package console

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"time"
)

var funcs = template.FuncMap{
	"pct":  func(f float64) string { return strconv.FormatFloat(f*100, 'f', 0, 64) + "%" },
	"f2":   func(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) },
	"join": strings.Join,
	"add":  func(a, b int) int { return a + b },
	// tableURL is a table's page: the name is one path segment, escaped,
	// so a "/", "?" or "#" in it cannot make the link another page (a
	// table named "x/../../?q=..." linked to the ask page).
	"tableURL": func(name string) string { return "/schema/" + url.PathEscape(name) },
	"estRows":  estRows,
	"brackets": asciiBrackets.Replace,
}

// estRows is a table's row estimate as shown: PostgreSQL's -1 (a table
// never vacuumed or analysed) says nothing about its size.
func estRows(n int64) string {
	if n < 0 {
		return "not analysed"
	}
	return strconv.FormatInt(n, 10)
}

// asciiBrackets shows the M-Schema's and the prompt's section brackets
// (U+3010, U+3011) as [ and ]: without a CJK font a browser draws them as
// empty boxes. The text the model is sent is unchanged.
var asciiBrackets = strings.NewReplacer("\u3010", "[", "\u3011", "]")

// cell is a result value as text.
func cell(x any) string {
	switch v := x.(type) {
	case nil:
		return "NULL"
	case string:
		return v
	case time.Time:
		if v.Hour() == 0 && v.Minute() == 0 && v.Second() == 0 && v.Nanosecond() == 0 {
			return v.Format("2006-01-02")
		}
		return v.Format("2006-01-02 15:04:05Z07:00")
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case []byte:
		return fmt.Sprintf("\\x%x", v)
	case json.RawMessage:
		return string(v)
	case []any:
		b, _ := json.Marshal(v)
		return string(b)
	}
	return fmt.Sprint(x)
}

// formatSQL breaks SQL into lines before its clauses (SELECT, FROM, WHERE,
// JOIN, GROUP BY, ...) in the query and its subqueries, indenting
// subqueries; quoted text, identifiers and comments are left as they are.
// It only changes whitespace between tokens.
func formatSQL(sql string) string {
	sql = strings.TrimSpace(sql)
	if sql == "" {
		return ""
	}
	var out strings.Builder
	// frames: one per open parenthesis; true when it holds a query.
	frames := []bool{true}
	prev := "" // previous word, upper case
	pendingQuery := false
	newline := func() {
		s := strings.TrimRight(out.String(), " \t\n")
		out.Reset()
		out.WriteString(s)
		if s != "" {
			out.WriteByte('\n')
		}
		depth := 0
		for _, f := range frames[1:] {
			if f {
				depth++
			}
		}
		out.WriteString(strings.Repeat("  ", depth))
	}
	i := 0
	for i < len(sql) {
		ch := sql[i]
		switch {
		case ch == '\'' || ch == '"':
			j := i + 1
			for j < len(sql) {
				if sql[j] == ch {
					if j+1 < len(sql) && sql[j+1] == ch {
						j += 2
						continue
					}
					break
				}
				j++
			}
			if j < len(sql) {
				j++
			}
			out.WriteString(sql[i:j])
			i = j
			prev = ""
		case ch == '-' && i+1 < len(sql) && sql[i+1] == '-':
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				j = len(sql) - i
			}
			out.WriteString(sql[i : i+j])
			i += j
		case ch == '/' && i+1 < len(sql) && sql[i+1] == '*':
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				j = len(sql) - i - 2
			} else {
				j += 2
			}
			out.WriteString(sql[i : i+2+j])
			i += 2 + j
		case ch == '$':
			// Dollar quoting: $tag$ ... $tag$.
			j := i + 1
			for j < len(sql) && isWord(sql[j]) && sql[j] != '.' {
				j++
			}
			if j < len(sql) && sql[j] == '$' {
				tag := sql[i : j+1]
				end := strings.Index(sql[j+1:], tag)
				if end >= 0 {
					k := j + 1 + end + len(tag)
					out.WriteString(sql[i:k])
					i = k
					continue
				}
			}
			out.WriteByte(ch)
			i++
		case ch == '(':
			frames = append(frames, false)
			pendingQuery = true
			out.WriteByte(ch)
			i++
			prev = "("
		case ch == ')':
			if len(frames) > 1 {
				q := frames[len(frames)-1]
				frames = frames[:len(frames)-1]
				if q {
					newline()
				}
			}
			out.WriteByte(ch)
			i++
			prev = ")"
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			for i < len(sql) && (sql[i] == ' ' || sql[i] == '\t' || sql[i] == '\n' || sql[i] == '\r') {
				i++
			}
			s := out.String()
			if s != "" && !strings.HasSuffix(s, " ") && !strings.HasSuffix(s, "\n") && !strings.HasSuffix(s, "(") {
				out.WriteByte(' ')
			}
		case isWord(ch) && ch != '.':
			j := i
			for j < len(sql) && isWord(sql[j]) {
				j++
			}
			word := sql[i:j]
			up := strings.ToUpper(word)
			if pendingQuery && (up == "SELECT" || up == "WITH" || up == "VALUES") {
				frames[len(frames)-1] = true
			}
			pendingQuery = false
			if frames[len(frames)-1] && breaksBefore(up, prev, nextWord(sql[j:])) {
				newline()
			}
			out.WriteString(word)
			i = j
			prev = up
		default:
			out.WriteByte(ch)
			i++
			prev = string(ch)
		}
	}
	return out.String()
}

// nextWord is the first word of s, upper case.
func nextWord(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	j := 0
	for j < len(s) && isWord(s[j]) && s[j] != '.' {
		j++
	}
	return strings.ToUpper(s[:j])
}

func breaksBefore(word, prev, next string) bool {
	switch word {
	case "SELECT":
		return prev != "UNION" && prev != "ALL" && prev != "INTERSECT" && prev != "EXCEPT" && prev != "DISTINCT"
	case "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "UNION", "INTERSECT", "EXCEPT", "WINDOW", "FETCH":
		return prev != "DISTINCT" && prev != "WITHIN"
	case "JOIN":
		switch prev {
		case "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "OUTER", "NATURAL", "LATERAL":
			return false
		}
		return true
	case "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL":
		return prev != "NATURAL" && (next == "JOIN" || next == "OUTER" || next == "LEFT" || next == "RIGHT" || next == "FULL" || next == "INNER")
	}
	return false
}
