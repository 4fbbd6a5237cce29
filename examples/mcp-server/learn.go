package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql"
)

// knowledgeURI is the resource listing what the engine was taught.
const knowledgeURI = "nl2sql://knowledge"

type (
	// LearnInput is one of: {id} (confirm an nl_query answer), {question,
	// sql} (an example the user confirmed or corrected), {kind: "doc",
	// text} (documentation, of a table or column or free-standing), or
	// {kind: "term", term, targets} (what a business word means).
	LearnInput struct {
		ID   string `json:"id,omitempty" jsonschema:"the id of an earlier nl_query result the user confirmed: its question and sql are learnt as an example (not with question and sql; the server keeps the ids of its last 1000 answers)"`
		Kind string `json:"kind,omitempty" jsonschema:"example (the default), doc or term"`
		// Parameters "auto" makes an example a template (nl2sql.ProposeTemplate).
		Parameters string `json:"parameters,omitempty" jsonschema:"auto: make the example a template: the literals of its sql that also stand in its question (a year, a stored value, the N of a LIMIT) become parameters, and a later question that differs only in them is answered from this sql without the model; the output lists them for the user to confirm"`
		KnowledgeFields
	}
	// LearnOutput is the knowledge as stored.
	LearnOutput struct {
		ID   string `json:"id" jsonschema:"the knowledge's id: the same knowledge learnt twice has the same id and is stored once"`
		Kind string `json:"kind" jsonschema:"example, doc or term"`
		KnowledgeFields
		Parameters []Parameter `json:"parameters" jsonschema:"a template's parameters: its {slots}, what kind of value each takes and the example it was taught with; empty for a plain example"`
	}
	// Parameter is a slot of a learnt template.
	Parameter struct {
		Name     string   `json:"name" jsonschema:"the slot's name, {name} in the question and the sql"`
		Kind     string   `json:"kind" jsonschema:"year, date_range, value (a stored value of column) or top_n"`
		Column   string   `json:"column,omitempty" jsonschema:"a value slot's table.column"`
		Examples []string `json:"examples" jsonschema:"the values it was taught with"`
	}
	// KnowledgeFields are what an example, a doc or a term says, in
	// learn's input and output.
	KnowledgeFields struct {
		Question string   `json:"question,omitempty" jsonschema:"an example's question in plain language"`
		SQL      string   `json:"sql,omitempty" jsonschema:"an example's SQL, confirmed by the user to answer question; it must validate and plan on this database"`
		Note     string   `json:"note,omitempty" jsonschema:"an example's note: why the SQL is right (optional)"`
		Text     string   `json:"text,omitempty" jsonschema:"a doc's text, e.g. a project with status 'On Hold' still counts as open"`
		Table    string   `json:"table,omitempty" jsonschema:"the table a doc is about (schema.table, or a bare name; stored qualified); none: a free-standing doc"`
		Column   string   `json:"column,omitempty" jsonschema:"the column of table a doc is about"`
		Term     string   `json:"term,omitempty" jsonschema:"a term's word or phrase as users say it, e.g. headcount"`
		Targets  []string `json:"targets,omitempty" jsonschema:"what a term means: tables (schema.table or a bare name) or columns (table.column); stored qualified"`
	}
)

// learnTool is the learn tool: it writes knowledge (not read-only), and
// learning the same thing twice stores it once (idempotent); nothing is
// overwritten or removed, and only the database is reached.
func learnTool(maxRows int) *mcp.Tool {
	return &mcp.Tool{Name: "learn", Title: "Teach the engine",
		InputSchema: toolSchema[LearnInput](maxRows), OutputSchema: toolSchema[LearnOutput](maxRows),
		Annotations: &mcp.ToolAnnotations{Title: "Teach the engine", ReadOnlyHint: false, IdempotentHint: true,
			DestructiveHint: new(false), OpenWorldHint: new(false)},
		Description: "Teach the engine something the user confirmed, used by later questions: " +
			"{id} confirms an earlier nl_query answer (its question and SQL become a verified example); " +
			"{question, sql, note?} is an example the user confirmed or corrected; " +
			"{kind: \"doc\", text, table?, column?} documents a table, a column or the data in general; " +
			"{kind: \"term\", term, targets} says what a business word means (tables or columns), used in finding tables from the next question on. " +
			"The SQL must validate and plan; tables and columns must exist."}
}

