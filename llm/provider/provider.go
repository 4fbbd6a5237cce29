package provider

import (
	"errors"
	"fmt"
	neturl "net/url"
	"os"
	"strings"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/anthropic"
	"github.com/nl2sqlgo/nl2sql/llm/ollama"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// ErrSpec is returned (wrapped) for a malformed or unknown spec.
var ErrSpec = errors.New("provider: bad model spec")

// FromSpec returns the model a spec names (nil for "none" or ""). What it
// can check without a network call it checks now, so a bad setting fails at
// start rather than at the first question: the base URL must be an
// absolute http(s) URL, and OpenAI's or Anthropic's own API needs a key.
func FromSpec(spec, url string) (llm.Model, error) {
	if spec == "" || spec == "none" {
		return nil, nil
	}
	name, model, ok := strings.Cut(spec, ":")
	if !ok || model == "" {
		return nil, fmt.Errorf("%w: %q: want ollama:MODEL, openai:MODEL, anthropic:MODEL or none", ErrSpec, spec)
	}
	switch name {
	case "ollama":
		if url == "" {
			url = ollama.HostFromEnv()
		}
		if err := checkURL(url, "ollama", "OLLAMA_HOST"); err != nil {
			return nil, err
		}
		return ollama.New(ollama.WithBaseURL(url), ollama.WithModel(model)), nil
	case "openai":
		if url == "" {
			url = os.Getenv(openai.EnvBaseURL)
		}
		opts := []openai.Option{openai.WithModel(model), openai.WithAPIKey(os.Getenv(openai.EnvAPIKey))}
		if url != "" {
			if err := checkURL(url, "openai", openai.EnvBaseURL); err != nil {
				return nil, err
			}
			opts = append(opts, openai.WithBaseURL(url))
		} else if os.Getenv(openai.EnvAPIKey) == "" {
			return nil, fmt.Errorf("%w: %w", ErrSpec, openai.ErrNoAPIKey)
		}
		return openai.New(opts...), nil
	case "anthropic":
		opts := []anthropic.Option{anthropic.WithModel(model), anthropic.WithAPIKey(os.Getenv("ANTHROPIC_API_KEY"))}
		if url != "" {
			if err := checkURL(url, "anthropic", ""); err != nil {
				return nil, err
			}
			opts = append(opts, anthropic.WithBaseURL(url))
		} else if os.Getenv("ANTHROPIC_API_KEY") == "" {
			return nil, fmt.Errorf("%w: anthropic: ANTHROPIC_API_KEY is not set", ErrSpec)
		}
		return anthropic.New(opts...), nil
	}
	return nil, fmt.Errorf("%w: %q: unknown provider %q (ollama, openai, anthropic, none)", ErrSpec, spec, name)
}

// checkURL refuses a base URL that is not an absolute http(s) URL with a
// host. env names the variable it may have come from.
func checkURL(raw, provider, env string) error {
	u, err := neturl.Parse(raw)
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return nil
	}
	from := "the URL"
	if env != "" {
		from += " (or $" + env + ")"
	}
	return fmt.Errorf("%w: %s: %s %q is not an http(s) URL such as http://localhost:8000", ErrSpec, provider, from, raw)
}
