package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/identity"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// Config is what the server needs to know beyond the engine.
type Config struct {
	// HasLLM says whether the engine has a model; without one nl_query
	// answers a tool error instead of trying.
	HasLLM bool
	// Verified says the engine has verified questions (--semantic, or
	// templates it may learn): without a model, nl_query answers what one
	// fits and refuses the rest with ErrNoLLM.
	Verified bool
	// Scope is the schema the server is pinned to ("" = not pinned); a
	// call may not ask for another one.
	Scope string
	// MaxRows is the engine's row cap (nl2sql.WithMaxRows); the tool
	// schemas state it. 0: the library's default, 1000.
	MaxRows int
	// StartErr, when set, is why the database could not be reached at
	// start; the initialize instructions tell the client. Tool calls still
	// try the database, so the server recovers once it is up.
	StartErr error
	// NoLearn leaves the learn tool out (--no-learn): the engine is not
	// taught through this server. nl_query still gives result ids, and the
	// knowledge resource still lists what the engine knows.
	NoLearn bool
	// MaxReply is the byte budget of one nl_query or run_sql reply: rows
	// past it are left out (truncated_by reply_budget). 0:
	// defaultMaxReply.
	MaxReply int
	Logger   *slog.Logger // nil: silent
	// Identity is who every read runs as (--role, --set) without Callers.
	Identity identity.Identity
	// Callers maps each HTTP caller to its identity (--identity): every
	// tool and resource reads as the caller the request authenticated as
	// (see callerAuth), whatever its arguments say. A scope argument
	// other than the caller's own is refused.
	Callers *identity.Map
}

