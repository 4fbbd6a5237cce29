package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// Config is what the server needs to know beyond the engine.
type Config struct {
	// HasLLM says whether the engine has a model; without one nl_query
	// answers a tool error instead of trying.
	HasLLM bool
	// Scope is the schema the server is pinned to ("" = not pinned); a
	// call may not ask for another one.
	Scope  string
	Logger *slog.Logger // nil: silent
}

// Tool inputs and outputs. The SDK derives the JSON schemas the client
// sees from these structs and their jsonschema tags.
type (
	NLQueryInput struct {
		Question string `json:"question" jsonschema:"the question in plain language"`
		Evidence string `json:"evidence,omitempty" jsonschema:"hint text, e.g. active means status = 'A'"`
		Limits
	}
	NLQueryOutput struct {
		QueryResult
		Confidence  float64  `json:"confidence" jsonschema:"0..1, how sure the engine is of the query"`
		Tables      []string `json:"tables" jsonschema:"tables the query reads"`
		Explanation string   `json:"explanation"`
	}
	DescribeSchemaInput struct {
		Question string   `json:"question,omitempty" jsonschema:"describe the tables relevant to this question"`
		Tables   []string `json:"tables,omitempty" jsonschema:"describe these tables (schema.table)"`
		Scope    string   `json:"scope,omitempty" jsonschema:"schema to search in for the question"`
	}
	DescribeSchemaOutput struct {
		MSchema string   `json:"mschema" jsonschema:"the tables in M-Schema text"`
		Tables  []string `json:"tables" jsonschema:"qualified names of the tables described"`
		Match   string   `json:"match,omitempty" jsonschema:"with a question: how well it meets the schema (none, weak, strong); none means no table is about it"`
	}
	RunSQLInput struct {
		SQL string `json:"sql" jsonschema:"one read-only SELECT statement"`
		Limits
	}
	// RunSQLOutput is the result of run_sql.
	RunSQLOutput = QueryResult

	// Limits are the per-call fields nl_query and run_sql share.
	Limits struct {
		MaxRows int    `json:"max_rows,omitempty" jsonschema:"row cap of the result (at most the server's cap)"`
		Scope   string `json:"scope,omitempty" jsonschema:"schema to work in (its tables plus public)"`
	}
	// QueryResult is a query and its rows.
	QueryResult struct {
		SQL       string   `json:"sql" jsonschema:"the query (as written plus the engine's fixes; the row cap is applied when it runs, not written into it)"`
		Columns   []Column `json:"columns"`
		Rows      [][]any  `json:"rows"`
		Truncated bool     `json:"truncated" jsonschema:"true when the row cap cut the result"`
		RowCap    int      `json:"row_cap" jsonschema:"the row cap the query ran with"`
	}
	Column struct {
		Name string `json:"name"`
		Type string `json:"type" jsonschema:"PostgreSQL type name"`
	}
	// TableInfo is one entry of the nl2sql://tables resource.
	TableInfo struct {
		Name    string `json:"name"`
		Kind    string `json:"kind"`
		Comment string `json:"comment,omitempty"`
	}
)

// Resource URIs.
const (
	tablesURI      = "nl2sql://tables"
	tableURIPrefix = "nl2sql://table/"
)

// ErrNoLLM is the nl_query error of a server started without a model.
var ErrNoLLM = errors.New("nl_query needs a language model, and this server was started without one " +
	"(start it with --llm ollama:MODEL, openai:MODEL or anthropic:MODEL); " +
	"use describe_schema and run_sql to write the SQL yourself")

