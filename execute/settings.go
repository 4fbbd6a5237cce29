package execute

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// Setting sets the custom setting name to value for this query (SET LOCAL,
// through set_config with both as parameters, before the catalog checks and
// the query): the per-request identity that row-level security policies
// read with current_setting('app.tenant_id'). Only custom dotted names are
// taken (validate.CustomSetting); a value is at most 4 KiB of UTF-8 without
// NUL. Let queries and policies read the name with
// WithValidateOptions(validate.WithSettings(name)); the query itself can
// never set one (set_config is denied).
func Setting(name, value string) QueryOption {
	return queryOptionFunc(func(c *queryConfig) { c.settings = append(c.settings, [2]string{name, value}) })
}

// maxSettingValue bounds a Setting's value.
const maxSettingValue = 4096

// checkSettings refuses what Setting does not take.
func checkSettings(settings [][2]string) error {
	for _, kv := range settings {
		if !validate.CustomSetting(kv[0]) {
			return fmt.Errorf("execute: setting %q: only custom dotted names (app.tenant_id) may be set per query", kv[0])
		}
		if len(kv[1]) > maxSettingValue || !utf8.ValidString(kv[1]) || strings.IndexByte(kv[1], 0) >= 0 {
			return fmt.Errorf("execute: setting %s: the value must be at most %d bytes of UTF-8 without NUL", kv[0], maxSettingValue)
		}
	}
	return nil
}

// settingsSQL sets n custom settings from parameters $1..$2n, SET LOCAL.
func settingsSQL(n int) string {
	var b strings.Builder
	b.WriteString("SELECT ")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "pg_catalog.set_config($%d, $%d, true)", 2*i+1, 2*i+2)
	}
	return b.String()
}