// Tool inputs and outputs. The JSON schemas the client sees are derived
// from these structs and their jsonschema tags (descriptions), then
// adjusted by toolSchema: every field has a description, and our slices
// are never null, so arrays are typed "array", not ["null","array"].
type (
	NLQueryInput struct {
		Question string `json:"question" jsonschema:"the question in plain language"`
		Evidence string `json:"evidence,omitempty" jsonschema:"hint text, e.g. active means status = 'A'"`
		Previous []Turn `json:"previous,omitempty" jsonschema:"the conversation so far, oldest first: the question and SQL of earlier nl_query calls, so a follow-up such as 'and in 2023?' is answered as one (at most 20)"`
		Limits
	}
	// Turn is an earlier question of the conversation and its answer.
	Turn struct {
		Question string `json:"question" jsonschema:"the earlier question"`
		SQL      string `json:"sql" jsonschema:"the sql of its nl_query result"`
	}
	NLQueryOutput struct {
		ID string `json:"id" jsonschema:"this answer's id: when the user confirms the answer, learn {id} stores its question and sql as a verified example (kept for the server's last 1000 answers, in memory)"`
		QueryResult
		Confidence  float64  `json:"confidence" jsonschema:"0..1, the calibrated probability that the answer is right"`
		Tables      []string `json:"tables" jsonschema:"tables the query reads"`
		Explanation string   `json:"explanation" jsonschema:"one sentence: the tables read, the row count (and which cap cut it) and the confidence, with the status when it is not answered"`
		// What the engine makes of the answer (verdict.go).
		Status       string        `json:"status" jsonschema:"answered; uncertain (the confidence is below the server's uncertain threshold: show the rows as a guess with the reasons, and ask the user the clarify question or which alternative they mean); abstained (below the server's minimum: the query was not run, rows is empty: ask the user instead of answering)"`
		Reasons      []string      `json:"reasons" jsonschema:"why the answer may not answer the question, in words to show the user (e.g. the query reads employees; the question asks about customers); empty when nothing is in doubt"`
		Alternatives []Alternative `json:"alternatives" jsonschema:"for an uncertain or abstained answer whose candidates disagree: the other answers they gave, strongest first"`
		Clarify      string        `json:"clarify,omitempty" jsonschema:"a question to ask the user that tells this answer from the first alternative (e.g. By order date or by requested ship date?)"`
		Origin       string        `json:"origin,omitempty" jsonschema:"verified: a verified question (of the semantic model, or a learnt template) answered it from its sql with the values bound, without the model"`
		Verified     *VerifiedFrom `json:"verified,omitempty" jsonschema:"with origin verified: the verified question and the values it took"`
	}
	// VerifiedFrom is the verified question that answered.
	VerifiedFrom struct {
		Question string            `json:"question" jsonschema:"the verified question, {slots} and all"`
		Source   string            `json:"source" jsonschema:"where it is defined: the semantic model's file:line, or the learnt template's id"`
		Bindings map[string]string `json:"bindings" jsonschema:"the value each slot took"`
	}
	DescribeSchemaInput struct {
		Question string   `json:"question,omitempty" jsonschema:"describe the tables relevant to this question"`
		Tables   []string `json:"tables,omitempty" jsonschema:"describe these tables (schema.table, or a bare name looked up in the scope then public)"`
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

	// Limits are the per-call fields nl_query and run_sql share. The
	// description, minimum and default of max_rows are set by toolSchema
	// (they name the server's cap).
	Limits struct {
		MaxRows int    `json:"max_rows,omitempty"`
		Scope   string `json:"scope,omitempty" jsonschema:"schema to work in (its tables plus public)"`
	}
	// QueryResult is a query and its rows.
	QueryResult struct {
		SQL         string   `json:"sql" jsonschema:"the query (as written plus the engine's fixes; the row cap is applied when it runs, not written into it)"`
		Description string   `json:"description,omitempty" jsonschema:"what the query returns in plain English, read from its parse tree (not written by a model), so the user can check the answer without reading SQL; absent for a query it cannot read"`
		Columns     []Column `json:"columns" jsonschema:"the result columns, in order"`
		Rows        [][]any  `json:"rows" jsonschema:"the rows, each an array of values in column order; integers beyond 2^53 and numerics a float cannot hold exactly are strings"`
		Truncated   bool     `json:"truncated" jsonschema:"true when a cap cut the result (see truncated_by)"`
		TruncatedBy string   `json:"truncated_by,omitempty" jsonschema:"the cap that cut the result: row_cap (row_cap rows were read and there were more) or byte_cap (the values reached the server's byte cap first, so fewer rows fit) or reply_budget (the rows read did not all fit in the server's byte budget of a reply); absent when not truncated"`
		RowCap      int      `json:"row_cap" jsonschema:"the row cap the query ran with"`
		Notes       []string `json:"notes" jsonschema:"what the server changed about the request or the result, in words (e.g. a max_rows over the server's cap, the cap that cut the rows)"`
	}
	Column struct {
		Name string `json:"name" jsonschema:"column name"`
		Type string `json:"type" jsonschema:"PostgreSQL type name"`
	}
	// TableInfo is one entry of the nl2sql://tables resource.
	TableInfo struct {
		Name    string `json:"name"`
		Kind    string `json:"kind"`
		Comment string `json:"comment,omitempty"`
	}
)

// defaultMaxRows is the library's row cap when WithMaxRows is not given.
const defaultMaxRows = 1000

// Resource URIs.
const (
	tablesURI      = "nl2sql://tables"
	tableURIPrefix = "nl2sql://table/"
)

// ErrNoLLM is the nl_query error of a server started without a model.
var ErrNoLLM = errors.New("nl_query needs a language model, and this server was started without one " +
	"(start it with --llm ollama:MODEL, openai:MODEL or anthropic:MODEL); " +
	"use describe_schema and run_sql to write the SQL yourself")

// NewServer returns an MCP server with the nl_query, describe_schema,
// run_sql and (unless cfg.NoLearn) learn tools, and the table and
// knowledge resources, all answered by eng.
func NewServer(eng *nl2sql.Engine, cfg Config) *mcp.Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxRows <= 0 {
		cfg.MaxRows = defaultMaxRows
	}
	if cfg.MaxReply <= 0 {
		cfg.MaxReply = defaultMaxReply
	}
	h := &handlers{eng: eng, cfg: cfg, answers: newAnswers(keptAnswers)}
	instructions := "Answers questions about a PostgreSQL database. Use describe_schema to see tables, " +
		"nl_query to ask in plain language, run_sql to run your own read-only SELECT. " +
		"An nl_query result has a status: when it is uncertain, show the rows as a guess with its reasons; " +
		"when it is abstained, nothing was run; in both, ask the user its clarify question or which of its alternatives they mean."
	if !cfg.NoLearn {
		instructions += " When the user confirms an nl_query answer, call learn with its id; when they correct it, " +
			"call learn with the question and the right sql: later questions use it."
	}
	if cfg.StartErr != nil {
		instructions += " WARNING: when this server started, " + (&errDatabaseDown{cause: cfg.StartErr}).Error() +
			" Every tool call tries again, and says so while it still cannot."
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "nl2sql", Version: "0.1.0"}, &mcp.ServerOptions{Instructions: instructions})
	// Every tool but learn only reads. nl_query sends the question and the schema
	// to a language model, which may be an outside service: open world;
	// the others touch only the database.
	annotations := func(title string, openWorld bool) *mcp.ToolAnnotations {
		return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true,
			DestructiveHint: new(false), OpenWorldHint: new(openWorld)}
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "nl_query", Title: "Ask the database",
		Annotations:  annotations("Ask the database", cfg.HasLLM),
		InputSchema:  toolSchema[NLQueryInput](cfg.MaxRows),
		OutputSchema: toolSchema[NLQueryOutput](cfg.MaxRows),
		Description: "Answer a question about the database: writes one safe SQL query, runs it read-only and returns the rows. " +
			"Sends progress notifications while it waits for the model when the call carries a progress token."},
		h.nlQuery)
	mcp.AddTool(srv, &mcp.Tool{Name: "describe_schema", Title: "Describe tables",
		Annotations:  annotations("Describe tables", false),
		InputSchema:  toolSchema[DescribeSchemaInput](cfg.MaxRows),
		OutputSchema: toolSchema[DescribeSchemaOutput](cfg.MaxRows),
		Description:  "Describe tables in M-Schema: those relevant to a question, or those named."},
		h.describeSchema)
	mcp.AddTool(srv, &mcp.Tool{Name: "run_sql", Title: "Run a read-only query",
		Annotations:  annotations("Run a read-only query", false),
		InputSchema:  toolSchema[RunSQLInput](cfg.MaxRows),
		OutputSchema: toolSchema[RunSQLOutput](cfg.MaxRows),
		Description:  "Run one read-only SELECT after validation (no writes, no unsafe functions); returns the rows."},
		h.runSQL)
	if !cfg.NoLearn {
		mcp.AddTool(srv, learnTool(cfg.MaxRows), h.learn)
	}
	srv.AddResource(&mcp.Resource{URI: tablesURI, Name: "tables", MIMEType: "application/json",
		Description: "Every table: qualified name, kind and comment."}, h.readTables)
	srv.AddResource(&mcp.Resource{URI: knowledgeURI, Name: "knowledge", MIMEType: "application/json",
		Description: "What the engine was taught (learn): examples and docs, with their ids."}, h.readKnowledge)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: tableURIPrefix + "{schema}.{name}", Name: "table",
		MIMEType: "text/plain", Description: "One table in M-Schema."}, h.readTable)
	return srv
}

