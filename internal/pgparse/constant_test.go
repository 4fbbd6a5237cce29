package pgparse

import "testing"

// TestConstText: the text of each kind of constant; NULL, a column and a
// cast are none.
func TestConstText(t *testing.T) {
	for sql, want := range map[string]string{
		"SELECT 42": "42", "SELECT 3.5": "3.5", "SELECT 'x y'": "x y", "SELECT $$d$$": "d", "SELECT true": "true",
		"SELECT NULL": "", "SELECT a FROM t": "", "SELECT '1'::int": "",
	} {
		tree, err := Parse(sql)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := ConstText(tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val)
		if got != want || ok != (want != "") {
			t.Errorf("ConstText(%q) = %q, %v; want %q", sql, got, ok, want)
		}
	}
}

// TestUncast: the expression under any number of casts.
func TestUncast(t *testing.T) {
	for sql, want := range map[string]string{"SELECT '1'::int": "1", "SELECT '2024-01-01'::text::date": "2024-01-01", "SELECT 7": "7"} {
		tree, err := Parse(sql)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := ConstText(Uncast(tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val)); got != want {
			t.Errorf("ConstText(Uncast(%q)) = %q, want %q", sql, got, want)
		}
	}
	if Uncast(nil) != nil {
		t.Error("Uncast(nil) is not nil")
	}
}

// TestOutputPosition: an integer literal from 1 to the number of outputs
// is a position; 0, one past the end, a float, a string, a literal too
// large for an int and an expression are none.
func TestOutputPosition(t *testing.T) {
	for item, want := range map[string]int{
		"1": 1, "2": 2, "0": 0, "3": 0, "1.0": 0, "'1'": 0, "1e30": 0, "9223372036854775808": 0, "-1": 0, "a": 0,
	} {
		tree, err := Parse("SELECT a, b FROM t GROUP BY " + item)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := OutputPosition(tree.Stmts[0].Stmt.GetSelectStmt().GroupClause[0], 2)
		if got != want || ok != (want != 0) {
			t.Errorf("OutputPosition(%s) = %d, %v; want %d", item, got, ok, want)
		}
	}
}
