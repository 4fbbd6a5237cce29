package repair

import (
	"maps"
	"slices"
	"strings"
	"unicode"
)

// Pre-parse rewrites. They run only when the text does not parse as
// PostgreSQL, on a token stream so string literals, quoted identifiers and
// comments are never touched. Everything else is decided on the parse tree.

type tokKind int

const (
	tkSpace tokKind = iota
	tkComment
	tkString   // '...', E'...', $$...$$
	tkQIdent   // "..."
	tkBacktick // `...`
	tkNumber
	tkWord
	tkPunct
)

type token struct {
	kind tokKind
	text string
}

// tokenize splits SQL into tokens; it never fails (an unterminated literal
// runs to the end of the input).
func tokenize(s string) []token {
	var out []token
	i := 0
	for i < len(s) {
		start := i
		c := s[i]
		kind := tkPunct
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			for i < len(s) && strings.IndexByte(" \t\n\r\f", s[i]) >= 0 {
				i++
			}
			kind = tkSpace
		case c == '-' && strings.HasPrefix(s[i:], "--"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			kind = tkComment
		case c == '/' && strings.HasPrefix(s[i:], "/*"):
			depth := 0
			for i < len(s) {
				if strings.HasPrefix(s[i:], "/*") {
					depth++
					i += 2
				} else if strings.HasPrefix(s[i:], "*/") {
					depth--
					i += 2
					if depth == 0 {
						break
					}
				} else {
					i++
				}
			}
			kind = tkComment
		case c == '\'' || ((c == 'E' || c == 'e') && i+1 < len(s) && s[i+1] == '\''):
			escapes := c != '\''
			if escapes {
				i++
			}
			i = endQuoted(s, i, '\'', escapes)
			kind = tkString
		case c == '"':
			i = endQuoted(s, i, '"', false)
			kind = tkQIdent
		case c == '`':
			i = endQuoted(s, i, '`', false)
			kind = tkBacktick
		case c == '$' && dollarTag(s[i:]) != "":
			tag := dollarTag(s[i:])
			end := strings.Index(s[i+len(tag):], tag)
			if end < 0 {
				i = len(s)
			} else {
				i += len(tag) + end + len(tag)
			}
			kind = tkString
		case c >= '0' && c <= '9' || (c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9'):
			for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
				i++
			}
			kind = tkNumber
		case isIdentStart(c):
			for i < len(s) && (isIdentStart(s[i]) || s[i] >= '0' && s[i] <= '9' || s[i] == '$') {
				i++
			}
			kind = tkWord
		default:
			i++
		}
		out = append(out, token{kind: kind, text: s[start:i]})
	}
	return out
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// endQuoted returns the index after the closing quote starting at s[i]==q;
// doubled quotes (and backslash escapes in E” strings) stay inside.
func endQuoted(s string, i int, q byte, escapes bool) int {
	i++
	for i < len(s) {
		switch {
		case escapes && s[i] == '\\':
			i += 2
			continue
		case s[i] == q:
			if i+1 < len(s) && s[i+1] == q {
				i += 2
				continue
			}
			return i + 1
		}
		i++
	}
	return len(s)
}

// dollarTag returns "$tag$" when s starts a dollar-quoted string.
func dollarTag(s string) string {
	for j := 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '$':
			return s[:j+1]
		case !(isIdentStart(c) || (j > 1 && c >= '0' && c <= '9')):
			return ""
		}
	}
	return ""
}

// tokens is a token slice with helpers that skip spaces and comments.
type tokens []token

func (ts tokens) next(i int) int {
	for i++; i < len(ts) && (ts[i].kind == tkSpace || ts[i].kind == tkComment); i++ {
	}
	return i
}

func (ts tokens) prev(i int) int {
	for i--; i >= 0 && (ts[i].kind == tkSpace || ts[i].kind == tkComment); i-- {
	}
	return i
}

func (ts tokens) is(i int, kind tokKind, text string) bool {
	return i >= 0 && i < len(ts) && ts[i].kind == kind && (text == "" || strings.EqualFold(ts[i].text, text))
}

func (ts tokens) String() string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.text)
	}
	return b.String()
}

var intervalUnits = map[string]string{
	"microsecond": "microseconds", "second": "seconds", "minute": "minutes", "hour": "hours",
	"day": "days", "week": "weeks", "month": "months", "year": "years",
}

