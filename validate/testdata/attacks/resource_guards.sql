-- Resource bombs past the guards (issue 12): string-building calls whose
-- result size is not bounded by constants within the limit (format widths,
-- nested repeat/lpad/rpad) are V022; accumulating aggregates over a
-- cartesian product, and cross joins of more than 3 unconnected groups
-- hidden as LATERAL chains or behind conditions that connect nothing
-- (<>, ON true, OR true, 1 = 1) are V023; recursive CTEs whose only "bound"
-- is always true are V020.
--
-- The V022 cases are never sent to a server, not even to EXPLAIN: the
-- planner folds immutable calls with constant arguments (repeat, lpad, rpad),
-- so EXPLAIN SELECT repeat(repeat('x', 10000), 100000) builds the string.
-- The joins and recursive CTEs are only planned (nothing is folded).

-- expect: V022
SELECT format('%900000000s', 'x')

-- expect: V022
SELECT format('%-900000000s', 'x')

-- expect: V022
-- a positional argument with a width
SELECT format('%1$900000000s', 'x')

-- expect: V022
-- the width is the next argument
SELECT format('%*s', 900000000, 'x')

-- expect: V022
-- the width comes from the data
SELECT format('%*s', id, 'x') FROM users

-- expect: V022
SELECT format('%1$*2$s', 'x', 900000000)

-- expect: V022
SELECT format('%-*s', (SELECT max(id) * 10000000 FROM users), 'x')

-- expect: V022
SELECT format('%1$-900000000s|%1$s', 'x')

-- expect: V022
SELECT format(E'%900000000s', 'x')

-- expect: V022
SELECT format($$%900000000s$$, 'x')

-- expect: V022
SELECT format($fmt$%900000000s$fmt$, 'x')

-- expect: V022
-- U&'...\0030' is the digit 0: the format is %90000000s
SELECT format(U&'%9000000\0030s', 'x')

-- expect: V022
SELECT pg_catalog.format('%900000000L', 'x')

-- expect: V022
SELECT format('%900000000I', 'x')

-- expect: V022
SELECT "format"('%2000000000s', 'x')

-- expect: V022
SELECT FORMAT('%900000000S', 'x')

-- expect: V022
-- a format string built at run time
SELECT format('%' || '900000000' || 's', 'x')

-- expect: V022
SELECT format('%s %900000000s', 'a', 'b')

-- expect: V022
-- %% is a literal percent sign; the width belongs to the next spec
SELECT format('%%%900000000s', 'x')

-- expect: V022
SELECT length(format('%900000000s', 'x')) FROM users

-- expect: V022
SELECT id FROM users WHERE name = format('%900000000s', 'x')

-- expect: V022
WITH f AS (SELECT format('%900000000s', name) AS s FROM users) SELECT length(s) FROM f

-- expect: V022
SELECT repeat(repeat('x', 10000), 100000)

-- expect: V022
SELECT repeat(lpad('x', 100000), 1000)

-- expect: V022
SELECT lpad('x', 1000000000)

-- expect: V022
SELECT "lpad"('x', 1000000000)

-- expect: V022
SELECT PG_CATALOG.RPAD('', 2147483647)

-- expect: V022
SELECT repeat(rpad('x', 100000, 'y'), 100000)

-- expect: V022
-- each level within the limit, the product a million
SELECT repeat(repeat(repeat('x', 100), 100), 100)

-- expect: V022
SELECT repeat(repeat('ab', 1000), 1000)

-- expect: V022
SELECT repeat(format('%100000s', 'x'), 100000)

-- expect: V022
-- through concat
SELECT repeat(concat(repeat('x', 100000), 'y'), 1000)

-- expect: V022
-- through ||
SELECT repeat(repeat('x', 50000) || repeat('y', 50000), 1000)

-- expect: V022
SELECT lpad(repeat('x', 100000), 100000, repeat('y', 100000)) || repeat(repeat('z', 1000), 1000)

-- expect: V022
SELECT repeat(repeat('x', 10000::int), 100000::int)

