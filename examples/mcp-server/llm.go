package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/llm/anthropic"
	"github.com/nl2sqlgo/nl2sql/llm/ollama"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// llmSpec is --llm and --llm-url, mapped to a model like the nl2sql CLI
// does.
type llmSpec struct {
	spec string
	url  string
}

// resolve builds the model named by --llm (or $NL2SQL_LLM): "ollama:MODEL",
// "openai:MODEL", "anthropic:MODEL", or "none" / "" for no model (nil).
// Base URLs come from --llm-url, else OLLAMA_HOST / OPENAI_BASE_URL; keys
// from OPENAI_API_KEY / ANTHROPIC_API_KEY.
func (f llmSpec) resolve() (nl2sql.LLM, error) {
	spec := firstNonEmpty(f.spec, os.Getenv("NL2SQL_LLM"))
	if spec == "" || spec == "none" {
		return nil, nil
	}
	provider, model, ok := strings.Cut(spec, ":")
	if !ok || model == "" {
		return nil, fmt.Errorf("--llm %q: want ollama:MODEL, openai:MODEL, anthropic:MODEL or none", spec)
	}
	switch provider {
	case "ollama":
		return ollama.New(ollama.WithBaseURL(firstNonEmpty(f.url, ollama.HostFromEnv())), ollama.WithModel(model)), nil
	case "openai":
		opts := []openai.Option{openai.WithModel(model), openai.WithAPIKey(os.Getenv("OPENAI_API_KEY"))}
		if url := firstNonEmpty(f.url, os.Getenv("OPENAI_BASE_URL")); url != "" {
			opts = append(opts, openai.WithBaseURL(url))
		}
		return openai.New(opts...), nil
	case "anthropic":
		opts := []anthropic.Option{anthropic.WithModel(model), anthropic.WithAPIKey(os.Getenv("ANTHROPIC_API_KEY"))}
		if f.url != "" {
			opts = append(opts, anthropic.WithBaseURL(f.url))
		}
		return anthropic.New(opts...), nil
	}
	return nil, fmt.Errorf("--llm %q: unknown provider %q (ollama, openai, anthropic, none)", spec, provider)
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}
