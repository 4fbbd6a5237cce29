package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nl2sqlgo/nl2sql"
)

// What nl_query says of its answer besides the rows, so that the host
// model can act on it: the status (answered, uncertain, abstained), the
// reasons, the other answers the candidates gave and a question to ask
// the user. An abstention is not a tool error (isError stays false): the
// host gets the reasons, the alternatives and the question in the
// structured content and the text, and no rows, since the query was not
// run. A tool error would hand it one line it cannot act on.

// Alternative is another answer the candidates gave (nl2sql.Alternative),
// with an answer id of its own for learn.
type Alternative struct {
	ID          string   `json:"id" jsonschema:"this alternative's answer id: when the user picks it, run it with run_sql and call learn {id} to keep it as the example of the question"`
	SQL         string   `json:"sql" jsonschema:"the alternative query"`
	Description string   `json:"description,omitempty" jsonschema:"what it returns in plain English, read from its parse tree"`
	Columns     []Column `json:"columns" jsonschema:"its result columns (empty when its rows were not read)"`
	Rows        [][]any  `json:"rows" jsonschema:"its first rows (at most 3), when the candidates' results were compared; left out when they do not fit the reply budget"`
	Support     float64  `json:"support" jsonschema:"the share of the candidates' votes that gave this answer, 0..1"`
}

// altPreviewBytes bounds the text's copy of one alternative's rows.
const altPreviewBytes = 1 << 10

// altShare: the alternatives take at most budget/altShare bytes of a
// reply; their rows are left out past it.
const altShare = 4

// alternatives are res's alternatives the call's scope may run (each is
// checked again with the call's options: one the engine could not check
// there is left out), each kept as an answer for learn: as of, with its
// SQL.
func (h *handlers) alternatives(ctx context.Context, res *nl2sql.Result, of answer, opts []nl2sql.AskOption) []Alternative {
	out := []Alternative{}
	for _, a := range res.Alternatives {
		if chk, err := h.eng.Check(ctx, a.SQL, opts...); err != nil || !chk.OK {
			continue
		}
		alt := Alternative{SQL: a.SQL, Description: a.Description, Columns: make([]Column, len(a.Columns)), Rows: a.Rows, Support: a.Support}
		for i, c := range a.Columns {
			alt.Columns[i] = Column{Name: c.Name, Type: c.Type}
		}
		if alt.Rows == nil {
			alt.Rows = [][]any{}
		}
		of.SQL = a.SQL
		alt.ID = h.answers.keep(of)
		out = append(out, alt)
	}
	return out
}

// fitAlternatives leaves out the alternatives' rows, the last one's
// first, until they take at most budget/altShare bytes, and says so.
func fitAlternatives(alts []Alternative, budget int) []string {
	size := func() int {
		b, _ := json.Marshal(alts)
		return len(b)
	}
	cut := false
	for i := len(alts) - 1; i >= 0 && size() > budget/altShare; i-- {
		if len(alts[i].Rows) > 0 {
			alts[i].Rows, cut = [][]any{}, true
		}
	}
	if !cut {
		return nil
	}
	return []string{fmt.Sprintf("the alternatives' rows were left out to fit this server's reply budget of %d bytes: run_sql an alternative's sql to see them", budget)}
}

// verdictText is what the text content says of the answer's status
// before its rows: the caveat and its reasons, the question to ask the
// user, the alternatives.
func verdictText(out NLQueryOutput, learn bool) string {
	var b strings.Builder
	switch out.Status {
	case string(nl2sql.VerdictUncertain):
		b.WriteString("\nThe answer is uncertain." + why(out.Reasons) + "\nShow the rows below to the user as a guess, not as the answer.")
	case string(nl2sql.VerdictAbstained):
		b.WriteString("\nThe engine abstained: no query was likely enough to be right." + why(out.Reasons) + "\nNothing was run; do not answer the question from this reply.")
	default:
		if len(out.Reasons) > 0 {
			b.WriteString("\nDoubts:" + bullets(out.Reasons))
		}
		return b.String()
	}
	switch {
	case out.Clarify != "":
		fmt.Fprintf(&b, "\nAsk the user: %s", out.Clarify)
	case len(out.Alternatives) > 0:
		b.WriteString("\nAsk the user which of the answers below they mean.")
	default:
		b.WriteString("\nAsk the user to say more: which tables, columns or values they mean.")
	}
	if len(out.Alternatives) > 0 {
		how := "run_sql its sql"
		if learn {
			how += " and call learn with its id (it becomes the example of this question)"
		}
		fmt.Fprintf(&b, "\nOther answers the candidates gave (if the user picks one, %s):", how)
		for i, a := range out.Alternatives {
			fmt.Fprintf(&b, "\n%d. %s (support %.0f%%, id %s)\n   SQL: %s", i+1, firstNonEmpty(a.Description, "(no description)"), 100*a.Support, a.ID, a.SQL)
			if rows := previewRows(a.Rows, altPreviewBytes); rows != "" {
				b.WriteString("\n   First rows: " + rows)
			}
		}
	}
	if out.Status == string(nl2sql.VerdictAbstained) {
		fmt.Fprintf(&b, "\nThe query it did not run: %s", out.SQL)
	}
	return b.String()
}

// why lists the reasons, one a line ("" for none).
func why(reasons []string) string {
	if len(reasons) == 0 {
		return ""
	}
	return " Why:" + bullets(reasons)
}

// bullets is items, each on a line of its own after "- ".
func bullets(items []string) string {
	return "\n- " + strings.Join(items, "\n- ")
}

// previewRows is rows as JSON on one line, within limit bytes.
func previewRows(rows [][]any, limit int) string {
	lines, _ := jsonLines(rows, limit)
	return strings.ReplaceAll(strings.TrimSpace(lines), "\n", " ")
}
