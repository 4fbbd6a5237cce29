-- Work that does not stop (issue 25, the red team's attack 7): array &&,
-- @>, <@, jsonb @>, <@, ?|, ?& and numeric %, ^, *, / (mod, power, div,
-- factorial, gcd, lcm) run to the end of one call without checking for
-- interrupts; on a value the query collects or builds (an accumulating
-- aggregate, ARRAY(subquery), a long built value, a power of a large
-- exponent) the backend ran on for minutes past its statement timeout
-- (V028). Every spelling: quoted, upper case, unicode escapes,
-- OPERATOR(pg_catalog.x), pg_catalog-qualified calls, CTE and subquery
-- columns, VALUES, sublinks, LATERAL, window frames. Here so that every
-- entry point refuses them (TestEntryPointsAgreeOnAttacks).

-- expect: V028
SELECT (SELECT array_agg(id) FROM orders) && (SELECT array_agg(user_id) FROM orders)

-- expect: V028
SELECT ARRAY_AGG(id) OPERATOR(pg_catalog.&&) ARRAY_AGG(user_id) FROM orders

-- expect: V028
SELECT "array_agg"(id) @> U&"array_agg"(user_id) FROM orders

-- expect: V028
SELECT pg_catalog.array_agg(id) <@ pg_catalog.array_agg(user_id) FROM orders

-- expect: V028
SELECT ARRAY(SELECT id FROM orders) && ARRAY(SELECT user_id FROM orders)

-- expect: V028
WITH x AS (SELECT array_agg(id) AS arr FROM orders) SELECT arr && arr FROM x

-- expect: V028
WITH x(v) AS (SELECT array_agg(id) FROM orders) SELECT 1 FROM x WHERE v <@ v

-- expect: V028
SELECT 1 FROM (SELECT array_agg(id) AS arr FROM orders) s, LATERAL (SELECT s.arr && s.arr AS o) l

-- expect: V028
SELECT v.i FROM (VALUES (1)) v(i) WHERE (SELECT array_agg(id) FROM orders) && (SELECT array_agg(user_id) FROM users)

-- expect: V028
SELECT id FROM users WHERE ARRAY[id] && ANY (SELECT array_agg(user_id) FROM orders)

-- expect: V028
SELECT array_agg(id) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) && ARRAY[1] FROM orders

-- expect: V028
SELECT jsonb_agg(id) @> jsonb_agg(user_id) FROM orders

-- expect: V028
SELECT (SELECT JSONB_AGG(id) FROM orders) ?| ARRAY['1']

-- expect: V028
SELECT to_jsonb(array_agg(id)) <@ to_jsonb(array_agg(user_id)) FROM orders

-- expect: V028
SELECT repeat('9', 100000)::numeric % 7

-- expect: V028
SELECT CAST(repeat('9', 60000) AS numeric) % CAST(REPEAT('7', 30000) AS NUMERIC)

-- expect: V028
SELECT pg_catalog.mod(pg_catalog.repeat('9', 60000)::numeric, 7)

-- expect: V028
SELECT "mod"(repeat('9', 60000)::numeric, 7)

-- expect: V028
SELECT repeat('9', 60000)::numeric * repeat('9', 60000)::numeric

-- expect: V028
SELECT 2::numeric ^ 400000

-- expect: V028
SELECT 2::numeric OPERATOR(pg_catalog.^) 400000

-- expect: V028
SELECT U&"power"(2::numeric, 400000)

-- expect: V028
SELECT POW(2::numeric, (SELECT max(id) FROM orders))

-- expect: V028
SELECT factorial(30000)

-- expect: V028
WITH e AS (SELECT 400000 AS n) SELECT 2::numeric ^ n FROM e

-- expect: V028
SELECT (2::numeric ^ x.n) % 3 FROM (SELECT 400000 AS n) x

-- expect: V028
SELECT div(amount, 7) FROM orders WHERE (SELECT array_agg(id) FROM orders) && ARRAY[id]

-- expect: V028
-- A thousand-digit base to the 130th: 130,000 digits in one call (0.19 s);
-- a 64 KiB query holds hundreds of them.
SELECT repeat('9', 1000)::numeric ^ 130

-- expect: V028
SELECT (9::numeric ^ 1000) ^ 100

-- pg_trgm's word similarity (functions and operators) compares every
-- position of its first argument with the second without checking for
-- interrupts: word_similarity(repeat('ab', 2000), repeat('ba', 48000))
-- ran 10.4 s under a 1 s statement timeout (third red team).
-- expect: V028
SELECT word_similarity(repeat('ab', 2000), repeat('ba', 48000))

-- expect: V028
SELECT WORD_SIMILARITY(repeat('ab', 2000), repeat('ba', 48000))

-- expect: V028
SELECT U&"strict_word_simil\0061rity"(repeat('a b ', 1000), repeat('b a ', 24000))

-- expect: V028
SELECT pg_catalog.word_similarity(name, (SELECT string_agg(email, ' ') FROM users)) FROM users

-- expect: V028
SELECT repeat('ab', 2000) <% repeat('ba', 48000)

-- expect: V028
SELECT repeat('ab', 2000) OPERATOR(pg_catalog.%>) repeat('ba', 48000)

-- expect: V028
WITH w AS (SELECT repeat('ba', 48000) AS s) SELECT 'ab' <<% s, s %>> 'ab', 'ab' <<-> s, s <->> 'ab', 'ab' <<<-> s, s <->>> 'ab' FROM w

-- expect: V028
SELECT x FROM (VALUES (repeat('ab', 2000))) v(t), LATERAL (SELECT word_similarity(t, repeat('ba', 48000)) AS x) l

-- translate compares every character of its string with every one of its
-- from list without checking for interrupts: translate(repeat('a',
-- 50000), repeat('b', 50000), '') ran 15.9 s under a 1 s timeout.
-- expect: V028
SELECT translate(repeat('a', 50000), repeat('b', 50000), '')

-- expect: V028
SELECT TRANSLATE(name, repeat('b', 50000), '') FROM users

-- expect: V028
SELECT pg_catalog."translate"((SELECT string_agg(email, '') FROM users), 'abc', 'xyz')

-- expect: V028
WITH f AS (SELECT repeat('b', 50000) AS s) SELECT U&"tr\0061nslate"(repeat('a', 50000), s, '') FROM f

-- btrim, ltrim and rtrim with a list of characters compare every character
-- trimmed with the list: btrim(repeat('a', 50000), repeat('b', 49999) ||
-- 'a') ran 21 s under a 1 s timeout (TRIM(... FROM ...) is btrim).
-- expect: V028
SELECT btrim(repeat('a', 50000), repeat('b', 49999) || 'a')

-- expect: V028
SELECT length(LTRIM(repeat('a', 50000), repeat('b', 49999) || 'a')) AS n

-- expect: V028
SELECT trim(both repeat('b', 49999) || 'a' from repeat('a', 50000))

-- expect: V028
SELECT TRIM(LEADING concat(repeat('b', 49999), 'a') FROM name) FROM users

-- expect: V028
SELECT pg_catalog.rtrim(repeat('a', 50000), concat(repeat('b', 49999), 'a'))

-- expect: V028
SELECT "rtrim"(s, repeat('b', 49999) || 'a') FROM (SELECT repeat('a', 50000) AS s) x
