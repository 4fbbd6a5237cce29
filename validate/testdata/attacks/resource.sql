-- expect: V020
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT * FROM r

-- expect: V020
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r

-- expect: V020
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n * 2 FROM r) SELECT max(n) FROM r

-- expect: V020
WITH RECURSIVE r AS (SELECT id FROM users UNION ALL SELECT r.id FROM r, users) SELECT * FROM r

-- expect: V020
WITH RECURSIVE r(s) AS (VALUES ('x') UNION ALL SELECT s || s FROM r) SELECT length(s) FROM r

-- expect: V020
SELECT * FROM (WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT n FROM t) s

-- expect: V020
WITH RECURSIVE a(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM a), b AS (SELECT * FROM a) SELECT * FROM b

-- expect: V020
WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT n + 1 FROM r) SELECT n FROM r ORDER BY n

-- expect: V021
SELECT * FROM generate_series(1, 1000000000)

-- expect: V021
SELECT generate_series(1, 100000000000)

-- expect: V021
SELECT count(*) FROM generate_series(1, 1000000) a

-- expect: V021
SELECT * FROM generate_series(-1000000, 1000000, 1)

-- expect: V021
SELECT * FROM generate_series(1, (SELECT max(id) FROM users))

-- expect: V021
SELECT * FROM users u, generate_series(1, u.id * 1000000)

-- expect: V021
SELECT * FROM generate_series(1, 10, 0)

-- expect: V021
SELECT * FROM generate_series('2000-01-01'::timestamp, '2100-01-01'::timestamp, interval '1 second')

-- expect: V021
SELECT * FROM generate_series(now() - interval '100 years', now(), interval '1 minute')

-- expect: V021
SELECT * FROM generate_series(current_date - 100000, current_date, '1 hour')

-- expect: V021
SELECT * FROM generate_series((SELECT min(created_at) FROM orders), now(), interval '1 second')

-- expect: V021
SELECT pg_catalog.generate_series(1, 99999999)

-- expect: V021
WITH g AS (SELECT generate_series(1, 50000000) AS n) SELECT count(*) FROM g

-- expect: V021
SELECT * FROM users WHERE id IN (SELECT generate_series(1, 2147483647))

-- expect: V021
SELECT * FROM generate_series(1.0, 1e9, 1.0)

-- expect: V021
SELECT * FROM generate_series(1, 1000000::bigint)

-- expect: V022
SELECT repeat('x', 1000000000)

-- expect: V022
SELECT repeat('abc', 2147483647)

-- expect: V022
SELECT length(repeat(name, 100000000)) FROM users

-- expect: V022
SELECT repeat('x', (SELECT count(*)::int FROM orders))

-- expect: V022
SELECT repeat('x', id) FROM users

-- expect: V022
SELECT lpad('x', 500000000)

-- expect: V022
SELECT rpad(name, 1000000000, 'y') FROM users

-- expect: V022
SELECT pg_catalog.repeat('x', 999999999)

-- expect: V022
SELECT string_agg(repeat('x', 10000000), '') FROM users

-- expect: V023
SELECT count(*) FROM users a, users b, users c, users d

-- expect: V023
SELECT * FROM users CROSS JOIN orders CROSS JOIN products CROSS JOIN users u2

-- expect: V023
SELECT count(*) FROM orders o1, orders o2, orders o3, orders o4, orders o5

-- expect: V023
SELECT 1 FROM users u, orders o, products p, orders o2 WHERE u.id = 1 AND o.amount > 5

-- expect: V023
SELECT * FROM (SELECT * FROM users) a, (SELECT * FROM users) b, (SELECT * FROM orders) c, (SELECT * FROM products) d

-- expect: V023
WITH x AS (SELECT 1 FROM users a, users b, users c, users d) SELECT * FROM x

-- expect: V023
SELECT * FROM users u JOIN orders o ON o.user_id = u.id, products p1, products p2, products p3

-- expect: V023
SELECT count(*) FROM orders o1 JOIN orders o2 ON true JOIN orders o3 ON true JOIN orders o4 ON true

-- expect: V023
SELECT count(*) FROM users a JOIN users b ON a.id > 0 JOIN users c ON c.id = 1 CROSS JOIN users d

-- expect: V023
SELECT count(*) FROM (SELECT a.id FROM users a, users b, users c) x, users d

-- expect: V023
WITH p AS (SELECT a.id FROM users a, orders b) SELECT count(*) FROM p, p AS q

-- expect: V023
SELECT count(*) FROM (SELECT 1 FROM users a, orders b) x, (SELECT 1 FROM products c, products d) y

-- expect: V021
SELECT * FROM generate_series(now(), 'infinity'::timestamptz, interval '1 day')

-- expect: V021
SELECT * FROM generate_series((SELECT min(created_at) FROM orders), 'infinity', interval '1 month')

-- expect: V021
SELECT * FROM generate_series(1, 'NaN'::numeric)

-- expect: V021
SELECT * FROM generate_series(1, 'Infinity'::float8)

-- expect: V022
SELECT repeat('x', 'NaN'::float8::int)
