// Package gloss is the vocabulary the pipeline shares: how a question and
// an identifier read as English, and which business words mean the same
// thing. It is a leaf: it knows words, not catalogs, and imports nothing
// of the module. Package link matches questions with it, retrieve builds
// its documents and table names with it, and repair matches misspelt
// names with it.
//
// # Reading a question
//
// Analyze reads a question once: its tokens (an identifier such as
// "tot_amt" or "sales.orders", a number such as "1,200.50" and a name such
// as "O'Brien" are one token each), the words of each token with their
// stems and stopword flags, and the phrases worth matching against a
// schema (quoted values, numbers, dates, years, capitalised names, word
// n-grams):
//
//	a := gloss.Analyze("Revenue by region in March 2024 for 'Acme Corp'")
//	a.Terms()   // ["revenue" "region" "march" "2024" "acme" "corp"]
//	a.Phrases   // quoted "Acme Corp", date "March 2024", n-grams ...
//
// The Engine analyses each question (and its evidence) once and hands the
// reading to every stage: retrieve.Retriever.TablesAnalysis,
// link.Linker.LinkAnalysis, generate.ClassifyAnalysis, the documentation
// shown in the prompt, scoring and the confidence signals. The stages'
// entry points that take a string analyse it themselves.
//
// There is one tokenizer (Fields splits a text into words the way Analyze
// splits a token), one stemmer (Stem: plural to singular, conservative:
// "status", "analysis" and "tot_amt" stay whole) and one stopword list
// (Stopword); Terms is a text's stemmed words that are no stopword, the
// vocabulary of retrieval's index and of an Analysis alike, so a question
// and a schema meet the same way in every stage.
//
// # Glosses
//
// Schemas are named by programmers, questions are asked by people. Split
// cuts an identifier into lower-case words at underscores and punctuation,
// camelCase and acronym boundaries and digits, and segments glued
// abbreviations it knows ("custno" is "cust", "no") when every piece is a
// known word. A word it knows, or the plural of one, is never cut:
// "model" is no "mo" (month) and "del" (deleted), "posts" no "pos" and
// "ts"; an English word it does not know may still be. Words, the default
// Glosser, then replaces each word that is one of about 200 ERP
// abbreviations (qty, amt, nbr, cust, dept, po, ytd, uom, whse, ...) by
// what it stands for:
//
//	gloss.Split("PONbr")   // ["po" "nbr"]
//	gloss.Words("PONbr")   // ["purchase" "order" "number"]
//	gloss.Text("tot_amt")  // "total amount"
//
// A Glosser is a plain function from an identifier to words; link, retrieve
// and repair each take one through their WithGlosser option and default to
// Words. A database with abbreviations of its own adds them, and they win
// over the built-in ones:
//
//	g := gloss.Abbreviations(map[string]string{"ctr": "contract"})
//	l := link.New(cat, link.WithGlosser(g))
//	ix, err := retrieve.New(ctx, cat, retrieve.WithGlosser(g))
//
// Any func(string) []string does as well (Split, for one, expands nothing).
// Glossers must be safe for concurrent use.
//
// # Thesaurus
//
// A Thesaurus relates business words to each other, so that a question's
// words can meet a schema's: "staff" and "headcount" lead to "employee",
// "clients" to "customer", "tenure" to "hire date", "deals" to
// "opportunity", "spend" to "purchase order", "revenue" to "sales order" and
// "invoice", and "vendor" and "supplier" to each other.
//
//	for _, t := range gloss.DefaultThesaurus().Related("Staff") {
//		fmt.Println(t.Text, t.Source, t.Weight) // employee curated 1, ...
//	}
//
// Related accepts any case and the plural ("clients", "sales orders",
// "people"), underscores for spaces ("hire_date"), and returns related words
// and phrases best first, never the word itself. A caller that matches
// question words against a schema's vocabulary keeps the related terms that
// occur in that vocabulary, and may weigh a match by Term.Weight.
//
// # Thesaurus sources
//
// DefaultThesaurus holds two lists, both embedded in the binary and parsed once on
// first use:
//
//   - curated.txt (Source Curated, Weight 1): about two hundred groups
//     written from general business and ERP knowledge, for the links
//     WordNet lacks: the words of questions ("headcount", "spend",
//     "pipeline") and of schemas ("employee", "purchase order",
//     "opportunity").
//   - wordnet.txt (Source WordNet, Weight 0.5): synonyms from WordNet 3.0
//     (Princeton University; its licence is in WORDNET-LICENSE and the
//     file's header), only for the business senses of the words in
//     seed.txt: "deal" is a business deal and a bargain, never a hand of
//     cards; "staff" is personnel, never a stick. A WordNet synonym is a
//     synonym in general English, weaker than a curated link.
//
// wordnet.txt is generated: TestWordNetUpToDate rebuilds it from the WordNet
// database of Debian's wordnet-base package (/usr/share/wordnet, or the
// directory in NL2SQL_WORDNET_DIR) and seed.txt, and fails when the
// committed file differs; it skips when WordNet is not installed. After
// changing seed.txt or the selection rule:
//
//	apt-get install wordnet-base
//	go generate ./gloss
//
// # Thesaurus text format
//
// curated.txt, wordnet.txt and a user's file (ParseThesaurus) share one line-based
// format, UTF-8, one entry a line:
//
//	# a comment, to the end of the line
//	vendor, supplier, provider          a group: each relates to all others
//	headcount, workforce -> employee    a directed link: the left terms lead
//	                                    to the right ones, not back, and not
//	                                    to each other
//	people = person                     an irregular form: a lookup of
//	                                    "people" also finds "person"'s links
//
// A term is one or more words of letters, digits and ' - . / & +, separated
// by spaces (or underscores); terms are lower-cased. Write singular forms:
// lookups reduce regular plurals ("-s", "-es", "-ies", "-men") by
// themselves, when the singular is in the thesaurus. A malformed line is a
// *ParseError with its line number.
//
// # Your own thesaurus
//
// Parse a file in the same format with ParseThesaurus (its terms get Source User, Weight 1) and
// put it before the built-in lists:
//
//	f, err := os.Open("thesaurus.txt")
//	...
//	user, err := gloss.ParseThesaurus(f)
//	...
//	th := gloss.MergeThesauri(user, gloss.DefaultThesaurus())
//	l := link.New(cat, link.WithThesaurus(th))
//
// A Thesaurus is immutable and safe for concurrent use. Related does work
// bounded by the entries of the looked-up word (words longer than a few
// hundred bytes find nothing) and never panics.
package gloss
