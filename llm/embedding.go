package llm

// Embedding is how a client that is also an Embedder embeds: the same four
// settings for every provider that has an embeddings endpoint (openai,
// ollama), given with its WithEmbedding option.
type Embedding struct {
	// Model is the embedding model ("text-embedding-3-small",
	// "nomic-embed-text"); Embed fails without one.
	Model string
	// Dimension declares the vector length: answers of another length are
	// rejected. Zero: learnt from the first answer (Dimension returns 0
	// until then).
	Dimension int
	// BatchSize is how many texts go into one request; larger inputs are
	// split. Zero: the provider's default (openai 256, ollama 64).
	BatchSize int
	// Extra is merged into every embeddings request body, e.g.
	// {"dimensions": 256} for OpenAI's text-embedding-3 models or
	// {"truncate": false} for Ollama.
	Extra map[string]any
}
