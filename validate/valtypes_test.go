package validate_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// rejectAll checks that v rejects every query with code (all reported,
// not only the first failure).
func rejectAll(t *testing.T, v *validate.Validator, code string, sqls ...string) {
	t.Helper()
	for _, sql := range sqls {
		_, err := v.Validate(sql)
		var ve *validate.Error
		if !errors.As(err, &ve) || !ve.Has(code) {
			t.Errorf("Validate(%q): err = %v, want a violation %s", sql, err, code)
		}
	}
}

// acceptAll checks that v accepts every query.
func acceptAll(t *testing.T, v *validate.Validator, sqls ...string) {
	t.Helper()
	for _, sql := range sqls {
		if _, err := v.Validate(sql); err != nil {
			t.Errorf("Validate(%q): %v", sql, err)
		}
	}
}

// TestLookupValuesRefused: pg_typeof returns a regtype, and a string
// literal unified with it (VALUES rows, UNION arms, CASE, COALESCE,
// ARRAY, GREATEST, IN lists, comparisons) is read by regtype's input: it
// names another tenant's relations and tells their OIDs. Its result may
// only be converted to text where it stands.
func TestLookupValuesRefused(t *testing.T) {
	attacks := []string{
		// the red team's query, and VALUES alone, in a CTE, a subquery, LATERAL
		`SELECT t::text, t::oid FROM (VALUES (pg_typeof(1)), ('div_02.bank_accounts'), ('pg_catalog.pg_authid')) v(t)`,
		`VALUES (pg_typeof(1)), ('div_02.bank_accounts')`,
		`WITH v(t) AS (VALUES (pg_typeof(1)), ('div_02.bank_accounts')) SELECT t::text FROM v`,
		`WITH v AS (SELECT pg_typeof(1) AS t) SELECT t::text FROM v`,
		`SELECT (SELECT pg_typeof(1))::text`,
		`SELECT x FROM users u, LATERAL (VALUES (pg_typeof(u.id)), ('div_02.bank_accounts')) v(x)`,
		`SELECT * FROM users WHERE EXISTS (VALUES (pg_typeof(1)), ('div_02.bank_accounts'))`,
		// set operations
		`SELECT pg_typeof(1) UNION SELECT 'div_02.bank_accounts'`,
		`SELECT 'div_02.bank_accounts' UNION ALL SELECT pg_typeof(1)`,
		`SELECT t::oid FROM (SELECT pg_typeof(1) AS t INTERSECT SELECT 'div_02.bank_accounts') s`,
		// unifying expressions
		`SELECT CASE WHEN true THEN pg_typeof(1) ELSE 'div_02.bank_accounts' END`,
		`SELECT COALESCE(NULL, pg_typeof(1), 'div_02.bank_accounts')`,
		`SELECT ARRAY[pg_typeof(1), 'div_02.bank_accounts']`,
		`SELECT greatest(pg_typeof(1), 'div_02.bank_accounts')`,
		`SELECT least(pg_typeof(1), 'div_02.bank_accounts')`,
		`SELECT nullif(pg_typeof(1), 'div_02.bank_accounts')`,
		`SELECT 1 WHERE pg_typeof(1) IN ('integer', 'div_02.bank_accounts')`,
		`SELECT pg_typeof(1) = 'div_02.bank_accounts'`,
		`SELECT 'div_02.bank_accounts' = ANY (ARRAY[pg_typeof(1)])`,
		`SELECT array_append(ARRAY[pg_typeof(1)], 'div_02.bank_accounts')`,
		`SELECT max(x) FROM (SELECT pg_typeof(1) x) s`,
		`SELECT row(pg_typeof(1))`,
		`SELECT concat(VARIADIC ARRAY[pg_typeof(1), 'div_02.bank_accounts'])`,
		`SELECT pg_typeof(1)::oid`,
		`SELECT pg_typeof(1)::text[]`,
		`SELECT pg_typeof(pg_typeof(1))::text`,
		`SELECT lower(pg_typeof(1))`,
		// spellings of the function and of the literal
		`VALUES (pg_catalog.pg_typeof(1)), ('div_02.bank_accounts')`,
		`VALUES ("pg_typeof"(1)), ('div_02.bank_accounts')`,
		`VALUES (PG_TYPEOF(1)), ('div_02.bank_accounts')`,
		`VALUES (U&"pg\005ftypeof"(1)), ('div_02.bank_accounts')`,
		`VALUES (pg_typeof(1)), (U&'div\005f02.bank_accounts')`,
		`VALUES (pg_typeof(1)), ($$div_02.bank_accounts$$)`,
		`VALUES (pg_typeof(1)), ($q$div_02.bank_accounts$q$)`,
		`VALUES (pg_typeof(1)), (E'div_02.bank_accounts')`,
		// window frames, ORDER BY, GROUP BY
		`SELECT count(*) OVER (ORDER BY pg_typeof(1)) FROM users`,
		`SELECT 1 FROM users GROUP BY pg_typeof(id)`,
		`SELECT 1 FROM users ORDER BY pg_typeof(id)`,
		// functional notation: t.pg_typeof is pg_typeof(t)
		`SELECT x::text FROM users u, LATERAL (VALUES (u.pg_typeof), ('div_02.bank_accounts')) v(x)`,
		`SELECT x::text FROM users u, LATERAL (VALUES ((u).pg_typeof), ('div_02.bank_accounts')) v(x)`,
	}
	rejectAll(t, validate.New(), validate.CodeSystemCatalog, attacks...)
	rejectAll(t, shopValidator(), validate.CodeSystemCatalog, attacks...)
	// WithFunctions cannot bring in another function returning a lookup type.
	rejectAll(t, validate.New(validate.WithFunctions("acldefault")), validate.CodeSystemCatalog,
		`VALUES (acldefault('r', 10)), ('{}')`, `SELECT acldefault('r', 10) = '{}'`)
	// Functions that look names up themselves are denied whatever the options.
	rejectAll(t, validate.New(validate.WithFunctions("to_regoper", "to_regoperator", "to_regcollation", "makeaclitem")),
		validate.CodeFuncDenied, `SELECT to_regoper('+')`, `SELECT to_regoperator('+(int4,int4)')`,
		`SELECT to_regcollation('C')`, `SELECT makeaclitem(10, 10, 'SELECT', false)`)
	// A user function named format may unify its arguments.
	rejectAll(t, validate.New(validate.WithFunctions("util.format")), validate.CodeSystemCatalog,
		`SELECT util.format(pg_typeof(1), 'div_02.bank_accounts')`)

	_, err := validate.New().Validate(attacks[0])
	if err == nil || !strings.Contains(err.Error(), "pg_typeof(...)::text") {
		t.Errorf("the refusal does not say how to write it: %v", err)
	}
}

