package generate

import (
	"bytes"
	"context"
	"testing"

	"github.com/nl2sqlgo/nl2sql/retrieve"
)

func TestExampleStore(t *testing.T) {
	ctx := context.Background()
	s := NewExampleStore(retrieve.NewHashEmbedder(256))
	err := s.Add(ctx,
		Example{"How many customers are there?", "SELECT count(*) FROM customers"},
		Example{"Total invoice amount per customer", "SELECT c.name, sum(i.total) FROM customers c JOIN invoices i ON i.customer_id = c.id GROUP BY c.name"},
		Example{"List employees hired in 2023", "SELECT name FROM employees WHERE EXTRACT(YEAR FROM hire_date) = 2023"},
		Example{"How many customers are there?", "select COUNT(*) from customers;"}, // duplicate
	)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 3 {
		t.Fatalf("len = %d, want 3 (duplicate dropped)", s.Len())
	}
	if err := s.Add(ctx, Example{"Delete them", "DELETE FROM customers"}); err == nil {
		t.Error("non-SELECT example accepted")
	}
	got, err := s.Similar(ctx, "How many employees were hired in 2022?", "", 1)
	if err != nil || len(got) != 1 || got[0].Question != "List employees hired in 2023" {
		t.Errorf("similar by question = %+v, %v", got, err)
	}
	// The skeleton of a draft pulls the structurally closest example up.
	got, _ = s.Similar(ctx, "revenue by product", "SELECT p.name, sum(o.total) FROM products p JOIN orders o ON o.product_id = p.id GROUP BY p.name", 1)
	if len(got) != 1 || got[0].Question != "Total invoice amount per customer" {
		t.Errorf("similar by skeleton = %+v", got)
	}
	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	l := NewExampleStore(retrieve.NewHashEmbedder(256))
	if err := l.Load(ctx, &buf); err != nil || l.Len() != 3 {
		t.Fatalf("load: %d, %v", l.Len(), err)
	}
}
