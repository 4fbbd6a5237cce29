package link

import "github.com/nl2sqlgo/nl2sql/gloss"

// PhraseKind says how a keyphrase was found: gloss.PhraseKind.
type PhraseKind = gloss.PhraseKind

// Keyphrase kinds (gloss's).
const (
	PhraseQuoted      = gloss.PhraseQuoted      // 'Acme', "Net 30", `tot_amt`
	PhraseNumber      = gloss.PhraseNumber      // 42, 3.5, $1,200, 15%
	PhraseDate        = gloss.PhraseDate        // 2024-01-31, March 2024, Q3 2023
	PhraseYear        = gloss.PhraseYear        // 2023
	PhraseCapitalized = gloss.PhraseCapitalized // Acme Corp, Negotiation (not sentence-initial)
	PhraseNGram       = gloss.PhraseNGram       // 1 to 3 consecutive content words
)

// Keyphrase is a span of the question worth matching against the schema:
// a phrase of the question's gloss.Analysis.
type Keyphrase = gloss.Phrase

// Keyphrases extracts the spans of a question that may name tables,
// columns or values: quoted strings, numbers, dates and years, capitalised
// phrases, and word n-grams (up to three words, stopwords excluded). The
// result is ordered by position, then kind. It is gloss.Analyze's Phrases.
func Keyphrases(question string) []Keyphrase {
	return gloss.Analyze(question).Phrases
}
