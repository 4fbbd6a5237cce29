package nl2sql

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/semantic"
)

// ProposeTemplate proposes the parameters of an example, to make it a
// template (Knowledge.Parameters) that answers the same question with
// other values without the model: each literal of sql that also stands in
// question as a whole word becomes a slot of both, a four-digit integer
// from 1900 to 2100 a year, the N of a LIMIT N a top_n, a string a stored
// value when the value index holds it in exactly one column the request
// may read. Date ranges are not proposed (write them in the semantic
// model). The proposal is not learnt: show it, and Learn it once
// confirmed. Without anything to propose it returns the plain example.
func (e *Engine) ProposeTemplate(ctx context.Context, question, sql string, opts ...AskOption) (_ Knowledge, err error) {
	defer finish(ctx, &err)
	k := Example(strings.TrimSpace(question), strings.TrimSpace(sql))
	rq, err := e.newRequest(ctx, opts, func(askConfig) error {
		if err := e.checkText(k.Question, ""); err != nil {
			return err
		}
		return checkSQL("the SQL", k.SQL)
	})
	if err != nil {
		return Knowledge{}, err
	}
	toks, err := pg.Scan(k.SQL)
	if err != nil {
		return Knowledge{}, &Error{Class: ClassInvalid, Message: "the SQL does not scan", Err: err}
	}
	type slot struct {
		start, end int
		name       string
	}
	var slots []slot
	byValue := map[string]string{} // literal value -> its parameter's name
	prev := pg.Token_NUL
	for _, t := range toks.Tokens {
		text := k.SQL[t.Start:t.End]
		tok := prev
		prev = t.Token
		var p semantic.Parameter
		switch t.Token {
		case pg.Token_ICONST:
			n, err := strconv.Atoi(text)
			switch {
			case err != nil:
				continue
			case tok == pg.Token_LIMIT && n >= 1 && n <= semantic.MaxTopN:
				p = semantic.Parameter{Name: "n", Kind: semantic.ParamTopN}
			case len(text) == 4 && n >= 1900 && n <= 2100:
				p = semantic.Parameter{Name: "year", Kind: semantic.ParamYear}
			default:
				continue
			}
		case pg.Token_SCONST:
			if !strings.HasPrefix(text, "'") || tok == pg.Token_IDENT || isTypeKeyword(tok) {
				continue // E'..', $$..$$, DATE '..': not a plain value
			}
			text = strings.ReplaceAll(text[1:len(text)-1], "''", "'")
			col, ok := rq.scope.valueColumn(text)
			if !ok {
				continue
			}
			p = semantic.Parameter{Name: col[strings.LastIndex(col, ".")+1:], Kind: semantic.ParamValue, Column: col}
		default:
			continue
		}
		if name, ok := byValue[text]; ok {
			slots = append(slots, slot{int(t.Start), int(t.End), name})
			continue
		}
		re := regexp.MustCompile(`(?i)(^|[^\pL\pN])(` + regexp.QuoteMeta(text) + `)($|[^\pL\pN])`)
		if len(re.FindAllStringIndex(k.Question, -1)) != 1 {
			continue // not in the question, or more than once
		}
		p.Name = uniqueName(p.Name, k.Parameters)
		p.Examples = []string{text}
		k.Parameters = append(k.Parameters, p)
		byValue[text] = p.Name
		loc := re.FindStringSubmatchIndex(k.Question)
		k.Question = k.Question[:loc[4]] + "{" + p.Name + "}" + k.Question[loc[5]:]
		slots = append(slots, slot{int(t.Start), int(t.End), p.Name})
	}
	for i := len(slots) - 1; i >= 0; i-- {
		s := slots[i]
		k.SQL = k.SQL[:s.start] + "{" + s.name + "}" + k.SQL[s.end:]
	}
	return k, nil
}

// isTypeKeyword reports whether tok is a type name that may prefix a
// typed literal (DATE '...' is an IDENT; these are keywords).
func isTypeKeyword(tok pg.Token) bool {
	switch tok {
	case pg.Token_TIMESTAMP, pg.Token_TIME, pg.Token_INTERVAL, pg.Token_NUMERIC, pg.Token_INT_P, pg.Token_INTEGER,
		pg.Token_BOOLEAN_P, pg.Token_CHAR_P, pg.Token_VARCHAR, pg.Token_BIGINT, pg.Token_SMALLINT, pg.Token_REAL, pg.Token_FLOAT_P:
		return true
	}
	return false
}

// uniqueName is name, or name_2, name_3, ... when params has it.
func uniqueName(name string, params []semantic.Parameter) string {
	taken := func(n string) bool {
		return slices.ContainsFunc(params, func(p semantic.Parameter) bool { return p.Name == n })
	}
	out := name
	for i := 2; taken(out); i++ {
		out = fmt.Sprintf("%s_%d", name, i)
	}
	return out
}

// valueColumn is the one column ("table.column", the table as the
// request's path names it) of the value index whose stored values hold s
// exactly, among the tables the request may read; false when none or
// several do.
func (sc *scope) valueColumn(s string) (string, bool) {
	if sc.st.values == nil {
		return "", false
	}
	found := ""
	for _, c := range sc.st.values.Columns {
		if !slices.Contains(c.Values, s) {
			continue
		}
		schema, table := splitQualified(c.Table)
		if sc.resolve(schema, table) != c.Table {
			continue
		}
		name := c.Table + "." + c.Column
		if sc.resolve("", table) == c.Table {
			name = table + "." + c.Column // as the request's path reads it
		}
		if found != "" && found != name {
			return "", false
		}
		found = name
	}
	return found, found != ""
}