func (h *handlers) learn(ctx context.Context, req *mcp.CallToolRequest, in LearnInput) (*mcp.CallToolResult, LearnOutput, error) {
	var out LearnOutput
	who, err := h.caller(req.Extra)
	if err != nil {
		return nil, out, err
	}
	k, err := h.knowledge(who, in)
	if err != nil {
		return nil, out, err
	}
	var opts []nl2sql.AskOption
	if a, ok := h.answer(who, in.ID); ok && a.Scope != "" {
		opts = append(opts, nl2sql.Scope(a.Scope)) // checked where it was answered
	}
	opts = append(opts, who.AskOptions()...) // and as the caller: its scope wins
	switch {
	case in.Parameters == "auto" && k.Kind == nl2sql.KnowledgeExample:
		note := k.Note
		if k, err = h.eng.ProposeTemplate(ctx, k.Question, k.SQL, opts...); err != nil {
			return nil, out, orDatabaseDown(err)
		}
		k.Note = note
	case in.Parameters != "":
		return nil, out, errors.New(`parameters takes "auto", for an example`)
	}
	// With --index, Learn has written it into the file (and taken on what
	// others wrote there) before it returns: see nl2sql.LoadIndexFile.
	k, err = h.eng.Learn(ctx, k, opts...)
	if err != nil {
		return nil, out, orDatabaseDown(err)
	}
	out = LearnOutput{ID: k.ID, Kind: string(k.Kind), KnowledgeFields: KnowledgeFields{Question: k.Question, SQL: k.SQL,
		Note: k.Note, Text: k.Text, Table: k.Table, Column: k.Column, Term: k.Term, Targets: k.Targets}, Parameters: []Parameter{}}
	for _, p := range k.Parameters {
		out.Parameters = append(out.Parameters, Parameter{Name: p.Name, Kind: string(p.Kind), Column: p.Column, Examples: p.Examples})
	}
	summary := fmt.Sprintf("Learnt %s %s: used from the next question on.", k.Kind, k.ID)
	if len(k.Parameters) > 0 {
		summary = fmt.Sprintf("Learnt template %s: %q, answered from its sql without the model: %s", k.ID, k.Question, k.SQL)
	}
	return textResult(summary), out, nil
}

// answer is the kept answer id of who, false when there is none (or it
// is another caller's).
func (h *handlers) answer(who caller, id string) (answer, bool) {
	a, ok := h.answers.get(id)
	if !ok || a.Caller != who.name {
		return answer{}, false
	}
	return a, true
}

// knowledge is the nl2sql knowledge a learn call of who asks to store.
func (h *handlers) knowledge(who caller, in LearnInput) (nl2sql.Knowledge, error) {
	switch in.Kind {
	case "", string(nl2sql.KnowledgeExample):
		if in.Text != "" || in.Table != "" || in.Column != "" || in.Term != "" || len(in.Targets) > 0 {
			return nl2sql.Knowledge{}, errors.New("text, table, column, term and targets are for kind doc or term, not an example")
		}
		k := nl2sql.Example(in.Question, in.SQL)
		k.Note = in.Note
		if in.ID == "" {
			if strings.TrimSpace(in.Question) == "" || strings.TrimSpace(in.SQL) == "" {
				return k, errors.New("give the id of an nl_query result, or a question and its sql")
			}
			return k, nil
		}
		if in.Question != "" || in.SQL != "" {
			return k, errors.New("give an id or a question and sql, not both (to correct an answer, send its question and the right sql)")
		}
		a, ok := h.answer(who, in.ID)
		if !ok {
			return k, fmt.Errorf("unknown id %q: it is not one of this server's last %d nl_query answers "+
				"(send the question and sql instead)", in.ID, keptAnswers)
		}
		k.Question, k.SQL = a.Question, a.SQL
		return k, nil
	case string(nl2sql.KnowledgeDoc):
		if in.ID != "" || in.Question != "" || in.SQL != "" || in.Note != "" || in.Term != "" || len(in.Targets) > 0 {
			return nl2sql.Knowledge{}, errors.New("id, question, sql, note, term and targets are not a doc's")
		}
		if strings.TrimSpace(in.Text) == "" {
			return nl2sql.Knowledge{}, errors.New("a doc needs its text")
		}
		return nl2sql.Knowledge{Kind: nl2sql.KnowledgeDoc, Text: in.Text, Table: in.Table, Column: in.Column}, nil
	case string(nl2sql.KnowledgeTerm):
		if in.ID != "" || in.Question != "" || in.SQL != "" || in.Note != "" || in.Text != "" || in.Table != "" || in.Column != "" {
			return nl2sql.Knowledge{}, errors.New("a term has only term and targets")
		}
		if strings.TrimSpace(in.Term) == "" || len(in.Targets) == 0 {
			return nl2sql.Knowledge{}, errors.New("a term needs the term and its targets")
		}
		return nl2sql.Knowledge{Kind: nl2sql.KnowledgeTerm, Term: in.Term, Targets: in.Targets}, nil
	default:
		return nl2sql.Knowledge{}, fmt.Errorf("unknown kind %q: example, doc or term", in.Kind)
	}
}

// readKnowledge lists what the engine was taught, as JSON.
func (h *handlers) readKnowledge(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	who, err := h.caller(req.Extra)
	if err != nil {
		return nil, err
	}
	ks, err := h.eng.ScopeKnowledge(ctx, who.AskOptions()...)
	if err != nil {
		return nil, orDatabaseDown(err)
	}
	if ks == nil {
		ks = []nl2sql.Knowledge{}
	}
	return jsonResource(req.Params.URI, ks)
}

// jsonResource is a resource whose content is v as indented JSON.
func jsonResource(uri string, v any) (*mcp.ReadResourceResult, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}