type handlers struct {
	eng     *nl2sql.Engine
	cfg     Config
	answers *answers // the last nl_query answers, for learn {id}
}

// askOptions maps the per-call scope and row cap to engine options, then
// the caller's identity (its role, settings and scope win).
func (h *handlers) askOptions(who caller, l Limits) ([]nl2sql.AskOption, error) {
	scope, maxRows := l.Scope, l.MaxRows
	var opts []nl2sql.AskOption
	if who.Scope != "" && scope != "" && scope != who.Scope {
		return nil, fmt.Errorf("this caller is limited to scope %q", who.Scope)
	}
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
	return append(opts, who.AskOptions()...), nil
}

func (h *handlers) nlQuery(ctx context.Context, req *mcp.CallToolRequest, in NLQueryInput) (*mcp.CallToolResult, NLQueryOutput, error) {
	var out NLQueryOutput
	if !h.cfg.HasLLM && !h.cfg.Verified {
		return nil, out, ErrNoLLM
	}
	if strings.TrimSpace(in.Question) == "" {
		return nil, out, errors.New("question is empty")
	}
	who, err := h.caller(req.Extra)
	if err != nil {
		return nil, out, err
	}
	opts, err := h.askOptions(who, in.Limits)
	if err != nil {
		return nil, out, err
	}
	if in.Evidence != "" {
		opts = append(opts, nl2sql.Evidence(in.Evidence))
	}
	if len(in.Previous) > 0 {
		turns := make([]nl2sql.Turn, len(in.Previous))
		for i, p := range in.Previous {
			turns[i] = nl2sql.Turn{Question: p.Question, SQL: p.SQL}
		}
		opts = append(opts, nl2sql.History(turns...))
	}
	if pr := newProgressReporter(ctx, req); pr != nil {
		opts = append(opts, nl2sql.OnProgress(pr.report))
	}
	res, err := h.eng.Ask(ctx, in.Question, opts...)
	if !h.cfg.HasLLM && (res == nil || res.Origin != nl2sql.OriginVerified) && databaseDown(err) == nil {
		return nil, out, ErrNoLLM // only a verified question answers without one
	}
	if err != nil && res != nil && errors.Is(err, nl2sql.ErrLowConfidence) {
		// An abstention is an answer the host can act on, not a failure.
		h.cfg.Logger.InfoContext(ctx, "nl_query abstained", "question", in.Question, "confidence", res.Confidence)
		err = nil
	}
	if err != nil {
		logFailed(ctx, h.cfg.Logger, who, in.Question, err)
		if down := databaseDown(err); down != nil {
			return nil, out, down
		}
		if res != nil && res.SQL != "" {
			return nil, out, fmt.Errorf("%w (last query: %s)", err, res.SQL)
		}
		return nil, out, err
	}
	out = NLQueryOutput{QueryResult: queryResult(res), Confidence: res.Confidence, Tables: nonNil(res.Tables),
		Status: string(res.Verdict), Reasons: nonNil(res.Reasons), Clarify: res.Clarify, Origin: string(res.Origin)}
	if v := res.Verified; v != nil {
		out.Verified = &VerifiedFrom{Question: v.Question, Source: v.Source, Bindings: map[string]string{}}
		for _, b := range v.Bindings {
			out.Verified.Bindings[b.Name] = b.Value
		}
	}
	out.ID = h.answers.keep(answer{Question: in.Question, SQL: res.SQL, Scope: in.Scope, Caller: who.name})
	out.Alternatives = h.alternatives(ctx, res, answer{Question: in.Question, Scope: in.Scope, Caller: who.name}, opts)
	if len(out.Alternatives) == 0 || out.Alternatives[0].SQL != firstAlternative(res) {
		out.Clarify = "" // it tells the answer from an alternative not shown
	}
	out.Notes = append(out.Notes, fitAlternatives(out.Alternatives, h.cfg.MaxReply)...)
	caveat := verdictText(out, !h.cfg.NoLearn)
	fit(&out.QueryResult, &out, h.cfg.MaxReply-6*len(caveat))
	out.Explanation = explain(out)
	summary := withDescription(out.Explanation, out.Description) + caveat
	if !h.cfg.NoLearn && out.Status != string(nl2sql.VerdictAbstained) {
		summary += "\nAnswer id: " + out.ID + " (if the user confirms this answer, learn {\"id\": \"" + out.ID + "\"} remembers it)."
	}
	return textResult(withNotes(summary, out.Notes) + preview(out.QueryResult)), out, nil
}

