package validate_test

import (
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestRecursionGuardNormalises: steps and comparisons are read after
// normalising arithmetic, casts and unary minus; a step that is not
// strictly monotone, a comparison against its direction and "key joins"
// that never move are refused (V020) in every spelling, by the configured
// and the zero-config validator.
func TestRecursionGuardNormalises(t *testing.T) {
	for _, sql := range []string{
		// n + -1 is n - 1: it moves down, n < 10 never ends it
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + -1 FROM r WHERE n < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + (-1) FROM r WHERE n < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT -1 + n FROM r WHERE n < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n - 1 FROM r WHERE n <= 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n OPERATOR(pg_catalog.-) 1 FROM r WHERE n < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n - '1' FROM r WHERE n < 10) SELECT count(*) FROM r`,
		// abs breaks monotony: 1, 0, 1, 0, ...
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT abs(n) - 1 FROM r WHERE n < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT pg_catalog.abs(n) - 1 FROM r WHERE n > -10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT 1 - n FROM r WHERE n < 10) SELECT count(*) FROM r`,
		// comparisons through casts and minus, against the direction
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n - 1 FROM r WHERE n::int < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n - 1 FROM r WHERE CAST(n AS bigint) < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE -n < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE 10 > -n) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE 5 - n < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n::text < '9') SELECT count(*) FROM r`,
		// a step that rounds to nothing: 0.4::int is 0
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 0.4::int FROM r WHERE n < 10) SELECT count(*) FROM r`,
		// n * 2 from 0, from the data, from a float
		`WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n * 2 FROM r WHERE n < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT -1 UNION ALL SELECT n + n FROM r WHERE n < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT min(id) FROM users UNION ALL SELECT n * 2 FROM r WHERE n < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1e300::float8 UNION ALL SELECT n * 2 FROM r WHERE n < 1e301) SELECT count(*) FROM r`,
		// a float counter: 1e300 + 1 is 1e300
		`WITH RECURSIVE r(n) AS (SELECT 1e300::float8 UNION ALL SELECT n + 1 FROM r WHERE n < 1e301) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT CAST(-1e300 AS double precision) UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT random() * -1e300 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT count(*) FROM r`,
		// a step below PostgreSQL's microsecond
		`WITH RECURSIVE r(d) AS (SELECT now() UNION ALL SELECT d + interval '0.0000001 seconds' FROM r WHERE d < now() + interval '1 day') SELECT count(*) FROM r`,
		// bounds in name only: more steps than the limit from a constant seed
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10000000000) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n BETWEEN 0 AND 1e12) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (VALUES (1), (-1e15) UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(d) AS (SELECT now() UNION ALL SELECT d + interval '1 microsecond' FROM r WHERE d < now() + interval '1000 years') SELECT count(*) FROM r`,
		`WITH RECURSIVE r(d) AS (SELECT now() UNION ALL SELECT d + interval '1 second' FROM r WHERE d - interval '1000 years' < now()) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(d) AS (SELECT DATE '2000-01-01' UNION ALL SELECT d + 1 FROM r WHERE d < DATE '2000-01-01' + 1000000) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(d) AS (SELECT now() UNION ALL SELECT d + interval '1 microsecond' FROM r WHERE d < '3000-01-01') SELECT count(*) FROM r`,
		// a mixed interval: '1 month -29 days' is no step from 1 February 2024
		`WITH RECURSIVE r(d) AS (SELECT '2024-02-01'::timestamp UNION ALL SELECT d + interval '1 month -29 days' FROM r WHERE d < '2025-01-01') SELECT count(*) FROM r`,
		// the bound in an outer join's ON filters nothing
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r LEFT JOIN users u ON r.n < 10) SELECT count(*) FROM r`,
		// key joins that never move
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n FROM r JOIN (VALUES (1)) v(k) ON v.k = r.n) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n FROM r, LATERAL (SELECT r.n AS k) x WHERE x.k = r.n) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n, d) AS (SELECT 1, 0 UNION ALL SELECT r.n, r.d FROM r JOIN users u ON u.id = r.n) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT u.id FROM r JOIN users u ON u.id = r.n) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT o.user_id FROM r JOIN orders o ON o.user_id = r.n) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT o.amount::int FROM r JOIN orders o ON o.user_id = r.n) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT x.k FROM r JOIN (SELECT id AS k FROM users) x ON x.k = r.n) SELECT count(*) FROM r`,
		`WITH RECURSIVE c(k) AS (SELECT id FROM users), r(n) AS (SELECT 1 UNION ALL SELECT c.k FROM r JOIN c ON c.k = r.n) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT g FROM r JOIN generate_series(1, 3) g ON g = r.n) SELECT count(*) FROM r`,
		// stars: the whole row is carried, or the self-reference's columns
		`WITH RECURSIVE chain AS (SELECT * FROM orders WHERE id = 7 UNION ALL SELECT c.* FROM orders o JOIN chain c ON o.user_id = c.id) SELECT id FROM chain`,
		`WITH RECURSIVE chain AS (SELECT * FROM orders WHERE id = 7 UNION ALL SELECT * FROM orders o JOIN chain c ON o.user_id = c.id) SELECT id FROM chain`,
		`WITH RECURSIVE chain AS (SELECT * FROM orders WHERE id = 7 UNION ALL SELECT o.* FROM orders o JOIN chain c ON o.user_id = c.user_id) SELECT id FROM chain`,
		// rows that multiply at each step under a depth bound
		`WITH RECURSIVE r(n, d) AS (SELECT 1, 0 UNION ALL SELECT r.n, r.d + 1 FROM r JOIN orders o ON o.user_id = r.n WHERE r.d < 40) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r, generate_series(1, 3) WHERE r.n < 40) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r CROSS JOIN (VALUES (1), (2)) v(k) WHERE r.n < 40) SELECT count(*) FROM r`,
		// the self-reference hidden in a subquery in FROM
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM (SELECT * FROM r) x) SELECT count(*) FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM (SELECT * FROM r) x WHERE n < 10) SELECT count(*) FROM r`,
		// every spelling: quoted, upper case, unicode escapes, nested
		`WITH RECURSIVE "R"("N") AS (SELECT 1 UNION ALL SELECT "N" + -1 FROM "R" WHERE "N" < 10) SELECT count(*) FROM "R"`,
		`WITH RECURSIVE U&"\0072"(n) AS (SELECT 1 UNION ALL SELECT n + -1 FROM r WHERE n < 10) SELECT count(*) FROM r`,
		`WITH RECURSIVE R(N) AS (SELECT 1 UNION ALL SELECT N + -1 FROM R WHERE N::INT < 10) SELECT COUNT(*) FROM R`,
		`SELECT (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + -1 FROM r WHERE n < 10) SELECT count(*) FROM r)`,
		`SELECT * FROM users u WHERE EXISTS (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT abs(n) - 1 FROM r WHERE n < 10) SELECT 1 FROM r WHERE n = -1)`,
		`SELECT * FROM users u, LATERAL (WITH RECURSIVE r(n) AS (SELECT u.id UNION ALL SELECT n - 1 FROM r WHERE n::int < u.id + 10) SELECT max(n) FROM r) m`,
		`SELECT * FROM (VALUES (1)) v(x) WHERE x IN (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE -n < 10) SELECT n FROM r)`,
		`SELECT sum(n) OVER (ORDER BY n ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n FROM r JOIN (VALUES (1)) v(k) ON v.k = r.n) SELECT n FROM r) s`,
	} {
		for name, v := range map[string]*validate.Validator{"strict": shopValidator(), "zero-config": validate.New()} {
			_, err := v.Validate(sql)
			if err == nil || !strings.Contains(err.Error(), validate.CodeRecursion) {
				t.Errorf("%s: %s: got %v, want %s", name, sql, err, validate.CodeRecursion)
			} else if !strings.Contains(err.Error(), "depth < 100") && !strings.Contains(err.Error(), "join it on its key") && !strings.Contains(err.Error(), "narrow the range") && !strings.Contains(err.Error(), "both at now()") {
				t.Errorf("%s: %s: message %q does not say how to bound it", name, sql, err)
			}
		}
	}
}

