package validate

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// TestNormalizePlanText: the plan-only notations become SQL, and the same
// words inside string literals and quoted identifiers stay as they are.
func TestNormalizePlanText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"(SubPlan 1)", "(NULL)"},
		{"(NOT (hashed SubPlan 12))", "(NOT (NULL))"},
		{"(alternatives: SubPlan 1 or hashed SubPlan 2)", "( NULL or NULL)"},
		{"(InitPlan 3)", "(NULL)"},
		{"count(*) OVER (?)", "count(*) OVER ()"},
		{"PARTIAL sum(x)", " sum(x)"},
		{"'SubPlan 1'::text", "'SubPlan 1'::text"},
		{"'OVER (?)'::text", "'OVER (?)'::text"},
		{"'PARTIAL hashed SubPlan 2'::text", "'PARTIAL hashed SubPlan 2'::text"},
		{`"SubPlan" = 1`, `"SubPlan" = 1`},
		{`(t."SubPlan 1" || 'SubPlan 1'::text)`, `(t."SubPlan 1" || 'SubPlan 1'::text)`},
		{"(partial = subplan)", "(partial = subplan)"},
		{"($0 = (SubPlan 1))", "($0 = (NULL))"},
		{"E'\\'SubPlan 1'", "E'\\'SubPlan 1'"},
	}
	for _, c := range cases {
		got, _, err := normalizePlanText(c.in, nil)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"a /* c */", "a -- c", "'open", "$$x"} {
		if got, _, err := normalizePlanText(bad, nil); err == nil {
			t.Errorf("normalize(%q) = %q, want an error", bad, got)
		}
	}
}

// TestNormalizePlanTextSpans: ranges of a combined text follow the edits,
// and a token across two ranges is refused.
func TestNormalizePlanTextSpans(t *testing.T) {
	items := []string{"(SubPlan 1)", "count(*) OVER (?)", "'SubPlan 2'"}
	text := "SELECT " + strings.Join(items, ", ")
	var spans [][2]int
	for _, it := range items {
		i := strings.Index(text, it)
		spans = append(spans, [2]int{i, i + len(it)})
	}
	got, moved, err := normalizePlanText(text, spans)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"(NULL)", "count(*) OVER ()", "'SubPlan 2'"}
	for i, sp := range moved {
		if got[sp[0]:sp[1]] != want[i] {
			t.Errorf("span %d = %q, want %q (text %q)", i, got[sp[0]:sp[1]], want[i], got)
		}
	}
	if _, _, err := normalizePlanText("SELECT 'a, b'", [][2]int{{7, 9}, {11, 13}}); err == nil {
		t.Error("a literal across two expressions was accepted")
	}
}

// plan builds the EXPLAIN output of a Result node with the given outputs
// and extra properties.
func plan(outputs []string, extra map[string]any) []byte {
	node := map[string]any{"Node Type": "Result", "Startup Cost": 0, "Total Cost": 0.01, "Output": outputs}
	for k, v := range extra {
		node[k] = v
	}
	b, err := json.Marshal([]any{map[string]any{"Plan": node}})
	if err != nil {
		panic(err)
	}
	return b
}

func planErr(t *testing.T, v *Validator, p []byte) *Error {
	t.Helper()
	err := v.CheckPlan(p)
	if err == nil {
		return nil
	}
	var ve *Error
	if !errors.As(err, &ve) || !errors.Is(err, ErrRejected) {
		t.Fatalf("CheckPlan error %T %v is not a *Error matching ErrRejected", err, err)
	}
	for _, is := range ve.Issues {
		if is.Code != CodePlan || is.Severity != SeverityError || is.Message == "" {
			t.Errorf("issue %+v: want a %s error with a message", is, CodePlan)
		}
	}
	return ve
}

