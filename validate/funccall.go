package validate

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// funcCall checks a function call against the deny- and allow-lists and the
// resource guards.
func (c *checker) funcCall(f *pg.FuncCall) {
	parts := make([]string, 0, len(f.Funcname))
	for _, n := range f.Funcname {
		parts = append(parts, n.GetString_().GetSval())
	}
	if len(parts) == 0 {
		c.violation(CodeUnsupported, "function call without a name")
		return
	}
	name := parts[len(parts)-1]
	lower := strings.ToLower(name)
	display := strings.Join(parts, ".")
	if funcDenied(lower) {
		c.violation(CodeFuncDenied, "function %s is not allowed (side effects, system access or SQL from a string); remove it", display)
		return
	}
	schema := ""
	switch len(parts) {
	case 1:
	case 2:
		schema = parts[0]
	default:
		c.violation(CodeFuncNotAllowed, "function %s is not allowed; remove it or use a built-in function", display)
		return
	}
	key := name
	allowed := false
	switch schema {
	case "", "pg_catalog":
		allowed = (defaultFunctions[name] || c.cfg.allowFuncs[name]) && !c.cfg.denyFuncs[name]
	default:
		key = schema + "." + name
		allowed = c.cfg.allowFuncs[key] && !c.cfg.denyFuncs[key]
	}
	if !allowed {
		c.violation(CodeFuncNotAllowed, "function %s is not in the list of allowed functions; remove it or use a standard SQL function", display)
		return
	}
	c.funcs[key] = true
	switch name {
	case "generate_series":
		c.checkSeries(f)
	case "repeat", "lpad", "rpad":
		c.checkLength(f, name)
	}
}