-- expect: V022
SELECT string_agg(repeat(repeat('x', 1000), 1000), '') FROM users

-- expect: V022
WITH b AS (SELECT repeat(repeat('x', 10000), 100000) AS s) SELECT length(s) FROM b

-- expect: V022
SELECT id FROM users WHERE length(repeat(repeat('x', 10000), 100000)) > 0

-- expect: V022
SELECT (SELECT repeat(repeat('x', 10000), 100000))

-- expect: V022
SELECT id FROM users ORDER BY repeat(name, 100000) || repeat(repeat('x', 1000), 1000)

-- expect: V022
SELECT json_build_object('s', repeat(repeat('x', 10000), 100000))

-- expect: V022
SELECT 1 UNION ALL SELECT length(rpad(repeat('x', 100000), 100000) || repeat(lpad('y', 100000), 100000))

-- expect: V023
-- server: plan
SELECT array_agg(a.id) FROM users a, orders b

-- expect: V023
-- server: plan
SELECT string_agg(a.name, ',') FROM users a CROSS JOIN products b

-- expect: V023
-- server: plan
SELECT json_agg(o) FROM orders o, orders o2

-- expect: V023
-- server: plan
SELECT jsonb_agg(u) FROM users u JOIN orders o ON true

-- expect: V023
-- server: plan
SELECT string_agg(repeat('x', 100000), '') FROM users a, orders b

-- expect: V023
-- server: plan
SELECT array_agg(o.id) FROM orders o JOIN orders p ON o.id <> p.id

-- expect: V023
-- server: plan
SELECT json_object_agg(a.id || '-' || b.id, a.name) FROM users a, users b

-- expect: V023
-- server: plan 16
SELECT JSON_ARRAYAGG(a.name) FROM users a, orders b

-- expect: V014
-- server: plan
-- an aggregate by functional notation: array_agg(a.name)
SELECT (a.name).array_agg FROM users a, orders b

-- expect: V023
-- server: plan
SELECT array_agg(a.id) FILTER (WHERE true) FROM users a, orders b

-- expect: V023
-- server: plan
-- every row of the product carries the whole aggregate
SELECT string_agg(a.name, ',') OVER () FROM users a, orders b

-- expect: V023
-- server: plan
SELECT count(*), array_agg(b.id) FROM users a JOIN orders b ON a.id = b.user_id OR true

-- expect: V023
-- server: plan
SELECT string_agg(x.name, '') FROM (SELECT a.name FROM users a, orders b) x

-- expect: V023
-- server: plan
WITH c AS (SELECT a.name FROM users a, orders b) SELECT string_agg(name, '') FROM c

-- expect: V023
-- server: plan
SELECT array_agg(b.id) FROM users a, LATERAL (SELECT id FROM orders) b

-- expect: V023
-- server: plan
SELECT jsonb_agg(p) FROM products p, generate_series(1, 100000) g

-- expect: V023
-- server: plan
SELECT array_agg(ARRAY[a.id, b.id]) FROM users a JOIN users b ON 1 = 1

-- expect: V023
-- server: plan
-- a condition on one side only connects nothing
SELECT string_agg(a.email, ',') FROM users a JOIN users b ON a.id = a.id

-- expect: V023
-- server: plan
SELECT array_agg(a.id) FROM users a, orders b WHERE random() >= 0

-- expect: V023
-- server: plan
SELECT jsonb_object_agg(a.id::text || b.id, b.amount) FROM users a, orders b

-- expect: V023
-- server: plan
SELECT count(*) FROM users a, LATERAL (SELECT * FROM orders) b, LATERAL (SELECT * FROM products) c, LATERAL (SELECT * FROM users) d

-- expect: V023
-- server: plan
SELECT count(*) FROM users a CROSS JOIN LATERAL (SELECT id FROM orders) b CROSS JOIN LATERAL (SELECT id FROM products) c CROSS JOIN LATERAL (SELECT id FROM users) d

