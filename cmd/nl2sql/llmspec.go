package main

import (
	"os"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/llm/provider"
)

// llmFlags are the model flags shared by ask and exam.
type llmFlags struct {
	spec string
	url  string
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