// TestLookupValuesConverted: pg_typeof's result converted to text where it
// stands is a type name like any string; and WithSystemCatalogs(true)
// allows the lookup types anywhere.
func TestLookupValuesConverted(t *testing.T) {
	ok := []string{
		`SELECT pg_typeof(id)::text FROM users`,
		`SELECT CAST(pg_typeof(id) AS text) FROM users`,
		`SELECT pg_typeof(id)::varchar, pg_typeof(name)::varchar(20), pg_typeof(1)::pg_catalog.text FROM users`,
		`SELECT (pg_catalog.pg_typeof(amount))::text AS t FROM orders`,
		`SELECT format('%s', pg_typeof(amount)), concat(pg_typeof(1), '/', pg_typeof(2)), concat_ws(',', pg_typeof(1)) FROM orders`,
		`VALUES (pg_typeof(1)::text), ('div_02.bank_accounts')`,
		`SELECT pg_typeof(1)::text UNION SELECT 'x'`,
		`SELECT 1 FROM users WHERE pg_typeof(id)::text IN ('integer', 'bigint')`,
		`SELECT pg_collation_for(name) FROM users`,
		`WITH v AS (SELECT pg_typeof(id)::text AS t FROM users) SELECT t FROM v`,
	}
	acceptAll(t, validate.New(), ok...)
	acceptAll(t, shopValidator(), ok...)
	acceptAll(t, validate.New(validate.WithSystemCatalogs(true)),
		`SELECT pg_typeof(1)`, `VALUES (pg_typeof(1)), ('pg_class')`, `SELECT pg_typeof(1) = 'integer'`)
}

