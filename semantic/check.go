package semantic

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// nameCodes are the validator codes that mean a name does not resolve in
// the catalog: reported as ErrUnknownName, not as a policy refusal.
var nameCodes = map[string]bool{
	validate.CodeUnknownColumn:   true,
	validate.CodeTableNotAllowed: true,
	validate.CodeFuncNotation:    true,
	validate.CodeAmbiguous:       true,
}

// Check resolves every table and column the model names against catalog
// and runs every expression through v's safety policy, wrapped in the
// query that uses it (a measure as SELECT agg(expr) FILTER (WHERE filter)
// FROM its table, a filter as the WHERE of one, a dimension as a SELECT
// list item, a metric over its measures' tables, and each verified query
// with each declared example bound as literals). Names are judged by a
// validator that knows the catalog's tables and columns; the policy by v
// (nil: validate.New's defaults). A refusal is an *Error with ErrUnsafe
// and the validator's Code; an unknown name one with ErrUnknownName. On
// success the model's tables are resolved and Definition renders them
// qualified. Check resolves in place: call it before sharing the model
// between goroutines; a checked model is read-only and safe to share.
func (m *Model) Check(catalog *schema.Catalog, v *validate.Validator) error {
	if catalog == nil {
		return errors.New("semantic: Check needs a catalog")
	}
	if v == nil {
		v = validate.New()
	}
	p := &problems{file: m.File}
	m.shape(p)
	if err := p.err(); err != nil {
		return err
	}
	names := namesValidator(catalog)
	resolve := func(line int, where, name string) *schema.Table {
		t := catalog.Table(strings.TrimSpace(name))
		if t == nil {
			p.add(line, where, ErrUnknownName, "table %q is not in the catalog", name)
		}
		return t
	}
	run := func(line int, where, sql string) {
		// Names first: an unknown name makes any policy finding noise.
		var unknown []validate.Issue
		for _, is := range findings(names, sql) {
			if nameCodes[is.Code] {
				unknown = append(unknown, is)
			}
		}
		for _, is := range unknown {
			p.list = append(p.list, &Error{File: m.File, Line: line, Where: where, Code: is.Code, Msg: is.Message, Err: ErrUnknownName})
		}
		if len(unknown) > 0 {
			return
		}
		for _, is := range findings(v, sql) {
			if is.Severity == validate.SeverityError {
				p.list = append(p.list, &Error{File: m.File, Line: line, Where: where, Code: is.Code, Msg: is.Message, Err: ErrUnsafe})
			}
		}
	}
	expr := func(line int, where, x string) bool {
		if err := singleExpr(x); err != nil {
			p.add(line, where, ErrInvalid, "%q: %v", x, err)
			return false
		}
		return true
	}
	for _, e := range m.Entities {
		table := e.Table
		if table == "" {
			table = e.Name
		}
		e.table = resolve(e.Line, "entity "+e.Name, table)
		if e.table == nil {
			continue
		}
		from := e.from()
		for _, d := range e.Dimensions {
			if !expr(d.Line, "dimension "+d.Name, orName(d.Expr, d.Name)) {
				continue
			}
			run(d.Line, "dimension "+d.Name, "SELECT "+orName(d.Expr, d.Name)+" FROM "+from)
		}
		for _, d := range e.TimeDimensions {
			if !expr(d.Line, "time dimension "+d.Name, orName(d.Expr, d.Name)) {
				continue
			}
			run(d.Line, "time dimension "+d.Name, "SELECT date_trunc('day', "+orName(d.Expr, d.Name)+") FROM "+from)
		}
		for _, f := range e.Filters {
			if !expr(f.Line, "filter "+f.Name, f.Expr) {
				continue
			}
			run(f.Line, "filter "+f.Name, "SELECT count(*) FROM "+from+" WHERE "+f.Expr)
		}
		for _, ms := range e.Measures {
			if (ms.Expr != "" && !expr(ms.Line, "measure "+ms.Name, ms.Expr)) ||
				(ms.Filter != "" && !expr(ms.Line, "measure "+ms.Name, ms.condition())) {
				continue
			}
			run(ms.Line, "measure "+ms.Name, "SELECT "+ms.aggregate()+" FROM "+from)
		}
	}
	for _, r := range m.Relationships {
		where := "relationship " + r.Name
		r.from, r.to = resolve(r.Line, where, r.From), resolve(r.Line, where, r.To)
		if r.from == nil || r.to == nil {
			continue
		}
		for i := range r.FromColumns {
			for _, side := range []struct {
				t   *schema.Table
				col string
			}{{r.from, r.FromColumns[i]}, {r.to, r.ToColumns[i]}} {
				if side.t.Column(side.col) == nil {
					p.add(r.Line, where, ErrUnknownName, "column %q is not in %s", side.col, side.t.QualifiedName())
				}
			}
		}
	}
	if len(p.list) == 0 { // metrics render from resolved measures
		for _, mt := range m.Metrics {
			if mt.Type == MetricDerived && !expr(mt.Line, "metric "+mt.Name, mt.Expr) {
				continue
			}
			for _, ref := range []string{mt.Numerator, mt.Denominator} {
				if mt.Type == MetricRatio && !identRE.MatchString(ref) {
					p.add(mt.Line, "metric "+mt.Name, ErrInvalid, "numerator and denominator name a measure or metric, not %q", ref)
				}
			}
			d, err := m.Definition(mt.Name)
			if err != nil {
				var e *Error
				if errors.As(err, &e) {
					p.list = append(p.list, e)
				}
				continue
			}
			run(mt.Line, "metric "+mt.Name, d.Query)
		}
	}
	for i, q := range m.VerifiedQuestions {
		where := fmt.Sprintf("verified question %d", i+1)
		for _, par := range q.Parameters {
			if par.Kind != ParamValue {
				continue
			}
			tname, col, _ := cutLast(par.Column, ".")
			if t := resolve(par.Line, where+" parameter "+par.Name, tname); t != nil && t.Column(col) == nil {
				p.add(par.Line, where+" parameter "+par.Name, ErrUnknownName, "column %q is not in %s", col, t.QualifiedName())
			}
		}
		if err := q.checkSlots(); err != nil {
			p.add(q.Line, where, ErrParameter, "%v", err)
			continue
		}
		for _, values := range q.Examples() {
			sql, err := q.Inline(values)
			if err != nil {
				p.add(q.Line, where, ErrParameter, "%v", err)
				continue
			}
			n := len(p.list)
			run(q.Line, where, sql)
			if len(p.list) > n {
				break // one example's refusal says it; the others would repeat it
			}
		}
	}
	return p.err()
}

// findings are the validator's violations and warnings for sql.
func findings(v *validate.Validator, sql string) []validate.Issue {
	res, err := v.Validate(sql)
	var ve *validate.Error
	switch {
	case errors.As(err, &ve):
		return ve.Issues
	case err != nil:
		return []validate.Issue{{Code: validate.CodeSyntax, Severity: validate.SeverityError, Message: err.Error(), Location: -1}}
	}
	return res.Issues
}

func orName(expr, name string) string {
	if strings.TrimSpace(expr) == "" {
		return name
	}
	return expr
}

func cutLast(s, sep string) (string, string, bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// namesValidator knows the catalog's tables and columns, so an unknown
// column is L009 (lint, reported here as an error) and an unknown table
// V012.
func namesValidator(c *schema.Catalog) *validate.Validator {
	tables := make([]validate.Table, 0, len(c.Tables))
	for _, t := range c.Tables {
		tables = append(tables, validate.Table{Schema: t.Schema, Name: t.Name, Columns: t.ColumnNames(), PrimaryKey: t.PrimaryKey, Unique: t.Unique})
	}
	return validate.New(validate.WithTables(tables...))
}
