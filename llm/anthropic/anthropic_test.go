package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"go.uber.org/goleak"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/anthropic"
	"github.com/nl2sqlgo/nl2sql/llm/internal/llmtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// messageBody renders a Messages API reply with the given content blocks.
func messageBody(stopReason string, blocks ...string) string {
	content := "["
	for i, b := range blocks {
		if i > 0 {
			content += ","
		}
		content += b
	}
	content += "]"
	return `{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant",` +
		`"model":"claude-sonnet-4-5-20250929","content":` + content + `,"stop_reason":"` + stopReason + `",` +
		`"stop_sequence":null,"usage":{"input_tokens":2095,"cache_creation_input_tokens":0,` +
		`"cache_read_input_tokens":0,"output_tokens":503,"service_tier":"standard"}}`
}

func text(s string) string { return fmt.Sprintf(`{"type":"text","text":%q}`, s) }

// errorBody renders Anthropic's error envelope.
func errorBody(status int, typ, msg string) string {
	return fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":%q},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`, typ, msg)
}

func TestCompleteRequestAndResponse(t *testing.T) {
	srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) {
		return 200, messageBody("end_turn", `{"type":"thinking","thinking":"hmm","signature":"abc"}`, text("SELECT "), text("1"))
	})
	c := anthropic.New(anthropic.WithBaseURL(srv.URL), anthropic.WithTransport(llm.Transport{HTTPClient: srv.Client()}),
		anthropic.WithAPIKey("sk-ant-test"), anthropic.WithModel("claude-sonnet-4-5"),
		anthropic.WithBeta("a-2025", "b-2025"), anthropic.WithExtraBody(map[string]any{"top_k": 5}))
	resp, err := c.Complete(context.Background(), &llm.Request{
		Messages:    []llm.Message{llm.System("rules"), llm.System("schema"), llm.User("q"), llm.Assistant("a"), llm.User("again")},
		Temperature: llm.Temperature(0),
		Stop:        []string{";"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "SELECT 1" || resp.FinishReason != llm.FinishStop || resp.Model != "claude-sonnet-4-5-20250929" ||
		resp.Usage != (llm.Usage{PromptTokens: 2095, CompletionTokens: 503}) {
		t.Fatalf("response = %+v", resp)
	}
	req := srv.Only(t)
	if req.Path != "/v1/messages" {
		t.Errorf("path %s, want /v1/messages", req.Path)
	}
	llmtest.AssertHeader(t, req.Header, "x-api-key", "sk-ant-test")
	llmtest.AssertHeader(t, req.Header, "anthropic-version", "2023-06-01")
	llmtest.AssertHeader(t, req.Header, "anthropic-beta", "a-2025,b-2025")
	llmtest.AssertHeader(t, req.Header, "Authorization", "")
	llmtest.AssertJSON(t, req.Body, `{"model":"claude-sonnet-4-5","max_tokens":2048,"system":"rules\n\nschema",
		"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a"},{"role":"user","content":"again"}],
		"temperature":0,"stop_sequences":[";"],"top_k":5}`)
}

func TestCompleteJSONSchemaViaForcedTool(t *testing.T) {
	srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) {
		return 200, messageBody("tool_use", text("Here you go."),
			`{"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"sql_answer","input":{"sql":"SELECT 1"}}`)
	})
	c := anthropic.New(anthropic.WithBaseURL(srv.URL), anthropic.WithTransport(llm.Transport{HTTPClient: srv.Client()}),
		anthropic.WithModel("m"), anthropic.WithMaxTokens(100))
	schema := `{"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"]}`
	resp, err := c.Complete(context.Background(), &llm.Request{
		Messages: []llm.Message{llm.User("q")}, JSONSchema: json.RawMessage(schema), SchemaName: "sql_answer", MaxTokens: 500,
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != `{"sql":"SELECT 1"}` || resp.FinishReason != llm.FinishStop {
		t.Fatalf("response = %+v, want the tool input as content", resp)
	}
	llmtest.AssertJSON(t, srv.Only(t).Body, `{"model":"m","max_tokens":500,"messages":[{"role":"user","content":"q"}],
		"tools":[{"name":"sql_answer","description":"Reply by calling this tool with the answer.","input_schema":`+schema+`}],
		"tool_choice":{"type":"tool","name":"sql_answer"}}`)
}

func TestCompleteReplyOutcomes(t *testing.T) {
	tests := []struct {
		name       string
		body       string
		schema     bool
		wantErr    error
		wantResp   bool
		wantFinish string
	}{
		{"max_tokens with text", messageBody("max_tokens", text("SELECT a,")), false, nil, true, llm.FinishLength},
		{"max_tokens with no text", messageBody("max_tokens"), false, llm.ErrTruncated, true, llm.FinishLength},
		{"max_tokens inside the tool call", messageBody("max_tokens", text("Let me")), true, llm.ErrTruncated, true, llm.FinishLength},
		{"stop_sequence", messageBody("stop_sequence", text("SELECT 1")), false, nil, true, llm.FinishStop},
		{"refusal", messageBody("refusal"), false, llm.ErrRefused, true, "refusal"},
		{"schema but no tool_use", messageBody("end_turn", text("SELECT 1")), true, llm.ErrMalformedResponse, false, ""},
		{"not a message", `{"type":"error","error":{"type":"api_error","message":"x"}}`, false, llm.ErrMalformedResponse, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) { return 200, tt.body })
			c := anthropic.New(anthropic.WithBaseURL(srv.URL), anthropic.WithTransport(llm.Transport{HTTPClient: srv.Client()}), anthropic.WithModel("m"))
			req := &llm.Request{Messages: []llm.Message{llm.User("q")}}
			if tt.schema {
				req.JSONSchema = json.RawMessage(`{"type":"object"}`)
			}
			resp, err := c.Complete(context.Background(), req)
			llmtest.CheckReply(t, resp, err, tt.wantErr, tt.wantResp, tt.wantFinish)
		})
	}
}