-- expect: V023
-- server: plan
SELECT count(*) FROM users a JOIN LATERAL (SELECT * FROM orders) b ON true JOIN LATERAL (SELECT * FROM products) c ON true JOIN LATERAL (SELECT * FROM users) d ON true

-- expect: V023
-- server: plan
SELECT count(*) FROM users a JOIN users b ON a.id <> b.id JOIN users c ON b.id <> c.id JOIN users d ON c.id <> d.id

-- expect: V023
-- server: plan
SELECT count(*) FROM users a JOIN orders b ON a.id = b.user_id OR true JOIN products c ON c.id = b.id OR true JOIN users d ON d.id = a.id OR true

-- expect: V023
-- server: plan
SELECT count(*) FROM users a JOIN orders b ON 1 = 1 JOIN products c ON 1 = 1 JOIN users d ON 1 = 1

-- expect: V023
-- server: plan
SELECT count(*) FROM users a, users b, users c, users d WHERE a.id <> b.id AND b.id <> c.id AND c.id <> d.id

-- expect: V023
-- server: plan
SELECT count(*) FROM users a, orders b, products c, users d WHERE (a.id = b.user_id OR true) AND (b.id = c.id OR true) AND (c.id = d.id OR true)

-- expect: V023
-- server: plan
SELECT count(*) FROM users a JOIN users b ON a.id = a.id JOIN users c ON b.id = b.id JOIN users d ON c.id = c.id

-- expect: V023
-- server: plan
SELECT count(*) FROM users a JOIN orders b ON true OR a.id = b.user_id JOIN products c ON true OR b.id = c.id JOIN users d ON true OR c.id = d.id

-- expect: V023
-- server: plan
SELECT count(*) FROM users a JOIN orders b ON 'x' = 'x' JOIN products c ON NULL IS NULL JOIN users d ON true

-- expect: V023
-- server: plan
SELECT (SELECT count(*) FROM users a, LATERAL (SELECT * FROM orders) b, LATERAL (SELECT * FROM products) c, LATERAL (SELECT * FROM users) d)

-- expect: V023
-- server: plan
SELECT id FROM users WHERE EXISTS (SELECT 1 FROM orders a JOIN orders b ON a.id <> b.id JOIN orders c ON b.id <> c.id JOIN orders d ON c.id <> d.id)

-- expect: V023
-- server: plan
WITH x AS (SELECT 1 FROM users a JOIN orders b ON true JOIN products c ON a.id = c.id OR true JOIN users d ON 1 = 1) SELECT count(*) FROM x

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE true) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE random() >= 0) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE 1 = 1) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n = n) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10 OR true) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r JOIN users u ON true) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE NOT false) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE 'a' = 'a') SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE true AND n = n) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n * 2 FROM r WHERE n::text = n::text) SELECT max(n) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r, users u WHERE u.id = u.id) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(s) AS (SELECT 'x' UNION ALL SELECT s || s FROM r WHERE random() < 2) SELECT length(s) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE now() IS NOT NULL) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE EXISTS (SELECT 1)) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT n + 1 FROM r WHERE 1 = 1) SELECT n FROM r ORDER BY n

-- expect: V020
-- server: plan
SELECT (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE true) SELECT count(*) FROM r)

-- expect: V020
-- server: plan
SELECT * FROM users u WHERE EXISTS (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n = n) SELECT 1 FROM r WHERE n = -1)

-- expect: V020
-- server: plan
SELECT * FROM users u, LATERAL (WITH RECURSIVE r(n) AS (SELECT u.id UNION ALL SELECT n + 1 FROM r WHERE 1 = 1) SELECT max(n) FROM r) m

-- expect: V020
-- server: plan
SELECT * FROM (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n > 0 OR true) SELECT sum(n) FROM r) s

-- expect: V020
-- server: plan
WITH RECURSIVE a(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM a WHERE random() >= 0), b AS (SELECT count(*) FROM a) SELECT * FROM b

