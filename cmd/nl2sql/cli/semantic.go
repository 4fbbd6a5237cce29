package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/semantic"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// semanticJSON is the JSON of semantic check and semantic import-dbt.
type semanticJSON struct {
	OK bool `json:"ok"`
	// Checked says what was checked: "shape" (no database) or "catalog".
	Checked  string              `json:"checked"`
	Errors   []semanticError     `json:"errors"`
	Unmapped []semantic.Unmapped `json:"unmapped,omitempty"`
	Counts   map[string]int      `json:"counts,omitempty"`
}

type semanticError struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Where   string `json:"where,omitempty"`
	Code    string `json:"code,omitempty"`
	Kind    string `json:"kind"` // syntax, invalid, unknown_name, unsafe, parameter, too_large
	Message string `json:"message"`
}

func runSemantic(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const usage = "usage: nl2sql semantic check [flags] FILE\n       nl2sql semantic import-dbt [flags] DIR|FILE...\n\n" +
		"check reads a semantic model file and, with a database (--dsn or $NL2SQL_DSN / $DATABASE_URL), resolves its names against the catalog and runs every expression and verified query through the safety policy; without one only the file's shape is checked.\n" +
		"import-dbt maps a dbt project's MetricFlow semantic models and metrics onto the database's tables (a database is required), checks the result and lists what could not be mapped.\n" +
		"Errors print as FILE:LINE: ITEM: [CODE: ]MESSAGE; exit status 1 when there is one."
	if len(args) == 0 || (args[0] != "check" && args[0] != "import-dbt") {
		fmt.Fprintln(stderr, usage)
		return &exitError{code: 2}
	}
	verb := args[0]
	s := newSub("semantic "+verb, usage, stdout, stderr)
	paths, err := s.parse(args[1:])
	if err != nil {
		return err
	}
	if len(paths) == 0 || (verb == "check" && len(paths) != 1) {
		return usageErr("semantic %s: give %s", verb, map[string]string{"check": "one FILE", "import-dbt": "the dbt project directory or its YAML files"}[verb])
	}
	out := &semanticJSON{Checked: "shape", Errors: []semanticError{}}
	var cat *schema.Catalog
	if _, derr := s.db.Resolve(); derr == nil {
		pool, err := s.connect(ctx)
		if err != nil {
			return err
		}
		defer s.close()
		var opts []schema.IntrospectOption
		if sc := scopeSchemas(s.scope); len(sc) > 0 {
			opts = append(opts, schema.WithSchemas(sc...))
		}
		if cat, err = schema.Introspect(ctx, pool, opts...); err != nil {
			return &exitError{code: 2, err: err}
		}
		out.Checked = "catalog"
	} else if verb == "import-dbt" {
		return usageErr("semantic import-dbt needs a database (--dsn): only the tables it has are imported")
	}

	var m *semantic.Model
	if verb == "check" {
		m, err = semantic.Load(paths[0])
	} else {
		var rep *semantic.DBTReport
		m, rep, err = semantic.ImportDBT(cat, paths...)
		if rep != nil {
			out.Unmapped = rep.Unmapped
		}
	}
	if err == nil && cat != nil {
		opts := []validate.Option{validate.WithSearchPath(searchPath(s.scope)...)}
		if s.scope != "" {
			opts = append(opts, validate.WithSchemas(searchPath(s.scope)...))
		}
		err = m.Check(cat, validate.New(opts...))
	}
	var es semantic.Errors
	switch {
	case errors.As(err, &es):
		for _, e := range es {
			out.Errors = append(out.Errors, semanticError{File: e.File, Line: e.Line, Where: e.Where, Code: e.Code, Kind: errorKind(e.Err), Message: e.Msg})
		}
	case err != nil:
		return &exitError{code: 2, err: err} // unreadable file or project
	default:
		out.Counts = counts(m)
	}
	out.OK = len(out.Errors) == 0
	if s.json {
		return s.printJSON(out, !out.OK)
	}
	for _, e := range out.Errors {
		fmt.Fprintln(stdout, (&semantic.Error{File: e.File, Line: e.Line, Where: e.Where, Code: e.Code, Msg: e.Message}).Error())
	}
	for _, u := range out.Unmapped {
		fmt.Fprintln(stdout, "unmapped: "+u.String())
	}
	if !out.OK {
		return &exitError{code: 1}
	}
	c := out.Counts
	fmt.Fprintf(stdout, "ok (%s): %d entities, %d measures, %d filters, %d metrics, %d verified questions (%d parameterized), %d relationships\n",
		out.Checked, c["entities"], c["measures"], c["filters"], c["metrics"], c["verified_questions"], c["parameterized"], c["relationships"])
	return nil
}

func errorKind(err error) string {
	for _, k := range []struct {
		err  error
		name string
	}{{semantic.ErrTooLarge, "too_large"}, {semantic.ErrSyntax, "syntax"}, {semantic.ErrUnknownName, "unknown_name"},
		{semantic.ErrUnsafe, "unsafe"}, {semantic.ErrParameter, "parameter"}} {
		if errors.Is(err, k.err) {
			return k.name
		}
	}
	return "invalid"
}

func counts(m *semantic.Model) map[string]int {
	c := map[string]int{"entities": len(m.Entities), "metrics": len(m.Metrics), "verified_questions": len(m.VerifiedQuestions), "relationships": len(m.Relationships)}
	for _, e := range m.Entities {
		c["measures"] += len(e.Measures)
		c["filters"] += len(e.Filters)
	}
	for _, q := range m.VerifiedQuestions {
		if len(q.Parameters) > 0 {
			c["parameterized"]++
		}
	}
	return c
}
