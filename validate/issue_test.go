package validate

import "testing"

// TestUnsafe: every code is classed, and the codes for a slip (syntax, an
// empty statement, a name outside the allowed set, an unknown type, the
// internal safety net) are not policy refusals.
func TestUnsafe(t *testing.T) {
	notUnsafe := map[string]bool{CodeSyntax: true, CodeEmpty: true, CodeTableNotAllowed: true, CodeType: true, CodeRewrite: true}
	all := []string{CodeSyntax, CodeEmpty, CodeMultiple, CodeNotSelect, CodeDataModifying, CodeSelectInto, CodeLocking,
		CodeUnsupported, CodeParam, CodeFuncDenied, CodeFuncNotAllowed, CodeTableNotAllowed, CodeSystemCatalog,
		CodeFuncNotation, CodePlan, CodeType, CodeRecursion, CodeSeries, CodeStringBomb, CodeCrossJoin, CodeTooLarge, CodeLookalike, CodeRewrite}
	for _, c := range all {
		if got := Unsafe(c); got == notUnsafe[c] {
			t.Errorf("Unsafe(%s) = %v", c, got)
		}
	}
	if Unsafe("V999") || Unsafe("") || Unsafe("42P01") {
		t.Error("an unknown code is unsafe")
	}
}
