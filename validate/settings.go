package validate

import (
	"regexp"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// customSetting is a custom, dotted setting name (app.tenant_id): the names
// an application sets per request for its row-level security policies.
// PostgreSQL's own settings have no dot; a loaded module's do
// (plpgsql.variable_conflict, hnsw.ef_search), and this shape lets them
// through: only the operator names settings (WithSettings, the identity
// file, --set), never a query or a caller.
var customSetting = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)+$`)

// CustomSetting reports whether name is a custom dotted setting name
// (app.tenant_id), the only kind WithSettings and the executor's Setting
// take.
func CustomSetting(name string) bool { return len(name) <= 63 && customSetting.MatchString(name) }

// WithSettings lets queries, and the plans of their relations' row-level
// security policies, read the custom settings names (custom dotted names
// only, such as app.tenant_id; others are ignored) with
// current_setting('name') or current_setting('name', missing_ok): the name
// must be a string constant, missing_ok a boolean constant. Policies that
// read the request's identity (current_setting('app.tenant_id')) are
// planned into the query, where the plan check judges them like the query's
// own calls: without this option current_setting is denied everywhere
// (V010). A request's values are set by the executor (execute.Setting),
// never by the query: set_config stays denied.
func WithSettings(names ...string) Option {
	return optionFunc(func(c *config) {
		if c.settings == nil {
			c.settings = map[string]bool{}
		}
		for _, n := range names {
			if CustomSetting(n) {
				c.settings[strings.ToLower(n)] = true
			}
		}
	})
}

// readsSetting reports whether f is current_setting of a name WithSettings
// allows, with constant arguments (the plan prints them cast to text and
// boolean).
func (c *checker) readsSetting(f *pg.FuncCall) bool {
	if len(c.cfg.settings) == 0 || len(f.Args) < 1 || len(f.Args) > 2 || f.AggStar || f.AggDistinct || f.FuncVariadic ||
		len(f.AggOrder) > 0 || f.AggFilter != nil || f.Over != nil {
		return false
	}
	name, ok := stringConst(f.Args[0])
	if !ok || !c.cfg.settings[strings.ToLower(name)] {
		return false
	}
	if len(f.Args) == 2 {
		if _, ok := boolConst(f.Args[1]); !ok {
			return false
		}
	}
	return true
}

// stringConst returns the value of a string constant, possibly cast (to
// text, as the plan prints it).
func stringConst(n *pg.Node) (string, bool) {
	for n.GetTypeCast() != nil {
		tc := n.GetTypeCast()
		if qn := splitName(tc.TypeName.GetNames()); !(textTypes[qn.name] && (qn.schema == "" || qn.schema == "pg_catalog")) ||
			len(tc.TypeName.GetArrayBounds()) > 0 {
			return "", false
		}
		n = tc.Arg
	}
	if c := n.GetAConst(); c != nil && c.GetSval() != nil {
		return c.GetSval().Sval, true
	}
	return "", false
}

// boolConst returns the value of a boolean constant (true, false, or a
// string constant cast to boolean, as the plan prints it).
func boolConst(n *pg.Node) (bool, bool) {
	if tc := n.GetTypeCast(); tc != nil {
		if qn := splitName(tc.TypeName.GetNames()); qn.name == "bool" || qn.name == "boolean" {
			if s, ok := stringConst(tc.Arg); ok {
				switch strings.ToLower(s) {
				case "t", "true":
					return true, true
				case "f", "false":
					return false, true
				}
			}
		}
		return false, false
	}
	if c := n.GetAConst(); c != nil && c.GetBoolval() != nil {
		return c.GetBoolval().Boolval, true
	}
	return false, false
}