// TestCheckPlanLiterals: the words the normaliser rewrites, inside
// literals, change nothing; the verdict follows the real expression.
func TestCheckPlanLiterals(t *testing.T) {
	v := New()
	ok := [][]string{
		{"'SubPlan 1'::text", "'OVER (?)'::text", "'PARTIAL pg_sleep(1)'::text"},
		{"count(*) OVER (?)", "(alternatives: SubPlan 1 or hashed SubPlan 2)", "PARTIAL sum(x)", "$0"},
		{"lower('pg_sleep(1) SubPlan 1'::text)", "(x = ANY ('{1,2}'::integer[]))", `"*VALUES*".column1`},
	}
	for _, outs := range ok {
		if ve := planErr(t, v, plan(outs, nil)); ve != nil {
			t.Errorf("%q: rejected: %v", outs, ve)
		}
	}
	bad := []struct {
		outs []string
		want string
	}{
		{[]string{"'SubPlan 1'::text", "pg_sleep('1'::double precision)"}, "pg_sleep"},
		{[]string{"'OVER (?)'::text", "(SubPlan 1)", "count(*) OVER (?)", "nextval('s'::regclass) OVER (?)"}, "nextval"},
		{[]string{"PARTIAL pg_advisory_lock(x)"}, "pg_advisory_lock"},
		{[]string{"(alternatives: SubPlan 1 or hashed SubPlan 2)", "(lo_import('f'::text) = (SubPlan 3))"}, "lo_import"},
		{[]string{"('SubPlan 1'::text || current_setting('x'::text))"}, "current_setting"},
		{[]string{"evil_function(t.*)"}, "evil_function"},
	}
	for _, c := range bad {
		ve := planErr(t, v, plan(c.outs, nil))
		if ve == nil {
			t.Errorf("%q: accepted", c.outs)
			continue
		}
		if !strings.Contains(ve.Error(), c.want) || !strings.Contains(ve.Error(), "the server's plan") {
			t.Errorf("%q: message %q does not name %s", c.outs, ve.Error(), c.want)
		}
	}
}