// NewServer returns an MCP server with the nl_query, describe_schema and
// run_sql tools and the table resources, all answered by eng.
func NewServer(eng *nl2sql.Engine, cfg Config) *mcp.Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	h := &handlers{eng: eng, cfg: cfg}
	srv := mcp.NewServer(&mcp.Implementation{Name: "nl2sql", Version: "0.1.0"}, &mcp.ServerOptions{
		Instructions: "Answers questions about a PostgreSQL database. Use describe_schema to see tables, " +
			"nl_query to ask in plain language, run_sql to run your own read-only SELECT.",
	})
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(srv, &mcp.Tool{Name: "nl_query", Annotations: readOnly,
		Description: "Answer a question about the database: writes one safe SQL query, runs it read-only and returns the rows."},
		h.nlQuery)
	mcp.AddTool(srv, &mcp.Tool{Name: "describe_schema", Annotations: readOnly,
		Description: "Describe tables in M-Schema: those relevant to a question, or those named."},
		h.describeSchema)
	mcp.AddTool(srv, &mcp.Tool{Name: "run_sql", Annotations: readOnly,
		Description: "Run one read-only SELECT after validation (no writes, no unsafe functions); returns the rows."},
		h.runSQL)
	srv.AddResource(&mcp.Resource{URI: tablesURI, Name: "tables", MIMEType: "application/json",
		Description: "Every table: qualified name, kind and comment."}, h.readTables)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: tableURIPrefix + "{schema}.{name}", Name: "table",
		MIMEType: "text/plain", Description: "One table in M-Schema."}, h.readTable)
	return srv
}

type handlers struct {
	eng *nl2sql.Engine
	cfg Config
}

// askOptions maps the per-call scope and row cap to engine options.
func (h *handlers) askOptions(l Limits) ([]nl2sql.AskOption, error) {
	scope, maxRows := l.Scope, l.MaxRows
	var opts []nl2sql.AskOption
	if scope != "" {
		if h.cfg.Scope != "" && scope != h.cfg.Scope && scope != "public" {
			return nil, fmt.Errorf("this server is limited to scope %q", h.cfg.Scope)
		}
		opts = append(opts, nl2sql.Scope(scope))
	}
	if maxRows < 0 {
		return nil, errors.New("max_rows must not be negative")
	}
	if maxRows > 0 {
		opts = append(opts, nl2sql.MaxRows(maxRows))
	}
	return opts, nil
}

func (h *handlers) nlQuery(ctx context.Context, _ *mcp.CallToolRequest, in NLQueryInput) (*mcp.CallToolResult, NLQueryOutput, error) {
	var out NLQueryOutput
	if !h.cfg.HasLLM {
		return nil, out, ErrNoLLM
	}
	if strings.TrimSpace(in.Question) == "" {
		return nil, out, errors.New("question is empty")
	}
	opts, err := h.askOptions(in.Limits)
	if err != nil {
		return nil, out, err
	}
	if in.Evidence != "" {
		opts = append(opts, nl2sql.Evidence(in.Evidence))
	}
	res, err := h.eng.Ask(ctx, in.Question, opts...)
	if err != nil {
		h.cfg.Logger.InfoContext(ctx, "nl_query failed", "question", in.Question, "err", err)
		if res != nil && res.SQL != "" {
			return nil, out, fmt.Errorf("%w (last query: %s)", err, res.SQL)
		}
		return nil, out, err
	}
	out = NLQueryOutput{QueryResult: queryResult(res), Confidence: res.Confidence, Tables: nonNil(res.Tables)}
	out.Explanation = explain(out)
	return textResult(out.Explanation, out), out, nil
}

func (h *handlers) runSQL(ctx context.Context, _ *mcp.CallToolRequest, in RunSQLInput) (*mcp.CallToolResult, RunSQLOutput, error) {
	var out RunSQLOutput
	if strings.TrimSpace(in.SQL) == "" {
		return nil, out, errors.New("sql is empty")
	}
	opts, err := h.askOptions(in.Limits)
	if err != nil {
		return nil, out, err
	}
	res, err := h.eng.Run(ctx, in.SQL, opts...)
	if err != nil {
		// The engine's error carries the validator's or the server's
		// message, which is what the caller needs to fix the query.
		return nil, out, err
	}
	out = queryResult(res)
	return textResult(rowSummary(len(out.Rows), out.Truncated), out), out, nil
}

