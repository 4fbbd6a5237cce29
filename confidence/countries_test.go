package confidence

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestCountryCompared: a code counts as a country's only where the query
// compares it, in a condition, with a column that holds a country.
func TestCountryCompared(t *testing.T) {
	for _, c := range []struct{ sql, want string }{
		{"SELECT 1 FROM s WHERE country_code = 'DE'", "de"},
		{"SELECT 1 FROM s WHERE lower(s.country) <> 'de'", "de"},
		{"SELECT 1 FROM s WHERE ctry_cd IN ('DE', 'GB')", "de,gb"},
		{"SELECT 1 FROM s JOIN c ON c.iso3 = 'DEU'::text", "deu"},
		{"SELECT 1 FROM s WHERE 'USA' = nation", "usa"},
		{"SELECT 1 FROM s GROUP BY country HAVING country = 'ESP'", "esp"},
		{"SELECT 1 FROM s WHERE state = 'DE'", ""},              // Delaware
		{"SELECT 1 FROM s WHERE country LIKE 'DE%'", ""},        // a pattern
		{"SELECT 1 FROM s WHERE country = '%de%'", ""},          // no code
		{"SELECT 'DE' AS country FROM s", ""},                   // no condition
		{"SELECT 1 FROM s WHERE country_code = other_code", ""}, // no constant
	} {
		got := slices.Sorted(maps.Keys(countryCompared(parseTree(c.sql))))
		if strings.Join(got, ",") != c.want {
			t.Errorf("countryCompared(%q) = %q, want %q", c.sql, got, c.want)
		}
	}
}