// TestSystemColumnsRefused: xmin and xmax tell how many transactions the
// cluster ran (age(xmin), xmin::text::bigint), what the denied
// txid_current() would; cmin, cmax and tableoid are refused with them.
// Every spelling that resolves to a table's system column is refused.
func TestSystemColumnsRefused(t *testing.T) {
	attacks := []string{
		`SELECT age(xmin) FROM users`,
		`SELECT max(xmin::text::bigint) FROM users`,
		`SELECT xmax, cmin, cmax, tableoid FROM users`,
		`SELECT "xmin" FROM users`,
		`SELECT U&"\0078min" FROM users`,
		`SELECT u.xmin FROM users u`,
		`SELECT users.xmin FROM users`,
		`SELECT public.users.xmin FROM public.users`,
		`SELECT u."tableoid" FROM users AS u`,
		`SELECT (u.*).xmin FROM users u`,
		`SELECT 1 FROM users WHERE xmin::text <> '0'`,
		`SELECT 1 FROM users ORDER BY xmin`,
		`SELECT 1 FROM users u ORDER BY u.xmin`,
		`SELECT count(*) FROM users GROUP BY xmin`,
		`SELECT count(*) FROM users GROUP BY ROLLUP (xmin)`,
		`SELECT DISTINCT ON (xmin) id FROM users`,
		`SELECT sum(id) OVER (ORDER BY xmin) FROM users`,
		`SELECT sum(id) OVER w FROM users WINDOW w AS (PARTITION BY tableoid)`,
		`SELECT id FROM users HAVING max(xmin::text) > ''`,
		`WITH c AS (SELECT xmin AS x FROM users) SELECT x FROM c`,
		`WITH c AS (SELECT * FROM users) SELECT c.id, (SELECT u.xmin FROM users u LIMIT 1) FROM c`,
		`SELECT (SELECT xmin FROM orders LIMIT 1)`,
		`SELECT * FROM users WHERE EXISTS (SELECT 1 FROM orders WHERE orders.xmin::text = '1')`,
		`SELECT id FROM users WHERE id IN (SELECT xmin::text::int FROM orders)`,
		// a sublink with no FROM of its own resolves in the outer level
		`SELECT (SELECT xmin) FROM users`,
		`SELECT x FROM users, LATERAL (SELECT xmin AS x) s`,
		`SELECT x FROM users u, LATERAL (VALUES (u.xmin)) v(x)`,
		`SELECT * FROM users JOIN orders ON orders.xmin::text = users.id::text`,
		`SELECT * FROM users u JOIN orders o USING (id) WHERE o.cmax::text = '0'`,
		`SELECT a FROM (SELECT xmin AS a FROM users) s`,
		`SELECT xmin FROM users UNION SELECT 1`,
		`SELECT 1 UNION SELECT xmin::text::int FROM users`,
		`SELECT xmin FROM ONLY users`,
		`SELECT xmin FROM users TABLESAMPLE BERNOULLI (50)`,
		// the CTE named like the table is no table; users.xmin beneath it is
		`WITH c AS (SELECT 1 AS y) SELECT xmin FROM c, users`,
	}
	rejectAll(t, validate.New(), validate.CodeSystemColumn, attacks...)
	rejectAll(t, shopValidator(), validate.CodeSystemColumn, attacks...)
	// (u) may be a column where the columns are unknown: V014 there.
	rejectAll(t, shopValidator(), validate.CodeSystemColumn, `SELECT (u).xmin FROM users u`)
	rejectAll(t, validate.New(), validate.CodeFuncNotation, `SELECT (u).xmin FROM users u`)
	if !validate.Unsafe(validate.CodeSystemColumn) {
		t.Error("V026 is a policy refusal but Unsafe says it is not")
	}
}

