-- expect: V007
SELECT * FROM users FOR UPDATE

-- expect: V007
SELECT * FROM users FOR SHARE

-- expect: V007
SELECT * FROM users FOR NO KEY UPDATE

-- expect: V007
SELECT * FROM users FOR KEY SHARE

-- expect: V007
SELECT * FROM users FOR UPDATE NOWAIT

-- expect: V007
SELECT * FROM users FOR UPDATE SKIP LOCKED

-- expect: V007
SELECT * FROM users u JOIN orders o ON o.user_id = u.id FOR UPDATE OF u

-- expect: V007
SELECT * FROM (SELECT * FROM users FOR UPDATE) s

-- expect: V007
WITH l AS (SELECT * FROM orders FOR SHARE) SELECT count(*) FROM l

-- expect: V007
SELECT * FROM users WHERE id IN (SELECT user_id FROM orders FOR UPDATE)

-- expect: V007
select * from users limit 1 for update
