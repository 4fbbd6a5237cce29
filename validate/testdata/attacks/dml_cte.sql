-- expect: V005
WITH x AS (DELETE FROM users RETURNING *) SELECT * FROM x

-- expect: V005
WITH x AS (UPDATE users SET name = 'pwned' RETURNING id) SELECT count(*) FROM x

-- expect: V005
WITH x AS (INSERT INTO users (name) VALUES ('a') RETURNING id) SELECT 1

-- expect: V005
WITH a AS (SELECT 1), b AS (DELETE FROM orders RETURNING id) SELECT * FROM a

-- expect: V005
WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3), d AS (DELETE FROM users RETURNING id) SELECT * FROM r

-- expect: V005
SELECT * FROM (WITH d AS (DELETE FROM users RETURNING id) SELECT id FROM d) s

-- expect: V005
SELECT * FROM users WHERE id IN (WITH d AS (DELETE FROM orders RETURNING user_id) SELECT user_id FROM d)

-- expect: V005
SELECT EXISTS (WITH u AS (UPDATE products SET price = 0 RETURNING 1) SELECT 1 FROM u)

-- expect: V005
WITH x AS (MERGE INTO users u USING orders o ON u.id = o.user_id WHEN MATCHED THEN DELETE RETURNING u.id) SELECT 1

-- expect: V005
WITH "select" AS (delete from users returning *) SELECT * FROM "select"

-- expect: V005
with x as materialized (delete from users returning id) select * from x

-- expect: V005
WITH a AS (WITH b AS (INSERT INTO orders (user_id) VALUES (1) RETURNING id) SELECT * FROM b) SELECT * FROM a

-- expect: V005
SELECT (WITH d AS (DELETE FROM users RETURNING 1) SELECT 1 FROM d LIMIT 1)

-- expect: V005
SELECT 1 UNION ALL (WITH d AS (DELETE FROM users RETURNING 1) SELECT 1 FROM d)

-- expect: V005
SELECT * FROM users u, LATERAL (WITH d AS (DELETE FROM orders o RETURNING o.id) SELECT * FROM d) l

-- expect: V005
WITH x AS (UPDATE users SET name = 'x' WHERE false RETURNING *) SELECT * FROM users
