-- Legitimate queries: each must be accepted. "-- expect: ok" means no lint
-- finding at all; "-- expect: L00x" means accepted with that warning.

-- expect: ok
SELECT id, name FROM users ORDER BY name LIMIT 10

-- expect: ok
SELECT u.name, sum(o.amount) AS total FROM users u JOIN orders o ON o.user_id = u.id GROUP BY u.name ORDER BY total DESC LIMIT 5

-- expect: ok
WITH orders AS (SELECT 1 AS id) SELECT id FROM orders

-- expect: ok
WITH pg_authid AS (SELECT 1 AS x) SELECT x FROM pg_authid

-- expect: ok
WITH secrets AS (SELECT id FROM users) SELECT s.id FROM secrets s

-- expect: ok
WITH a AS (SELECT id FROM users), b AS (SELECT id FROM a) SELECT id FROM b

-- expect: ok
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n FROM r

-- expect: ok
WITH RECURSIVE tree AS (SELECT id, 0 AS depth FROM users WHERE id = 1 UNION ALL SELECT o.id, t.depth + 1 FROM orders o JOIN tree t ON o.user_id = t.id) SELECT id, depth FROM tree

-- expect: ok
SELECT d::date AS day FROM generate_series(current_date - interval '30 days', current_date, interval '1 day') AS g(d)

-- expect: ok
SELECT n FROM generate_series(1, 100) AS n

-- expect: ok
SELECT d FROM generate_series('2023-01-01'::date, '2023-12-31'::date, '1 month'::interval) AS d

-- expect: ok
SELECT m FROM generate_series(date_trunc('month', now()) - interval '12 months', date_trunc('month', now()), interval '1 month') AS m

-- expect: ok
SELECT gs FROM generate_series((SELECT min(created_at) FROM orders), (SELECT max(created_at) FROM orders), interval '1 week') AS gs

-- expect: ok
SELECT repeat('-', 20), lpad(name, 10, ' ') FROM users

-- expect: ok
SELECT name, rank() OVER (ORDER BY created_at) FROM users

-- expect: ok
SELECT count(*) FILTER (WHERE status = 'paid') AS paid, count(*) FROM orders

-- expect: ok
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY amount) FROM orders

-- expect: ok
SELECT u.id, x.total FROM users u, LATERAL (SELECT sum(o.amount) AS total FROM orders o WHERE o.user_id = u.id) x

-- expect: ok
SELECT v.a FROM (VALUES (1), (2)) AS v(a)

-- expect: ok
SELECT id FROM users UNION SELECT user_id FROM orders ORDER BY 1

-- expect: ok
SELECT id FROM users INTERSECT SELECT user_id FROM orders

-- expect: ok
SELECT CASE WHEN amount > 100 THEN 'big' ELSE 'small' END AS size FROM orders

-- expect: ok
SELECT extract(year FROM created_at) AS y, count(*) FROM orders GROUP BY 1

-- expect: ok
SELECT to_char(created_at, 'YYYY-MM') AS month, avg(amount)::numeric(10, 2) FROM orders GROUP BY to_char(created_at, 'YYYY-MM')

-- expect: ok
SELECT name FROM users WHERE name ILIKE '%bob%' AND email IS NOT NULL

-- expect: ok
SELECT name FROM users WHERE name ~* '^a' AND similarity(name, 'alice') > 0.3

-- expect: ok
SELECT jsonb_build_object('id', id, 'name', name) FROM users

-- expect: ok
SELECT coalesce(nullif(name, ''), 'unknown'), greatest(1, 2), least(3, 4) FROM users

-- expect: ok
SELECT date_trunc('month', created_at) AS m, count(*) FROM orders GROUP BY date_trunc('month', created_at) ORDER BY m

-- expect: ok
SELECT name FROM users WHERE EXISTS (SELECT 1 FROM orders o WHERE o.user_id = users.id)

-- expect: ok
SELECT u.name FROM users u WHERE u.id IN (SELECT user_id FROM orders WHERE amount > 10)

-- expect: ok
SELECT p.name, p.price FROM products p CROSS JOIN (SELECT avg(price) AS a FROM products) s WHERE p.price > s.a

-- expect: ok
SELECT 'pg_sleep(1)' AS just_text, 'DELETE FROM users' AS also_text

-- expect: ok
SELECT "name" FROM "users" -- a comment with pg_sleep(1); DROP TABLE users

-- expect: ok
SELECT id FROM users /* pg_authid */ WHERE id = 1

-- expect: ok
SELECT current_date, current_timestamp, now() - interval '1 day'

-- expect: ok
SELECT o.id FROM orders o JOIN users u USING (id)

-- expect: ok
SELECT id, name FROM users ORDER BY id FETCH FIRST 3 ROWS ONLY

-- expect: ok
SELECT status, count(*) FROM orders GROUP BY ROLLUP (status)

-- expect: ok
SELECT amount::float / nullif(sum(amount) OVER (), 0) AS share FROM orders

-- expect: L001
SELECT u.name, p.name FROM users u, products p

-- expect: L002
SELECT name, count(*) FROM users

-- expect: L003
SELECT name FROM users u JOIN products p ON p.id = u.id

-- expect: L006
SELECT name FROM users LIMIT 5

-- expect: L007
SELECT name FROM users WHERE name LIKE 'bob'

-- expect: L008
SELECT count(*) FROM orders HAVING count(*) > 1

-- expect: L009
SELECT nmae FROM users

-- expect: ok
SELECT count(*) FROM users a JOIN orders b ON b.user_id = a.id JOIN products c ON c.id = b.id JOIN orders d ON d.user_id = a.id JOIN users e ON e.id = d.user_id

-- expect: ok
WITH p AS (SELECT u.id FROM users u JOIN orders o ON o.user_id = u.id) SELECT count(*) FROM p JOIN p AS q ON q.id = p.id
