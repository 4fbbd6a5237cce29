package schema

import "strings"

// QuoteLiteral quotes s as a string literal that reads the same whatever
// standard_conforming_strings is: an E” literal when it holds a
// backslash.
func QuoteLiteral(s string) string {
	q := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	if strings.Contains(s, `\`) {
		q = "E'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", "''") + "'"
	}
	return q
}
