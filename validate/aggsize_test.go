package validate_test

import (
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestAggregateSizesFollowValues: an aggregated value (string_agg,
// array_agg, json(b)_agg, ARRAY(subquery), JSON_ARRAYAGG) is as long as
// its rows wherever it flows: through scalar subqueries, CTE and subquery
// columns and windows into repeat, format, concatenations and other
// aggregates, and all the aggregates of one value or of one query count
// together (V022); accumulating window aggregates need a frame of constant
// ROWS (V022); accumulating aggregates over a non-equi join are a product
// (V023). Each attack in every spelling, by the configured and the
// zero-config validator.
func TestAggregateSizesFollowValues(t *testing.T) {
	cases := map[string][]string{
		validate.CodeCrossJoin: {
			`SELECT string_agg(a.email, ',') FROM users a JOIN users b ON a.id <= b.id`,
			`SELECT string_agg(a.email, ',') FROM users a JOIN users b ON b.id >= a.id`,
			`SELECT string_agg(a.email, ',') FROM users a, users b WHERE a.id < b.id`,
			`SELECT string_agg(a.email, ',') FROM users a JOIN users b ON a.id OPERATOR(pg_catalog.<=) b.id`,
			`SELECT string_agg(a.email, ',') FROM users a JOIN users b ON a.id BETWEEN b.id AND b.id + 100000`,
			`SELECT string_agg(a.email, ',') FROM users a JOIN users b ON a.id <> b.id`,
			`SELECT STRING_AGG("A"."email", ',') FROM "users" "A" JOIN "users" "B" ON "A"."id" <= "B"."id"`,
			`SELECT U&"\0073tring_agg"(a.email, ',') FROM users a JOIN users b ON a.id <= b.id`,
			`SELECT pg_catalog.array_agg(a.email) FROM public.users a JOIN public.users b ON a.id <= b.id`,
			`SELECT jsonb_agg(a) FROM users a JOIN users b ON a.id <= b.id`,
			`SELECT JSON_ARRAYAGG(a.email) FROM users a JOIN users b ON a.id <= b.id`,
			`SELECT array_agg(a.email) OVER () FROM users a JOIN users b ON a.id <= b.id`,
			`SELECT cardinality(ARRAY(SELECT a.email FROM users a JOIN users b ON a.id <= b.id))`,
			// equalities that join nothing
			`SELECT string_agg(a.email, ',') FROM users a JOIN users b ON (a.id = a.id AND a.id <= b.id) OR (a.id = a.id AND a.id <= b.id)`,
			`SELECT string_agg(a.email, ',') FROM users a JOIN users b ON a.id = b.id * 0 + 1`,
			`SELECT string_agg(a.email, ',') FROM users a JOIN users b ON a.id = a.id + 0 * b.id`,
			`WITH s AS (SELECT string_agg(a.email, ',') AS v FROM users a JOIN users b ON a.id <= b.id) SELECT length(v) FROM s`,
			`SELECT (SELECT string_agg(a.email, ',') FROM users a JOIN users b ON a.id <= b.id)`,
			`SELECT * FROM (VALUES (1)) v(x), LATERAL (SELECT string_agg(a.email, ',') FROM users a JOIN users b ON a.id <= b.id + v.x) s`,
		},
		validate.CodeStringBomb: {
			// window aggregates over unbounded frames
			`SELECT array_agg(email) OVER () FROM users`,
			`SELECT string_agg(email, ',') OVER (ORDER BY id) FROM users`,
			`SELECT jsonb_agg(u) OVER (PARTITION BY name) FROM users u`,
			`SELECT json_agg(email) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM users`,
			`SELECT array_agg(email) OVER (ORDER BY id ROWS BETWEEN 1000000 PRECEDING AND CURRENT ROW) FROM users`,
			`SELECT array_agg(email) OVER (ORDER BY id RANGE BETWEEN 10 PRECEDING AND CURRENT ROW) FROM users`,
			`SELECT array_agg(email) OVER w FROM users WINDOW w AS (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)`,
			`SELECT pg_catalog.array_agg(email) OVER () FROM users`,
			`SELECT U&"\0061rray_agg"(email) OVER () FROM users`,
			`WITH w AS (SELECT string_agg(email, ',') OVER () AS s FROM users) SELECT count(*) FROM w`,
			`SELECT (SELECT max(length(x::text)) FROM (SELECT jsonb_agg(email) OVER () AS x FROM users) s)`,
			`SELECT string_agg(repeat('x', 100000), '') OVER (ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM users`,
			// an aggregated value built on
			`SELECT repeat((SELECT string_agg(email, ',') FROM users), 50000)`,
			`SELECT pg_catalog.repeat((SELECT pg_catalog.string_agg(email, ',') FROM public.users), 50000)`,
			`SELECT REPEAT((SELECT STRING_AGG("email", ',') FROM "users"), 50000)`,
			`SELECT U&"\0072epeat"((SELECT string_agg(email, ',') FROM users), 50000)`,
			`WITH a AS (SELECT string_agg(email, ',') AS s FROM users) SELECT repeat(s, 50000) FROM a`,
			`SELECT repeat(a.s, 2) FROM (SELECT string_agg(email, ',') AS s FROM users) a`,
			`SELECT repeat(array_agg(email)::text, 2) FROM users`,
			`SELECT (SELECT string_agg(email, ',') FROM users) || (SELECT string_agg(email, ',') FROM users)`,
			`SELECT concat(string_agg(email, ','), string_agg(name, ',')) FROM users`,
			`SELECT format('%s%s', string_agg(email, ','), string_agg(email, ',')) FROM users`,
			`SELECT replace(string_agg(email, ','), ',', repeat(',', 10)) FROM users`,
			`SELECT repeat((SELECT JSON_ARRAYAGG(email) FROM users)::text, 50000)`,
			`SELECT repeat(ARRAY(SELECT email FROM users)::text, 50000)`,
			`SELECT repeat(string_agg(email, ',') OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), 50000) FROM users`,
			`SELECT * FROM (VALUES ((SELECT repeat(string_agg(email, ','), 3) FROM users))) v(s)`,
			`SELECT * FROM users u, LATERAL (SELECT repeat(string_agg(o.status, ','), 100) AS s FROM orders o WHERE o.user_id = u.id) x`,
			// aggregates of aggregated values
			`SELECT string_agg(s, ',') FROM (SELECT string_agg(email, ',') AS s FROM users GROUP BY name) g`,
			`SELECT array_agg(ARRAY(SELECT email FROM users)) FROM users`,
			`WITH g AS (SELECT array_agg(email) AS a FROM users GROUP BY name) SELECT jsonb_agg(a) FROM g`,
			`SELECT JSON_ARRAYAGG(repeat(email, 5000)) FROM users`,
			`SELECT JSON_OBJECTAGG(email : repeat(name, 5000)) FROM users`,
			`SELECT JSON_ARRAYAGG(email) OVER () FROM users`,
			// several aggregates each within its guard, together over it
			`SELECT JSON_ARRAYAGG(repeat(name, 600)), JSON_ARRAYAGG(repeat(email, 600)) FROM users`,
			// eleven copies of the data in one query's memory
			`SELECT ` + strings.Repeat(`string_agg(email, ','), `, 10) + `string_agg(email, ',') FROM users`,
			`SELECT ` + strings.Repeat(`(SELECT array_agg(email) FROM users), `, 5) + strings.Repeat(`ARRAY(SELECT email FROM users), `, 5) + `(SELECT jsonb_agg(email) FROM users)`,
			`SELECT string_agg(repeat(email, 600), ','), string_agg(repeat(name, 600), ',') FROM users`,
			`SELECT string_agg(lpad(email, 400), ''), array_agg(lpad(name, 400)), jsonb_agg(rpad(email, 400)) FROM users`,
			`SELECT (SELECT string_agg(lpad(email, 600), '') FROM users), (SELECT string_agg(lpad(name, 600), '') FROM users)`,
			`WITH a AS (SELECT string_agg(lpad(email, 600), '') AS s FROM users), b AS (SELECT string_agg(lpad(name, 600), '') AS t FROM users) SELECT length(s), length(t) FROM a, b`,
		},
	}
	for code, sqls := range cases {
		for _, sql := range sqls {
			for name, v := range map[string]*validate.Validator{"strict": shopValidator(), "zero-config": validate.New()} {
				_, err := v.Validate(sql)
				if err == nil || !strings.Contains(err.Error(), code) {
					t.Errorf("%s: %s: got %v, want %s", name, sql, err, code)
				}
			}
		}
	}
	v := shopValidator()
	for _, sql := range []string{
		`SELECT string_agg(name, ', ' ORDER BY name), string_agg(email, ', ') FROM users`,
		`SELECT ` + strings.Repeat(`string_agg(email, ','), `, 9) + `string_agg(email, ',') FROM users`,
		`SELECT 'Names: ' || string_agg(name, ', ') FROM users`,
		`SELECT md5(string_agg(name, ',')) FROM users`,
		`SELECT array_to_string(array_agg(name), ', ') FROM users`,
		`SELECT length(string_agg(name, ',')) FROM users`,
		`SELECT lpad(string_agg(name, ','), 20) FROM users`,
		`SELECT string_agg(lpad(u.name, 12), ', ' ORDER BY u.name) FROM users u`,
		`SELECT u.id, string_agg(o.status, ',') FROM users u JOIN orders o ON o.user_id = u.id GROUP BY u.id`,
		`SELECT u.id, array_agg(o.id) FROM users u JOIN orders o USING (id) GROUP BY u.id`,
		`WITH a AS (SELECT user_id, array_agg(id) AS ids FROM orders GROUP BY user_id) SELECT u.name, a.ids FROM users u JOIN a ON a.user_id = u.id`,
		`SELECT (SELECT string_agg(name, ',') FROM users) AS names, (SELECT string_agg(status, ',') FROM orders) AS statuses`,
		`SELECT array_agg(email) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM users`,
		`SELECT string_agg(email, ',') OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 3 FOLLOWING) FROM users`,
		`SELECT sum(a.amount) FROM orders a JOIN orders b ON a.id <= b.id`,
	} {
		mustValidate(t, v, sql)
	}
}
