package main

import (
	"os"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/llm/provider"
)

// llmFlags are the model flags shared by ask and exam.
type llmFlags struct {
	spec    string
	url     string
	timeout time.Duration
}

// label names the model for humans ("openai:gpt-4o-mini").
func (f *llmFlags) label() string {
	if f.spec != "" {
		return f.spec
	}
	if s := os.Getenv("NL2SQL_LLM"); s != "" {
		return s
	}
	return "the model"
}

// resolveLLM builds the model named by --llm (or $NL2SQL_LLM); nil for none.
// See provider.FromSpec for the spec forms, URLs and keys.
func (f *llmFlags) resolveLLM() (nl2sql.LLM, error) {
	spec := f.spec
	if spec == "" {
		spec = os.Getenv("NL2SQL_LLM")
	}
	m, err := provider.FromSpec(spec, f.url)
	if err != nil {
		return nil, usageErr("--llm: %v", err)
	}
	return m, nil
}