// TestCheckPlanFailsClosed: what cannot be checked is refused.
func TestCheckPlanFailsClosed(t *testing.T) {
	v := New()
	long := "(" + strings.Repeat("x + ", 20000) + "x)"
	cases := map[string][]byte{
		"not JSON":               []byte(`[{"Plan": {"Node Type": "Result", "Output": ["1"]`),
		"trailing comma":         []byte(`[{"Plan": {"Node Type": "Result", "Output": ["1"],}}]`),
		"trailing comma in list": []byte(`[{"Plan": {"Node Type": "Result", "Output": ["1",]}}]`),
		"missing comma":          []byte(`[{"Plan": {"Node Type": "Result" "Output": ["1"]}}]`),
		"missing colon":          []byte(`[{"Plan": {"Node Type" "Result", "Output": ["1"]}}]`),
		"bad number":             []byte(`[{"Plan": {"Node Type": "Result", "Output": ["1"], "N": 01}}]`),
		"bad literal":            []byte(`[{"Plan": {"Node Type": "Result", "Output": ["1"], "N": tru}}]`),
		"bad escape":             []byte(`[{"Plan": {"Node Type": "Result", "Output": ["\x"]}}]`),
		"control character":      []byte("[{\"Plan\": {\"Node Type\": \"Result\", \"Output\": [\"1\n\"]}}]"),
		"array of strings":       []byte(`["Plan"]`),
		"trailing NUL":           []byte("[{\"Plan\": {\"Node Type\": \"Result\", \"Output\": [\"1\"]}}] \x00"),
		"not an array":           []byte(`{"Plan": {"Node Type": "Result", "Output": ["1"]}}`),
		"two plans":              []byte(`[{"Plan": {"Node Type": "Result", "Output": ["1"]}}, {"Plan": {"Node Type": "Result", "Output": ["1"]}}]`),
		"no plan":                []byte(`[{"Query Identifier": 1}]`),
		"trailing data":          []byte(`[{"Plan": {"Node Type": "Result", "Output": ["1"]}}] []`),
		"not verbose":            []byte(`[{"Plan": {"Node Type": "Result", "Total Cost": 1}}]`),
		"no schema":              []byte(`[{"Plan": {"Node Type": "Seq Scan", "Relation Name": "t", "Output": ["1"]}}]`),
		"function scan no call":  []byte(`[{"Plan": {"Node Type": "Function Scan", "Function Name": "f", "Schema": "public", "Output": ["1"]}}]`),
		"repeated key":           []byte(`[{"Plan": {"Node Type": "Result", "Output": ["pg_sleep(1)"], "Output": ["1"]}}]`),
		"unknown text key":       plan([]string{"1"}, map[string]any{"Mystery Expr": "pg_sleep(1)"}),
		"unknown text list":      plan([]string{"1"}, map[string]any{"Mystery Exprs": []string{"1"}}),
		"number as expression":   plan([]string{"1"}, map[string]any{"Filter": 1}),
		"object as expression":   plan([]string{"1"}, map[string]any{"Filter": map[string]any{"a": 1}}),
		"does not parse":         plan([]string{"1", "pg_sleep(1"}, nil),
		"two statements":         plan([]string{"1; SELECT pg_sleep(1)"}, nil),
		"from clause":            plan([]string{"1 FROM pg_authid"}, nil),
		"comment":                plan([]string{"1 /* pg_sleep(1) */"}, nil),
		"line comment":           plan([]string{"1 --", "pg_sleep(1)"}, nil),
		"NUL":                    plan([]string{"1\x00"}, nil),
		"too long":               plan([]string{long}, nil),
		"literal across items":   plan([]string{"'a", "pg_sleep(1)", "b'"}, nil),
		"too deep":               []byte(`[{"Plan": {"Node Type": "Result", "Output": ["1"], "X": ` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}}]`),
	}
	for name, p := range cases {
		if ve := planErr(t, v, p); ve == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// Numbers, booleans and objects under keys not listed carry no
	// expression; listed name keys are not evaluated.
	fine := plan([]string{"1"}, map[string]any{"Mystery Count": 3, "Mystery Flag": true, "Mystery": map[string]any{"N": 1},
		"Alias": "pg_sleep(1)", "Subplan Name": "SubPlan 1"})
	if ve := planErr(t, v, fine); ve != nil {
		t.Errorf("harmless properties refused: %v", ve)
	}
	// A long plan is checked in several batches, each under the parser's
	// limit, and every expression still counts.
	var outs []string
	for i := 0; i < 3000; i++ {
		outs = append(outs, "(t.column_number_"+strings.Repeat("x", i%7)+" + 1)")
	}
	if ve := planErr(t, v, plan(outs, nil)); ve != nil {
		t.Errorf("long plan refused: %v", ve)
	}
	outs = append(outs, "pg_sleep('1'::double precision)")
	if ve := planErr(t, v, plan(outs, nil)); ve == nil || !strings.Contains(ve.Error(), "pg_sleep") {
		t.Errorf("long plan with pg_sleep last: %v", ve)
	}
}

// TestCheckPlanRelations: scans of system catalogs need
// WithSystemCatalogs; secret relations are always refused; TABLESAMPLE
// methods other than BERNOULLI and SYSTEM are refused.
func TestCheckPlanRelations(t *testing.T) {
	scan := func(schema, rel string, extra map[string]any) []byte {
		node := map[string]any{"Node Type": "Seq Scan", "Relation Name": rel, "Schema": schema, "Alias": rel, "Output": []string{"1"}}
		for k, v := range extra {
			node[k] = v
		}
		b, _ := json.Marshal([]any{map[string]any{"Plan": map[string]any{"Node Type": "Result", "Output": []string{"1"},
			"Plans": []any{node}}}})
		return b
	}
	closed, open := New(), New(WithSystemCatalogs(true))
	for _, c := range []struct {
		schema, rel      string
		closedOK, openOK bool
	}{
		{"public", "orders", true, true},
		{"div_01", "pg_class", true, true}, // a user table named like a catalog
		{"pg_catalog", "pg_class", false, true},
		{"information_schema", "sql_features", false, true},
		{"pg_toast", "pg_toast_2619", false, true},
		{"pg_catalog", "pg_authid", false, false},
		{"pg_catalog", "pg_statistic", false, false},
	} {
		if got := planErr(t, closed, scan(c.schema, c.rel, nil)) == nil; got != c.closedOK {
			t.Errorf("%s.%s without catalogs: accepted=%v", c.schema, c.rel, got)
		}
		if got := planErr(t, open, scan(c.schema, c.rel, nil)) == nil; got != c.openOK {
			t.Errorf("%s.%s with catalogs: accepted=%v", c.schema, c.rel, got)
		}
	}
	for method, ok := range map[string]bool{"bernoulli": true, "system": true, "system_rows": false, "system_time": false} {
		p := scan("public", "orders", map[string]any{"Node Type": "Sample Scan", "Sampling Method": method,
			"Sampling Parameters": []string{"'10'::real"}})
		if got := planErr(t, closed, p) == nil; got != ok {
			t.Errorf("TABLESAMPLE %s: accepted=%v", method, got)
		}
	}
}

// FuzzCheckPlan: CheckPlan never panics and accepts only JSON; no
// expression text, however malformed, hides the expression next to it.
func FuzzCheckPlan(f *testing.F) {
	for _, s := range []string{"1", "'a", "count(*) OVER (?)", "(SubPlan 1)", "(alternatives: SubPlan 1 or hashed SubPlan 2)",
		"PARTIAL sum(x)", "$$", "/*", "--", `"x`, "E'\\'", "1) FROM t WHERE (1", "x, y", "u.* ORDER BY 1", "'SubPlan 1'"} {
		f.Add(string(plan([]string{s}, nil)), s)
	}
	v := New()
	f.Fuzz(func(t *testing.T, data, expr string) {
		if v.CheckPlan([]byte(data)) == nil && !json.Valid([]byte(data)) {
			t.Fatalf("accepted a plan that is not JSON: %q", data)
		}
		for _, outs := range [][]string{{expr, "pg_sleep('1'::double precision)", expr}, {"pg_sleep('1'::double precision)", expr}} {
			err := v.CheckPlan(plan(outs, map[string]any{"Sort Key": []string{expr}}))
			if err == nil || !strings.Contains(err.Error(), "pg_sleep(") {
				t.Fatalf("%q next to pg_sleep: %v", expr, err)
			}
		}
	})
}

