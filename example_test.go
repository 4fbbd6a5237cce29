package nl2sql_test

import (
	"context"
	"fmt"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// ExampleEngine_Ask answers one question end to end. It needs a database
// (DATABASE_URL) and an OpenAI-compatible server (OPENAI_BASE_URL), so it is
// compiled, not run, by go test.
func ExampleEngine_Ask() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()
	model, err := openai.FromEnv(openai.WithModel("gpt-4.1-mini"))
	if err != nil {
		fmt.Println(err) // OPENAI_API_KEY unset, or OPENAI_BASE_URL malformed
		return
	}
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithMaxRows(100))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := eng.Ask(ctx, "How many employees are currently active?", nl2sql.Evidence("active means status = 'Active'"))
	if err != nil {
		fmt.Println("failed:", err) // errors.Is(err, nl2sql.ErrUnsafe), nl2sql.ErrColumnMiss, ...
		return
	}
	fmt.Println(res.SQL, res.Rows, res.Confidence)
}

// ExampleEngine_SchemaContext shows what the model would be asked, without a model.
func ExampleEngine_SchemaContext() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()
	eng, _ := nl2sql.New(pool)
	c, err := eng.SchemaContext(ctx, "Top 5 customers by revenue in 2024")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range c.Tables {
		fmt.Println(t.Name, t.Reasons)
	}
	fmt.Println(c.Skeleton)
	fmt.Println(c.Prompt.User)
}
