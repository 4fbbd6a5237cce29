-- Values built within the size limit and built on again elsewhere in the
-- query (the red-team pass of session 8): through a CTE or subquery column,
-- a scalar subquery, a recursive CTE that doubles a value at each step, or
-- ARRAY(subquery), which keeps every row like array_agg (V022; over a
-- product V023). Functional notation in JSON_TABLE column defaults calls
-- the function (V010). Every spelling: quoted, upper case, unicode
-- escapes, schema-qualified calls, nesting. Here so that every entry point
-- (Check, Run, Repair, Pick, Ask, the executor) refuses them too
-- (TestEntryPointsAgreeOnAttacks).

-- expect: V022
WITH a AS (SELECT repeat('x', 100000) AS s) SELECT length(repeat(s, 1000)) FROM a

-- expect: V022
WITH "A" AS (SELECT REPEAT('x', 100000) AS "S") SELECT LENGTH(REPEAT("A"."S", 1000)) FROM "A"

-- expect: V022
WITH a AS (SELECT pg_catalog.repeat('x', 100000) AS s) SELECT length(pg_catalog.repeat(a.s, 1000)) FROM a

-- expect: V022
WITH a AS (SELECT repeat('x', 100000) AS s) SELECT length(repeat(U&"\0073", 1000)) FROM a

-- expect: V022
WITH a(s) AS (SELECT repeat('x', 100000)), b AS (SELECT * FROM a) SELECT length(repeat(s, 1000)) FROM b

-- expect: V022
SELECT length(repeat(a.x, 1000)) FROM (SELECT repeat('x', 100000) s) a(x)

-- expect: V022
SELECT length(repeat(q.s, 1000)) FROM users u, LATERAL (SELECT repeat(u.name, 100000) AS s) q

-- expect: V022
SELECT length(repeat((SELECT repeat(name, 10000) FROM users LIMIT 1), 10000))

-- expect: V022
SELECT id FROM users WHERE id IN (SELECT length(repeat((SELECT max(x) FROM (SELECT repeat('y', 100000) x) z), 1000)))

-- expect: V022
WITH a AS (SELECT repeat('x', 100000) s), b AS (SELECT s||s||s||s||s||s||s||s||s||s s FROM a), c AS (SELECT s||s||s||s||s||s||s||s||s||s s FROM b) SELECT length(s) FROM c

-- expect: V022
WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, s || s FROM r WHERE n < 29) SELECT max(length(s)) FROM r

-- expect: V022
WITH RECURSIVE "R"(n, "S") AS (SELECT 1, 'x' UNION ALL SELECT n + 1, CONCAT("S", "S") FROM "R" WHERE n < 29) SELECT max(length("S")) FROM "R"

-- expect: V022
WITH RECURSIVE r AS (SELECT 1 AS n, 'x' AS s UNION ALL SELECT q.n + 1, q.s || q.s FROM r AS q WHERE q.n < 29) SELECT max(length(s)) FROM r

-- expect: V022
WITH RECURSIVE r(n, a) AS (SELECT 1, ARRAY[1] UNION ALL SELECT n + 1, pg_catalog.array_cat(a, a) FROM r WHERE n < 29) SELECT max(cardinality(a)) FROM r

-- expect: V022
SELECT length(array_to_string(ARRAY(SELECT repeat('x', 10000) FROM generate_series(1, 10000)), ''))

-- expect: V023
SELECT cardinality(ARRAY(SELECT a.id FROM users a, orders b))

-- expect: V023
SELECT id FROM users WHERE id = ANY (ARRAY(SELECT a.id FROM orders a JOIN orders b ON true))

-- expect: V010
SELECT * FROM JSON_TABLE('{}'::jsonb, '$' COLUMNS (a text PATH '$.a' DEFAULT (1.0).pg_sleep ON ERROR)) jt

-- expect: V010
SELECT * FROM JSON_TABLE('{}'::jsonb, '$' COLUMNS (a text PATH '$.a' DEFAULT ('1 s'::interval).PG_SLEEP_FOR ON EMPTY)) jt

-- expect: V010
SELECT * FROM JSON_TABLE('{}'::jsonb, '$' COLUMNS (n FOR ORDINALITY, NESTED PATH '$.x[*]' COLUMNS (b int PATH '$' DEFAULT (1.0)."pg_sleep" ON EMPTY))) jt

-- An aggregated value (string_agg, array_agg, json_agg, ARRAY(subquery)) is
-- as long as its rows: through a scalar subquery, a CTE or a subquery
-- column it is built on again like the aggregate itself (issue 25).

-- expect: V022
-- the aggregate counted one character: 50,000 copies of a whole column
SELECT repeat((SELECT string_agg(email, ',') FROM users), 50000)

-- expect: V022
WITH a AS (SELECT pg_catalog.string_agg(email, ',') AS s FROM users) SELECT pg_catalog.repeat(s, 50000) FROM a

-- expect: V022
SELECT REPEAT("A"."S", 2) FROM (SELECT STRING_AGG("email", ',') AS "S" FROM "users") "A"

-- expect: V022
SELECT (SELECT string_agg(email, ',') FROM users) || (SELECT string_agg(email, ',') FROM users)

-- expect: V022
SELECT string_agg(s, ',') FROM (SELECT string_agg(email, ',') AS s FROM users GROUP BY name) g

-- expect: V022
SELECT U&"\0072epeat"(ARRAY(SELECT email FROM users)::text, 50000)