-- expect: V020
-- server: plan
-- the bound is on a column that never changes
WITH RECURSIVE r(n, m) AS (SELECT 1, 1 UNION ALL SELECT n + 1, m FROM r WHERE m < 10) SELECT count(*) FROM r

-- expect: V020
-- server: plan
-- the join condition does not involve r: each step multiplies the rows by 9
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r JOIN users u ON u.id < 10) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n IS NOT NULL) SELECT count(*) FROM r

-- expect: V020
-- server: plan
-- n starts at 1 and grows: n <> 0 never stops it
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n <> 0) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < n + 1) SELECT count(*) FROM r

-- expect: V023
-- server: plan
SELECT string_agg(DISTINCT a::text || b, ',') FROM generate_series(1, 100000) a CROSS JOIN generate_series(1, 100000) b

-- Amplifiers beyond repeat/lpad/rpad: a 100,000-character string inserted
-- 100,000 times is 10^10 characters.

-- expect: V022
SELECT replace(repeat('x', 100000), 'x', repeat('y', 100000))

-- expect: V022
SELECT regexp_replace(repeat('x', 100000), 'x', repeat('y', 100000), 'g')

-- expect: V022
-- string_to_array(s, NULL) splits into characters: 100,000 elements joined by a 100,000-character delimiter
SELECT array_to_string(string_to_array(repeat('x', 100000), NULL), repeat('y', 100000))

-- expect: V022
SELECT array_to_string(array_agg(g), repeat('x', 100000)) FROM generate_series(1, 100000) g

-- expect: V022
SELECT string_agg(g::text, repeat('x', 100000)) FROM generate_series(1, 100000) g

-- expect: V022
SELECT concat_ws(repeat('x', 100000), VARIADIC ARRAY(SELECT g::text FROM generate_series(1, 100000) g))

-- expect: V022
-- an accumulating aggregate of 100,000-character strings over 100,000 rows
SELECT string_agg(repeat('x', 100000), '') FROM generate_series(1, 100000)

-- expect: V022
SELECT length(array_agg(rpad('x', 100000))::text) FROM generate_series(1, 100000)

-- Guards that prove a bound or refuse (issue 25). Recursion: a step that
-- is not strictly monotone after normalising arithmetic and casts, a
-- comparison against the step's direction, "key joins" that never move or
-- multiply rows, the self-reference hidden in a subquery (V020).

-- expect: V020
-- server: plan
-- n + -1 moves down: n < 10 never ends it
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + -1 FROM r WHERE n < 10) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE "R"("N") AS (SELECT 1 UNION ALL SELECT "N" OPERATOR(pg_catalog.+) (-1) FROM "R" WHERE "N" < 10) SELECT count(*) FROM "R"

-- expect: V020
-- server: plan
-- abs breaks monotony: 1, 0, 1, 0, ...
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT pg_catalog.abs(n) - 1 FROM r WHERE n < 10) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n - 1 FROM r WHERE n::int < 10) SELECT count(*) FROM r

-- expect: V020
-- server: plan
-- -n < 10 is n > -10: against n + 1
WITH RECURSIVE U&"\0072"(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE -n < 10) SELECT count(*) FROM r

-- expect: V020
-- server: plan
-- 0.4::int is 0: the step rounds to nothing
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 0.4::int FROM r WHERE n < 10) SELECT count(*) FROM r

-- expect: V020
-- server: plan
-- n * 2 from 0 stays 0
WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n * 2 FROM r WHERE n < 10) SELECT count(*) FROM r

-- expect: V020
-- server: plan
-- a bound in a LEFT JOIN's ON filters no row of r
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r LEFT JOIN users u ON r.n < 10) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n FROM r JOIN (VALUES (1)) v(k) ON v.k = r.n) SELECT count(*) FROM r

-- expect: V020
-- server: plan
-- a LATERAL copy of the column
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n FROM r, LATERAL (SELECT r.n AS k) x WHERE x.k = r.n) SELECT count(*) FROM r

