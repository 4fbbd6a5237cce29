package repair

// Numeric casts: PostgreSQL has round(numeric, int), mod(numeric, numeric),
// div and log(base, x) for numeric only, and % for integers and numeric,
// where MySQL and SQLite take doubles. Casting the double argument to
// numeric is the only change that makes such a call resolve, and the value
// is the same up to the double's own precision.

// numericOnly lists functions with several numeric arguments and no
// double precision variant.
var numericOnly = map[string]bool{"mod": true, "div": true, "log": true}

func isFloat(t string) bool { return t == "double precision" || t == "real" }

// allNumbers reports argument types that are all numbers or untyped
// constants, so the float is the only mismatch.
func allNumbers(types []string) bool {
	for _, t := range types {
		if !isNumber(t) && t != "unknown" {
			return false
		}
	}
	return true
}