// TestRecursionGuardAcceptsBounded: counters in their direction in every
// normal form, and walks along a table's key up and down, stay accepted.
func TestRecursionGuardAcceptsBounded(t *testing.T) {
	v := shopValidator()
	for _, sql := range []string{
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 10 UNION ALL SELECT n + -1 FROM r WHERE n > 0) SELECT n FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT 1 + n FROM r WHERE n::int < 10) SELECT n FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE -n > -10) SELECT n FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT (n) + 1 FROM r WHERE CAST(n AS bigint) <= 10) SELECT n FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n OPERATOR(pg_catalog.+) 1 FROM r WHERE n < 10) SELECT n FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n BETWEEN 0 AND 9) SELECT n FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n * 2 FROM r WHERE n < 1000) SELECT n FROM r`,
		`WITH RECURSIVE r(d) AS (SELECT DATE '2024-01-01' UNION ALL SELECT d + 1 FROM r WHERE d < DATE '2024-12-31') SELECT d FROM r`,
		`WITH RECURSIVE r(d) AS (SELECT current_date - 30 UNION ALL SELECT (d + interval '1 day')::date FROM r WHERE d < current_date) SELECT d FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r JOIN users u ON u.id = r.n WHERE r.n < (SELECT max(id) FROM users)) SELECT n FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r, (SELECT max(id) AS m FROM users) mx WHERE r.n < mx.m) SELECT n FROM r`,
		`SELECT * FROM users u, LATERAL (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < u.id) SELECT max(n) AS m FROM r) x`,
		// walks along a key: down (orders of a user), up (a user of an order)
		`WITH RECURSIVE tree AS (SELECT id, 0 AS depth FROM users WHERE id = 1 UNION ALL SELECT o.id, t.depth + 1 FROM orders o JOIN tree t ON o.user_id = t.id) SELECT 1`,
		`WITH RECURSIVE chain AS (SELECT * FROM orders WHERE id = 7 UNION ALL SELECT o.* FROM orders o JOIN chain c ON o.user_id = c.id) SELECT id FROM chain`,
		`WITH RECURSIVE chain AS (SELECT o.* FROM orders o WHERE o.id = 7 UNION ALL SELECT p.* FROM chain c JOIN public.orders p ON p.id = c.user_id) SELECT id FROM chain`,
		`WITH RECURSIVE up(id, parent) AS (SELECT id, user_id FROM orders WHERE id = 7 UNION ALL SELECT o.id, o.user_id FROM up JOIN orders o ON o.id = up.parent) SELECT id FROM up`,
		`WITH RECURSIVE "Up"("Id", "P") AS (SELECT id, user_id FROM orders WHERE id = 7 UNION ALL SELECT o.id, o.user_id FROM "Up" JOIN public.orders o ON o.id = "Up"."P"::int) SELECT "Id" FROM "Up"`,
	} {
		mustValidate(t, v, sql)
	}
}