-- expect: V020
-- server: plan
-- a carried key: u.id = r.n on the primary key, but n never moves
WITH RECURSIVE r(n, d) AS (SELECT 1, 0 UNION ALL SELECT r.n, r.d FROM r JOIN users u ON u.id = r.n) SELECT count(*) FROM r

-- expect: V020
-- server: plan
-- the next n is the key it was joined on
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT o.user_id FROM r JOIN orders o ON o.user_id = r.n) SELECT count(*) FROM r

-- expect: V020
-- server: plan
-- a non-unique join multiplies the rows at each step under a depth bound
WITH RECURSIVE r(n, d) AS (SELECT 1, 0 UNION ALL SELECT r.n, r.d + 1 FROM r JOIN orders o ON o.user_id = r.n WHERE r.d < 40) SELECT count(*) FROM r

-- expect: V020
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r, pg_catalog.generate_series(1, 3) WHERE r.n < 40) SELECT count(*) FROM r

-- expect: V020
-- server: plan
-- the self-reference inside a subquery in FROM
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM (SELECT * FROM r) x) SELECT count(*) FROM r

-- expect: V020
-- server: plan
SELECT * FROM users u WHERE u.id IN (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + -1 FROM r WHERE n < 10) SELECT n FROM r)

-- expect: V020
-- server: plan
SELECT * FROM users u, LATERAL (WITH RECURSIVE r(n) AS (SELECT u.id UNION ALL SELECT n - 1 FROM r WHERE n::int < u.id + 10) SELECT max(n) FROM r) m

-- generate_series sizes in rows without overflow (V021): 2000 years in
-- steps of 2 seconds overflowed time.Duration and counted one row.

-- expect: V021
-- server: plan
SELECT count(*) FROM generate_series(now() - interval '1000 years', now() + interval '1000 years', interval '2 seconds')

-- expect: V021
-- server: plan
SELECT count(*) FROM pg_catalog.generate_series(pg_catalog.now() - '1000 years'::interval, pg_catalog.now() + '1000 years'::interval, '2 seconds'::interval)

-- expect: V021
-- server: plan
SELECT count(*) FROM U&"\0067enerate_series"(NOW() - INTERVAL '1000 YEARS', NOW() + INTERVAL '1000 YEARS', INTERVAL '2 SECONDS')

-- expect: V021
-- server: plan
SELECT count(*) FROM generate_series(current_date - 100000, current_date, interval '1 day')

-- expect: V021
-- server: plan
SELECT count(*) FROM generate_series('2020-01-01'::date, 1000000 + '2020-01-01'::date, '1 day')

-- expect: V021
-- server: plan
WITH s AS (SELECT generate_series((SELECT min(created_at) FROM orders) - interval '1000 years', (SELECT max(created_at) FROM orders), interval '1 day') AS d) SELECT count(*) FROM s

-- Aggregated values are as long as their rows (V022, never planned:
-- repeat folds), and accumulating aggregates over a non-equi join are a
-- product (V023).

-- expect: V023
-- server: plan
SELECT string_agg(a.email, ',') FROM users a JOIN users b ON a.id <= b.id

-- expect: V023
-- server: plan
SELECT STRING_AGG("A"."email", ',') FROM "users" "A", "users" "B" WHERE "B"."id" >= "A"."id"

-- expect: V023
-- server: plan
WITH s AS (SELECT pg_catalog.jsonb_agg(a) AS v FROM users a JOIN users b ON a.id BETWEEN b.id AND b.id + 100000) SELECT length(v::text) FROM s

-- expect: V022
SELECT array_agg(email) OVER () FROM users

-- expect: V022
SELECT U&"\0073tring_agg"(email, ',') OVER (ORDER BY id) FROM users

-- expect: V022
SELECT (SELECT max(length(x::text)) FROM (SELECT jsonb_agg(email) OVER (PARTITION BY name) AS x FROM users) s)

-- expect: V022
-- two aggregates each within the per-value guard, over it together
SELECT string_agg(repeat(email, 600), ','), string_agg(repeat(name, 600), ',') FROM users
