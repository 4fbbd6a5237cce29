package execute_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// Running the SQL a model wrote for "How many orders did each customer place
// in 2024?" safely. (Compiled, not run: it needs a database in DATABASE_URL.)
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()

	ex := execute.New(pool,
		execute.WithValidateOptions(validate.WithTables(
			validate.Table{Schema: "sales", Name: "orders"},
			validate.Table{Schema: "sales", Name: "customers"},
		)),
		execute.WithStatementTimeout(5*time.Second),
		execute.MaxRows(100),
	)
	generated := `SELECT c.name, count(*) AS orders
		FROM customers c JOIN orders o ON o.customer_id = c.id
		WHERE o.placed_at >= '2024-01-01' AND o.placed_at < '2025-01-01'
		GROUP BY c.name ORDER BY orders DESC`

	res, err := ex.Query(ctx, generated, execute.Scope("sales"))
	var xe *execute.Error
	switch {
	case errors.Is(err, execute.ErrRejected), errors.Is(err, execute.ErrRepairable):
		fmt.Println("ask the model to fix:", err) // e.g. a V012 issue or SQLSTATE 42703
		return
	case errors.Is(err, execute.ErrTimeout), errors.Is(err, execute.ErrConnection):
		errors.As(err, &xe)
		fmt.Println("try later or simpler:", xe.SQLState, xe.Retryable)
		return
	case err != nil:
		fmt.Println("failed:", err)
		return
	}
	for _, c := range res.Columns {
		fmt.Print(c.Name, " (", c.Type, ") ")
	}
	fmt.Println()
	out, _ := json.Marshal(res.Rows) // counts are int64, numerics json.Number
	fmt.Println(string(out))
	if res.Truncated {
		fmt.Println("truncated:", res.TruncateReason)
	}
}