func (h *handlers) runSQL(ctx context.Context, req *mcp.CallToolRequest, in RunSQLInput) (*mcp.CallToolResult, RunSQLOutput, error) {
	var out RunSQLOutput
	if strings.TrimSpace(in.SQL) == "" {
		return nil, out, errors.New("sql is empty")
	}
	who, err := h.caller(req.Extra)
	if err != nil {
		return nil, out, err
	}
	opts, err := h.askOptions(who, in.Limits)
	if err != nil {
		return nil, out, err
	}
	res, err := h.eng.Run(ctx, in.SQL, opts...)
	var note string
	if err != nil {
		if down := databaseDown(err); down != nil {
			return nil, out, down
		}
		if res, note = h.repairedRun(ctx, in.SQL, err, opts); res == nil {
			// The engine's error carries the validator's or the server's
			// message, which is what the caller needs to fix the query.
			return nil, out, err
		}
	}
	out = queryResult(res)
	if note != "" {
		out.Notes = append(out.Notes, note)
	}
	fit(&out, &out, h.cfg.MaxReply)
	return textResult(withNotes(withDescription(rowSummary(out)+".", out.Description), out.Notes) + preview(out)), out, nil
}

func (h *handlers) describeSchema(ctx context.Context, req *mcp.CallToolRequest, in DescribeSchemaInput) (*mcp.CallToolResult, DescribeSchemaOutput, error) {
	var out DescribeSchemaOutput
	if strings.TrimSpace(in.Question) == "" && len(in.Tables) == 0 {
		return nil, out, errors.New("give a question or table names")
	}
	who, err := h.caller(req.Extra)
	if err != nil {
		return nil, out, err
	}
	scoped, err := h.askOptions(who, Limits{Scope: in.Scope})
	if err != nil {
		return nil, out, err
	}
	cat, err := h.eng.ScopeCatalog(ctx, scoped...)
	if err != nil {
		return nil, out, orDatabaseDown(err)
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
			t = cat.Resolve(n, h.searchPath(firstNonEmpty(who.Scope, in.Scope)))
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
		c, err := h.eng.SchemaContext(ctx, in.Question, scoped...)
		if err != nil {
			return nil, out, orDatabaseDown(err)
		}
		for _, hit := range c.Tables {
			add(hit.Name)
		}
		out.Match = string(c.Match)
	}
	out.MSchema, out.Tables = schema.MSchema(cat.Subset(names).Tables), nonNil(names)
	return textResult(out.MSchema), out, nil
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
	who, err := h.caller(req.Extra)
	if err != nil {
		return nil, err
	}
	cat, err := h.eng.ScopeCatalog(ctx, who.AskOptions()...)
	if err != nil {
		return nil, orDatabaseDown(err)
	}
	list := make([]TableInfo, len(cat.Tables))
	for i, t := range cat.Tables {
		list[i] = TableInfo{Name: t.QualifiedName(), Kind: string(t.Kind), Comment: t.Comment}
	}
	return jsonResource(req.Params.URI, list)
}

