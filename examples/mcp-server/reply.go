package main

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// defaultMaxReply is the byte budget of one tool reply (Config.MaxReply).
const defaultMaxReply = 1 << 20

// previewBytes bounds the rows a reply's text shows.
const previewBytes = 4 << 10

// capReply is truncated_by when the reply's byte budget cut the rows.
const capReply = "reply_budget"

// fit cuts q's rows so that out (the tool's output, holding q), as the
// SDK marshals it into the structured content, and the text's preview of
// the rows stay within budget bytes. A byte-capped result was once sent
// whole and twice (15-21 MB a reply, the JSON's escapes growing it); the
// notes say what was cut and why.
func fit(q *QueryResult, out any, budget int) {
	rows := q.Rows
	q.Rows = [][]any{}
	b, _ := json.Marshal(out)
	q.Rows = rows
	// The text's preview may grow six times in the JSON-RPC message (every
	// '<' is \u003c); 1 KiB more for the note, the summary and framing.
	left := budget - len(b) - 6*previewBytes - 1024
	for i, row := range rows {
		rb, _ := json.Marshal(row)
		if left -= len(rb) + 1; left < 0 {
			q.Rows = rows[:i:i]
			q.Truncated, q.TruncatedBy = true, capReply
			q.Notes = append(q.Notes, fmt.Sprintf("this server sends at most %d bytes a reply: %d of the %d rows read fit; "+
				"select fewer columns or rows (max_rows, WHERE, LIMIT) to see the rest", budget, i, len(rows)))
			return
		}
	}
}

// preview is the text content's copy of the first rows, as JSON lines,
// within previewBytes: a client that reads only the text (and the model
// behind it) sees them; every row is in the structured content.
func preview(q QueryResult) string {
	if len(q.Rows) == 0 {
		return ""
	}
	lines, n := jsonLines(q.Rows, previewBytes)
	head := "\nRows:\n"
	if n < len(q.Rows) {
		head = fmt.Sprintf("\nRows (the first %d of %d; the structured content has them all):\n", n, len(q.Rows))
	}
	return head + lines
}

// jsonLines is the first rows as JSON lines (HTML characters unescaped)
// within limit bytes, and how many they are.
func jsonLines(rows [][]any, limit int) (string, int) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	n := 0
	for _, row := range rows {
		mark := b.Len()
		if enc.Encode(row) != nil || b.Len() > limit {
			b.Truncate(mark)
			break
		}
		n++
	}
	return b.String(), n
}
