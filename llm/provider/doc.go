// Package provider builds an llm.Model from a short spec string, the way the
// nl2sql CLI and the MCP server take one on the command line:
//
//	m, err := provider.FromSpec("ollama:qwen2.5-coder:7b", "")
//	if err != nil {
//		return err // errors.Is(err, provider.ErrSpec): fix the flag
//	}
//	if m == nil {
//		// "none": run without a model
//	}
//
// # Specs
//
//   - "ollama:MODEL": llm/ollama, at the url argument, else OLLAMA_HOST,
//     else http://127.0.0.1:11434;
//   - "openai:MODEL": llm/openai, for OpenAI or any compatible server
//     (vLLM, llama.cpp, LM Studio), at the url argument, else
//     OPENAI_BASE_URL, else api.openai.com, with OPENAI_API_KEY;
//   - "anthropic:MODEL": llm/anthropic, at the url argument, else
//     api.anthropic.com, with ANTHROPIC_API_KEY;
//   - "none" or "": no model (nil, nil).
//
// # Checks at start
//
// FromSpec checks what it can without a network call, so a bad setting
// fails when the program starts rather than at its first question: the
// base URL must be an absolute http(s) URL, and OpenAI's or Anthropic's
// own API needs a key. The clients get the default llm.Transport; build
// one with its package's New for anything else.
package provider