func (h *handlers) describeSchema(ctx context.Context, _ *mcp.CallToolRequest, in DescribeSchemaInput) (*mcp.CallToolResult, DescribeSchemaOutput, error) {
	var out DescribeSchemaOutput
	if strings.TrimSpace(in.Question) == "" && len(in.Tables) == 0 {
		return nil, out, errors.New("give a question or table names")
	}
	cat, err := h.eng.Catalog(ctx)
	if err != nil {
		return nil, out, err
	}
	var names []string
	seen := map[string]bool{}
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	var unknown []string
	for _, n := range in.Tables {
		t := cat.Table(n)
		if t == nil && !strings.Contains(n, ".") {
			t = cat.Resolve(n, h.searchPath(in.Scope))
		}
		if t == nil {
			unknown = append(unknown, n)
			continue
		}
		add(t.QualifiedName())
	}
	if len(unknown) > 0 {
		return nil, out, fmt.Errorf("unknown tables %q (read %s for the list)", unknown, tablesURI)
	}
	if strings.TrimSpace(in.Question) != "" {
		opts, err := h.askOptions(Limits{Scope: in.Scope})
		if err != nil {
			return nil, out, err
		}
		c, err := h.eng.Context(ctx, in.Question, opts...)
		if err != nil {
			return nil, out, err
		}
		for _, hit := range c.Tables {
			add(hit.Name)
		}
		out.Match = string(c.Match)
	}
	out.MSchema, out.Tables = schema.MSchema(cat.Subset(names).Tables), nonNil(names)
	return textResult(out.MSchema, out), out, nil
}

// searchPath is where bare table names are looked up.
func (h *handlers) searchPath(scope string) []string {
	scope = firstNonEmpty(scope, h.cfg.Scope)
	if scope == "" || scope == "public" {
		return []string{"public"}
	}
	return []string{scope, "public"}
}

func (h *handlers) readTables(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	cat, err := h.eng.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	list := make([]TableInfo, len(cat.Tables))
	for i, t := range cat.Tables {
		list[i] = TableInfo{Name: t.QualifiedName(), Kind: string(t.Kind), Comment: t.Comment}
	}
	b, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: req.Params.URI, MIMEType: "application/json", Text: string(b)}}}, nil
}

func (h *handlers) readTable(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	name, ok := strings.CutPrefix(uri, tableURIPrefix)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	cat, err := h.eng.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	t := cat.Table(name)
	if t == nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: uri, MIMEType: "text/plain", Text: schema.MSchema([]*schema.Table{t})}}}, nil
}

// textResult is a tool result whose content is a short text followed by
// the output as JSON: clients that ignore structured content (and the
// model behind them) still see the rows.
func textResult(text string, out any) *mcp.CallToolResult {
	content := []mcp.Content{&mcp.TextContent{Text: text}}
	if b, err := json.Marshal(out); err == nil {
		content = append(content, &mcp.TextContent{Text: string(b)})
	}
	return &mcp.CallToolResult{Content: content}
}

func explain(out NLQueryOutput) string {
	tables := "no table"
	if len(out.Tables) > 0 {
		tables = strings.Join(out.Tables, ", ")
	}
	return fmt.Sprintf("Read %s; %s; confidence %.2f.", tables, rowSummary(len(out.Rows), out.Truncated), out.Confidence)
}

func rowSummary(n int, truncated bool) string {
	s := fmt.Sprintf("%d row", n)
	if n != 1 {
		s += "s"
	}
	if truncated {
		s += " (truncated at the row cap)"
	}
	return s
}

func queryResult(res *nl2sql.Result) QueryResult {
	out := QueryResult{SQL: res.SQL, Columns: make([]Column, len(res.Columns)), Rows: res.Rows, Truncated: res.Truncated, RowCap: res.RowCap}
	for i, c := range res.Columns {
		out.Columns[i] = Column{Name: c.Name, Type: c.Type}
	}
	if out.Rows == nil { // "no rows" is an empty array, not null
		out.Rows = [][]any{}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