func (h *handlers) readTable(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	name, ok := strings.CutPrefix(uri, tableURIPrefix)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	who, err := h.caller(req.Extra)
	if err != nil {
		return nil, err
	}
	cat, err := h.eng.ScopeCatalog(ctx, who.AskOptions()...)
	if err != nil {
		return nil, orDatabaseDown(err)
	}
	t := cat.Table(name)
	if t == nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: uri, MIMEType: "text/plain", Text: schema.MSchema([]*schema.Table{t})}}}, nil
}

// textResult is a tool result whose content is text: a summary (with a
// preview of the rows, see preview) for clients that ignore structured
// content. The output itself goes once, as the structured content (the
// SDK adds it): its JSON copy in the text too once doubled every reply.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func explain(out NLQueryOutput) string {
	tables := "no table"
	if len(out.Tables) > 0 {
		tables = strings.Join(out.Tables, ", ")
	}
	switch out.Status {
	case string(nl2sql.VerdictAbstained):
		return fmt.Sprintf("No answer (abstained): confidence %.2f is below this server's minimum; the query (reading %s) was not run.", out.Confidence, tables)
	case string(nl2sql.VerdictUncertain):
		return fmt.Sprintf("Read %s; %s; confidence %.2f: uncertain.", tables, rowSummary(out.QueryResult), out.Confidence)
	}
	return fmt.Sprintf("Read %s; %s; confidence %.2f.", tables, rowSummary(out.QueryResult), out.Confidence)
}

// firstAlternative is the SQL of res's first alternative, which its
// Clarify tells from the answer ("" for none).
func firstAlternative(res *nl2sql.Result) string {
	if len(res.Alternatives) == 0 {
		return ""
	}
	return res.Alternatives[0].SQL
}

// rowSummary counts the rows and says which cap, if any, cut them.
func rowSummary(r QueryResult) string {
	s := plural(len(r.Rows), "row")
	switch {
	case !r.Truncated:
	case r.TruncatedBy == string(execute.CapBytes):
		s += fmt.Sprintf(" (truncated at the byte cap: only %d fit, under the row cap of %d)", len(r.Rows), r.RowCap)
	case r.TruncatedBy == capReply:
		s += " (truncated at the server's byte budget of a reply)"
	case r.TruncatedBy == string(execute.CapRows) || r.TruncatedBy == "":
		s += fmt.Sprintf(" (truncated at the row cap of %d)", r.RowCap)
	default:
		s += fmt.Sprintf(" (truncated: %s)", r.TruncatedBy)
	}
	return s
}

// withDescription adds the plain-English reading of the query to its
// summary line.
func withDescription(summary, description string) string {
	if description == "" {
		return summary
	}
	return summary + "\nThe query: " + description
}

// withNotes appends the result's notes to its summary line.
func withNotes(summary string, notes []string) string {
	for _, n := range notes {
		summary += "\nNote: " + n
	}
	return summary
}

// orDatabaseDown is err, or the connection problem its chain shows.
func orDatabaseDown(err error) error {
	if down := databaseDown(err); down != nil {
		return down
	}
	return err
}

func queryResult(res *nl2sql.Result) QueryResult {
	out := QueryResult{SQL: res.SQL, Description: res.Description, Columns: make([]Column, len(res.Columns)), Rows: res.Rows, Truncated: res.Truncated,
		TruncatedBy: string(res.TruncatedBy), RowCap: res.RowCap, Notes: nonNil(res.Notes)}
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
