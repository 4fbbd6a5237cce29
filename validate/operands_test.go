package validate_test

import (
	"errors"
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// operandAttacks feed an operator that does not check for interrupts a
// value the query builds or collects, in every spelling: the red team's
// array &&, jsonb @> and numeric % / ^ that ran on for minutes after the
// statement timeout.
var operandAttacks = []string{
	// Arrays collected by the query.
	`SELECT (SELECT array_agg(g) FROM t) && (SELECT array_agg(-g) FROM t)`,
	`SELECT array_agg(a) && array_agg(b) FROM t`,
	`SELECT ARRAY_AGG(a) OPERATOR(pg_catalog.&&) ARRAY_AGG(b) FROM t`,
	`SELECT "array_agg"(a) @> U&"array_agg"(b) FROM t`,
	`SELECT pg_catalog.array_agg(a) <@ pg_catalog.array_agg(b) FROM t`,
	`SELECT ARRAY(SELECT a FROM t) && ARRAY(SELECT b FROM t)`,
	`SELECT ARRAY(SELECT a FROM t) @> ARRAY[1]`,
	`WITH x AS (SELECT array_agg(a) AS arr FROM t) SELECT arr && arr FROM x`,
	`WITH x(v) AS (SELECT array_agg(a) FROM t) SELECT 1 FROM x WHERE v <@ v`,
	`SELECT 1 FROM (SELECT array_agg(a) AS arr FROM t) s, LATERAL (SELECT s.arr && s.arr AS o) l`,
	`SELECT 1 FROM (VALUES (1)) v(i) WHERE (SELECT array_agg(a) FROM t) && (SELECT array_agg(b) FROM t)`,
	`SELECT (SELECT array_agg(a) FROM t) && ANY (SELECT array_agg(b) FROM t)`,
	`SELECT a FROM t WHERE arr && ANY (SELECT array_agg(b) FROM t)`,
	`SELECT array_agg(a) OVER (ORDER BY a ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) && ARRAY[1] FROM t`,
	`SELECT string_to_array(repeat('1,', 50000), ',') && ARRAY['1']`,
	// jsonb collected or built.
	`SELECT jsonb_agg(a) @> jsonb_agg(b) FROM t`,
	`SELECT (SELECT jsonb_agg(a) FROM t) @> '[1]'`,
	`SELECT (SELECT jsonb_agg(a) FROM t) ?| ARRAY['x']`,
	`SELECT to_jsonb(array_agg(a)) <@ to_jsonb(array_agg(b)) FROM t`,
	// Numbers of a hundred thousand digits.
	`SELECT repeat('9', 100000)::numeric % 7`,
	`SELECT CAST(repeat('9', 60000) AS numeric) % CAST(repeat('7', 30000) AS numeric)`,
	`SELECT mod(repeat('9', 60000)::numeric, 7)`,
	`SELECT pg_catalog.mod(repeat('9', 60000)::numeric, 7)`,
	`SELECT "mod"(repeat('9', 60000)::numeric, 7)`,
	`SELECT repeat('9', 60000)::numeric / 7`,
	`SELECT repeat('9', 60000)::numeric * repeat('9', 60000)::numeric`,
	`SELECT 2::numeric ^ 400000`,
	`SELECT 2::numeric OPERATOR(pg_catalog.^) 400000`,
	`SELECT power(2::numeric, 400000)`,
	`SELECT POW(2::numeric, 400000)`,
	`SELECT U&"power"(2::numeric, 400000)`,
	`SELECT power(2::numeric, (SELECT max(a) FROM t))`,
	`SELECT factorial(30000)`,
	`SELECT (2::numeric ^ a) % 3 FROM (SELECT 400000 AS a) s`,
	`WITH e AS (SELECT 400000 AS n) SELECT 2::numeric ^ n FROM e`,
	`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT repeat('9', 60000)::numeric % n FROM r`,
	`SELECT gcd(repeat('9', 60000)::numeric, repeat('7', 60000)::numeric)`,
	`SELECT a && a FROM (VALUES (ARRAY(SELECT id FROM t))) v(a)`,
	`SELECT ('{' || string_agg(a::text, ',') || '}')::int[] && ARRAY[1] FROM t`,
	`SELECT u && u FROM unnest(ARRAY[(SELECT array_agg(id) FROM t)]) u`,
	`SELECT regexp_split_to_array(string_agg(a::text, ','), ',') @> ARRAY['1'] FROM t`,
	`SELECT x.arr && x.arr FROM (SELECT * FROM (SELECT array_agg(a) AS arr FROM t) y) x`,
	// A power of a thousand-digit base, and powers of powers.
	`SELECT repeat('9', 1000)::numeric ^ 130`,
	`SELECT power(repeat('9', 1000)::numeric, 130)`,
	`SELECT (2::numeric ^ 1000) ^ 1000`,
	`SELECT power(power(2::numeric, 1000), 1000)`,
	`SELECT (9::numeric ^ 1000) ^ 100`,
	`SELECT factorial(1000) % 7 + (a ^ 1000) % 7 FROM t`,
	`SELECT div($$` + "9999" + `$$::numeric, 7) FROM t WHERE (SELECT array_agg(a) FROM t) && arr`,
}

// operandLegit use the same operators on the data's own values, short
// literals and small exponents.
var operandLegit = []string{
	`SELECT a % 2, a ^ 2, a * 1.5, a / 3, mod(a, 7), power(a, 2), power(1.05, a), a ^ 1.6 FROM t`,
	`SELECT a FROM t WHERE arr && ARRAY[1, 2, 3] OR arr @> '{4}' OR arr <@ arr`,
	`SELECT count(*) % 2, sum(a) / count(*), max(a) ^ 2 FROM t`,
	`SELECT factorial(20), 2::numeric ^ 1000, power(10, -3), 1.05 ^ 1000, power(1 + a / 100.0, a) * 100, 10 ^ 200 * a FROM t`,
	`SELECT array_length(array_agg(a), 1), array_to_string(array_agg(a), ',') FROM t`,
	`SELECT a FROM t WHERE j @> '{"k": 1}' AND j ?| ARRAY['x', 'y']`,
	`SELECT x.a * 2 FROM (SELECT a FROM t) x`,
}

func TestOperandGuard(t *testing.T) {
	v := validate.New()
	for _, sql := range operandAttacks {
		_, err := v.Validate(sql)
		var ve *validate.Error
		if !errors.As(err, &ve) || !ve.Has(validate.CodeOperand) {
			t.Errorf("not refused with V028: %v\nSQL: %s", err, sql)
		}
	}
	for _, sql := range operandLegit {
		if _, err := v.Validate(sql); err != nil {
			t.Errorf("refused: %v\nSQL: %s", err, sql)
		}
	}
	if !validate.Unsafe(validate.CodeOperand) {
		t.Error("V028 is not a policy refusal")
	}
}
