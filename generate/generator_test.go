package generate_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

func client(s *llmfake.Server) llm.Model {
	return openai.New(openai.WithBaseURL(s.BaseURL()), openai.WithModel("test-model"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
}

func TestGenerateDedupsAndVotes(t *testing.T) {
	replies := []string{
		"```sql\nSELECT count(*) FROM orders\n```",
		"Sure! SELECT COUNT(*)\nFROM orders;",       // same query, other spelling
		"```sql\nSELECT count(id) FROM orders\n```", // different
		"I am not sure.", // no SQL
		"```sql\nselect count(*) from ORDERS\n```", // same again
	}
	srv := llmfake.New(t, func(n int, r *llmfake.Request) llmfake.Reply {
		// Route by temperature so the mapping holds whatever order calls arrive in.
		i := map[float64]int{0: 0, 0.3: 1, 0.5: 2, 0.7: 3, 0.9: 4}[*r.Temperature]
		return llmfake.Reply{Content: replies[i]}
	})
	g := generate.New(client(srv))
	p := generate.Build(generate.PromptData{Question: "How many orders?", Schema: "# Table: orders"})
	out, err := g.Generate(context.Background(), p, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Samples) != 5 || len(out.Candidates) != 2 {
		t.Fatalf("samples %d, candidates %+v", len(out.Samples), out.Candidates)
	}
	if c := out.Candidates[0]; c.Votes != 3 || c.SQL != "SELECT count(*) FROM orders" || len(c.Temperatures) != 3 || c.Usage.CompletionTokens != 60 {
		t.Errorf("top candidate = %+v", c)
	}
	if !errors.Is(out.Samples[3].Err, generate.ErrNoSQL) {
		t.Errorf("sample 3 err = %v", out.Samples[3].Err)
	}
	reqs := srv.Requests()
	if len(reqs) != 5 || reqs[0].Messages[0].Role != "system" || !strings.Contains(reqs[0].Last(), "How many orders?") {
		t.Errorf("requests = %+v", reqs)
	}
}

func TestGenerateFailuresAndBudget(t *testing.T) {
	srv := llmfake.New(t, func(n int, r *llmfake.Request) llmfake.Reply {
		if *r.Temperature == 0 {
			return llmfake.Reply{Status: http.StatusInternalServerError, Body: `{"error":{"message":"boom","type":"server_error"}}`}
		}
		if *r.Temperature == 0.3 {
			return llmfake.Reply{Content: "SELECT 1", Delay: 10 * time.Second} // hangs past the budget
		}
		return llmfake.Reply{Content: "SELECT 2"}
	})
	g := generate.New(client(srv), generate.WithBudget(500*time.Millisecond))
	out, err := g.Generate(context.Background(), generate.Prompt{System: "s", User: "u"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	// The budget was honoured: the hanging sample ended with the deadline
	// (it would have answered "SELECT 1" after 10 s otherwise).
	if len(out.Candidates) != 1 || out.Candidates[0].SQL != "SELECT 2" {
		t.Errorf("candidates = %+v", out.Candidates)
	}
	if !errors.Is(out.Samples[0].Err, llm.ErrServer) || !errors.Is(out.Samples[1].Err, context.DeadlineExceeded) {
		t.Errorf("sample errors: %v / %v", out.Samples[0].Err, out.Samples[1].Err)
	}

	all := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply { return llmfake.Reply{Content: "no idea"} })
	_, err = generate.New(client(all)).Generate(context.Background(), generate.Prompt{System: "s", User: "u"}, 2)
	if !errors.Is(err, generate.ErrNoCandidates) || !errors.Is(err, generate.ErrNoSQL) {
		t.Errorf("all failing: %v", err)
	}
}

func TestRepairTurn(t *testing.T) {
	srv := llmfake.New(t, func(n int, r *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT name FROM customers\n```"}
	})
	g := generate.New(client(srv))
	base := generate.Prompt{System: "rules", User: "question"}
	sql, err := g.Repair(context.Background(), base, generate.RepairDelta{SQL: "SELECT nme FROM customers", SQLState: "42703", Message: `column "nme" does not exist`})
	if err != nil || sql != "SELECT name FROM customers" {
		t.Fatalf("repair = %q, %v", sql, err)
	}
	req := srv.Requests()[0]
	if len(req.Messages) != 4 || req.Messages[2].Role != "assistant" || !strings.Contains(req.Messages[2].Content, "nme") ||
		!strings.Contains(req.Last(), "42703") || *req.Temperature != 0 {
		t.Errorf("repair request = %+v", req)
	}
}