// TestCheckPlanBatches: a plan larger than one parse is checked in batches
// that each fit the parser, with no expression parsed alone.
func TestCheckPlanBatches(t *testing.T) {
	v := New()
	var outs []string
	for i := 0; i < 6000; i++ {
		outs = append(outs, fmt.Sprintf("(t.c%d + 1)", i))
	}
	p := &planCheck{v: v, c: v.newChecker(), seen: map[string]bool{}}
	if err := p.read(plan(outs, nil)); err != nil {
		t.Fatal(err)
	}
	parses := 0
	p.parsed = func(text string) {
		parses++
		if len(text) > pgparse.MaxLen {
			t.Errorf("a parse of %d bytes", len(text))
		}
	}
	p.checkItems()
	if len(p.issues) > 0 || parses < 2 || parses > 3 {
		t.Errorf("%d parses, issues %v", parses, p.issues)
	}
}

// TestPlanRelationsListed: a plan that cannot be read has no relations
// (nil: unknown, so the Engine hides its estimates), one that scans none
// an empty list, and a relation scanned twice is named once.
func TestPlanRelationsListed(t *testing.T) {
	v := New(WithSystemCatalogs(true))
	for _, c := range []struct {
		plan string
		want []PlanRelation
	}{
		{`[{"Plan": {"Node Type": "Result", "Output": ["1"]}}]`, []PlanRelation{}},
		{`[{"Plan": {"Node Type": "Nested Loop", "Output": ["a.x"], "Plans": [
			{"Node Type": "Seq Scan", "Relation Name": "a", "Schema": "s", "Alias": "a", "Output": ["a.x"]},
			{"Node Type": "Seq Scan", "Relation Name": "b", "Schema": "public", "Alias": "b", "Output": ["b.x"]},
			{"Node Type": "Seq Scan", "Relation Name": "a", "Schema": "s", "Alias": "a2", "Output": ["a2.x"]}]}}]`,
			[]PlanRelation{{"s", "a"}, {"public", "b"}}},
		{`[{"Plan": {"Node Type": "Seq Scan", "Relation Name": "a", "Schema": "s", "Output": ["x"]`, nil},
		{`[{"Plan": {"Node Type": "Seq Scan", "Relation Name": "a", "Schema": "s", "Output": ["x"], "Output": ["y"]}}]`, nil},
	} {
		_, got, _ := v.checkPlan([]byte(c.plan), nil)
		if (got == nil) != (c.want == nil) || !slices.Equal(got, c.want) {
			t.Errorf("%s: relations %v (nil %v), want %v", c.plan, got, got == nil, c.want)
		}
	}
}
