package retrieve

import "github.com/nl2sqlgo/nl2sql/gloss"

// Words splits text into lower-case words: on anything that is not a letter
// or digit, on snake_case and on camelCase boundaries ("custNbr" -> cust,
// nbr; "HTTPServer" -> http, server).
//
// Deprecated: use gloss.Fields, the pipeline's one tokenizer.
func Words(text string) []string { return gloss.Fields(text) }

// Stem reduces an English word to a crude stem so that plural and singular
// forms meet ("categories" -> "category", "orders" -> "order").
//
// Deprecated: use gloss.Stem, the pipeline's one stemmer.
func Stem(w string) string { return gloss.Stem(w) }

// Terms returns the stemmed, stopword-free terms of text: the vocabulary of
// both the lexical index and the built-in embedder.
//
// Deprecated: use gloss.Terms (or the Terms of a question's gloss.Analysis).
func Terms(text string) []string { return gloss.Terms(text) }
