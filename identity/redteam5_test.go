package identity_test

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/nl2sqlgo/nl2sql/identity"
)

// TestRedteam5CallerEdgeCases (red team 5, held): the caller map's edge
// cases docs/redteam5.md lists as held: an empty or blank bearer token
// names no caller even when a caller's token_sha256 is the empty string's;
// a merge key, a setting set twice in another case, a duplicate user are
// refused at load; the trusted header counts only from a trusted proxy
// (an IPv4-mapped address is the IPv4 one; a unix socket is not), given
// twice it names no caller, and a look-alike user names no caller.
func TestRedteam5CallerEdgeCases(t *testing.T) {
	m, err := identity.Parse("ids.yaml", []byte(fmt.Sprintf(`trusted_header: X-Forwarded-User
trusted_proxies: [10.1.2.3]
callers:
  - name: empty
    token_sha256: %s
  - name: bob
    user: bob
    settings: {app.tenant_id: "2"}
`, hash(""))))
	if err != nil {
		t.Fatal(err)
	}
	for _, auth := range []string{"Bearer ", "Bearer    ", "bearer", "Bearer\t"} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Authorization", auth)
		if c, err := m.Authenticate(r); c != nil || err == nil {
			t.Errorf("Authorization %q names %v", auth, c)
		}
	}
	for _, c := range []struct {
		remote string
		users  []string
		want   string
	}{
		{"10.1.2.3:1", []string{"bob"}, "bob"},
		{"[::ffff:10.1.2.3]:1", []string{"bob"}, "bob"},
		{"10.1.2.4:1", []string{"bob"}, ""},
		{"@", []string{"bob"}, ""},
		{"10.1.2.3:1", []string{"bob", "bob"}, ""},
		{"10.1.2.3:1", []string{"bob,bob"}, ""},
		{"10.1.2.3:1", []string{"Bob"}, ""},
		{"10.1.2.3:1", []string{"bob\u200b"}, ""},
		{"10.1.2.3:1", []string{"ｂｏｂ"}, ""},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.remote
		for _, u := range c.users {
			r.Header.Add("x-forwarded-user", u)
		}
		got, _ := m.Authenticate(r)
		if name := fmt.Sprint(got); (got == nil) != (c.want == "") || got != nil && name != c.want {
			t.Errorf("from %s, users %q: caller %v, want %q", c.remote, c.users, got, c.want)
		}
	}
	for name, doc := range map[string]string{
		"merge key":          "base: &b {role: r}\ncallers:\n  - name: a\n    token_sha256: " + hash("a") + "\n    <<: *b\n",
		"setting twice":      "callers:\n  - name: a\n    token_sha256: " + hash("a") + "\n    settings: {app.tenant_id: '1', APP.TENANT_ID: '2'}\n",
		"duplicate user":     "trusted_header: X-U\ntrusted_proxies: [10.0.0.1]\ncallers:\n  - name: a\n    user: u\n  - name: b\n    user: u\n",
		"duplicate name":     "callers:\n  - name: a\n    token_sha256: " + hash("a") + "\n  - name: a\n    token_sha256: " + hash("b") + "\n",
		"header, no proxies": "trusted_header: X-U\ncallers:\n  - name: a\n    user: u\n",
		"role setting":       "callers:\n  - name: a\n    token_sha256: " + hash("a") + "\n    settings: {role: postgres}\n",
	} {
		if _, err := identity.Parse("ids.yaml", []byte(doc)); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}