// TestSystemColumnsResolved: a column named xmin of a CTE, subquery,
// VALUES list or function, an output alias in ORDER BY, and ctid are no
// refused system column; WithSystemColumns(true) allows them all.
func TestSystemColumnsResolved(t *testing.T) {
	ok := []string{
		`WITH c AS (SELECT 1 AS xmin) SELECT xmin, c.xmin FROM c`,
		`WITH c(xmin, tableoid) AS (SELECT 1, 2) SELECT xmin + tableoid FROM c`,
		`SELECT xmin FROM (SELECT id AS xmin FROM users) s`,
		`SELECT s.xmin FROM (SELECT id AS xmin FROM users) s ORDER BY xmin`,
		`SELECT xmin FROM (VALUES (1)) v(xmin)`,
		`SELECT v.xmax FROM (VALUES (1, 2)) v(xmin, xmax)`,
		`SELECT xmin FROM generate_series(1, 3) AS xmin`,
		`SELECT xmin FROM unnest(ARRAY[1, 2]) AS u(xmin)`,
		`SELECT id AS xmin FROM users ORDER BY xmin`,
		`SELECT id AS tableoid FROM users UNION SELECT 1 ORDER BY tableoid`,
		`SELECT ctid, u.ctid FROM users u`,
		`SELECT (SELECT xmin FROM (SELECT 1 AS xmin) s) FROM users`,
		`SELECT x.xmin FROM users u, LATERAL (SELECT u.id AS xmin) x`,
		`SELECT j.xmin FROM ((SELECT 1 AS xmin) a JOIN (SELECT 1 AS y) b ON true) AS j`,
	}
	acceptAll(t, validate.New(), ok...)
	acceptAll(t, shopValidator(), ok...)
	allow := []validate.Option{validate.WithSystemColumns(true)}
	acceptAll(t, shopValidator(allow...),
		`SELECT age(xmin), u.xmax, (u).cmin, cmax, tableoid FROM users u`, `SELECT xmin FROM users ORDER BY xmin`)
	acceptAll(t, validate.New(allow...), `SELECT age(xmin), u.xmax, (u.*).cmin, cmax, tableoid FROM users u`)
	// A view described with a column named xmin (views may have one).
	view := validate.New(validate.WithTables(validate.Table{Name: "vx", Columns: []string{"xmin"}}))
	acceptAll(t, view, `SELECT xmin, v.xmin FROM vx v`)
}

// TestGroupByTargetReference: a GROUP BY item naming a target (by
// position or alias) whose expression is itself a constant or the same
// name expanded forever and overflowed the stack, killing the process.
func TestGroupByTargetReference(t *testing.T) {
	acceptAll(t, shopValidator(),
		`SELECT 1 GROUP BY 1`,
		`SELECT 2, 1 FROM users GROUP BY 2, 1`,
		`SELECT name AS name, count(*) FROM users GROUP BY name`,
		`SELECT 1 AS a, count(*) FROM users GROUP BY a`,
		`SELECT 1 AS a FROM users GROUP BY ROLLUP (a, 1)`,
		`SELECT id AS xmin FROM users GROUP BY 1 ORDER BY xmin`)
	rejectAll(t, shopValidator(), validate.CodeSystemColumn, `SELECT 1 AS xmin FROM users GROUP BY xmin`)
}
