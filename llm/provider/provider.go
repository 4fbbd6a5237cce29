// Package provider builds an llm.Model from a short spec string, the way the
// nl2sql CLI and the MCP server take one on the command line:
//
//	m, err := provider.FromSpec("ollama:qwen2.5-coder:7b", "")
//
// Specs: "ollama:MODEL", "openai:MODEL" (any OpenAI-compatible server),
// "anthropic:MODEL", or "none" / "" for no model (nil, nil). Base URLs come
// from the url argument, else OLLAMA_HOST / OPENAI_BASE_URL; API keys from
// OPENAI_API_KEY / ANTHROPIC_API_KEY.
package provider

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/anthropic"
	"github.com/nl2sqlgo/nl2sql/llm/ollama"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// ErrSpec is returned (wrapped) for a malformed or unknown spec.
var ErrSpec = errors.New("provider: bad model spec")

// FromSpec returns the model a spec names (nil for "none" or "").
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
		return ollama.New(ollama.WithBaseURL(url), ollama.WithModel(model)), nil
	case "openai":
		opts := []openai.Option{openai.WithModel(model), openai.WithAPIKey(os.Getenv("OPENAI_API_KEY"))}
		if url == "" {
			url = os.Getenv("OPENAI_BASE_URL")
		}
		if url != "" {
			opts = append(opts, openai.WithBaseURL(url))
		}
		return openai.New(opts...), nil
	case "anthropic":
		opts := []anthropic.Option{anthropic.WithModel(model), anthropic.WithAPIKey(os.Getenv("ANTHROPIC_API_KEY"))}
		if url != "" {
			opts = append(opts, anthropic.WithBaseURL(url))
		}
		return anthropic.New(opts...), nil
	}
	return nil, fmt.Errorf("%w: %q: unknown provider %q (ollama, openai, anthropic, none)", ErrSpec, spec, name)
}
