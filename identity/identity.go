package identity

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// Identity is who a request reads as. The zero value is the pool's own
// login role, no settings, the engine's scope.
type Identity struct {
	Role     string    // SET LOCAL ROLE of every read; "" for the login role
	Settings []Setting // SET LOCAL of every read, in order
	Scope    string    // the schema the request is restricted to; "" for the engine's
}

// Setting is one custom setting of an Identity.
type Setting struct {
	Name, Value string
}

// ErrSetting is the cause of a setting Check refuses.
var ErrSetting = errors.New("identity: invalid setting")

// maxValue bounds a setting's value (execute.Setting's bound).
const maxValue = 4096

// CheckSetting refuses a name that is not a custom dotted name
// (app.tenant_id) and a value over 4 KiB, not UTF-8 or with a NUL: what
// the executor would refuse, said before any work. The error names the
// setting, never its value.
func CheckSetting(name, value string) error {
	if !validate.CustomSetting(name) {
		return fmt.Errorf("%w %q: only custom dotted names such as app.tenant_id may be set", ErrSetting, name)
	}
	if len(value) > maxValue || !utf8.ValidString(value) || strings.IndexByte(value, 0) >= 0 {
		return fmt.Errorf("%w %s: the value must be at most %d bytes of UTF-8 without NUL", ErrSetting, name, maxValue)
	}
	return nil
}

// ParseSetting reads NAME=VALUE (the CLI's --set), checked by
// CheckSetting.
func ParseSetting(s string) (Setting, error) {
	name, value, ok := strings.Cut(s, "=")
	if !ok {
		return Setting{}, fmt.Errorf("%w %q: want NAME=VALUE, e.g. app.tenant_id=42", ErrSetting, name)
	}
	if err := CheckSetting(name, value); err != nil {
		return Setting{}, err
	}
	return Setting{Name: name, Value: value}, nil
}

// Check checks every setting (CheckSetting) and that a name is set once.
func (id Identity) Check() error {
	seen := map[string]bool{}
	for _, s := range id.Settings {
		if err := CheckSetting(s.Name, s.Value); err != nil {
			return err
		}
		if k := strings.ToLower(s.Name); seen[k] {
			return fmt.Errorf("%w %s: set twice", ErrSetting, s.Name)
		} else {
			seen[k] = true
		}
	}
	return nil
}

// Names are the identity's setting names, for nl2sql.WithSettings.
func (id Identity) Names() []string {
	out := make([]string, len(id.Settings))
	for i, s := range id.Settings {
		out[i] = s.Name
	}
	return out
}

// AskOptions are the per-request options of the identity: AsRole, one
// Setting per setting and Scope. Put them after the request's own options,
// so that they win.
func (id Identity) AskOptions() []nl2sql.AskOption {
	var out []nl2sql.AskOption
	if id.Role != "" {
		out = append(out, nl2sql.AsRole(id.Role))
	}
	for _, s := range id.Settings {
		out = append(out, nl2sql.Setting(s.Name, s.Value))
	}
	if id.Scope != "" {
		out = append(out, nl2sql.Scope(id.Scope))
	}
	return out
}