func TestCompleteRejectsInvalidRequests(t *testing.T) {
	srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) { return 200, messageBody("end_turn", text("x")) })
	withModel := anthropic.New(anthropic.WithBaseURL(srv.URL), anthropic.WithTransport(llm.Transport{HTTPClient: srv.Client()}), anthropic.WithModel("m"))
	noModel := anthropic.New(anthropic.WithBaseURL(srv.URL), anthropic.WithTransport(llm.Transport{HTTPClient: srv.Client()}))
	cases := []struct {
		c   *anthropic.Client
		req *llm.Request
	}{
		{withModel, nil},
		{withModel, &llm.Request{}},
		{withModel, &llm.Request{Messages: []llm.Message{llm.System("only system")}}},
		{noModel, &llm.Request{Messages: []llm.Message{llm.User("q")}}},
	}
	for i, tc := range cases {
		if _, err := tc.c.Complete(context.Background(), tc.req); !errors.Is(err, llm.ErrBadRequest) {
			t.Errorf("case %d: err = %v, want ErrBadRequest", i, err)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests sent for invalid input", n)
	}
}

func TestOverloaded529IsRetried(t *testing.T) {
	srv := llmtest.NewRecorder(t, func(n int, _ llmtest.Recorded) (int, string) {
		if n == 1 {
			return 529, errorBody(529, "overloaded_error", "Overloaded")
		}
		return 200, messageBody("end_turn", text("ok"))
	})
	sl := &llmtest.Sleeper{}
	c := anthropic.New(anthropic.WithBaseURL(srv.URL), anthropic.WithModel("m"),
		anthropic.WithTransport(llm.Transport{HTTPClient: srv.Client(), Sleep: sl.Sleep}))
	resp, err := c.Complete(context.Background(), &llm.Request{Messages: []llm.Message{llm.User("q")}})
	if err != nil || resp.Content != "ok" {
		t.Fatalf("Complete = %+v, %v; want ok after one retry", resp, err)
	}
	if len(srv.Requests()) != 2 || len(sl.Waits()) != 1 {
		t.Fatalf("requests %d, waits %v; want 2 and 1", len(srv.Requests()), sl.Waits())
	}
}

func TestErrorEnvelopeDecoded(t *testing.T) {
	srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) {
		return 413, errorBody(413, "request_too_large", "Request exceeds the maximum allowed number of bytes.")
	})
	c := anthropic.New(anthropic.WithBaseURL(srv.URL), anthropic.WithTransport(llm.Transport{HTTPClient: srv.Client()}), anthropic.WithModel("m"))
	_, err := c.Complete(context.Background(), &llm.Request{Messages: []llm.Message{llm.User("q")}})
	var api *llm.APIError
	if !errors.As(err, &api) || !errors.Is(err, llm.ErrBadRequest) {
		t.Fatalf("err = %v, want *APIError matching ErrBadRequest", err)
	}
	want := llm.APIError{Provider: "anthropic", StatusCode: 413, Type: "request_too_large",
		Message: "Request exceeds the maximum allowed number of bytes."}
	if *api != want {
		t.Fatalf("APIError = %+v, want %+v", *api, want)
	}
	if len(srv.Requests()) != 1 {
		t.Fatalf("413 retried")
	}
}

func TestFaults(t *testing.T) {
	llmtest.RunFaults(t, llmtest.Faults{
		Path:      "/v1/messages",
		OK:        messageBody("end_turn", text("SELECT 1")),
		Empty:     `{"id":"msg_1","type":"message","role":"assistant","model":"m","stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":0}}`,
		ErrorBody: errorBody,
		Call: llmtest.CompleteCall(func(t llmtest.Target) llm.Model {
			return anthropic.New(anthropic.WithBaseURL(t.URL), anthropic.WithTransport(t.Transport()),
				anthropic.WithModel("m"), anthropic.WithAPIKey("k"))
		}, "SELECT 1"),
	})
}
