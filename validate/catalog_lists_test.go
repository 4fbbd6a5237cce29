package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// The validator's own lists of PostgreSQL facts (notation.go, types.go,
// functions.go) are checked against a real server's catalog, so that a
// function, type or operator a new server version adds cannot slip past
// them unnoticed.

func catalogNames(t *testing.T, query string) []string {
	t.Helper()
	pool := pgtest.NewPool(t)
	rows, err := pool.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no rows from %s", query)
	}
	return out
}

// TestNotationDeniedOnServer: every always-denied pg_catalog function that
// can be called with one argument (so as t.f or (x).f) is in notationDenied.
func TestNotationDeniedOnServer(t *testing.T) {
	names := catalogNames(t, `SELECT DISTINCT proname::text FROM pg_proc
		WHERE pronamespace = 'pg_catalog'::regnamespace AND pronargs - pronargdefaults <= 1
		AND (pronargs >= 1 OR provariadic <> 0)`)
	missing := 0
	for _, n := range names {
		if funcDenied(n) && !notationDenied[n] {
			missing++
			t.Errorf("%s is always denied and callable with one argument, but not in notationDenied", n)
		}
	}
	for n := range notationDenied {
		if !funcDenied(n) {
			t.Errorf("%s is in notationDenied but not denied", n)
		}
	}
	t.Logf("%d one-argument pg_catalog functions, %d in notationDenied", len(names), len(notationDenied))
}

// TestBuiltinTypesOnServer: every allowed built-in type exists in
// pg_catalog and is not a catalog row type, and every catalog-lookup type
// the server has is refused.
func TestBuiltinTypesOnServer(t *testing.T) {
	kinds := map[string]string{}
	for _, row := range catalogNames(t, `SELECT typname::text || ' ' || typtype::text FROM pg_type
		WHERE typnamespace = 'pg_catalog'::regnamespace`) {
		name, kind, _ := strings.Cut(row, " ")
		kinds[name] = kind
	}
	for n := range builtinTypes {
		switch kinds[n] {
		case "":
			t.Errorf("allowed type %s does not exist in pg_catalog", n)
		case "c":
			t.Errorf("allowed type %s is a composite (a catalog's row type)", n)
		}
	}
	for n := range kinds {
		if strings.HasPrefix(n, "reg") && !builtinTypes[n] && !catalogLookupTypes[n] {
			t.Errorf("catalog-lookup type %s is neither allowed nor refused", n)
		}
	}
	for n := range catalogLookupTypes {
		if kinds[n] == "" {
			t.Errorf("refused type %s does not exist", n)
		}
	}
}

// TestOperatorsOnServer: every pg_catalog operator symbol is allowed.
func TestOperatorsOnServer(t *testing.T) {
	for _, op := range catalogNames(t, `SELECT DISTINCT oprname::text FROM pg_operator
		WHERE oprnamespace = 'pg_catalog'::regnamespace`) {
		if !operators[op] {
			t.Errorf("built-in operator %s is not in the allowed operators", op)
		}
	}
}

// TestLookupResultsOnServer: every function of pg_catalog that returns a
// catalog-lookup type (or an array of one) is always denied or listed in
// lookupResults, so no allowed call yields a value that turns the strings
// it is unified with into catalog lookups. The input and receive functions
// of the types are their casts (refused with the types).
func TestLookupResultsOnServer(t *testing.T) {
	names := catalogNames(t, "SELECT DISTINCT p.proname FROM pg_proc p"+lookupTypeFuncs("p.prorettype"))
	listed := 0
	for _, n := range names {
		switch {
		case lookupResults[n]:
			listed++
		case funcDenied(n), catalogLookupTypes[strings.TrimSuffix(strings.TrimSuffix(n, "in"), "recv")]:
		case defaultFunctions[n]:
			t.Errorf("%s returns a catalog-lookup type and is allowed by default, but not in lookupResults", n)
		default:
			t.Errorf("%s returns a catalog-lookup type: list it in lookupResults or deny it", n)
		}
	}
	if listed != len(lookupResults) {
		t.Errorf("%d of the %d functions of lookupResults return a lookup type on the server", listed, len(lookupResults))
	}
}

// TestLookupParametersOnServer: no function of the default allow-list
// takes a catalog-lookup type (a string literal passed to it would be
// looked up in the catalogs); regconfig, text search's, is allowed.
func TestLookupParametersOnServer(t *testing.T) {
	names := catalogNames(t, "SELECT DISTINCT p.proname FROM pg_proc p, unnest(p.proargtypes::oid[]) a(t)"+lookupTypeFuncs("a.t"))
	for _, n := range names {
		if defaultFunctions[n] && !funcDenied(n) {
			t.Errorf("%s takes a catalog-lookup type and is allowed by default", n)
		}
	}
}

// lookupTypeFuncs completes a query over pg_proc p: the pg_catalog
// functions where the type typ is a catalog-lookup type or an array of one.
func lookupTypeFuncs(typ string) string {
	return ` JOIN pg_type r ON r.oid = ` + typ + `
		LEFT JOIN pg_type e ON e.oid = r.typelem AND r.typcategory = 'A'
		WHERE p.pronamespace = 'pg_catalog'::regnamespace
		  AND coalesce(e.typname, r.typname) IN ('regclass', 'regproc', 'regprocedure', 'regoper', 'regoperator',
		      'regtype', 'regrole', 'regnamespace', 'regcollation', 'aclitem')
		ORDER BY 1`
}
