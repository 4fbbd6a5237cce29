package erp_test

import (
	"context"
	"fmt"
	"os"

	"github.com/jackc/pgx/v5"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
)

// Load the demo in division layout and query one division.
func ExampleLoad() {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer conn.Close(ctx)
	if err := erp.Load(ctx, conn, erp.Options{Divisions: 30}); err != nil {
		fmt.Println(err)
		return
	}
	// The same unqualified SQL works in every division.
	if _, err := conn.Exec(ctx, "SET search_path = div_07, public"); err != nil {
		fmt.Println(err)
		return
	}
	var deals int
	err = conn.QueryRow(ctx, "SELECT count(*) FROM opportunities WHERE stage = 'Negotiation'").Scan(&deals)
	fmt.Println(deals, err)
}

func ExampleModules() {
	for _, m := range erp.ModuleNames() {
		fmt.Println(m, len(erp.Modules()[m]))
	}
	// Output:
	// Common 12
	// HR 15
	// Finance 14
	// Sales 16
	// Inventory 9
	// Procurement 11
	// Projects 9
	// Assets 8
}

func ExampleExam() {
	qs, err := erp.Exam()
	if err != nil {
		fmt.Println(err)
		return
	}
	q := qs[0]
	fmt.Println(q.QID, q.Difficulty, q.Module)
	fmt.Println(q.Question)
	fmt.Println(q.GoldSQL)
	// Output:
	// hr-01 easy HR
	// How many employees are currently active?
	// SELECT count(*) AS active_employees FROM employees WHERE status = 'Active'
}
