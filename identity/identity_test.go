package identity_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/identity"
)

func hash(tok string) string {
	s := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(s[:])
}

func config(t *testing.T) *identity.Map {
	t.Helper()
	m, err := identity.Parse("ids.yaml", []byte(fmt.Sprintf(`trusted_header: x-forwarded-user
trusted_proxies: [10.1.2.3, 192.168.0.0/16]
callers:
  - name: one
    token_sha256: %s
    role: r1
    settings:
      app.tenant_id: "1"
      app.region: eu
  - name: two
    token_sha256: %s
    user: bob@two.example
    role: r2
    scope: two
    settings: {app.tenant_id: 2}
`, hash("token-one"), hash("token-two"))))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAuthenticate: a bearer token maps to its caller, a wrong or missing
// one to ErrUnknownCaller or ErrNoCredentials; the trusted header counts
// only from a trusted proxy.
func TestAuthenticate(t *testing.T) {
	m := config(t)
	cases := []struct {
		remote, auth, user string
		want               string
		err                error
	}{
		{"127.0.0.1:5", "Bearer token-one", "", "one", nil},
		{"127.0.0.1:5", "bearer  token-two ", "", "two", nil},
		{"127.0.0.1:5", "Bearer token-three", "", "", identity.ErrUnknownCaller},
		{"127.0.0.1:5", "Basic token-one", "", "", identity.ErrNoCredentials},
		{"127.0.0.1:5", "", "", "", identity.ErrNoCredentials},
		// The header from an untrusted address is ignored: its token decides.
		{"127.0.0.1:5", "Bearer token-one", "bob@two.example", "one", nil},
		{"127.0.0.1:5", "", "bob@two.example", "", identity.ErrNoCredentials},
		{"10.1.2.3:5", "", "bob@two.example", "two", nil},
		{"[::ffff:192.168.4.5]:5", "Bearer token-one", "bob@two.example", "two", nil},
		{"10.1.2.3:5", "Bearer token-one", "mallory@example", "", identity.ErrUnknownCaller},
		{"10.1.2.3:5", "Bearer token-one", "", "one", nil},
		{"10.1.2.4:5", "", "bob@two.example", "", identity.ErrNoCredentials},
		// Two values (a proxy that appends), or a comma: no caller.
		{"10.1.2.3:5", "", "bob@two.example, mallory", "", identity.ErrUnknownCaller},
		{"10.1.2.3:5", "Bearer token-one", "mallory,bob@two.example", "", identity.ErrUnknownCaller},
	}
	for _, c := range cases {
		r := httptest.NewRequest("GET", "/", nil)
		appended := c.user == "bob@two.example, mallory"
		if appended {
			c.user = "bob@two.example"
		}
		r.RemoteAddr = c.remote
		if c.auth != "" {
			r.Header.Set("Authorization", c.auth)
		}
		if c.user != "" {
			r.Header.Set("X-Forwarded-User", c.user)
		}
		if appended {
			r.Header.Add("X-Forwarded-User", "mallory")
		}
		got, err := m.Authenticate(r)
		if !errors.Is(err, c.err) || (err == nil && got.Name != c.want) || (err != nil && got != nil) {
			t.Errorf("%+v: %v, %v", c, got, err)
		}
		if err != nil && strings.Contains(err.Error(), "token-") {
			t.Errorf("%+v: the error holds the token: %v", c, err)
		}
	}
	if got := fmt.Sprintf("%v %+v", m.Caller("one"), m.Caller("one")); got != "one one" {
		t.Errorf("a caller prints as %q, want its name only (never its token's hash)", got)
	}
	two := m.Caller("two")
	if two.Role != "r2" || two.Scope != "two" || fmt.Sprint(two.Settings) != "[{app.tenant_id 2}]" {
		t.Errorf("caller two: %+v", two.Identity)
	}
	if got := fmt.Sprint(m.Settings()); got != "[app.region app.tenant_id]" {
		t.Errorf("Settings: %s", got)
	}
	if got := len(m.Caller("one").AskOptions()); got != 3 {
		t.Errorf("caller one has %d ask options, want role and two settings", got)
	}
}

// TestConfigErrors: every mistake fails with the file and its line.
func TestConfigErrors(t *testing.T) {
	h := hash("x")
	cases := []struct{ yaml, want string }{
		{"", "ids.yaml: empty"},
		{"callers: []", "ids.yaml:1: callers: want a list"},
		{"callers:\n  - name: a\n", `ids.yaml:2: caller "a": give token_sha256 or user`},
		{"callers:\n  - name: a\n    token_sha256: secret\n", "ids.yaml:3: token_sha256: want the 64 hex digits"},
		{"callers:\n  - name: a\n    token_sha256: " + h + "\n  - name: b\n    token_sha256: " + h + "\n", `ids.yaml:5: token_sha256: the same token as caller "a"`},
		{"callers:\n  - name: a\n    token_sha256: " + h + "\n  - name: a\n", `ids.yaml:4: caller "a" is named twice`},
		{"callers:\n  - name: a\n    token_sha256: " + h + "\n    settings:\n      search_path: evil\n", `ids.yaml:5: invalid setting "search_path"`},
		{"callers:\n  - name: a\n    token_sha256: " + h + "\n    settings:\n      app.t: [1]\n", "ids.yaml:5: setting app.t: want a string"},
		{"callers:\n  - name: a\n    token_sha256: " + h + "\n    roles: x\n", `ids.yaml:4: caller: unknown key "roles"`},
		{"callers:\n  - name: a\n    user: bob\n", `ids.yaml:2: caller "a": user needs trusted_header`},
		{"trusted_header: X-User\ncallers:\n  - name: a\n    user: bob\n", "ids.yaml:1: trusted_header needs trusted_proxies"},
		{"trusted_header: X-User\ntrusted_proxies: [10.0.0.0/33]\n", `ids.yaml:2: trusted_proxies: "10.0.0.0/33"`},
		{"callers:\n  - name: a\n    token_sha256: [\n", "ids.yaml:"},
		{`{"callers": [{"name": "a", "token_sha256": "` + h + `", "role": ""}]}`, "ids.yaml:1: role is empty"},
	}
	for _, c := range cases {
		_, err := identity.Parse("ids.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, identity.ErrConfig) {
			t.Errorf("%q: %v, want %q", c.yaml, err, c.want)
		}
	}
	path := filepath.Join(t.TempDir(), "ids.json")
	os.WriteFile(path, []byte(`{"callers": [{"name": "a", "token_sha256": "`+h+`", "scope": "s"}]}`), 0o600)
	if m, err := identity.Load(path); err != nil || m.Caller("a").Scope != "s" {
		t.Errorf("JSON: %v", err)
	}
}

// TestParseSetting: NAME=VALUE with a custom dotted name only.
func TestParseSetting(t *testing.T) {
	for in, ok := range map[string]bool{"app.tenant_id=42": true, "app.x=": true, "app.x=a=b": true,
		"work_mem=1GB": false, "app.tenant_id": false, "=1": false, "role=x": false, "app..x=1": false, "app.x=\x00": false} {
		_, err := identity.ParseSetting(in)
		if (err == nil) != ok || (err != nil && !errors.Is(err, identity.ErrSetting)) {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// TestDeploymentExample: the config of docs/deployment.md loads as it
// says.
func TestDeploymentExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/deployment.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```yaml\n# Optional: callers identified")
	block, _, _ = strings.Cut(block, "```")
	if !ok {
		t.Fatal("no config example in docs/deployment.md")
	}
	m, err := identity.Parse("deployment.md", []byte("# Optional: callers identified"+block))
	if err != nil {
		t.Fatal(err)
	}
	g := m.Caller("globex-bi")
	if fmt.Sprint(m.Callers()) != "[acme-analyst globex-bi]" || g.Scope != "globex" || g.Role != "globex_reader" ||
		fmt.Sprint(m.Settings()) != "[app.region app.tenant_id]" || m.TrustedHeader() != "X-Forwarded-User" {
		t.Errorf("%v %+v %v", m.Callers(), g, m.Settings())
	}
}
