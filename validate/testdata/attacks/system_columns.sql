-- System columns (issue 25): xmin and xmax are ids of the transactions
-- that wrote and deleted a row version, so age(xmin) or
-- xmin::text::bigint tells how many transactions the cluster ran (what the
-- denied txid_current() would); cmin, cmax and tableoid (a catalog key)
-- are refused with them, ctid is allowed. Resolved, not matched: quoting,
-- unicode escapes, qualification, every clause and nesting. All V026.

-- expect: V026
-- server: plan
SELECT age(xmin) FROM users

-- expect: V026
-- server: plan
SELECT max(xmin::text::bigint) FROM orders

-- expect: V026
-- server: plan
SELECT xmax, cmin, cmax, tableoid FROM users

-- expect: V026
-- server: plan
SELECT "xmin" FROM users

-- expect: V026
-- server: plan
SELECT U&"\0078min" FROM users

-- expect: V026
-- server: plan
SELECT U&"!0074ableoid" UESCAPE '!' FROM users

-- expect: V026
-- server: plan
SELECT u.xmin FROM users u

-- expect: V026
-- server: plan
SELECT users.xmin FROM users

-- expect: V026
-- server: plan
SELECT public.users.xmin FROM public.users

-- expect: V026
-- server: plan
SELECT u."tableoid" FROM users AS u

-- expect: V026
-- server: plan
SELECT (u.*).xmin FROM users u

-- expect: V026
-- server: plan
SELECT 1 FROM users WHERE xmin::text <> '0'

-- expect: V026
-- server: plan
SELECT 1 FROM users ORDER BY xmin::text

-- expect: V026
-- server: plan
SELECT count(*) FROM users GROUP BY xmin

-- expect: V026
-- server: plan
SELECT count(*) FROM users GROUP BY ROLLUP (xmin)

-- expect: V026
-- server: plan
SELECT DISTINCT ON (xmin) id FROM users

-- expect: V026
-- server: plan
SELECT sum(id) OVER (ORDER BY xmin::text) FROM users

-- expect: V026
-- server: plan
SELECT sum(id) OVER w FROM users WINDOW w AS (PARTITION BY tableoid)

-- expect: V026
-- server: plan
SELECT sum(id) OVER (PARTITION BY xmin::text ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM users

-- expect: V026
-- server: plan
SELECT id FROM users GROUP BY id HAVING max(xmin::text) > ''

-- expect: V026
-- server: plan
WITH c AS (SELECT xmin AS x FROM users) SELECT x FROM c

-- expect: V026
-- server: plan
WITH RECURSIVE r(n) AS (SELECT xmin::text::int FROM users UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r

-- expect: V026
-- server: plan
SELECT (SELECT xmin FROM orders LIMIT 1)

-- expect: V026
-- server: plan
SELECT * FROM users WHERE EXISTS (SELECT 1 FROM orders WHERE orders.xmin::text = '1')

-- expect: V026
-- server: plan
SELECT id FROM users WHERE id IN (SELECT xmin::text::int FROM orders)

-- expect: V026
-- server: plan
-- a sublink without FROM resolves in the outer level
SELECT (SELECT xmin) FROM users

-- expect: V026
-- server: plan
SELECT x FROM users, LATERAL (SELECT xmin AS x) s

-- expect: V026
-- server: plan
SELECT x FROM users u, LATERAL (VALUES (u.xmin)) v(x)

-- expect: V026
-- server: plan
SELECT 1 FROM users JOIN orders ON orders.xmin::text = users.id::text

-- expect: V026
-- server: plan
SELECT 1 FROM users u JOIN orders o USING (id) WHERE o.cmax::text = '0'

-- expect: V026
-- server: plan
SELECT a FROM (SELECT xmin AS a FROM users) s

-- expect: V026
-- server: plan
SELECT xmin FROM users UNION SELECT '1'

-- expect: V026
-- server: plan
SELECT xmin FROM ONLY users

-- expect: V026
-- server: plan
SELECT xmin FROM users TABLESAMPLE BERNOULLI (50)

-- expect: V026
-- server: plan
-- the output alias does not hide the FROM item's system column in an expression
SELECT id AS xmin FROM users ORDER BY xmin::text

-- expect: V026
-- server: plan
SELECT json_agg(xmin) FROM users

-- expect: V026
-- server: plan
-- functional notation: xmin(u) is u.xmin
SELECT xmin(u) FROM users u

-- expect: V026
-- server: plan
SELECT "tableoid"(users) FROM users
