package identity

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxFileSize is the largest config file Load reads.
const MaxFileSize = 1 << 20

// ErrConfig is the cause of every config file error.
var ErrConfig = errors.New("identity config")

// ConfigError is a mistake in a config file, with its line (0 when the
// file as a whole is wrong).
type ConfigError struct {
	File string
	Line int
	Msg  string
}

func (e *ConfigError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("identity: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("identity: %s: %s", e.File, e.Msg)
}

// Unwrap makes every ConfigError an ErrConfig.
func (e *ConfigError) Unwrap() error { return ErrConfig }

// Caller is one caller of a server and the identity it reads as.
type Caller struct {
	Name string
	Identity
	token    [sha256.Size]byte // sha256 of its bearer token
	hasToken bool
	user     string // the trusted header's value, "" for none
}

// String is the caller's name: printing a caller never shows its token's
// hash.
func (c *Caller) String() string { return c.Name }

// Map maps the callers of a server to their identities (see the package
// documentation for the file).
type Map struct {
	file    string
	callers []*Caller
	header  string // canonical trusted header, "" for none
	proxies []netip.Prefix
}

// Load reads the config file at path (see Parse).
func Load(path string) (*Map, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("identity: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("identity: reading %s: %w", path, err)
	}
	return Parse(path, data)
}

// Parse reads a config from data; file is the name its errors give. The
// first mistake fails it, as a *ConfigError with its line.
func Parse(file string, data []byte) (*Map, error) {
	if len(data) > MaxFileSize {
		return nil, &ConfigError{File: file, Msg: fmt.Sprintf("more than %d bytes", MaxFileSize)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &ConfigError{File: file, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	p := &parser{file: file, m: &Map{file: file}}
	if len(doc.Content) == 0 {
		return nil, &ConfigError{File: file, Msg: "empty: name at least one caller under callers"}
	}
	if err := p.top(doc.Content[0]); err != nil {
		return nil, err
	}
	return p.m, nil
}

type parser struct {
	file string
	m    *Map
}

func (p *parser) errf(n *yaml.Node, format string, args ...any) error {
	return &ConfigError{File: p.file, Line: n.Line, Msg: fmt.Sprintf(format, args...)}
}

// fields walks mapping n, calling fn on each key (checked against keys)
// and value, in the file's order.
func (p *parser) fields(n *yaml.Node, what string, keys []string, fn func(key string, k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return p.errf(n, "%s: want a mapping", what)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if keys != nil && !slices.Contains(keys, k.Value) {
			return p.errf(k, "%s: unknown key %q (want one of %s)", what, k.Value, strings.Join(keys, ", "))
		}
		if seen[k.Value] {
			return p.errf(k, "%s: %s given twice", what, k.Value)
		}
		seen[k.Value] = true
		if err := fn(k.Value, k, v); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) scalar(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", p.errf(n, "%s: want a string", what)
	}
	return n.Value, nil
}

func (p *parser) top(n *yaml.Node) error {
	var callers, header *yaml.Node
	err := p.fields(n, "the file", []string{"trusted_header", "trusted_proxies", "callers"}, func(key string, _, v *yaml.Node) error {
		switch key {
		case "trusted_header":
			h, err := p.scalar(v, key)
			if err != nil {
				return err
			}
			if h == "" || strings.ContainsAny(h, " \t:\r\n") {
				return p.errf(v, "trusted_header %q: want a header name such as X-Forwarded-User", h)
			}
			p.m.header, header = http.CanonicalHeaderKey(h), v
		case "trusted_proxies":
			if v.Kind != yaml.SequenceNode {
				return p.errf(v, "trusted_proxies: want a list of addresses or CIDR prefixes")
			}
			for _, a := range v.Content {
				s, err := p.scalar(a, key)
				if err != nil {
					return err
				}
				pf, err := parsePrefix(s)
				if err != nil {
					return p.errf(a, "trusted_proxies: %q is not an address or a CIDR prefix", s)
				}
				p.m.proxies = append(p.m.proxies, pf)
			}
		case "callers":
			callers = v
		}
		return nil
	})
	if err != nil {
		return err
	}
	if header != nil && len(p.m.proxies) == 0 {
		return p.errf(header, "trusted_header needs trusted_proxies: the addresses of the proxies that set it (any other client could set it too)")
	}
	if callers == nil || callers.Kind != yaml.SequenceNode || len(callers.Content) == 0 {
		at := n
		if callers != nil {
			at = callers
		}
		return p.errf(at, "callers: want a list of at least one caller")
	}
	for _, c := range callers.Content {
		if err := p.caller(c); err != nil {
			return err
		}
	}
	return nil
}

func parsePrefix(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		pf, err := netip.ParsePrefix(s)
		return pf.Masked(), err
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}

func (p *parser) caller(n *yaml.Node) error {
	c := &Caller{}
	var settingsAt *yaml.Node
	err := p.fields(n, "caller", []string{"name", "token_sha256", "user", "role", "scope", "settings"}, func(key string, k, v *yaml.Node) error {
		if key == "settings" {
			settingsAt = k
			return p.fields(v, "settings", nil, func(name string, k, v *yaml.Node) error {
				val, err := p.scalar(v, "setting "+name)
				if err != nil {
					return err
				}
				if err := CheckSetting(name, val); err != nil {
					return p.errf(k, "%s", strings.TrimPrefix(err.Error(), "identity: "))
				}
				c.Settings = append(c.Settings, Setting{Name: name, Value: val})
				return nil
			})
		}
		s, err := p.scalar(v, key)
		if err != nil {
			return err
		}
		if s == "" {
			return p.errf(v, "%s is empty", key)
		}
		switch key {
		case "name":
			if p.m.Caller(s) != nil {
				return p.errf(v, "caller %q is named twice", s)
			}
			c.Name = s
		case "token_sha256":
			b, err := hex.DecodeString(s)
			if err != nil || len(b) != sha256.Size {
				return p.errf(v, "token_sha256: want the 64 hex digits of the token's SHA-256 (printf %%s \"$TOKEN\" | sha256sum), not the token")
			}
			copy(c.token[:], b)
			c.hasToken = true
			for _, o := range p.m.callers {
				if o.hasToken && o.token == c.token {
					return p.errf(v, "token_sha256: the same token as caller %q", o.Name)
				}
			}
		case "user":
			for _, o := range p.m.callers {
				if o.user == s {
					return p.errf(v, "user %q: also caller %q's", s, o.Name)
				}
			}
			c.user = s
		case "role":
			c.Role = s
		case "scope":
			c.Scope = s
		}
		return nil
	})
	if err != nil {
		return err
	}
	switch {
	case c.Name == "":
		return p.errf(n, "caller: name is missing")
	case !c.hasToken && c.user == "":
		return p.errf(n, "caller %q: give token_sha256 or user (or both): nothing identifies it", c.Name)
	case c.user != "" && p.m.header == "":
		return p.errf(n, "caller %q: user needs trusted_header", c.Name)
	}
	if err := c.Identity.Check(); err != nil {
		if settingsAt == nil {
			settingsAt = n
		}
		return p.errf(settingsAt, "caller %q: %s", c.Name, strings.TrimPrefix(err.Error(), "identity: "))
	}
	p.m.callers = append(p.m.callers, c)
	return nil
}
