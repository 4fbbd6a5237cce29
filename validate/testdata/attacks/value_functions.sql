-- SQL value functions that reveal the database and the executing role
-- (issue 12): CURRENT_CATALOG, SESSION_USER, CURRENT_USER, CURRENT_ROLE,
-- USER, CURRENT_SCHEMA, and the plain functions behind them
-- (current_database(), current_schema(), "current_user"(), getpgusername(),
-- current_schemas(bool)), which an allow-list extension must not re-enable
-- either. All V010.

-- expect: V010
-- server: plan
SELECT current_catalog

-- expect: V010
-- server: plan
SELECT session_user

-- expect: V010
-- server: plan
SELECT current_user

-- expect: V010
-- server: plan
SELECT current_role

-- expect: V010
-- server: plan
SELECT user

-- expect: V010
-- server: plan
SELECT current_schema

-- expect: V010
-- server: plan
SELECT CURRENT_USER, SESSION_USER

-- expect: V010
-- server: plan
SELECT name FROM users WHERE name = current_user

-- expect: V010
-- server: plan
WITH c AS (SELECT session_user AS s) SELECT s FROM c

-- expect: V010
-- server: plan
VALUES (current_role)

-- expect: V010
-- server: plan
SELECT json_build_object('u', user, 'db', current_catalog)

-- expect: V010
-- server: plan
SELECT id FROM users ORDER BY current_catalog

-- expect: V010
-- server: plan
SELECT CASE WHEN current_user = 'postgres' THEN 1 ELSE 0 END

-- expect: V010
-- server: plan
SELECT 1 UNION SELECT length(session_user)

-- expect: V010
-- server: plan
SELECT current_user::text || '@' || current_catalog

-- expect: V010
-- server: plan
SELECT id FROM users LIMIT length(current_user)

-- expect: V010
-- server: plan
SELECT count(*) FILTER (WHERE session_user IS NOT NULL) FROM users

-- expect: V010
-- server: plan
SELECT array_agg(id) OVER (PARTITION BY current_schema) FROM users

-- expect: V010
-- server: plan
SELECT (SELECT current_user)

-- expect: V010
-- server: plan
SELECT id FROM users WHERE EXISTS (SELECT 1 WHERE current_role = 'postgres')

-- expect: V010
-- server: plan
SELECT * FROM users u JOIN LATERAL (SELECT user AS who) w ON true

-- expect: V010
-- server: plan
SELECT id FROM users GROUP BY id HAVING max(name) <> session_user

-- expect: V010
-- server: plan
SELECT (ARRAY[current_user, session_user])[1]

-- expect: V010
-- server: plan 16
SELECT JSON_OBJECT('db': current_catalog)

-- expect: V010
-- server: plan
SELECT current_schema()

-- expect: V010
-- server: plan
SELECT pg_catalog.current_schema()

-- expect: V010
-- server: plan
SELECT current_database()

-- expect: V010
-- server: plan
SELECT pg_catalog.current_database()

-- expect: V010
-- server: plan
-- the function behind CURRENT_USER, called by its quoted name
SELECT "current_user"()

-- expect: V010
-- server: plan
SELECT pg_catalog."session_user"()

-- expect: V010
-- server: plan
SELECT pg_catalog.current_user()

-- expect: V010
-- server: plan
SELECT getpgusername()

-- expect: V010
-- server: plan
SELECT current_schemas(true)

-- expect: V010
-- server: plan
-- functional notation: current_schemas(true)
SELECT (true).current_schemas

-- expect: V010
-- server: plan 16
-- the authenticated identity (auth method:identity); system_user is on the allow-list today
SELECT system_user