// rewriteTokens applies the textual dialect rewrites to SQL that does not
// parse. ident maps a backtick-quoted name to its PostgreSQL spelling.
func rewriteTokens(sql string, ident func(string) string) (string, []Change) {
	ts := tokens(tokenize(sql))
	var changes []Change
	note := func(rule, msg string) {
		for _, c := range changes {
			if c.Rule == rule {
				return
			}
		}
		changes = append(changes, Change{Rule: rule, Note: msg})
	}
	// Pending LIMITs from TOP n, keyed by the paren depth of their SELECT.
	pending := map[int]string{}
	depth := 0
	var out tokens
	flushLimit := func(d int) {
		if n, ok := pending[d]; ok {
			out = append(out, token{tkSpace, " "}, token{tkWord, "LIMIT"}, token{tkSpace, " "}, token{tkNumber, n})
			delete(pending, d)
		}
	}
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		switch {
		case t.kind == tkBacktick:
			name := strings.TrimSuffix(strings.TrimPrefix(t.text, "`"), "`")
			out = append(out, token{tkQIdent, ident(strings.ReplaceAll(name, "``", "`"))})
			note(RuleBacktick, "`name` → PostgreSQL identifier")
			continue
		case t.kind == tkPunct && t.text == "(":
			depth++
		case t.kind == tkPunct && t.text == ")":
			flushLimit(depth)
			depth--
		case t.kind == tkPunct && t.text == ";":
			flushLimit(depth)
		case t.kind == tkWord && strings.EqualFold(t.text, "limit"):
			// LIMIT a, b  →  LIMIT b OFFSET a
			a := ts.next(i)
			comma := ts.next(a)
			b := ts.next(comma)
			if ts.is(a, tkNumber, "") && ts.is(comma, tkPunct, ",") && ts.is(b, tkNumber, "") {
				out = append(out, t, token{tkSpace, " "}, ts[b], token{tkSpace, " "}, token{tkWord, "OFFSET"}, token{tkSpace, " "}, ts[a])
				i = b
				note(RuleLimitComma, "LIMIT offset, count → LIMIT count OFFSET offset")
				continue
			}
		case t.kind == tkWord && strings.EqualFold(t.text, "top"):
			// SELECT [DISTINCT] TOP n | TOP (n)
			p := ts.prev(i)
			if ts.is(p, tkWord, "distinct") || ts.is(p, tkWord, "all") {
				p = ts.prev(p)
			}
			if ts.is(p, tkWord, "select") {
				n := ts.next(i)
				end := n
				if ts.is(n, tkPunct, "(") {
					n = ts.next(n)
					end = ts.next(n)
					if !ts.is(end, tkPunct, ")") {
						break
					}
				}
				if ts.is(n, tkNumber, "") {
					pending[depth] = ts[n].text
					i = end
					note(RuleTop, "SELECT TOP n → LIMIT n")
					continue
				}
			}
		case t.kind == tkWord && strings.EqualFold(t.text, "interval"):
			// INTERVAL 30 DAY → INTERVAL '30 days'; a bare INTERVAL 30 means days.
			n := ts.next(i)
			neg := ""
			if ts.is(n, tkPunct, "-") {
				neg, n = "-", ts.next(n)
			}
			if ts.is(n, tkNumber, "") {
				unit, last := "days", n
				if u := ts.next(n); u < len(ts) && ts[u].kind == tkWord {
					if pl, ok := intervalUnits[strings.TrimSuffix(strings.ToLower(ts[u].text), "s")]; ok {
						unit, last = pl, u
					}
				}
				out = append(out, t, token{tkSpace, " "}, token{tkString, "'" + neg + ts[n].text + " " + unit + "'"})
				i = last
				note(RuleIntervalLiteral, "INTERVAL n unit → INTERVAL 'n units'")
				continue
			}
		case t.kind == tkWord && (strings.EqualFold(t.text, "if") || strings.EqualFold(t.text, "isnull")):
			// if(c, a, b) and ISNULL(a, b) do not parse (keywords): quote the
			// name so the tree rewrite can see the call.
			if ts.is(ts.next(i), tkPunct, "(") {
				out = append(out, token{tkQIdent, `"` + strings.ToLower(t.text) + `"`})
				continue
			}
		case t.kind == tkWord && isNiladic(t.text):
			// CURRENT_DATE() → CURRENT_DATE
			o := ts.next(i)
			c := ts.next(o)
			if ts.is(o, tkPunct, "(") && ts.is(c, tkPunct, ")") {
				out = append(out, t)
				i = c
				note(RuleNow, strings.ToUpper(t.text)+"() → "+strings.ToUpper(t.text))
				continue
			}
		case t.kind == tkWord && strings.EqualFold(t.text, "double"):
			// CAST(x AS DOUBLE) → double precision
			if !ts.is(ts.next(i), tkWord, "precision") && ts.is(ts.prev(i), tkWord, "as") {
				out = append(out, t, token{tkSpace, " "}, token{tkWord, "precision"})
				note(RuleCastType, "DOUBLE → double precision")
				continue
			}
		}
		out = append(out, t)
	}
	flushLimit(0)
	if len(pending) > 0 { // unbalanced parentheses: give up on TOP
		for _, d := range slices.Sorted(maps.Keys(pending)) { // by depth, not map order
			flushLimit(d)
		}
	}
	return out.String(), changes
}

func isNiladic(w string) bool {
	switch strings.ToLower(w) {
	case "current_date", "current_timestamp", "current_time", "localtimestamp", "localtime", "current_user":
		return true
	}
	return false
}

// backtickIdent spells a MySQL `name` for PostgreSQL: the exact name when the
// catalog has it, else its lower-case form (MySQL names are case-insensitive).
func backtickIdent(known func(string) bool) func(string) string {
	return func(name string) string {
		if known(name) {
			return quoteIdent(name)
		}
		if l := strings.ToLower(name); known(l) || isPlain(l) {
			return quoteIdent(l)
		}
		return quoteIdent(name)
	}
}

func isPlain(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLower(r) || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return s != ""
}
