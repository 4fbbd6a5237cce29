package generate

import (
	"fmt"
	"strings"
)

// Example is a verified question -> SQL pair shown to the model as a
// few-shot example.
type Example struct {
	Question string `json:"question"`
	SQL      string `json:"sql"`
}

// PromptData is everything a generation prompt may show. Only Question and
// Schema are required; empty sections are left out.
type PromptData struct {
	Question string
	Evidence string // the user's hint ("active means status = 'A'")
	Schema   string // M-Schema text of the retrieved tables
	Joins    []string
	Links    []string // "phrase -> table.column" lines
	Values   []string // value hints: "deals.stage = 'Negotiation'"
	Warnings []string
	Examples []Example
	// SearchPath is the schema list the query runs with, when it matters
	// (multi-tenant scopes): names in it may be used unqualified.
	SearchPath []string
	// Dialect notes appended to the rules (e.g. the server version).
	Notes []string
	// History is the conversation so far, oldest first: the question may
	// follow up on it.
	History []Turn
	// Docs is documentation of the schema the team wrote down ("orders.total
	// excludes tax"), one line each.
	Docs []string
	// Definitions are the business's definitions of the measures, named
	// filters, dimensions and metrics the question names, as SQL to reuse
	// (a semantic model's), one line each: "measure revenue on
	// public.sales_orders: sum(total_amount) FILTER (WHERE status <>
	// 'Cancelled')". With any, the rules ask the model to compute them as
	// defined.
	Definitions []string
}

// Turn is an earlier question of a conversation and the SQL that answered
// it (with its result's column names, when known).
type Turn struct {
	Question string   `json:"question"`
	SQL      string   `json:"sql"`
	Columns  []string `json:"columns,omitempty"`
}

// followUpRule is added to the rules when the prompt carries a conversation.
const followUpRule = "The question may follow up on the conversation shown: resolve words such as it, they, those, that, also, only, and \"and in 2023?\" against the previous turns, and keep their tables, filters and grouping unless the question changes them."

// definitionsRule is added to the rules when the prompt carries definitions.
const definitionsRule = "Compute every measure, filter, dimension and metric listed under Definitions exactly as defined there: the same aggregate of the same expression over the same table, with its FILTER condition (or the same condition in WHERE)."

// Prompt is a chat prompt: a system message with the rules and a user
// message with the context and the question. It is the "base" that repair
// prompts extend with a delta, so providers can reuse a cached prefix.
type Prompt struct {
	System string
	User   string
}

const systemRules = `You are an expert PostgreSQL analyst. Write exactly one read-only PostgreSQL query (SELECT or WITH ... SELECT) that answers the user's question.
Rules:
- Use only the tables and columns listed in the schema; never invent names. Quote identifiers exactly as the schema shows them.
- Join tables along the foreign keys or join paths given; qualify every column with a table alias when more than one table is used.
- When value hints are given, compare with those exact values.
- Use PostgreSQL syntax: EXTRACT(YEAR FROM x), date_trunc, CURRENT_DATE, INTERVAL '30 days', ILIKE, COALESCE, ::numeric casts, LIMIT n. Never use backticks, TOP, IFNULL, DATEDIFF or LIMIT a,b.
- For "top N", "highest", "most" questions use ORDER BY ... DESC LIMIT N. For "how many" use COUNT. Round only when asked.
- Select the columns the question asks for (plus a readable name for entities), nothing else.
Reply with the SQL only, in a single ` + "```sql" + ` code block.`

// Build renders the base prompt. The question appears verbatim.
func Build(d PromptData) Prompt {
	sys := systemRules
	for _, n := range d.Notes {
		sys += "\n- " + n
	}
	if len(d.History) > 0 {
		sys += "\n- " + followUpRule
	}
	if len(d.Definitions) > 0 {
		sys += "\n- " + definitionsRule
	}
	var b strings.Builder
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		b.WriteString("【" + title + "】\n")
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
		b.WriteString("\n")
	}
	if s := strings.TrimSpace(d.Schema); s != "" {
		b.WriteString(s + "\n\n")
	}
	if len(d.SearchPath) > 0 {
		section("Search path", []string{strings.Join(d.SearchPath, ", ") + " (tables of these schemas may be written unqualified)"})
	}
	section("Join paths", d.Joins)
	section("Definitions", d.Definitions)
	section("Column hints", d.Links)
	section("Value hints", d.Values)
	section("Documentation", d.Docs)
	section("Warnings", d.Warnings)
	if len(d.Examples) > 0 {
		var ex []string
		for _, e := range d.Examples {
			ex = append(ex, "Question: "+oneLine(e.Question), "SQL: "+oneLine(e.SQL), "")
		}
		section("Examples", ex[:len(ex)-1])
	}
	if e := strings.TrimSpace(d.Evidence); e != "" {
		section("Evidence", []string{e})
	}
	if len(d.History) > 0 {
		var turns []string
		for i, t := range d.History {
			turns = append(turns, fmt.Sprintf("Q%d: %s", i+1, oneLine(t.Question)), "SQL: "+oneLine(t.SQL))
			if len(t.Columns) > 0 {
				turns = append(turns, "Columns: "+strings.Join(t.Columns, ", "))
			}
		}
		section("Conversation so far", turns)
	}
	b.WriteString("【Question】\n" + d.Question + "\n")
	return Prompt{System: sys, User: b.String()}
}

// RepairDelta is the follow-up turn that asks the model to fix a failed
// query: it goes after the base prompt and the model's previous answer.
type RepairDelta struct {
	SQL      string // the query that failed
	SQLState string
	Message  string
	Hints    []string // e.g. the failing table's real columns, a JOIN to add
}

// Text renders the delta message.
func (r RepairDelta) Text() string {
	var b strings.Builder
	b.WriteString("That query failed")
	if r.SQLState != "" {
		b.WriteString(" with SQLSTATE " + r.SQLState)
	}
	if r.Message != "" {
		b.WriteString(": " + oneLine(r.Message))
	}
	b.WriteString(".\n")
	for _, h := range r.Hints {
		b.WriteString("- " + h + "\n")
	}
	b.WriteString("Write the corrected query. Reply with the SQL only, in a single ```sql code block.")
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
