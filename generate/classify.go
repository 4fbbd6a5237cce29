package generate

import (
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// Difficulty is a coarse estimate of how hard a question is to answer in SQL.
type Difficulty string

// Difficulties.
const (
	Easy   Difficulty = "easy"
	Medium Difficulty = "medium"
	Hard   Difficulty = "hard"
)

// hardMarkers are phrasings that usually need window functions, nested
// aggregation, set logic or time comparisons.
var hardMarkers = []string{
	"rank", "ranking", "percent", "percentage", "share of", "ratio", "running total", "cumulative",
	"moving average", "compared to", "compared with", "growth", "year over year", "month over month",
	"previous", "median", "percentile", "each month", "per month", "trend", "never", "without any",
	"more than the average", "above average", "below average", "at least one", "every ", "all of",
	"difference between", "top-", "second", "both", "retention", "consecutive",
}

var mediumMarkers = []string{
	"average", "avg", "total", "sum", "per ", "each", "by ", "top ", "most", "least", "highest", "lowest",
	"between", "group", "count", "how many", "number of", "largest", "smallest", "maximum", "minimum", "latest", "earliest",
}

// Classify estimates a question's difficulty from its wording and the
// number of tables the retrieved context spans. It is a heuristic for
// spending effort (how many candidates to ask for), not a judgement.
func Classify(question string, tables int) Difficulty {
	return classify(question, tables)
}

// ClassifyAnalysis is Classify on a question already read by
// gloss.Analyze (nil reads as the empty question): a caller that analysed
// the question once hands every stage the same reading.
func ClassifyAnalysis(question *gloss.Analysis, tables int) Difficulty {
	if question == nil {
		return classify("", tables)
	}
	return classify(question.Text, tables)
}

func classify(question string, tables int) Difficulty {
	q := " " + strings.ToLower(question) + " "
	score := 0
	for _, m := range hardMarkers {
		if strings.Contains(q, m) {
			score += 2
		}
	}
	for _, m := range mediumMarkers {
		if strings.Contains(q, m) {
			score++
		}
	}
	if strings.Count(q, " and ")+strings.Count(q, ",") >= 2 {
		score++
	}
	switch {
	case tables >= 4:
		score += 2
	case tables == 3:
		score++
	}
	switch {
	case score >= 5:
		return Hard
	case score >= 2:
		return Medium
	}
	return Easy
}
