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

-- Name resolution (issue 12): every qualified reference below is a real
-- column, so none may be taken for functional notation.

-- expect: ok
WITH t AS (SELECT id AS uid, name FROM users) SELECT t.uid, t.name FROM t ORDER BY t.uid

-- expect: ok
WITH t (a, b) AS (SELECT id, name FROM users) SELECT t.a, t.b FROM t ORDER BY t.a

-- expect: ok
SELECT s.n, s.total FROM (SELECT user_id AS n, sum(amount) AS total FROM orders GROUP BY user_id) s ORDER BY s.total DESC

-- expect: ok
SELECT s.x, s.y FROM (SELECT id, name FROM users) AS s (x, y) ORDER BY s.x

-- expect: ok
SELECT v.column1, v.column2 FROM (VALUES (1, 'a'), (2, 'b')) v ORDER BY v.column1

-- expect: ok
SELECT v.k, v.label FROM (VALUES (1, 'a')) AS v (k, label) ORDER BY v.k

-- expect: ok
SELECT g.g FROM generate_series(1, 10) AS g ORDER BY g.g

-- expect: ok
SELECT g.n, g.ordinality FROM generate_series(1, 3) WITH ORDINALITY AS g (n) ORDER BY g.n

-- expect: ok
SELECT generate_series.generate_series FROM generate_series(1, 3) ORDER BY 1

-- expect: ok
SELECT e.key, e.value FROM json_each('{"a": 1}') e ORDER BY e.key

-- expect: ok
SELECT x.value FROM jsonb_array_elements('[1, 2]') x ORDER BY 1

-- expect: ok
SELECT r.a, r.b FROM json_to_record('{"a": 1, "b": "x"}') AS r (a int, b text)

-- expect: ok
SELECT u.name, t.tag FROM users u, unnest(ARRAY['x', u.name]) AS t (tag) ORDER BY u.name

-- expect: ok
SELECT r.r FROM ROWS FROM (unnest(ARRAY[1, 2])) r ORDER BY 1

-- expect: ok
SELECT j.id, j.name, j.amount FROM (users u JOIN orders o ON o.user_id = u.id) AS j (id, name) ORDER BY j.id

-- expect: ok
SELECT o.id, x.user_id FROM orders o JOIN users u ON u.id = o.user_id JOIN orders p USING (user_id) AS x ORDER BY o.id

-- expect: ok
SELECT public.users.name FROM users ORDER BY 1

-- expect: ok
SELECT users.name FROM public.users ORDER BY 1

-- expect: ok
SELECT (u).name, (u.*).email FROM users u ORDER BY 1

-- expect: ok
SELECT u.name FROM users u WHERE EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.id AND o.amount > 10)

-- expect: ok
SELECT u.name, (SELECT max(o.amount) FROM orders o WHERE o.user_id = u.id) AS top FROM users u ORDER BY top DESC

-- expect: ok
SELECT u.name, l.total FROM users u CROSS JOIN LATERAL (SELECT sum(o.amount) AS total FROM orders o WHERE o.user_id = u.id) l ORDER BY l.total DESC

-- expect: ok
SELECT (json_each('{"a": 1}')).key

-- expect: ok
SELECT (ROW(1, 'x')).f2

-- expect: ok
SELECT (NULL::users).name

-- expect: ok
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT t.n + 1 FROM t WHERE t.n < 10) SELECT t.n FROM t

-- expect: ok
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5) SEARCH DEPTH FIRST BY n SET ord SELECT t.n, t.ord FROM t ORDER BY t.ord

-- expect: ok
WITH RECURSIVE chain AS (SELECT id, user_id FROM orders WHERE id = 1 UNION SELECT o.id, o.user_id FROM orders o JOIN chain c ON o.user_id = c.id) SELECT chain.id FROM chain ORDER BY 1

-- expect: ok
SELECT jt.a FROM JSON_TABLE('[{"a": 1}]'::jsonb, '$[*]' COLUMNS (a int PATH '$.a')) AS jt ORDER BY 1

-- expect: ok
SELECT u.name, o.amount FROM users u JOIN orders o ON o.created_at BETWEEN u.created_at AND u.created_at + interval '30 days' ORDER BY 1

-- expect: ok
SELECT lpad(p.name, 20, '.'), repeat('*', 50), format('%-10s|%5s', p.name, p.price) FROM products p ORDER BY 1

-- expect: ok
SELECT string_agg(lpad(u.name, 12), ', ' ORDER BY u.name) FROM users u

-- expect: ok
SELECT to_tsvector('english', u.name) @@ plainto_tsquery('english', 'bob') FROM users u ORDER BY 1

-- expect: ok
SELECT 'open'::text, 1::int, 2.5::numeric(10, 2), '2024-01-01'::date, interval '1 day', '{1,2}'::int[], now()::timestamptz, 'x'::varchar(3), '{}'::jsonb

-- expect: ok
WITH RECURSIVE chain AS (SELECT * FROM orders WHERE id = 7 UNION ALL SELECT o.* FROM orders o JOIN chain c ON o.user_id = c.id) SELECT chain.id FROM chain ORDER BY 1

-- expect: ok
WITH RECURSIVE days(d) AS (SELECT DATE '2024-01-01' UNION ALL SELECT d + 1 FROM days WHERE d < DATE '2024-12-31') SELECT days.d FROM days ORDER BY 1

-- expect: ok
SELECT u.name, string_agg(o.status, ', ' ORDER BY o.id) AS statuses, array_agg(o.id ORDER BY o.id) AS ids FROM users u JOIN orders o ON o.user_id = u.id GROUP BY u.name ORDER BY 1
