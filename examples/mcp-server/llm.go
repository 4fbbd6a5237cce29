package main

import (
	"os"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/llm/provider"
)

// llmSpec is --llm and --llm-url, mapped to a model like the nl2sql CLI
// does (provider.FromSpec).
type llmSpec struct {
	spec string
	url  string
}

// resolve builds the model named by --llm (or $NL2SQL_LLM); nil for none.
func (f llmSpec) resolve() (nl2sql.LLM, error) {
	return provider.FromSpec(firstNonEmpty(f.spec, os.Getenv("NL2SQL_LLM")), f.url)
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}
