package validate_test

import (
	"errors"
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestWithSettings: current_setting reads a custom setting WithSettings
// names, in every spelling of a constant name (quoted, escaped, dollar
// quoted, cast to text, any case, qualified with pg_catalog, in a CTE, a
// sublink, VALUES, LATERAL, a window frame), and nothing else: other
// names, built-in settings, computed names, set_config and an unconfigured
// validator are refused.
func TestWithSettings(t *testing.T) {
	v := validate.New(validate.WithSettings("app.tenant_id", "search_path", "not a name"))
	for _, sql := range []string{
		"SELECT current_setting('app.tenant_id') AS t",
		"SELECT current_setting('APP.Tenant_ID', true) AS t",
		"SELECT pg_catalog.current_setting('app.tenant_id'::text, false) AS t",
		"SELECT current_setting(E'app.tenant\\x5fid') AS t",
		"SELECT current_setting(U&'app.tenant\\005Fid') AS t",
		"SELECT current_setting($$app.tenant_id$$) AS t",
		"SELECT CURRENT_SETTING('app.tenant_id'::varchar) AS t",
		"WITH c AS (SELECT current_setting('app.tenant_id') AS t) SELECT t FROM c",
		"SELECT (SELECT current_setting('app.tenant_id')) AS t",
		"SELECT x FROM (VALUES (current_setting('app.tenant_id'))) v(x)",
		"SELECT l.t FROM (VALUES (1)) v(x), LATERAL (SELECT current_setting('app.tenant_id') AS t) l",
		"SELECT count(*) OVER (ORDER BY x ROWS BETWEEN length(current_setting('app.tenant_id')) PRECEDING AND CURRENT ROW) AS n FROM (VALUES (1)) v(x)",
	} {
		if _, err := v.Validate(sql); err != nil {
			t.Errorf("%s: %v", sql, err)
		}
	}
	for _, sql := range []string{
		"SELECT current_setting('search_path') AS t",
		"SELECT current_setting('app.other') AS t",
		"SELECT current_setting('app.' || 'tenant_id') AS t",
		"SELECT current_setting(x) AS t FROM (VALUES ('app.tenant_id')) v(x)",
		"SELECT current_setting('app.tenant_id', x) AS t FROM (VALUES (true)) v(x)",
		"SELECT current_setting('app.tenant_id'::regclass::text) AS t",
		"SELECT current_setting(VARIADIC ARRAY['app.tenant_id']) AS t",
		"SELECT set_config('app.tenant_id', '2', true) AS t",
		"SELECT div_01.current_setting('app.tenant_id') AS t",
		"SELECT current_setting('app.tenant_id', 'yes'::text::boolean) AS t",
	} {
		_, err := v.Validate(sql)
		var ve *validate.Error
		if !errors.As(err, &ve) {
			t.Errorf("%s: accepted, want a refusal", sql)
		}
	}
	if _, err := validate.New().Validate("SELECT current_setting('app.tenant_id') AS t"); err == nil {
		t.Error("current_setting accepted without WithSettings")
	}
	if !validate.CustomSetting("app.tenant_id") || validate.CustomSetting("search_path") || validate.CustomSetting("app.") ||
		validate.CustomSetting("a.b; drop") {
		t.Error("CustomSetting")
	}
}
